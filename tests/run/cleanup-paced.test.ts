// A run's cleanup against a rate-limited target: the DELETEs of the records the run created keep the
// run's --max-rps, and a 429 (Retry-After) is waited out and the DELETE sent again, so that the
// target's limit leaves no record behind. The target is the reference server behind a proxy
// (tests/support/proxy.ts) that answers 429 to the first arrival of each cleanup DELETE.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResult } from '../../src/runner/base/model.js';
import { runCli, type CliResult } from '../support/cli.js';
import { busiestWindow, PROXY_ENV, startProxied, type Proxied } from '../support/proxy.js';

const SCIM_TOKEN = 'scim-token-paced-7c2d';
const MAX_RPS = 20;

let proxied: Proxied;
let cli: CliResult;
let run: RunResult;
/** Each cleanup DELETE's path, as often as it arrived; the arrival times of all of them. */
const deletes = new Map<string, number>();
const arrivals: number[] = [];

beforeAll(async () => {
  proxied = await startProxied({
    scimToken: SCIM_TOKEN,
    intercept: (req, res) => {
      if (req.method !== 'DELETE' || req.headers['x-lpc-check'] !== 'lpc.cleanup') return false;
      arrivals.push(performance.now());
      const path = req.url ?? '';
      const seen = deletes.get(path) ?? 0;
      deletes.set(path, seen + 1);
      if (seen > 0) return false;
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/scim+json' });
      res.end(JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '429', detail: 'slow down' }));
      return true;
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'lpc-cleanup-paced-'));
  const only = ['--only', 'scim.users.create-201,scim.groups.*'];
  cli = await runCli(['run', '--target', proxied.url, '--seed', '3', '--no-progress', '--max-rps', String(MAX_RPS), '--json', join(dir, 'run.json'), ...only], {
    env: { ...PROXY_ENV, LPC_SCIM_TOKEN: SCIM_TOKEN },
  });
  run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunResult;
});

afterAll(async () => {
  await proxied.close();
});

describe('a target that answers 429 to the first of each cleanup DELETE, under --max-rps', () => {
  test('every DELETE is sent again after its 429: twice in all, and the run deletes every record', () => {
    expect(cli.code, `${cli.stdout}\n${cli.stderr}`).toBe(0);
    expect(deletes.size).toBeGreaterThan(MAX_RPS);
    expect([...deletes.values()].every((n) => n === 2)).toBe(true);
    const scim = run.cleanup?.families.scim;
    expect(run.cleanup?.failed).toEqual([]);
    expect({ deleted: scim?.deleted, left: scim?.left }).toEqual({ deleted: deletes.size, left: 0 });
  });

  test('the DELETEs, the ones sent again among them, keep to --max-rps in any second', () => {
    // As in rate-limits.test.ts: a stamp can be up to the proxy's loop delay late, and a tenth more
    // for the client's own delays between a release and the write.
    expect(arrivals.length).toBeGreaterThan(2 * MAX_RPS);
    expect(busiestWindow(arrivals, 1000)).toBeLessThanOrEqual(MAX_RPS + 2 + Math.ceil(proxied.stats.loopDelayMs() / (1000 / MAX_RPS)));
  });
});
