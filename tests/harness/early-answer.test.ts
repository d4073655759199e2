// A target may answer a request before it has read the body (an over-limit body: 413) and close the
// connection (RFC 9112 §9.6). The client is then still sending, its next write fails, and Node
// destroyed the socket on that failure with the answer unread: the check saw "write EPIPE" instead
// of the 413, on a machine loaded enough that the kernel had not taken the whole body at once
// (negative controls, intapi.v2.submissions.create.body-too-large). A body larger than the kernel's
// buffers makes the condition certain: the client is always still sending when the target closes.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { answerReadingConnector } from '../../suites/_harness/connection.js';
import { profiledRunArgs, referenceProfileWith, runCli } from '../support/cli.js';

/** More than the kernel takes at once on loopback (a send buffer of at most 4 MiB). */
const BODY_BYTES = 16 * 1024 * 1024;
const ERROR_BODY = JSON.stringify({ validations: [], code: 413, message: 'The request body is larger than the limit.', term: 'PayloadTooLarge', _meta: {} });

/**
 * A target, in a thread of its own (as a target is, in its own process or thread, when the
 * negative controls run): POST /authenticate answers a token; any other request answers 413 as soon
 * as the head is in, then the exchange ends as `close` says:
 * - `end-then-destroy`: the answer, the end of its side, then the socket closed with the body unread
 *   (what the reference server did: the kernel resets the connection);
 * - `reset`: the answer, then a reset;
 * - `reset-without-answer`.
 */
type Close = 'end-then-destroy' | 'reset' | 'reset-without-answer';

const TARGET = `
const { createServer } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const { close, answer } = workerData;
const server = createServer((socket) => {
  socket.on('error', () => undefined);
  let head = '';
  const onData = (chunk) => {
    head += chunk.toString('latin1');
    if (!head.includes('\\r\\n\\r\\n')) return;
    socket.off('data', onData);
    socket.pause();
    if (head.startsWith('POST /authenticate ')) {
      socket.end('HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\ncontent-length: 7\\r\\nconnection: close\\r\\n\\r\\n"token"');
    } else if (close === 'end-then-destroy') {
      socket.end(answer);
      socket.once('finish', () => socket.destroy());
    } else if (close === 'reset') {
      socket.write(answer, () => socket.resetAndDestroy());
    } else {
      socket.resetAndDestroy();
    }
  };
  socket.on('data', onData);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => process.exit(0)));
`;

const targets: Worker[] = [];
afterAll(() => Promise.all(targets.map((w) => w.terminate())));

function earlyAnswering(close: Close): Promise<string> {
  const answer = `HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: ${ERROR_BODY.length}\r\nconnection: close\r\n\r\n${ERROR_BODY}`;
  const worker = new Worker(TARGET, { eval: true, workerData: { close, answer } });
  targets.push(worker);
  return new Promise((done, failed) => {
    worker.once('message', (port: number) => done(`http://127.0.0.1:${port}`));
    worker.once('error', failed);
  });
}

async function post(url: string, agent: Agent): Promise<string> {
  try {
    const res = await request(`${url}/submissions`, { method: 'POST', dispatcher: agent, body: Buffer.alloc(BODY_BYTES, 0x20) });
    return `${res.statusCode} ${await res.body.text()}`;
  } catch (error) {
    return `error ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
}

describe("the harness's connections read an answer sent before the target closed on the body", () => {
  const agent = new Agent({ connect: answerReadingConnector({ timeout: 10_000 }) });
  afterAll(() => agent.close());

  test.each(['end-then-destroy', 'reset'] as const)('a target that answers, then closes (%s): the 413 is read, every time', async (close) => {
    const url = await earlyAnswering(close);
    for (let i = 0; i < 5; i++) expect(await post(url, agent)).toBe(`413 ${ERROR_BODY}`);
  });

  test('a target that resets without answering still fails the exchange', async () => {
    const url = await earlyAnswering('reset-without-answer');
    expect(await post(url, agent)).toMatch(/^error (EPIPE|ECONNRESET|UND_ERR_SOCKET)$/);
  });

  test('the check body-too-large judges the 413 of a target that answers early and closes', async () => {
    const url = await earlyAnswering('end-then-destroy');
    const dir = mkdtempSync(join(tmpdir(), 'lpc-early-'));
    const profile = referenceProfileWith(dir, 'large.yaml', 'limitBytes: 1048576', `limitBytes: ${BODY_BYTES}`);
    const r = await runCli(profiledRunArgs(url, profile, 'intapi.v2.submissions.create.body-too-large', dir), {
      env: { LPC_API_KEY: 'k', LPC_USERNAME: 'u', LPC_PASSWORD: 'p', LPC_PRIVATE_KEY: 'pk' },
    });
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { checks: { id: string; status: string; failure?: unknown }[] };
    expect(
      run.checks.find((c) => c.id === 'intapi.v2.submissions.create.body-too-large'),
      `${r.stdout}\n${r.stderr}`,
    ).toMatchObject({ status: 'passed' });
  });
});
