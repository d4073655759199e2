// A hostile or broken target (hangs, garbage, huge bodies, 5xx) makes checks fail, never the tool:
// the run ends with exit 1, a report and a summary, within bounded time.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runCli } from './support/cli.js';

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

function start(behaviour: Behaviour): Promise<string> {
  server = createServer((req, res) => {
    // POST /authenticate answers a token so that every operation is reached.
    if (req.url === '/authenticate') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('"hostile-token"');
      return;
    }
    behaviour(res);
  });
  server.keepAliveTimeout = 1000;
  return new Promise((done) => server?.listen(0, '127.0.0.1', () => {
    const address = server?.address();
    done(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  }));
}

describe('a hostile target fails checks, not the tool', () => {
  test.each(Object.keys(BEHAVIOURS))('%s', async (name) => {
    const url = await start(BEHAVIOURS[name] as Behaviour);
    const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
    const junit = join(dir, 'junit.xml');
    const env = { LPC_API_KEY: 'key-hostile-7f3a', LPC_USERNAME: 'user-hostile', LPC_PASSWORD: 'pass-hostile-91c2', LPC_PRIVATE_KEY: 'priv-hostile-55d0' };
    const r = await runCli(['run', '--target', url, '--runs', '3', '--timeout', '300', '--junit', junit, '--json', join(dir, 'run.json')], { env, timeoutMs: 180_000 });
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
