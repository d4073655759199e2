// Cleanup: what a run creates where the API can delete it (SCIM users and groups) is
// deleted when the run ends, also when it is interrupted; `lp-conformance cleanup` removes what
// earlier runs left behind (names starting with a run marker), and nothing else.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../reference-impl/index.js';
import { cleanUp, readJournal } from '../../src/runner/cleanup.js';
import { loadProfile } from '../../src/profile/index.js';
import type { RunResult } from '../../src/runner/base/model.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { BIN, ROOT, runCli, serveCli } from '../support/cli.js';

const CREDENTIALS = { apiKey: 'key-cleanup-71f0', username: 'user-cleanup', password: 'pass-cleanup-2b9e', privateKey: 'priv-cleanup-c3d1' };
const SCIM_TOKEN = 'scim-token-cleanup-9a4f';
const ENV = {
  LPC_API_KEY: CREDENTIALS.apiKey,
  LPC_USERNAME: CREDENTIALS.username,
  LPC_PASSWORD: CREDENTIALS.password,
  LPC_PRIVATE_KEY: CREDENTIALS.privateKey,
  LPC_SCIM_TOKEN: SCIM_TOKEN,
};
const dir = mkdtempSync(join(tmpdir(), 'lpc-cleanup-'));

let server: ReferenceServer;
let url = '';

async function scim(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await request(`${url}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${SCIM_TOKEN}`, 'content-type': 'application/scim+json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** How many users (and groups, given a prefix) of the SCIM server at `base` carry a name starting with `prefix`. */
async function countOf(base: string, token: string, prefix: string): Promise<number> {
  const total = async (path: string) => {
    const res = await request(`${base}/scim/v2${path}`, { headers: { authorization: `Bearer ${token}` } });
    return Number(((await res.body.json()) as { totalResults?: unknown }).totalResults);
  };
  if (prefix === '') return total('/Users?count=0');
  const users = await total(`/Users?filter=${encodeURIComponent(`userName sw "${prefix}"`)}&count=0`);
  return users + (await total(`/Groups?filter=${encodeURIComponent(`displayName sw "${prefix}"`)}&count=0`));
}

const countWithPrefix = (prefix = 'lpc-') => countOf(url, SCIM_TOKEN, prefix);

/** The sandbox credentials `lp-conformance serve` takes (docs/sandbox.md "The reference server as a sandbox"). */
const SANDBOX_ENV = {
  LPC_API_KEY: 'lpc-sandbox-key',
  LPC_USERNAME: 'lpc.admin',
  LPC_PASSWORD: 'lpc-sandbox-password',
  LPC_PRIVATE_KEY: 'lpc-sandbox-private-key',
};

/** A SCIM token from the sandbox's token exchange (POST /scim/v2/token with its username and password). */
async function scimTokenOf(base: string): Promise<string> {
  const res = await request(`${base}/scim/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: SANDBOX_ENV.LPC_USERNAME, password: SANDBOX_ENV.LPC_PASSWORD }),
  });
  return ((await res.body.json()) as { token: string }).token;
}

const schema = JSON.parse(readFileSync(join(ROOT, 'reports/run.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
ajvFormats.default(ajv);
const validateRun = ajv.compile(schema);

beforeAll(async () => {
  server = createReferenceServer({ families: { intapi: { credentials: CREDENTIALS }, scim: { token: SCIM_TOKEN } } });
  url = await server.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

describe('lp-conformance cleanup', () => {
  test('deletes the users and groups of earlier runs, and nothing else', async () => {
    const user = (userName: string) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, name: { givenName: 'A', familyName: 'B' } });
    for (const name of ['lpc-0a1b2c-left-1', 'lpc-0a1b2c-left-2', 'keep.me@example.com', 'lpc-not-a-run-marker']) {
      expect((await scim('POST', '/Users', user(name))).status).toBe(201);
    }
    expect((await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'lpc-0a1b2c-group' })).status).toBe(201);
    expect(await countWithPrefix('lpc-0a1b2c-')).toBe(3);

    const r = await runCli(['cleanup', '--target', url], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/3 records of earlier runs found, 3 deleted/);
    expect(await countWithPrefix('lpc-0a1b2c-')).toBe(0);
    expect(await countWithPrefix('keep.me@')).toBe(1);
    expect(await countWithPrefix('lpc-not-a-run-marker')).toBe(1);
  });

  test('without the SCIM credentials, or without a target, it is exit 2 with one line', async () => {
    const noToken = await runCli(['cleanup', '--target', url], { env: { ...ENV, LPC_SCIM_TOKEN: '' } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr.trim()).toBe('lp-conformance: cleanup: the SCIM credentials are missing (LPC_SCIM_TOKEN not set)');
    const noTarget = await runCli(['cleanup'], { env: ENV });
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('a run deletes what it created', () => {
  test('when it ends: none of its records is left, and the report says how many it deleted', async () => {
    const json = join(dir, 'run.json');
    const r = await runCli(
      ['run', '--target', url, '--only', 'scim.*', '--runs', '3', '--seed', '5', '--no-progress', '--json', json, '--junit', join(dir, 'j.xml')],
      {
        env: ENV,
      },
    );
    expect(r.code, r.stdout).toBe(0);
    const result = JSON.parse(readFileSync(json, 'utf8')) as RunResult;
    expect(result.runId).toMatch(/^[0-9a-f]{6}$/);
    expect(result.cleanup?.failed).toEqual([]);
    const scimRecords = result.cleanup?.families.scim;
    const made = Object.values(scimRecords?.created ?? {}).reduce((n, k) => n + k, 0);
    expect(made).toBeGreaterThan(0);
    expect({ removed: (scimRecords?.deleted ?? 0) + (scimRecords?.gone ?? 0), left: scimRecords?.left }).toEqual({ removed: made, left: 0 });
    expect(r.stdout).toMatch(new RegExp(`records the run created \\(marker lpc-${result.runId}-\\): scim ${made} \\(users \\d+[^)]*\\): ${made} deleted`));
    expect(await countWithPrefix(`lpc-${result.runId}-`)).toBe(0);
  });

  test('when interrupted (Ctrl-C): it stops, deletes what it created so far, and exits 130', async () => {
    const { code, stderr, after, before } = await interruptedRun(url, ENV, 'SIGINT', countWithPrefix, [], 'i');
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted \(SIGINT\); stopping the checks and deleting what the run created/);
    expect(stderr).toMatch(/interrupted \(SIGINT\) after \d+ of \d+ checks; the reports hold what they found; \d+ records the run created deleted, 0 left/);
    expect(after).toBe(before);
  });

  test('when CI cancels it (SIGTERM, against serve): it stops, deletes, writes every report asked for, and exits 143', async () => {
    const served = await serveCli([]);
    try {
      const env = { ...SANDBOX_ENV, LPC_SCIM_TOKEN: await scimTokenOf(served.url) };
      const scimUsers = async () => countOf(served.url, env.LPC_SCIM_TOKEN, '');
      const reports = ['--json', join(dir, 't.json'), '--markdown', join(dir, 't.md'), '--html', join(dir, 't.html')];
      const { code, stderr, before, after } = await interruptedRun(served.url, env, 'SIGTERM', scimUsers, reports, 't');
      expect(code, stderr).toBe(143);
      expect(after).toBe(before);
      const result = JSON.parse(readFileSync(join(dir, 't.json'), 'utf8')) as RunResult;
      expect(validateRun(result), JSON.stringify(validateRun.errors)).toBe(true);
      expect(result.interrupted).toEqual({ signal: 'SIGTERM' });
      const unfinished = result.checks.filter((c) => c.status === 'skipped' && /interrupted$/.test(c.skipReason ?? ''));
      expect(unfinished.length).toBeGreaterThan(0);
      expect(result.checks.length - unfinished.length).toBeGreaterThan(0);
      const junit = readFileSync(join(dir, 't.xml'), 'utf8');
      expect(junit).toMatch(/<property name="interrupted" value="SIGTERM"\/>/);
      expect(junit).toMatch(/<skipped message="[^"]*interrupted"/);
      expect(readFileSync(join(dir, 't.md'), 'utf8')).toMatch(/^## lp-conformance: .*INTERRUPTED by SIGTERM/m);
      expect(readFileSync(join(dir, 't.html'), 'utf8')).toMatch(/by SIGTERM: the checks that had not finished are skipped/);
    } finally {
      await served.stop();
    }
  });
});

/** Runs the SCIM checks one at a time and sends `signal` once the run has created a record (`count`
 * grew); the exit code, stderr, and `count` before the run and after it ended. */
async function interruptedRun(
  target: string,
  env: NodeJS.ProcessEnv,
  signal: 'SIGINT' | 'SIGTERM',
  count: () => Promise<number>,
  reports: string[],
  name: string,
): Promise<{ code: number | null; stderr: string; before: number; after: number }> {
  const before = await count();
  const args = ['run', '--target', target, '--only', 'scim.*', '--concurrency', '1', '--no-progress', '--junit', join(dir, `${name}.xml`), ...reports];
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let ended = false;
  const exited = new Promise<number | null>((done) => child.on('close', done)).finally(() => (ended = true));
  // Once the run has created something, however long its start takes on a loaded machine (a fixed
  // wait could interrupt a run that had not started yet).
  while (!ended && (await count()) === before) await new Promise((r) => setTimeout(r, 50));
  child.kill(signal);
  const code = await exited;
  return { code, stderr, before, after: await count() };
}

describe('run --keep, then cleanup --dry-run', () => {
  test("--keep deletes nothing and says so: a failure's request, sent after the run, finds its record; --dry-run lists it", async () => {
    const faulty = createReferenceServer({
      faults: ['scim.attributes-ignored'],
      families: { intapi: { credentials: CREDENTIALS }, scim: { token: SCIM_TOKEN, seed: false } },
    });
    const base = await faulty.listen({ port: 0, host: '127.0.0.1' });
    try {
      const json = join(dir, 'keep.json');
      const only = ['--only', 'scim.projection.attributes-replaces-default', '--runs', '3', '--seed', '2'];
      const r = await runCli(['run', '--target', base, ...only, '--keep', '--no-progress', '--json', json, '--junit', join(dir, 'keep.xml')], { env: ENV });
      expect(r.code, r.stdout).toBe(1);
      const result = JSON.parse(readFileSync(json, 'utf8')) as RunResult;
      expect(result.cleanup?.kept).toBe(true);
      expect(result.cleanup?.families.scim).toMatchObject({ created: { users: 1 }, deleted: 0, left: 1 });
      expect(r.stdout).toMatch(/scim 1 \(users 1\): 1 left \(kept by --keep; lp-conformance cleanup deletes them\)/);
      // The failure's exchange, sent again: the record it names is still there, and the failure repeats.
      const [method, path] = (result.checks[0]?.failure?.operation ?? '').split(' ');
      expect(method).toBe('GET');
      const again = await request(`${base}/scim/v2${path}`, { headers: { authorization: `Bearer ${SCIM_TOKEN}` } });
      expect(again.statusCode).toBe(200);
      expect(await again.body.text()).toMatch(new RegExp(`lpc-${result.runId}-`));
      const counted = () => countOf(base, SCIM_TOKEN, `lpc-${result.runId}-`);
      expect(await counted()).toBe(1);

      const dry = await runCli(['cleanup', '--target', base, '--dry-run'], { env: ENV });
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(
        new RegExp(`^lp-conformance cleanup --dry-run: 1 record of earlier runs would be deleted:\\n  SCIM user lpc-${result.runId}-\\S+ \\(id \\S+\\)\\n$`),
      );
      expect(await counted()).toBe(1);
      // Paced as a run is (cleanup-paced.test.ts measures the pace); a pace below 1 is refused.
      expect((await runCli(['cleanup', '--target', base, '--max-rps', '0'], { env: ENV })).code).toBe(2);
      expect((await runCli(['cleanup', '--target', base, '--max-rps', '50'], { env: ENV })).stdout).toMatch(/1 record of earlier runs found, 1 deleted/);
      expect(await counted()).toBe(0);
    } finally {
      await faulty.close();
    }
  });
});

describe('the journal', () => {
  test('names each record once, and a line cut by an interruption is ignored', () => {
    const file = join(dir, 'journal.jsonl');
    const entry = { deleteOp: 'scim.users.delete', id: 'u1', label: 'SCIM user lpc-000000-a' };
    writeFileSync(file, `${JSON.stringify(entry)}\n${JSON.stringify(entry)}\n${JSON.stringify({ ...entry, id: 'u2' })}\n{"deleteOp":"scim.us`);
    expect(readJournal(file).map((e) => e.id)).toEqual(['u1', 'u2']);
    expect(readJournal(join(dir, 'none.jsonl'))).toEqual([]);
  });

  test('a record a check deleted itself is marked deleted; records without a delete operation are counted as left', async () => {
    const file = join(dir, 'journal-kinds.jsonl');
    const user = { deleteOp: 'scim.users.delete', id: 'u1', label: 'SCIM user lpc-000000-a', family: 'scim', collection: 'users' };
    const submission = { id: 's1', label: 'submissions s1', family: 'intapi', collection: 'submissions' };
    const lines = [
      user,
      { ...user, id: 'u2' },
      submission,
      { deleteOp: 'scim.users.delete', id: 'u1', label: 'u1', deleted: true },
      { ...submission, id: 's2' },
    ];
    writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const entries = readJournal(file);
    expect(entries.map((e) => [e.id, e.deleted ?? false])).toEqual([
      ['u1', true],
      ['u2', false],
      ['s1', false],
      ['s2', false],
    ]);
    // Kept: nothing is sent, so no server is needed.
    const report = await cleanUp(loadProfile(), entries, 1000, true);
    expect(report.families).toEqual({
      scim: { created: { users: 2 }, deleted: 0, gone: 1, left: 1, leftBecause: 'kept by --keep; lp-conformance cleanup deletes them' },
      intapi: { created: { submissions: 2 }, deleted: 0, gone: 0, left: 2, leftBecause: 'no delete operation' },
    });
  });
});
