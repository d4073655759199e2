// What a CI gate needs from the command line: a known-failure baseline, an explicit --fail-on, and
// --read-only runs that send no write (proved by a counting proxy in front of the reference server).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../support/cli.js';
import { expectValidReport } from '../support/run-schema.js';
import { PROXY_ENV, startProxied, type Proxied } from '../support/proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'lpc-gate-'));
const QUICK = ['--seed', '1', '--runs', '5', '--no-progress', '--junit', join(dir, 'junit.xml')];
const SORTS = ['--only', 'intapi.v2.templates.list'];

describe('known-failure baseline', () => {
  const file = join(dir, 'baseline.yml');

  test('baseline --out writes the failing checks with their levels and a reason to fill in, and exits 0', async () => {
    const r = await runCli(['baseline', '--out', file, '--faults', 'intapi.sort-ignored', ...SORTS, ...QUICK]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Baseline: 3 failing checks written to /);
    const doc = parse(readFileSync(file, 'utf8')) as { failures: { id: string; level: string; reason: string }[] };
    expect(doc.failures.map((f) => f.id).sort()).toEqual([
      'intapi.v2.templates.list.sort.ascending',
      'intapi.v2.templates.list.sort.descending',
      'intapi.v2.templates.list.sort.multi-key',
    ]);
    expect(doc.failures.every((f) => f.level === 'MUST' && f.reason === '')).toBe(true);
  });

  test('run --baseline: the known failures do not fail the run, and are reported as known', async () => {
    const r = await runCli(['run', '--baseline', file, '--faults', 'intapi.sort-ignored', ...SORTS, ...QUICK]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/, 0 failed, 0 advisory, 3 known, /);
    expect(r.stdout).toContain('\nPASSED: no new failure of a MUST or PROFILE check; 3 known from the baseline\n');
    expect(r.stdout).toMatch(/^KNOWN {2}\[intapi\.v2\.templates\.list\.sort\.ascending\]/m);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/known failure \(baseline /);
  });

  test('a failure the baseline does not list fails the run; entries that pass again are named for removal', async () => {
    const r = await runCli(['run', '--baseline', file, '--faults', 'intapi.filter-not-ignored', ...SORTS, ...QUICK]);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}\[intapi\.v2\.templates\.list\.filter\.matches-model\]/m);
    expect(r.stdout).toMatch(/PASSING AGAIN {2}remove from the baseline .*baseline\.yml:\n {2}- intapi\.v2\.templates\.list\.sort\.ascending/);
  });

  test('a baseline naming an unknown check, or not a baseline at all, is exit 2 with one line', async () => {
    const unknown = join(dir, 'unknown.yml');
    writeFileSync(unknown, 'failures:\n  - id: intapi.v2.no-such-check\n    reason: gone\n');
    const r = await runCli(['run', '--baseline', unknown, ...SORTS, ...QUICK]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/intapi\.v2\.no-such-check is not a check of this suite/);
    const broken = join(dir, 'broken.yml');
    writeFileSync(broken, 'just: text\n');
    expect((await runCli(['run', '--baseline', broken, ...SORTS, ...QUICK])).stderr).toMatch(/a list under 'failures' is required/);
    expect((await runCli(['baseline', ...SORTS, ...QUICK])).stderr).toMatch(/baseline needs --out FILE/);
  });
});

describe('--fail-on', () => {
  test.each([
    [['--fail-on', 'may'], /--fail-on must be must or should, not 'may'/],
    [['--fail-on', 'must', '--strict'], /--fail-on must contradicts --strict/],
  ])('%j is exit 2 with one line', async (args, message) => {
    const r = await runCli(['run', ...args, ...SORTS, ...QUICK]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('--read-only', () => {
  let proxied: Proxied;
  beforeAll(async () => {
    proxied = await startProxied();
  });
  afterAll(() => proxied.close());

  test('sends no write but POST /authenticate; checks that must write are skipped with the reason; the others pass', async () => {
    const json = join(dir, 'read-only.json');
    // Every check (the whole run): two runs per property are enough to see whether one writes.
    const r = await runCli(['run', '--target', proxied.url, '--read-only', '--json', json, ...QUICK, '--runs', '2'], { env: PROXY_ENV });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const seen = proxied.stats.requests;
    const writes = seen.filter((s) => !s.startsWith('GET ') && s !== 'POST /authenticate');
    expect(seen.length).toBeGreaterThan(100);
    expect(writes).toEqual([]);
    const run = JSON.parse(readFileSync(json, 'utf8')) as { checks: { id: string; status: string; skipReason?: string }[] };
    expectValidReport(run, 'a --read-only run');
    const bounds = run.checks.find((c) => c.id === 'intapi.v2.submissions.create.title.above-max');
    expect(bounds?.status).toBe('skipped');
    expect(bounds?.skipReason).toBe('not run: it writes (POST /submissions), and the run is --read-only');
    expect(run.checks.find((c) => c.id === 'intapi.v2.templates.list.filter.matches-model')?.status).toBe('passed');
    expect(run.checks.filter((c) => c.status === 'passed').length).toBeGreaterThan(100);
  });
});
