// Positive controls: the negative controls prove that each check can fail; these prove the
// other half, that each check passes on every server the RFC allows. The reference server's SCIM
// variants (reference-impl/scim/variants.ts) are legitimate configurations of the kinds of real
// servers the suite is used on (one built for identity providers, a full-featured one); each is run
// with the profile that declares it (fixtures/profiles/scim-<variant>.yaml), and the reference with
// its own, over every SCIM check: no check may fail, and none may end "not set up" or "blocked by"
// (a fixture such a server refuses, or a rule it does not break, is the suite's error).
//
// One conformance run, as the negative controls' (tests/support/controls-run.mjs): a server per
// variant in one process, each a target of the runner's matrix, at two runs per property.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { SCIM_VARIANTS } from '../../reference-impl/index.js';
import { ROOT } from '../support/cli.js';
import { runControls, type Found } from '../support/controls.js';

const VARIANTS = Object.keys(SCIM_VARIANTS);
const RUNS = 2;
const SEED = 11;

let found: Record<string, Found> = {};

/** The expectations of the documented example profile of a server meant for Entra ID (the block of
 * docs/scim.md that names it), as a profile file; its addresses and token variable are the example's,
 * not the bundled server's. */
function readmeEntraProfile(): string {
  const page = readFileSync(join(ROOT, 'docs/scim.md'), 'utf8');
  const block = /```yaml\nname: my-app-for-entra\n[\s\S]*?\n(expectations:\n[\s\S]*?)```/.exec(page)?.[1];
  if (block === undefined) throw new Error('docs/scim.md has no example profile named my-app-for-entra with expectations');
  const file = join(mkdtempSync(join(tmpdir(), 'lpc-readme-')), 'entra.yaml');
  writeFileSync(file, `name: readme-entra\n${block}`);
  return file;
}

beforeAll(async () => {
  const targets = [
    { key: 'reference', seed: SEED, runs: RUNS, only: ['scim.*'], scimSeed: true },
    ...VARIANTS.map((variant) => ({
      key: variant,
      variant,
      // The server holds 2,500 users of other clients: nothing may depend on a fresh target.
      scimSeed: true,
      profile: join(ROOT, 'fixtures', 'profiles', `scim-${variant}.yaml`),
      seed: SEED,
      runs: RUNS,
      only: ['scim.*'],
    })),
    // A server that requires an e-mail when userName is not one, with a profile that does not say so:
    // the fixtures learn it from the first refusal, and only the minimal user's check fails.
    {
      key: 'email-accounts-undeclared',
      variant: 'email-accounts',
      scimSeed: true,
      seed: SEED,
      runs: RUNS,
      only: ['scim.*'],
    },
    // The documented profile (docs/scim.md) for a server meant for Entra ID, against the variant that is one: its
    // groups and identity-provider checks pass (the other areas are the variant's own profile's).
    {
      key: 'readme-entra',
      variant: 'idp-minimal',
      scimSeed: true,
      profile: readmeEntraProfile(),
      seed: SEED,
      runs: RUNS,
      only: ['scim.groups.*', 'scim.client.*'],
    },
  ];
  const result = await runControls({ concurrency: 8, targets });
  process.stdout.write(`positive controls: ${targets.length} targets, ${result.requests} requests in ${(result.durationMs / 1000).toFixed(1)} s\n`);
  found = result.targets;
});

describe('every SCIM check passes on every kind of server the RFC allows, with the profile that declares it', () => {
  test.each(['reference', ...VARIANTS])('%s', (key) => {
    const r = found[key];
    if (!r) throw new Error(`no result for ${key}`);
    expect(r.checks, `${key}: the SCIM checks ran`).toBeGreaterThan(100);
    expect(r.failed, `${key}: failed checks`).toEqual([]);
    expect(
      r.skipped.filter((s) => s.notSetUp || s.blockedBy).map((s) => `${s.id}: ${s.reason ?? ''}`),
      `${key}: checks not set up or blocked`,
    ).toEqual([]);
  });

  test('the variants are told apart: each skips what its server does not do, and only that', () => {
    const skipped = (key: string) => new Set((found[key]?.skipped ?? []).map((s) => s.id));
    // A server that does not sort: the sort checks are skipped, saying so; the others run.
    expect([...skipped('idp-minimal')].filter((id) => id.startsWith('scim.sort.')).length).toBe(8);
    expect(skipped('idp-minimal').has('scim.pagination.walk-exactly-once')).toBe(false);
    expect(skipped('idp-minimal').has('scim.pagination.default-page')).toBe(false);
    // A server that serves discovery and /Me: their unsupported-endpoint checks are skipped.
    expect(skipped('full-featured').has('scim.unsupported.service-provider-config.get')).toBe(true);
    expect(skipped('full-featured').has('scim.sort.username-ascending')).toBe(false);
    // Discovery, versions, Bulk and /Me: judged where declared (full-featured), skipped where
    // not (the reference and idp-minimal serve none of them; /Schemas is served by all).
    const declared = (id: string): boolean =>
      /^scim\.(discovery|etag|bulk|me)\./.test(id) && id !== 'scim.discovery.schemas-core' && id !== 'scim.discovery.schema-unknown-404';
    expect([...skipped('full-featured')].filter(declared)).toEqual([]);
    for (const key of ['reference', 'idp-minimal']) expect([...skipped(key)].filter(declared).length).toBe(20);
    // The identity-provider checks run where the profile names the identity providers (the reference
    // profile names both), and only there.
    for (const key of ['reference', 'idp-minimal']) expect([...skipped(key)].filter((id) => id.startsWith('scim.client.'))).toEqual([]);
    expect([...skipped('full-featured')].filter((id) => id.startsWith('scim.client.')).length).toBe(9);
  });

  test('a server requiring an e-mail the profile does not declare fails scim.users.create-201 alone: the other fixtures learn it from the refusal', () => {
    const r = found['email-accounts-undeclared'];
    if (!r) throw new Error('no result for email-accounts-undeclared');
    expect(r.failed.map((f) => f.id)).toEqual(['scim.users.create-201']);
    expect(r.skipped.filter((s) => s.notSetUp || s.blockedBy).map((s) => `${s.id}: ${s.reason ?? ''}`)).toEqual([]);
  });

  test("the documented profile for a server meant for Entra ID passes on a server built for it: Entra's checks run, Okta's are skipped", () => {
    const r = found['readme-entra'];
    if (!r) throw new Error('no result for readme-entra');
    expect(r.failed).toEqual([]);
    expect(r.skipped.filter((s) => s.notSetUp || s.blockedBy).map((s) => s.id)).toEqual([]);
    const skipped = r.skipped.map((s) => s.id).filter((id) => id.startsWith('scim.client.'));
    expect(skipped.sort()).toEqual(['scim.client.deactivated-user-readable', 'scim.client.group-rename-with-id', 'scim.client.put-group-members']);
  });
});
