// Sweeps in one run (tests/support/controls-run.mjs groupSweeps): traced sweeps whose trace keeps
// their whole selection share one run of a server with all their faults on. Each member's result
// then holds the checks the others allow as run again under its own fault alone; a check that fails
// there although no member allows it, or a member whose own checks did not fail in the shared run,
// sends the members to sweep alone. Each rule of that is shown here, on the authenticate checks, by
// allowances that are wrong on purpose; and a detection is not taken from a shared run.
import { describe, expect, test } from 'vitest';
import { runControls, type Found } from '../support/controls.js';

const ONLY = ['intapi.auth.authenticate-', 'intapi.auth.raw-token-accepted', 'intapi.auth.reissue-revokes-previous'];
const WRONG_PASSWORD = 'intapi.auth.authenticate-wrong-credentials-401';
const TOKEN = 'intapi.auth.authenticate-token';
const MISSING_FIELD = 'intapi.auth.authenticate-missing-field-400';
const RAW_TOKEN = 'intapi.auth.raw-token-accepted';
const TEMPLATES = ['intapi.v2.templates.list.', 'intapi.v2.templates.get.'];
const RETURNED = 'intapi.v2.templates.list.envelope.returned-items';
const OFFSET = 'intapi.v2.templates.list.envelope.offset-echo';

/** A traced sweep of `fault` under `seed` that may share its run, allowing `allowed` and requiring `mustFail`. */
const sweep = (fault: string, seed: number, allowed: string[], mustFail: string[] = allowed, only = ONLY) => ({
  key: `${fault}@${seed}`,
  fault,
  seed,
  runs: 2,
  only,
  traced: true,
  shares: { allowed, mustFail },
});

const failed = (found: Found | undefined): string[] => (found?.failed ?? []).map((f) => f.id).sort();

describe('sweeps that share a run', () => {
  test('a check another member allows is judged under each fault alone; a surprise or a fault that did not show sends members alone', async () => {
    const result = await runControls({
      concurrency: 8,
      targets: [
        // Seed 11: intapi.authenticate-201 claims the wrong-password check too, so the shared run cannot say
        // whose failure it is; the cross-check under intapi.accept-wrong-password alone shows it.
        sweep('intapi.accept-wrong-password', 11, []),
        sweep('intapi.authenticate-201', 11, [TOKEN, WRONG_PASSWORD], [TOKEN]),
        // Its mustFail names a check its fault does not break: it did not fail in the shared run.
        sweep('intapi.authenticate-missing-field-401', 11, [MISSING_FIELD, RAW_TOKEN], [RAW_TOKEN]),
        // A detection that its sweep's result would stand for, were that result not a shared run's.
        {
          key: 'intapi.authenticate-201 detection',
          fault: 'intapi.authenticate-201',
          seed: 11,
          runs: 2,
          only: [TOKEN],
          unlessFailedIn: { key: 'intapi.authenticate-201@11', ids: [TOKEN] },
        },
        // Seed 13: two faults of the templates list, whose trace narrows their sweep to the same checks.
        sweep('intapi.envelope-returned-items-off', 13, [RETURNED], [RETURNED], TEMPLATES),
        sweep('intapi.envelope-offset-echo-zero', 13, [OFFSET], [OFFSET], TEMPLATES),
        // Seed 12: nobody allows the wrong-password check, which fails in the shared run.
        sweep('intapi.accept-wrong-password', 12, []),
        sweep('intapi.authenticate-201', 12, [TOKEN]),
      ],
    });
    const at = (key: string) => result.targets[key];
    const reason = (key: string) => at(key)?.shared ?? '';

    // Seed 11: one run for the first two; intapi.accept-wrong-password's result shows its failure, found by
    // the cross-check (it allowed nothing), with what the check expected and received.
    expect(reason('intapi.accept-wrong-password@11')).toContain('swept in one run with intapi.authenticate-201');
    expect(reason('intapi.authenticate-201@11')).toContain('swept in one run with intapi.accept-wrong-password');
    expect(failed(at('intapi.accept-wrong-password@11'))).toEqual([WRONG_PASSWORD]);
    const cross = at('intapi.accept-wrong-password@11')?.failed[0];
    expect(cross?.cause).toBeUndefined();
    expect(cross?.expected).toMatch(/401/);
    expect(failed(at('intapi.authenticate-201@11'))).toContain(TOKEN);
    expect(at('intapi.accept-wrong-password@11')?.requests).toBe(0);
    // The shared run had the other faults on: the detection runs under its own fault.
    expect(at('intapi.authenticate-201 detection')?.from).toBeUndefined();
    expect(at('intapi.authenticate-201 detection')?.requests).toBeGreaterThan(0);
    expect(failed(at('intapi.authenticate-201 detection'))).toEqual([TOKEN]);
    expect(reason('intapi.authenticate-missing-field-401@11')).toContain(`${RAW_TOKEN} did not fail, so swept alone`);
    expect(at('intapi.authenticate-missing-field-401@11')?.requests).toBeGreaterThan(0);
    expect(failed(at('intapi.authenticate-missing-field-401@11'))).toEqual([MISSING_FIELD]);

    // Seed 13: narrowed sweeps of the same checks share a run too, each with its own failure.
    for (const [fault, own, other] of [
      ['intapi.envelope-returned-items-off', RETURNED, 'intapi.envelope-offset-echo-zero'],
      ['intapi.envelope-offset-echo-zero', OFFSET, 'intapi.envelope-returned-items-off'],
    ] as const) {
      const found = at(`${fault}@13`);
      expect(found?.shared).toContain(`swept in one run with ${other}`);
      expect(found?.traced?.checks).toContain(RETURNED);
      expect(found?.traced?.checks.some((id) => id.startsWith('intapi.v2.templates.get.'))).toBe(false);
      expect(failed(found)).toEqual([own]);
    }

    // Seed 12: the unallowed failure sends both to their own sweep, which finds it under its fault.
    expect(reason('intapi.accept-wrong-password@12')).toContain(`${WRONG_PASSWORD} failed, so swept alone`);
    expect(reason('intapi.authenticate-201@12')).toContain('so swept alone');
    expect(failed(at('intapi.accept-wrong-password@12'))).toEqual([WRONG_PASSWORD]);
    expect(failed(at('intapi.authenticate-201@12'))).toEqual([TOKEN]);
    expect(at('intapi.accept-wrong-password@12')?.requests).toBeGreaterThan(0);
  });
});
