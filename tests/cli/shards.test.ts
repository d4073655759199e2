// Sharded runs: three shards of one plan run at the same time against one `serve`, and
// `lp-conformance merge` of their JSON reports gives what a single run of the same checks gives: the
// same checks in the same order, the same verdicts, the same failures under the server's faults, and
// every report; a missing, doubled or foreign shard is exit 2 naming it. A bundled run split over
// processes (`--jobs`) is the same run too. Narrow on purpose (a few areas, 3 property runs): the
// areas include writers and observers of one collection (question banks and their questions), a
// family whose session comes from a token exchange (the learner API) and one with a ready token.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JsonReport } from '../../reporters/json.js';
import { MergeError, mergeShards, readShardReport } from '../../src/runner/merge.js';
import { referenceProfileWith, runCli, serveCli, type CliResult } from '../support/cli.js';
import { expectValidReport } from '../support/run-schema.js';

const ENV = {
  LPC_API_KEY: 'key-shards-5e21',
  LPC_USERNAME: 'lpc.admin',
  LPC_PASSWORD: 'pass-shards-80aa',
  LPC_PRIVATE_KEY: 'priv-shards-19c4',
  LPC_SCIM_TOKEN: 'scim-shards-7d02',
  LPC_LEARNER_USERNAME: 'learner.a@example.com',
  LPC_LEARNER_PASSWORD: 'lpc-learner-a-password',
};
/** Breaks the Integration API's list sorts and SCIM's create status: failures in more than one shard. */
const FAULTS = 'intapi.sort-ignored,scim.create-200';
const ONLY =
  'intapi.v2.question-banks.list,intapi.v2.questions.create.name,intapi.v2.templates.list,scim.groups,scim.users.create,learner.catalog,intapi.invariant,scim.invariant';
const dir = mkdtempSync(join(tmpdir(), 'lpc-shards-'));

const stops: (() => Promise<void>)[] = [];
let single: { cli: CliResult; json: JsonReport };
let shards: { cli: CliResult; json: JsonReport; file: string }[];
let merged: { cli: CliResult; json: JsonReport };
let split: { cli: CliResult; json: JsonReport };

const readJson = (file: string): JsonReport => JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
const marks = (r: JsonReport) => r.checks.map((c) => `${c.id} ${c.status}${c.known ? ' known' : ''}`);
const failed = (r: JsonReport) => r.checks.filter((c) => c.status === 'failed').map((c) => c.id);

/** The Integration API's session as a ready token that no selected check rotates: the shards share
 * it, so its checks spread over them (a token exchange per shard would revoke another's). */
async function tokenOf(url: string): Promise<string> {
  const auth = await request(`${url}/authenticate`, {
    method: 'POST',
    headers: { 'x-api-key': ENV.LPC_API_KEY, 'x-api-version': '2', 'content-type': 'application/json' },
    body: JSON.stringify({ username: ENV.LPC_USERNAME, password: ENV.LPC_PASSWORD, privateKey: ENV.LPC_PRIVATE_KEY }),
  });
  return (await auth.body.json()) as string;
}

beforeAll(async () => {
  // One server for the single run and one for the shards, alike: each run finds a server that holds
  // only what it made (the same seed twice against one server sends the same client-chosen ids).
  const [alone, shared] = await Promise.all([serveCli(['--faults', FAULTS], ENV), serveCli(['--faults', FAULTS], ENV)]);
  stops.push(alone.stop, shared.stop);
  const logIn = '  username: { env: LPC_USERNAME }\n  password: { env: LPC_PASSWORD }\n  privateKey: { env: LPC_PRIVATE_KEY }\n';
  const profile = referenceProfileWith(dir, 'shared-token.yaml', logIn, '  token: { env: LPC_TOKEN }\n');
  const args = (url: string, name: string) => [
    'run',
    '--target',
    url,
    '--profile',
    profile,
    '--only',
    ONLY,
    '--runs',
    '3',
    '--seed',
    '8',
    '--no-progress',
    '--json',
    join(dir, `${name}.json`),
    '--junit',
    join(dir, `${name}.xml`),
  ];
  // One token per server, the same for every shard.
  const env = async (url: string) => ({ env: { ...ENV, LPC_TOKEN: await tokenOf(url) }, timeoutMs: 200_000 });
  const [aloneEnv, sharedEnv] = await Promise.all([env(alone.url), env(shared.url)]);
  // And the same checks as a bundled run split over two processes, each with its own bundled server.
  const bundled = [
    'run',
    '--only',
    ONLY,
    '--faults',
    FAULTS,
    '--runs',
    '3',
    '--seed',
    '8',
    '--no-progress',
    '--jobs',
    '2',
    '--record',
    join(dir, 'split.jsonl'),
  ];
  const [one, two, ...clis] = await Promise.all([
    runCli(args(alone.url, 'single'), aloneEnv),
    runCli([...bundled, '--json', join(dir, 'split.json'), '--junit', join(dir, 'split.xml')], { timeoutMs: 200_000 }),
    ...[1, 2, 3].map((i) => runCli([...args(shared.url, `shard-${i}`), '--shard', `${i}/3`], sharedEnv)),
  ]);
  split = { cli: two as CliResult, json: readJson(join(dir, 'split.json')) };
  single = { cli: one as CliResult, json: readJson(join(dir, 'single.json')) };
  shards = clis.map((cli, i) => ({ cli, file: join(dir, `shard-${i + 1}.json`), json: readJson(join(dir, `shard-${i + 1}.json`)) }));
  const files = { json: join(dir, 'merged.json'), junit: join(dir, 'merged.xml'), markdown: join(dir, 'merged.md'), html: join(dir, 'merged.html') };
  const cli = await runCli([
    'merge',
    ...shards.map((s) => s.file),
    '--json',
    files.json,
    '--junit',
    files.junit,
    '--markdown',
    files.markdown,
    '--html',
    files.html,
  ]);
  merged = { cli, json: readJson(files.json) };
}, 300_000);
afterAll(() => Promise.all(stops.map((stop) => stop())));

describe('three shards at once against one server, merged', () => {
  test('give the verdict, the exit code and the check list of a single run', () => {
    expect(single.cli.code, single.cli.stderr).toBe(1);
    expect(merged.cli.code, merged.cli.stderr).toBe(1);
    expect(merged.json.verdict).toEqual(single.json.verdict);
    expect(marks(merged.json)).toEqual(marks(single.json));
    expect(merged.cli.stdout).toContain(single.json.verdict.headline);
  });

  test("under the server's faults, the same failures, found in more than one shard", () => {
    expect(failed(merged.json)).toEqual(failed(single.json));
    expect(failed(single.json)).toEqual(expect.arrayContaining(['scim.users.create-201', 'intapi.v2.templates.list.sort.ascending']));
    expect(shards.filter((s) => failed(s.json).length > 0).length).toBeGreaterThan(1);
    // An invariant is judged over every shard's exchanges: failed where any shard saw it broken.
    for (const inv of merged.json.checks.filter((c) => c.id.includes('.invariant.'))) {
      const inShards = shards.map((s) => s.json.checks.find((c) => c.id === inv.id)?.status);
      expect(inv.status, inv.id).toBe(inShards.includes('failed') ? 'failed' : inShards.includes('passed') ? 'passed' : 'skipped');
    }
  });

  test('each shard ran its part of one plan: every check once, writers and observers of a collection together', () => {
    for (const s of shards) expect([0, 1]).toContain(s.cli.code);
    const of = new Map(shards.flatMap((s, i) => s.json.checks.filter((c) => !c.id.includes('.invariant.')).map((c) => [c.id, i] as const)));
    expect(of.size).toBe(single.json.checks.filter((c) => !c.id.includes('.invariant.')).length);
    const shardsOf = (prefix: string) => new Set([...of].filter(([id]) => id.startsWith(prefix)).map(([, i]) => i));
    // Question checks write question banks that the question-bank list checks observe.
    expect(new Set([...shardsOf('intapi.v2.question-banks'), ...shardsOf('intapi.v2.questions')]).size).toBe(1);
    // Each shard would exchange its own learner token, revoking another's: one shard has them all.
    expect(shardsOf('learner.').size).toBe(1);
    expect(new Set(of.values()).size).toBe(3);
    const plans = new Set(shards.map((s) => s.json.shard?.plan));
    expect(plans.size).toBe(1);
    expect(shards.map((s) => s.json.shard?.index)).toEqual([1, 2, 3]);
  });

  test("each shard counts its own checks: the shards' summaries add up to the whole run", () => {
    const counted = (cli: CliResult) => Number(/lp-conformance: (\d+) checks?,/.exec(cli.stdout)?.[1]);
    // Of each invariant, one shard reports the verdict; another reports it too only when it saw it broken (for the merge).
    const brokenAgain = merged.json.checks
      .filter((c) => c.id.includes('.invariant.'))
      .reduce((n, inv) => n + Math.max(0, shards.filter((s) => s.json.checks.some((c) => c.id === inv.id)).length - 1), 0);
    for (const s of shards) expect(counted(s.cli)).toBe(s.json.checks.length);
    expect(shards.reduce((n, s) => n + counted(s.cli), 0) - brokenAgain).toBe(counted(single.cli));
    for (const inv of merged.json.checks.filter((c) => c.id.includes('.invariant.'))) {
      const reports = shards.flatMap((s) => s.json.checks.filter((c) => c.id === inv.id));
      expect(reports.filter((c) => c.status !== 'failed').length, inv.id).toBeLessThanOrEqual(1);
    }
  });

  test('every report is valid; the merged one names each shard with its run id and seed', () => {
    for (const s of [...shards.map((x) => x.json), single.json, merged.json]) expectValidReport(s);
    expect(merged.json.shard).toBeUndefined();
    expect(merged.json.shards?.map((s) => [s.index, s.runId, s.seed])).toEqual(shards.map((s) => [s.json.shard?.index, s.json.runId, 8]));
    // Each shard marks its records with a run id of its own: fixtures made once per server never collide.
    expect(new Set(shards.map((s) => s.json.runId)).size).toBe(3);
    expect(merged.json.requests).toBe(shards.reduce((n, s) => n + s.json.requests, 0));
    const junit = readFileSync(join(dir, 'merged.xml'), 'utf8');
    expect(junit).toContain(`failures="${single.json.verdict.counts.failed}"`);
    expect(readFileSync(join(dir, 'merged.html'), 'utf8')).toContain(single.json.verdict.headline);
    expect(readFileSync(join(dir, 'merged.md'), 'utf8')).toContain(single.json.verdict.headline);
  });
});

describe('a merge of shards that are not one whole plan is exit 2, naming the shard', () => {
  const refused = (...files: string[]): string => {
    try {
      mergeShards(files.map((f) => readShardReport(f)));
    } catch (error) {
      if (error instanceof MergeError) return error.message;
      throw error;
    }
    return 'merged';
  };

  test('a missing shard: exit 2, one line', async () => {
    const [a, b] = shards.map((s) => s.file) as [string, string, string];
    const missing = await runCli(['merge', a, b, '--junit', join(dir, 'refused.xml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('lp-conformance: shard 3 of 3 is missing\n');
  });

  test("a shard given twice, a shard of another plan, a whole run's report, a file that is no report", () => {
    const [a, b, c] = shards.map((s) => s.file) as [string, string, string];
    expect(refused(a, b, b, c)).toBe(`shard 2 of 3 is given 2 times: ${b} and ${b}`);
    const other = join(dir, 'other-plan.json');
    const doc = readJson(c);
    writeFileSync(other, JSON.stringify({ ...doc, shard: { ...doc.shard, plan: 'f'.repeat(64) } }));
    expect(refused(a, b, other)).toBe(`${other} is shard 3 of 3 of another plan than ${a} (shard 1 of 3)`);
    expect(refused(a, b, join(dir, 'single.json'))).toBe(
      `${join(dir, 'single.json')}: the report of a whole run, not of a shard (run --shard I/N writes a shard's)`,
    );
    const junk = join(dir, 'junk.json');
    copyFileSync(join(dir, 'merged.xml'), junk);
    expect(refused(a, b, junk)).toMatch(/junk\.json: not JSON/);
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ ...doc, schemaVersion: 1 }));
    expect(refused(a, b, old)).toMatch(/old\.json: not a JSON report this version of lp-conformance reads \(schemaVersion 1\)/);
  });
});

describe('a bundled run split over processes (--jobs)', () => {
  test('is the run of one process: the same checks, verdicts and exit code, its shards named, every request recorded', () => {
    expect(split.cli.code, split.cli.stderr).toBe(1);
    expect(split.json.verdict).toEqual(single.json.verdict);
    expect(marks(split.json)).toEqual(marks(single.json));
    expect(split.json.shards?.map((s) => s.index)).toEqual([1, 2]);
    expect(split.json.shard).toBeUndefined();
    expectValidReport(split.json);
    const recorded = new Set(
      readFileSync(join(dir, 'split.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { check: string }).check),
    );
    expect(recorded).toEqual(new Set(split.json.checks.filter((c) => (c.requests ?? 0) > 0).map((c) => c.id)));
  });

  test("says how to start each shard's server again: one serve line per port the failures' curls name", () => {
    const ports = new Set(split.json.checks.flatMap((c) => [...(c.failure?.curl ?? '').matchAll(/'http:\/\/127\.0\.0\.1:(\d+)[/'?]/g)].map((m) => m[1])));
    const lines =
      split.cli.stdout.match(/name a server that is gone; the same one: (?:npx )?lp-conformance serve --seed 8 --port (\d+) --faults [^ ]+ --env /g) ?? [];
    expect(new Set(lines.map((l) => /--port (\d+)/.exec(l)?.[1]))).toEqual(ports);
    expect(ports.size).toBeGreaterThan(0);
  });
});
