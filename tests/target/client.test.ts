// The tool's own client (src/target/client.ts: what `init` and `run --check-profile` read) sends a
// GET that got no answer once more: a connection closed without one, or an answer past the deadline
// (a large target's first sort builds an index that answers the next at once). Against a loopback
// server that misbehaves on purpose.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadProfile } from '../../src/profile/index.js';
import { toolClient } from '../../src/target/client.js';
import { createSecrets } from '../../src/target/secrets.js';

const TIMEOUT_MS = 1000;
let server: Server;
let base: string;
/** Requests per path, as they arrived. */
const arrived = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    const n = (arrived.get(path) ?? 0) + 1;
    arrived.set(path, n);
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (path === '/slow-first' && n === 1) setTimeout(answer, TIMEOUT_MS * 3);
    else if (path === '/closed-first' && n === 1) req.socket.destroy();
    else if (path === '/silent') return;
    else answer();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

function client() {
  const profile = loadProfile();
  return toolClient(profile, createSecrets(profile, TIMEOUT_MS, {}), { timeoutMs: TIMEOUT_MS, purpose: 'lpc.test' });
}

describe('a GET that got no answer is sent once more', () => {
  test('past its deadline the first time: the second answer is the answer', async () => {
    const c = client();
    const answer = await c.get(`${base}/slow-first`);
    expect(answer.status).toBe(200);
    expect(c.sent).toBe(2);
  });

  test('its connection closed without an answer the first time: the second answer is the answer', async () => {
    const c = client();
    const answer = await c.get(`${base}/closed-first`);
    expect(answer.status).toBe(200);
    expect(c.sent).toBe(2);
  });

  test('no answer twice: no answer, said, after two requests and no more', async () => {
    const c = client();
    const answer = await c.get(`${base}/silent`);
    expect(answer).toMatchObject({ status: 0, error: 'LPC_DEADLINE', request: 'GET /silent' });
    expect(c.sent).toBe(2);
    expect(arrived.get('/silent')).toBe(2);
  });

  test('an answer, whatever its status, is not sent again', async () => {
    const c = client();
    expect((await c.get(`${base}/answered`)).status).toBe(200);
    expect(c.sent).toBe(1);
  });
});
