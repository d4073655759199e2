// A hostile or broken target (hangs, garbage, huge bodies, 5xx) makes checks fail, never the tool:
// the run ends with exit 1, a report and a summary, within bounded time.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.js';

type Behaviour = (res: import('node:http').ServerResponse) => void;

const BEHAVIOURS: Record<string, Behaviour> = {
  hangs: () => {
    /* accepts the connection, never answers */
  },
  garbage: (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>not an API \u0000\u001b[31m</body></html>');
  },
  huge: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = `"${'x'.repeat(1 << 20)}",`;
    res.write('[');
    for (let i = 0; i < 12; i++) res.write(chunk);
    res.end('"end"]');
  },
  'server-error': (res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('Internal Server Error\n   at Object.<anonymous> (/srv/app.js:1:1)');
  },
  'resets-connections': (res) => {
    res.socket?.destroy();
  },
};

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

function start(behaviour: Behaviour, options: { authenticate?: boolean } = {}): Promise<string> {
  server = createServer((req, res) => {
    // POST /authenticate answers a token so that every operation is reached.
    if (req.url === '/authenticate' && options.authenticate !== false) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('"hostile-token"');
      return;
    }
    // The preflight's one read answers as the API would, so that the run reaches the checks (a target
    // that answers a web page there is not the API: exit 2, tests/cli/setup-errors.test.ts).
    if (req.url === '/resources?_limit=1') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
      return;
    }
    behaviour(res);
  });
  server.keepAliveTimeout = 1000;
  return new Promise((done) =>
    server?.listen(0, '127.0.0.1', () => {
      const address = server?.address();
      done(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
}

describe('a hostile target fails checks, not the tool', () => {
  test.each(Object.keys(BEHAVIOURS))('%s', async (name) => {
    const url = await start(BEHAVIOURS[name] as Behaviour);
    const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
    const junit = join(dir, 'junit.xml');
    const env = { LPC_API_KEY: 'key-hostile-7f3a', LPC_USERNAME: 'user-hostile', LPC_PASSWORD: 'pass-hostile-91c2', LPC_PRIVATE_KEY: 'priv-hostile-55d0' };
    const r = await runCli(
      [
        'run',
        '--target',
        url,
        '--only',
        // Each kind of check (lists, gets, bounds, authentication, auth probes, invariants): the
        // huge answer is 12 MiB per request, so a wider selection costs CPU and proves nothing more.
        'intapi.v2.templates.*,intapi.v2.submissions.create.title.*,intapi.v2.submissions.get.*,intapi.auth.authenticate-*,intapi.auth.missing-token-401.*,intapi.invariant.*',
        '--runs',
        '3',
        '--timeout',
        '300',
        '--junit',
        junit,
        '--json',
        join(dir, 'run.json'),
      ],
      {
        env,
      },
    );
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stdout).toMatch(/lp-conformance: \d+ checks/);
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { checks: { id: string; status: string }[] };
    expect(run.checks.filter((c) => c.status === 'failed').length).toBeGreaterThan(10);
    expect(readFileSync(junit, 'utf8')).toMatch(/<failure/);
    // Even when the exchange itself failed, the failure says how to reproduce it.
    expect(r.stdout).toMatch(/Reproduce: +LPC_TOKEN=|Reproduce: +curl /);
    writeFileSync(join(dir, 'done'), '');
  });
});

/** 200 and its headers at once, then a chunked body of a few bytes every 500 ms, forever: each
 * chunk comes well within undici's body timeout, so only a deadline for the whole answer ends it. */
const trickles: Behaviour = (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const timer = setInterval(() => res.write('"x",'), 500);
  res.on('close', () => clearInterval(timer));
};

describe('a body trickled forever fails within the deadline of the whole answer', () => {
  const TRICKLE_CHECKS = 'intapi.v2.resources.list.envelope.total-items,intapi.v2.templates.list';
  test.each([
    ['every operation but POST /authenticate trickles', true],
    ['POST /authenticate trickles too', false],
  ])('%s', async (_name, authenticate) => {
    const url = await start(trickles, { authenticate });
    const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
    const junit = join(dir, 'junit.xml');
    const env = { LPC_API_KEY: 'key-trickle-7f3a', LPC_USERNAME: 'user-trickle', LPC_PASSWORD: 'pass-trickle-91c2', LPC_PRIVATE_KEY: 'priv-trickle-55d0' };
    const args = ['run', '--target', url, '--runs', '3', '--timeout', '2000', '--only', TRICKLE_CHECKS, '--junit', junit, '--json', join(dir, 'run.json')];
    const r = await runCli(args, { env });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stdout).toMatch(/lp-conformance: \d+ checks/);
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { checks: { id: string; status: string; failure?: { received: string } }[] };
    const failed = run.checks.filter((c) => c.status === 'failed');
    expect(failed.length).toBeGreaterThan(5);
    // The first exchanges to fail say why; later ones may say the target stopped answering.
    expect(failed.some((c) => c.failure?.received.includes('no complete answer within 2000 ms'))).toBe(true);
    expect(r.stdout).toContain('no complete answer within 2000 ms');
    // A full report: one testcase per check of the run, the failures in it.
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)?.length).toBe(run.checks.length);
    expect(xml.match(/<failure/g)?.length).toBe(failed.length);
    expect(xml).toContain('no complete answer within 2000 ms');
  });
});
