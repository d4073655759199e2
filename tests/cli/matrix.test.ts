// A matrix run (runMatrix: several targets, one vitest run, one scheduler) keeps each target's
// results its own: a fault of one server fails checks of that target only. And a target that another's
// result may stand for (`unlessFailedIn`, the negative controls' detections under their sweep's seed)
// runs only when that result lacks one of its checks' own failures.
import { describe, expect, test } from 'vitest';
import { runControls } from '../support/controls.js';

const MISSING = 'intapi.auth.missing-key-401.resources-v1';
const WRONG = 'intapi.auth.wrong-key-401.resources-v1';

describe('runMatrix', () => {
  test("each target's failures are its own", async () => {
    const only = ['intapi.auth', 'intapi.v2.templates'];
    const result = await runControls({
      concurrency: 8,
      targets: [
        { key: 'missing-key', fault: 'intapi.accept-missing-api-key', seed: 3, runs: 3, only },
        { key: 'clean', seed: 3, runs: 3, only },
        { key: 'wrong-key', fault: 'intapi.accept-wrong-api-key', seed: 3, runs: 3, only },
        // Shown by missing-key's run, which failed it with its own verdict: not run.
        {
          key: 'missing-key, shown',
          fault: 'intapi.accept-missing-api-key',
          seed: 3,
          runs: 3,
          only: [MISSING],
          unlessFailedIn: { key: 'missing-key', ids: [MISSING] },
        },
        // Not failed by clean's run: run after the others.
        { key: 'wrong-key, not shown', fault: 'intapi.accept-wrong-api-key', seed: 3, runs: 3, only: [WRONG], unlessFailedIn: { key: 'clean', ids: [WRONG] } },
      ],
    });
    const failed = (key: string) => (result.targets[key]?.failed ?? []).map((f) => f.id).sort();
    const missingKey = failed('missing-key');
    const wrongKey = failed('wrong-key');
    // Every target ran the whole selection.
    const checks = result.targets.clean?.checks ?? 0;
    expect(checks).toBeGreaterThan(20);
    expect(result.targets['missing-key']?.checks).toBe(checks);
    expect(result.targets['wrong-key']?.checks).toBe(checks);
    expect(failed('clean')).toEqual([]);
    expect(missingKey.length).toBeGreaterThan(0);
    expect(missingKey.every((id) => id.startsWith('intapi.auth.missing-key-401.'))).toBe(true);
    expect(wrongKey.length).toBeGreaterThan(0);
    expect(wrongKey.every((id) => id.startsWith('intapi.auth.wrong-key-401.'))).toBe(true);
    // One verdict per probe (resources v1 and v2, submissions, templates, question banks) on each.
    expect(missingKey.length).toBeGreaterThanOrEqual(5);
    expect(wrongKey.map((id) => id.replace('wrong-key', 'missing-key'))).toEqual(missingKey);
    // Every failure carries what the check expected and received (the controls' messages show them).
    for (const f of [...(result.targets['missing-key']?.failed ?? []), ...(result.targets['wrong-key']?.failed ?? [])]) {
      expect(f.expected, f.id).toMatch(/\S/);
      expect(f.received, f.id).toMatch(/\S/);
    }
    expect(missingKey).toContain(MISSING);
    expect(result.targets['missing-key, shown']).toEqual({ ...result.targets['missing-key'], requests: 0, from: 'missing-key' });
    const notShown = result.targets['wrong-key, not shown'];
    expect(notShown?.from).toBeUndefined();
    expect(notShown?.requests).toBeGreaterThan(0);
    expect(notShown?.failed.map((f) => f.id)).toEqual([WRONG]);
  });
});
