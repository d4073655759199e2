// Cleanup (issue 9): what a run creates where the API can delete it (SCIM users and groups) is
// deleted when the run ends, also when it is interrupted; `lp-conformance cleanup` removes what
// earlier runs left behind (names starting with a run marker), and nothing else.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../reference-impl/index.js';
import { readJournal } from '../src/runner/cleanup.js';
import { BIN, ROOT, runCli } from './support/cli.js';

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

/** How many users and groups carry a name starting with `prefix`. */
async function countWithPrefix(prefix: string): Promise<number> {
  const users = await scim('GET', `/Users?filter=${encodeURIComponent(`userName sw "${prefix}"`)}&count=0`);
  const groups = await scim('GET', `/Groups?filter=${encodeURIComponent(`displayName sw "${prefix}"`)}&count=0`);
  return Number(users.json.totalResults) + Number(groups.json.totalResults);
}

beforeAll(async () => {
  server = createReferenceServer({ credentials: CREDENTIALS, scimToken: SCIM_TOKEN });
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
    const result = JSON.parse(readFileSync(json, 'utf8')) as { runId: string; cleanup?: { deleted: number; gone: number; failed: string[] } };
    expect(result.runId).toMatch(/^[0-9a-f]{6}$/);
    expect(result.cleanup?.failed).toEqual([]);
    expect((result.cleanup?.deleted ?? 0) + (result.cleanup?.gone ?? 0)).toBeGreaterThan(0);
    expect(r.stdout).toMatch(new RegExp(`cleaned up (\\d+) of the \\1 records the run created \\(marker lpc-${result.runId}-\\)`));
    expect(await countWithPrefix(`lpc-${result.runId}-`)).toBe(0);
  });

  test('when interrupted (Ctrl-C): it stops, deletes what it created so far, and exits 130', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'run', '--target', url, '--only', 'scim.*', '--concurrency', '1', '--no-progress', '--junit', join(dir, 'i.xml')],
      {
        cwd: ROOT,
        env: { ...process.env, ...ENV, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let ended = false;
    const exited = new Promise<number | null>((done) => child.on('close', done)).finally(() => (ended = true));
    // Interrupt once the run has created something, however long its start takes on a loaded
    // machine (a fixed 30 s could interrupt a run that had not started yet).
    const before = await countWithPrefix('lpc-');
    while (!ended && (await countWithPrefix('lpc-')) === before) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted; stopping the checks/);
    expect(stderr).toMatch(/interrupted; deleted \d+ of the records the run created/);
    expect(await countWithPrefix('lpc-')).toBe(before);
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
});
