// The JSON report's published schema (reports/run.schema.json) is the contract: it changes only
// deliberately (a change bumps schemaVersion, and its digest is recorded here), it covers every field
// of the run model (a report with every field filled in validates, and the model's type makes that
// report name every field), and an interrupted run's report validates and says so in every report.
// The other modes' reports are validated where they are made: tests/cli/reports.test.ts (default, failing,
// baseline, SHOULD-only, --strict, compare), tests/cli/gate.test.ts (read-only), tests/run/budget.test.ts (sampled).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { jsonReport, SCHEMA_VERSION, type JsonReport } from '../../reporters/json.js';
import { writeReports } from '../../reporters/write.js';
import type { RunResult } from '../../src/runner/base/model.js';
import { ROOT } from '../support/cli.js';
import { expectValidReport, RUN_SCHEMA_FILE, runSchema, validateReport } from '../support/run-schema.js';

/** The digest of each released schema version (of its JSON, whatever its formatting). */
const SCHEMA_DIGESTS: Record<number, string> = {
  // Version 1 took the per-family cleanup report and the not-set-up outcomes before any release.
  1: 'fa4da29d438c34750931ef7e9121eb8c3e84c23e61d7abfc0ff0dc20fde3009e',
  // Version 2: `tls` (--ca, --insecure) and the verdict's
  // `caveats`, which every report says; a shard's record (`shard`), a merged run's shards (`shards`),
  // an invariant's `violations`.
  2: 'e4ca2d98ac5057b03d2673a92b5c426e7006f07021028a3a3bfb30ed046cef7a',
  // Version 3: `waited.resent`, the safe requests sent again on a new connection after the target closed theirs.
  3: 'eea91f8504798ba5859377bfcb2519a2e559b9d420df8c4748c308165b1a69d4',
  // Version 4: a check's `source`, the line of the package's sources that defines it.
  4: 'be36006fc7da29cc4e6410becf7665f2d45869e47ab8a6f6d0fbef461cf63bb9',
};

describe('the schema changes only deliberately', () => {
  test('its version is the reports', () => {
    expect(runSchema.properties.schemaVersion.const).toBe(SCHEMA_VERSION);
  });

  test('its content is the one recorded for its version', () => {
    const digest = createHash('sha256')
      .update(JSON.stringify(JSON.parse(readFileSync(RUN_SCHEMA_FILE, 'utf8'))))
      .digest('hex');
    expect(
      digest,
      `reports/run.schema.json changed: a deliberate change bumps schemaVersion (in the schema and reporters/json.ts) and records its digest in SCHEMA_DIGESTS`,
    ).toBe(SCHEMA_DIGESTS[SCHEMA_VERSION]);
  });
});

/** Every optional field made required, all the way down: a report of this type names every field. */
type Complete<T> = T extends readonly (infer U)[] ? Complete<U>[] : T extends object ? { [K in keyof T]-?: Complete<T[K]> } : T;

/** Every field the model has, filled in (the type fails to compile when the model gains a field). */
const EVERY_FIELD: Complete<JsonReport> = {
  schemaVersion: SCHEMA_VERSION,
  verdict: {
    outcome: 'interrupted',
    failOn: 'should',
    exitCode: 143,
    headline: 'INTERRUPTED by SIGTERM: 1 of 1 check did not finish',
    tally: '1 check, 0 passed, 1 failed, 0 advisory, 0 known, 0 skipped, 0 interrupted',
    caveats: ['TLS certificates were not verified (--insecure): an answer may not have come from the target'],
    counts: { checks: 1, passed: 0, failed: 1, advisory: 0, known: 0, skipped: 0, interrupted: 0 },
  },
  targets: { intapi: 'http://127.0.0.1:8080' },
  profileName: 'reference',
  seed: 1,
  runs: 5,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 12.5,
  requests: 9,
  concurrency: 8,
  waited: { retryAfterMs: 0, maxRpsMs: 0, retries: 0, resent: 0 },
  baseline: { file: 'b.yml', known: 0, nowPassing: ['intapi.v2.x.y'] },
  runId: '0a1b2c',
  cleanup: {
    deleted: 1,
    gone: 0,
    failed: ['SCIM user lpc-0a1b2c-x: 500'],
    kept: true,
    families: { scim: { created: { users: 2 }, deleted: 1, gone: 0, left: 1, leftBecause: 'kept by --keep' } },
  },
  interrupted: { signal: 'SIGTERM' },
  tls: { ca: '/etc/ssl/company-ca.pem', insecure: true },
  shard: { index: 1, count: 2, plan: 'a'.repeat(64), sharedServer: true, checks: 2, positions: [1] },
  shards: [{ index: 1, runId: '0a1b2c', seed: 1, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 10, requests: 9, checks: 1 }],
  checks: [
    {
      id: 'intapi.v2.templates.list.sort.ascending',
      level: 'MUST',
      spec: 'spec#x',
      title: 'A title',
      area: 'intapi.v2.templates',
      slow: true,
      source: 'suites/intapi/templates.check.ts:12',
      status: 'failed',
      durationMs: 3,
      requests: 4,
      failure: {
        expected: 'e',
        received: 'r',
        counterexample: '{}',
        curl: 'curl',
        replay: 'lp-conformance run',
        operation: 'GET /templates',
        cause: 'transport',
        attachments: ['reports/failures/intapi.v2.templates.list.sort.ascending.1.png'],
      },
      known: { baseline: 'b.yml', reason: 'known' },
      skipReason: 'reason',
      notSetUp: { request: 'POST /Users', answer: '409', what: 'a user to work on', key: 'POST /Users 409 uniqueness' },
      blockedBy: 'scim.users.create-201',
      coverage: { runs: 5, degenerate: 1, outcomes: ['o'], degenerateReasons: { 'an empty page': 1 } },
      sampled: { collection: 20_000, read: 7_000 },
      violations: { count: 3, check: 'intapi.v2.templates.list.sort.descending' },
    },
  ],
};

describe('the schema covers the run model', () => {
  test('a report with every field of the model validates', () => {
    expectValidReport(EVERY_FIELD, 'every field');
  });

  test('and it rejects what the model forbids: a failed check without its failure, a field it does not know', () => {
    const [check] = EVERY_FIELD.checks;
    const { failure: _failure, ...withoutFailure } = check!;
    expect(validateReport({ ...EVERY_FIELD, checks: [withoutFailure] })).toBe(false);
    expect(validateReport({ ...EVERY_FIELD, checks: [{ ...check, status: 'passed' }] })).toBe(false);
    expect(validateReport({ ...EVERY_FIELD, extra: 1 })).toBe(false);
    expect(validateReport({ ...EVERY_FIELD, schemaVersion: SCHEMA_VERSION + 1 })).toBe(false);
  });
});

describe('an interrupted run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-interrupted-'));
  let model: RunResult;
  beforeAll(async () => {
    const out = join(dir, 'model.json');
    await new Promise<void>((done, failed) =>
      execFile(process.execPath, [join(ROOT, 'tests/support/interrupted-run.mjs'), out, 'SIGTERM'], { cwd: ROOT, timeout: 120_000 }, (error, _o, stderr) =>
        error ? failed(new Error(`${error.message}\n${stderr}`)) : done(),
      ),
    );
    model = JSON.parse(readFileSync(out, 'utf8')) as RunResult;
  });

  test('its JSON report validates and says INTERRUPTED, the checks it did not finish marked as such', () => {
    const report = jsonReport(model);
    expectValidReport(report, 'an interrupted run');
    expect(report.interrupted).toEqual({ signal: 'SIGTERM' });
    expect(report.verdict).toMatchObject({ outcome: 'interrupted', exitCode: 143 });
    expect(report.verdict.counts.interrupted).toBeGreaterThan(0);
    expect(report.verdict.counts.interrupted).toBe(report.checks.filter((c) => /^(not run|stopped): the run was interrupted$/.test(c.skipReason ?? '')).length);
  });

  test('every report says INTERRUPTED, with the signal', () => {
    const files = { junit: join(dir, 'junit.xml'), json: join(dir, 'run.json'), markdown: join(dir, 'run.md'), html: join(dir, 'run.html') };
    const { summary, verdict } = writeReports(model, files);
    expect(verdict.headline).toMatch(/^INTERRUPTED by SIGTERM: \d+ of \d+ checks did not finish/);
    expect(summary.split('\n').at(-1)).toBe(verdict.headline);
    expect(summary).toMatch(/^INTERRUPTED {2}\d+ checks did not finish: intapi\.v2\.templates\.list\./m);
    const junit = readFileSync(files.junit, 'utf8');
    expect(junit).toContain(`<property name="verdict" value="${verdict.headline}"/>`);
    expect(junit).toMatch(/<skipped message="INTERRUPTED \(SIGTERM\): (not run|stopped): the run was interrupted"\/>/);
    expect(readFileSync(files.markdown, 'utf8')).toContain(`## lp-conformance: ⏹️ ${verdict.headline}`);
    const html = readFileSync(files.html, 'utf8');
    expect(html).toContain(`<p class="verdict interrupted" id="verdict">${verdict.headline}</p>`);
    expect(html).toContain('data-mark="INTERRUPTED"');
    expectValidReport(JSON.parse(readFileSync(files.json, 'utf8')), 'the written JSON report');
  });
});
