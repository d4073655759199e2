// A run's cleanup meets a target that closes a DELETE's connection without an answer: each DELETE
// of a record the run created is sent again once (a DELETE is idempotent, and the run owns the
// record), so that a dropped connection leaves nothing behind. The target is the reference server
// behind a proxy (tests/support/proxy.ts) that closes the first connection of each cleanup DELETE.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResult } from '../../src/runner/base/model.js';
import { runCli, type CliResult } from '../support/cli.js';
import { PROXY_ENV, startProxied, type Proxied } from '../support/proxy.js';

const SCIM_TOKEN = 'scim-token-resend-5e1a';

let proxied: Proxied;
let cli: CliResult;
let run: RunResult;
/** Each cleanup DELETE's path, as often as it arrived; and those whose connection was closed. */
const deletes = new Map<string, number>();
const closed: string[] = [];

beforeAll(async () => {
  proxied = await startProxied({
    scimToken: SCIM_TOKEN,
    intercept: (req) => {
      if (req.method !== 'DELETE' || req.headers['x-lpc-check'] !== 'lpc.cleanup') return false;
      const path = req.url ?? '';
      const seen = deletes.get(path) ?? 0;
      deletes.set(path, seen + 1);
      if (seen > 0) return false;
      closed.push(path);
      req.socket.destroy();
      return true;
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'lpc-cleanup-resend-'));
  const only = ['--only', 'scim.users.create-201,scim.groups.*'];
  cli = await runCli(['run', '--target', proxied.url, '--seed', '3', '--no-progress', '--json', join(dir, 'run.json'), ...only], {
    env: { ...PROXY_ENV, LPC_SCIM_TOKEN: SCIM_TOKEN },
  });
  run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunResult;
});

afterAll(async () => {
  await proxied.close();
});

/** How many SCIM users and groups of the target carry a name starting with `prefix`. */
async function countWithPrefix(prefix: string): Promise<number> {
  const total = async (path: string, attr: string) => {
    const query = `filter=${encodeURIComponent(`${attr} sw "${prefix}"`)}&count=0`;
    const res = await request(`${proxied.upstream}/scim/v2${path}?${query}`, { headers: { authorization: `Bearer ${SCIM_TOKEN}` } });
    return Number(((await res.body.json()) as { totalResults?: unknown }).totalResults);
  };
  return (await total('/Users', 'userName')) + (await total('/Groups', 'displayName'));
}

describe("a target that closes each cleanup DELETE's first connection without an answer", () => {
  test('every DELETE is sent again once: twice in all, no more', () => {
    expect(closed.length, cli.stdout).toBeGreaterThan(1);
    expect([...deletes.values()].every((n) => n === 2)).toBe(true);
    expect([...deletes.keys()].sort()).toEqual([...closed].sort());
  });

  test('the run deletes every record it created, and leaves none', async () => {
    expect(cli.code, `${cli.stdout}\n${cli.stderr}`).toBe(0);
    const scim = run.cleanup?.families.scim;
    const made = Object.values(scim?.created ?? {}).reduce((n, k) => n + k, 0);
    expect(run.cleanup?.failed).toEqual([]);
    expect({ deleted: scim?.deleted, left: scim?.left }).toEqual({ deleted: closed.length, left: 0 });
    expect(made).toBeGreaterThanOrEqual(closed.length);
    expect(await countWithPrefix(`lpc-${run.runId}-`)).toBe(0);
  });
});
