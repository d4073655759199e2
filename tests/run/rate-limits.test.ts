// A target's rate limits and the run's own pace: a 429 is waited out (Retry-After, in seconds or
// as an HTTP-date) and sent again; --max-rps holds the requests per second; --concurrency holds the
// requests in flight. The bundled reference server runs in this process behind a counting proxy.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from '../../src/target/base/retry.js';
import { Pacer } from '../../src/target/base/pace.js';
import { runCli } from '../support/cli.js';
import { busiestWindow, PROXY_ENV, startProxied, type Intercept, type Proxied } from '../support/proxy.js';

interface RunJson {
  checks: { id: string; status: string }[];
  requests: number;
  concurrency: number;
  waited: { retryAfterMs: number; maxRpsMs: number; retries: number };
}

let proxied: Proxied | undefined;
afterEach(async () => {
  await proxied?.close();
  proxied = undefined;
});

async function runThrough(intercept: Intercept | undefined, args: readonly string[]) {
  proxied = await startProxied(intercept ? { intercept } : {});
  const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
  const json = join(dir, 'run.json');
  const r = await runCli(['run', '--target', proxied.url, '--seed', '7', '--junit', join(dir, 'junit.xml'), '--json', json, ...args], {
    env: PROXY_ENV,
  });
  const run = r.code === 0 || r.code === 1 ? (JSON.parse(readFileSync(json, 'utf8')) as RunJson) : undefined;
  return { ...r, run, stats: proxied.stats };
}

describe('retryAfterMs', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  test('delta-seconds', () => {
    expect(retryAfterMs('1', 0, now)).toBe(1000);
    expect(retryAfterMs(' 120 ', 3, now)).toBe(120_000);
    expect(retryAfterMs('0', 0, now)).toBe(0);
  });
  test('an HTTP-date: the time until then, never negative', () => {
    expect(retryAfterMs('Sun, 01 Mar 2026 12:00:03 GMT', 0, now)).toBe(3000);
    expect(retryAfterMs('Sun, 01 Mar 2026 11:59:00 GMT', 0, now)).toBe(0);
    // The obsolete forms, which recipients must accept (RFC 9110 §5.6.7); asctime is GMT too.
    expect(retryAfterMs('Sunday, 01-Mar-26 12:00:02 GMT', 0, now)).toBe(2000);
    expect(retryAfterMs('Sun Mar  1 12:00:04 2026', 0, now)).toBe(4000);
  });
  test('absent or garbage: exponential back-off from 250 ms, capped', () => {
    expect(retryAfterMs(undefined, 0, now)).toBe(250);
    expect(retryAfterMs(undefined, 2, now)).toBe(1000);
    expect(retryAfterMs('soon', 0, now)).toBe(250);
    expect(retryAfterMs('-5', 1, now)).toBe(500);
    expect(retryAfterMs('1.5', 1, now)).toBe(500);
    expect(retryAfterMs('', 3, now)).toBe(2000);
    expect(retryAfterMs('nonsense', 30, now)).toBe(8000);
    // Text Date.parse would read as some date is still garbage, not a wait of zero.
    expect(retryAfterMs('2', 0, now)).toBe(2000);
    expect(retryAfterMs('2026-03-01', 0, now)).toBe(250);
    expect(retryAfterMs('Mar 1 2026', 1, now)).toBe(500);
  });
  test('a wait past the cap is reported as such, for the client not to wait it out', () => {
    expect(retryAfterMs(String(MAX_RETRY_AFTER_MS / 1000 + 1), 0, now)).toBeGreaterThan(MAX_RETRY_AFTER_MS);
  });
});

/** Requests the proxy answered 429 to, by what identifies a request and its repetitions. */
function requestKey(req: import('node:http').IncomingMessage): string {
  return [req.method, req.url, req.headers['x-lpc-check'], req.headers['x-lpc-case'], req.headers['content-length']].join(' ');
}

describe('the test proxy (tests/support/proxy.ts)', () => {
  // Connection and Keep-Alive are the hop's own (RFC 9110 §7.6.1): the target's keep-alive timeout
  // (fastify's 72 s) forwarded as the proxy's let the client reuse a connection the proxy had closed
  // after its own 5 s idle, and a check failed on "the connection was closed mid-exchange".
  test("answers with its own connection headers, not the target's", async () => {
    proxied = await startProxied();
    const { request } = await import('undici');
    const direct = await request(`${proxied.upstream}/countries`);
    await direct.body.text();
    expect(direct.headers['keep-alive']).toBe('timeout=72');
    const res = await request(`${proxied.url}/countries`);
    await res.body.text();
    expect(res.headers['keep-alive']).toBe('timeout=5');
  });
});

describe('429 Too Many Requests', () => {
  test('every 5th request answered 429 (once with an HTTP-date) is waited out: the run passes and says so', async () => {
    const limited = new Set<string>();
    let dated = false;
    const intercept: Intercept = (req, res, n) => {
      const key = requestKey(req);
      // A request's repetition passes, so that no request is refused MAX_ATTEMPTS_429 times.
      if (n % 5 !== 0 || limited.has(key)) {
        limited.delete(key);
        return false;
      }
      limited.add(key);
      // An HTTP-date has whole seconds: two seconds from now is at least one second away.
      const retryAfter = dated ? '1' : new Date(Date.now() + 2000).toUTCString();
      dated = true;
      res.writeHead(429, { 'retry-after': retryAfter, 'content-type': 'application/json' });
      res.end(JSON.stringify({ validations: [], code: 429, message: 'Too many requests', term: 'TooManyRequests', _meta: {} }));
      return true;
    };
    const r = await runThrough(intercept, ['--runs', '3', '--only', 'intapi.v2.templates.list,intapi.v2.submissions.create']);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stats.intercepted).toBeGreaterThan(3);
    const run = r.run as RunJson;
    expect(run.checks.every((c) => c.status !== 'failed')).toBe(true);
    expect(run.waited.retries).toBeGreaterThan(0);
    expect(run.waited.retryAfterMs).toBeGreaterThanOrEqual(1000);
    const summary = /lp-conformance: .*; checks waited ([\d.]+)s on 429 Retry-After \((\d+) retr(?:y|ies)\)/.exec(r.stdout);
    expect(summary, r.stdout).not.toBeNull();
    expect(Number(summary?.[2])).toBe(run.waited.retries);
  });
});

describe('--max-rps', () => {
  test('holds the requests to the target to N in any second, and the summary says the run paced', async () => {
    const r = await runThrough(undefined, [
      '--max-rps',
      '50',
      '--runs',
      '5',
      '--only',
      'intapi.v2.templates.list.paging,intapi.v2.templates.list.envelope,intapi.v2.templates.list.sort',
    ]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const run = r.run as RunJson;
    // Enough requests to exceed 50 in a second when unpaced.
    expect(run.requests).toBeGreaterThan(80);
    // The proxy stamps an arrival when its event loop gets to it, up to loopDelayMs late: a second
    // of stamps holds the arrivals of that second and of the loop delay before it (20 ms apart),
    // and a tenth more for the client's own delays between a release and the write.
    expect(busiestWindow(r.stats.arrivals, 1000)).toBeLessThanOrEqual(55 + Math.ceil(r.stats.loopDelayMs() / 20));
    expect(run.waited.maxRpsMs).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/checks waited [\d.]+s pacing to --max-rps/);
  });

  // A request sent again after its connection closed without an answer (resend.test.ts) is one
  // more request to the target: it waits for its slot as the first did.
  test('counts the requests sent again after a closed connection', async () => {
    const served = new WeakMap<import('node:net').Socket, number>();
    let closed = 0;
    // Every GET that arrives on a reused connection has it closed instead of an answer: it is sent
    // again on a new connection, which the next GET reuses.
    const intercept: Intercept = (req) => {
      const before = served.get(req.socket) ?? 0;
      served.set(req.socket, before + 1);
      if (req.method !== 'GET' || before === 0) return false;
      closed++;
      req.socket.destroy();
      return true;
    };
    const r = await runThrough(intercept, [
      '--max-rps',
      '20',
      '--runs',
      '5',
      '--only',
      'intapi.v2.templates.list.paging,intapi.v2.templates.list.envelope,intapi.v2.templates.list.sort',
    ]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const run = r.run as RunJson & { waited: { resent: number } };
    expect(run.waited.resent).toBe(closed);
    // Enough sent again to exceed 20 in a second if they went out unpaced, beside the paced ones.
    expect(closed).toBeGreaterThan(20);
    // Every request that reached the proxy, closed or answered (and the session's log-in).
    expect(r.stats.arrivals.length).toBeGreaterThanOrEqual(run.requests);
    expect(busiestWindow(r.stats.arrivals, 1000)).toBeLessThanOrEqual(22 + Math.ceil(r.stats.loopDelayMs() / 50));
  });

  test('without it the same run is not paced', async () => {
    const r = await runThrough(undefined, [
      '--runs',
      '5',
      '--only',
      'intapi.v2.templates.list.paging,intapi.v2.templates.list.envelope,intapi.v2.templates.list.sort',
    ]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect((r.run as RunJson).waited.maxRpsMs).toBe(0);
    expect(r.stdout).not.toMatch(/pacing/);
  });
});

describe('the pacer of --max-rps', () => {
  test('releases stay 1000/N ms apart after the process was busy: timers that fire late release no burst', async () => {
    const pacer = new Pacer(50);
    const asked = Date.now();
    const slots = Array.from({ length: 6 }, () => pacer.slot('http://target'));
    // Busy past the first five slots' times: each of their timers fires late.
    for (const until = Date.now() + 150; Date.now() < until;);
    // Each release as the pacer timed it (a slot resolves to the milliseconds it waited since it was
    // asked for, in the same synchronous loop as `asked`, so within a millisecond of it), not as this
    // test sees it afterwards: a pause of this process (a collection of its heap, other tests' work)
    // between a release and a test's own Date.now() made two releases 20 ms apart look 16 apart.
    const released = (await Promise.all(slots)).map((waited) => asked + waited);
    // 20 ms apart, in whole milliseconds, each from an ask up to a millisecond after `asked`: 19 at
    // the least. A burst is 0 or 1 apart.
    expect(
      released
        .slice(1)
        .map((t, i) => t - (released[i] as number))
        .filter((gap) => gap < 19),
    ).toEqual([]);
  });
});

describe('--concurrency', () => {
  test('N=3: at most 3 requests in flight at the target at once, and more than one at some moment', async () => {
    const r = await runThrough(undefined, ['--concurrency', '3', '--runs', '5', '--only', 'intapi.v2.templates,intapi.v2.resources.list']);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect((r.run as RunJson).concurrency).toBe(3);
    expect(r.stats.maxInFlight).toBeLessThanOrEqual(3);
    expect(r.stats.maxInFlight).toBeGreaterThan(1);
  });

  test('N=1: one request at a time', async () => {
    const r = await runThrough(undefined, ['--concurrency', '1', '--runs', '3', '--only', 'intapi.v2.templates']);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stats.maxInFlight).toBe(1);
  });
});
