// A server may close an idle keep-alive connection just as the client sends on it (RFC 9112 §9.3.1),
// and undici does not send again. Here the target (the reference server behind a proxy) closes, now
// and then, a reused connection as a request arrives on it, without an answer: a safe request (GET,
// HEAD, OPTIONS) is sent again once on another connection and its check judges the answer; any other
// request is not (a PUT or DELETE may have been processed), and its check fails on the transport,
// naming the closed connection. The run counts what it sent again.
import { mkdtempSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { PROXY_ENV, startProxied, type Proxied } from '../support/proxy.js';

/** Of the safe requests that arrive on a reused connection, and of the others, every this many has it
 * closed instead of an answer. */
const EVERY = 10;
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

interface RunJson {
  checks: { id: string; status: string; failure?: { cause?: string; received: string } }[];
  waited: { resent?: number };
  requests: number;
}

let proxied: Proxied;
let cli: CliResult;
let run: RunJson;
/** The requests whose connection was closed: method and check (`x-lpc-check`). */
const closed: { method: string; check: string }[] = [];

beforeAll(async () => {
  const served = new WeakMap<Socket, number>();
  const reused = { safe: 0, other: 0 };
  proxied = await startProxied({
    intercept: (req) => {
      const socket = req.socket;
      const before = served.get(socket) ?? 0;
      served.set(socket, before + 1);
      if (before === 0 || ++reused[SAFE.has(req.method ?? '') ? 'safe' : 'other'] % EVERY !== 0) return false;
      closed.push({ method: req.method ?? '', check: String(req.headers['x-lpc-check']) });
      socket.destroy();
      return true;
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'lpc-resend-'));
  const only = ['intapi.v2.question-banks.*', 'intapi.v2.templates.list.*'].flatMap((p) => ['--only', p]);
  cli = await runCli(['run', '--target', proxied.url, '--seed', '4', '--runs', '3', '--no-progress', '--json', join(dir, 'run.json'), ...only], {
    env: PROXY_ENV,
  });
  run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunJson;
});

afterAll(async () => {
  await proxied.close();
});

describe('a target that closes a reused connection as a request arrives', () => {
  test('closed both safe requests and others (the test exercises both)', () => {
    expect(closed.filter((c) => SAFE.has(c.method)).length).toBeGreaterThan(0);
    expect(closed.filter((c) => !SAFE.has(c.method)).length).toBeGreaterThan(0);
  });

  // Every safe request closed, and no other: a closed POST, PUT or DELETE sent again would count too.
  test('a safe request is sent again once, and counted; no other is', () => {
    expect(run.waited.resent).toBe(closed.filter((c) => SAFE.has(c.method)).length);
    expect(cli.stdout).toContain(`; ${run.waited.resent} requests sent again after the target closed their connection without an answer`);
  });

  // A check may pass a closed request that was not its rule's (a best-effort clean-up, say).
  test('only checks that had another request closed fail, each on the closed connection', () => {
    const unsafe = new Set(closed.filter((c) => !SAFE.has(c.method)).map((c) => c.check));
    const failed = run.checks.filter((c) => c.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.map((c) => c.id).filter((id) => !unsafe.has(id))).toEqual([]);
    for (const c of failed) {
      expect(c.failure?.cause, c.id).toBe('transport');
      expect(c.failure?.received, c.id).toMatch(/the connection was closed mid-exchange/);
    }
    expect(cli.code).toBe(1);
  });
});
