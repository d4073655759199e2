// Malformed requests answer 4xx with the error body, never a 5xx or a stack trace.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../reference-impl/index.js';
import { expectErrorBody, type Harness, startServer, VALID_SUBMISSION } from './intapi/_support.js';

let h: Harness;
let bank: string;
beforeAll(async () => {
  h = await startServer();
  bank = String((await h.call('POST', '/question-banks', { body: { name: 'b' } })).obj.id);
});
afterAll(() => h.close());

const WRITES = (): [string, string][] => [
  ['POST', '/submissions'],
  ['POST', '/question-banks'],
  ['PUT', `/question-banks/${bank}`],
  ['POST', `/question-banks/${bank}/questions`],
  ['POST', '/authenticate'],
];

describe('bodies', () => {
  test.each(['{', '{"title": }', "{'a':1}", 'undefined', '[1,', '\u0000'])('a body that is not JSON (%j) answers 400', async (text) => {
    for (const [method, path] of WRITES()) {
      const res = await h.call(method, path, { body: text });
      const body = expectErrorBody(res, 400, 'BadRequest');
      expect(body.validations).toEqual(['body: is not valid JSON']);
      expect(res.text).not.toMatch(/at .*\.js|stack/i);
    }
  });

  test('an empty JSON body answers 400', async () => {
    expectErrorBody(await h.call('POST', '/submissions', { body: '' }), 400);
  });

  test.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    'application/merge-patch+json',
  ])('a body of content type %s answers 415', async (type) => {
    for (const [method, path] of WRITES()) {
      expectErrorBody(await h.call(method, path, { body: JSON.stringify(VALID_SUBMISSION), headers: { 'content-type': type } }), 415, 'UnsupportedMediaType');
    }
  });

  test('application/json with a charset is accepted', async () => {
    const res = await h.call('POST', '/submissions', {
      body: JSON.stringify(VALID_SUBMISSION),
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  test('a body without content type answers 415', async () => {
    const res = await h.call('POST', '/submissions', { body: Buffer.from(JSON.stringify(VALID_SUBMISSION)), headers: { 'content-type': '' } });
    expect([415]).toContain(res.status);
  });

  test('a body over 1 MiB answers 413; just under is read', async () => {
    const big = JSON.stringify({ ...VALID_SUBMISSION, description: 'x'.repeat(1024 * 1024) });
    expectErrorBody(await h.call('POST', '/submissions', { body: big }), 413, 'PayloadTooLarge');
    const under = JSON.stringify({ ...VALID_SUBMISSION, description: 'x'.repeat(1024 * 1024 - 200) });
    expect(Buffer.byteLength(under)).toBeLessThanOrEqual(1024 * 1024);
    expectErrorBody(await h.call('POST', '/submissions', { body: under }), 422);
  });

  // An answer before the body is read, then a close, resets a client still sending, and the reset
  // may destroy the answer before the client reads it (RFC 9112 §9.6): the negative controls saw
  // body-too-large fail with "write EPIPE" under load. The client here pauses halfway, long enough
  // for a server that answers early to answer and close.
  test.each(['content-length', 'chunked'] as const)(
    'a body over 1 MiB (%s) is read to its end before the 413: a client still sending is never reset',
    async (framing) => {
      const size = 1024 * 1024 + 1;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const url = new URL(h.base);
      const socket = connect(Number(url.port), url.hostname);
      let answer = '';
      let writtenAtAnswer: number | undefined;
      let written = 0;
      let socketError: string | undefined;
      socket.on('data', (d: Buffer) => {
        writtenAtAnswer ??= written;
        answer += d.toString();
      });
      const ended = new Promise<void>((done) => socket.on('close', () => done()));
      socket.on('error', (e: NodeJS.ErrnoException) => (socketError = e.code));
      await new Promise((done) => socket.once('connect', done));
      const send = (data: string | Buffer) => new Promise<Error | null | undefined>((done) => socket.write(data, done));
      const length = framing === 'content-length' ? `content-length: ${size}` : 'transfer-encoding: chunked';
      await send(
        `POST /submissions HTTP/1.1\r\nhost: x\r\nx-api-key: ${SANDBOX_CREDENTIALS.apiKey}\r\nx-api-version: 2\r\n` +
          `authorization: Bearer ${h.token}\r\ncontent-type: application/json\r\n${length}\r\n\r\n`,
      );
      const writeErrors: string[] = [];
      for (let sent = 0; sent < size; sent += chunk.length) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        const error = await send(framing === 'chunked' ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
        if (error) writeErrors.push((error as NodeJS.ErrnoException).code ?? error.message);
        written += part.length;
        if (sent === 8 * chunk.length) await new Promise((done) => setTimeout(done, 100));
      }
      if (framing === 'chunked') await send('0\r\n\r\n');
      await ended;
      expect({ writeErrors, socketError, writtenAtAnswer }).toEqual({ writeErrors: [], socketError: undefined, writtenAtAnswer: size });
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 413, term: 'PayloadTooLarge' });
    },
  );

  test.each([
    ['an array', []],
    ['null', null],
    ['a number', 42],
    ['a string', 'text'],
    ['true', true],
  ])('a JSON %s instead of an object answers 422', async (_what, value) => {
    for (const [method, path] of WRITES().filter(([, p]) => p !== '/authenticate')) {
      const res = await h.call(method, path, { body: JSON.stringify(value) });
      const body = expectErrorBody(res, 422, 'ValidationFailed');
      expect(body.validations).toEqual(['body: must be a JSON object']);
    }
  });

  test('a POST without any body answers 422 (body: must be a JSON object)', async () => {
    const res = await h.call('POST', '/submissions', {});
    expectErrorBody(res, 422);
  });

  test('__proto__ and constructor keys are unknown fields, nothing else', async () => {
    const res = await h.call('POST', '/question-banks', { body: '{"name":"n","__proto__":{"polluted":1},"constructor":1}' });
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual(['__proto__: is not a known field', 'constructor: is not a known field']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('deeply nested JSON answers 4xx', async () => {
    const res = await h.call('POST', '/submissions', { body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('routes', () => {
  test.each([
    ['GET', '/nope'],
    ['GET', '/'],
    ['DELETE', '/submissions'],
    ['PATCH', '/question-banks'],
    ['HEAD', '/nope'],
    ['OPTIONS', '/resources'],
    ['POST', '/resources'],
    ['GET', '/scim/v1/Users'],
  ])('%s %s answers 404 with the error body', async (method, path) => {
    const res = await h.call(method, path);
    expect(res.status).toBe(404);
    if (method !== 'HEAD') expectErrorBody(res, 404, 'NotFound');
  });

  test('an empty path id (trailing slash) is not a GUID: 422', async () => {
    const res = await h.get('/submissions/');
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual(['id: Invalid format provided for id']);
  });

  test('a malformed percent-encoding in the path answers 400', async () => {
    expectErrorBody(await h.get('/submissions/%zz'), 400);
  });

  test('a very long path id answers 422, not a routing error', async () => {
    const res = await h.get(`/submissions/${'a'.repeat(5000)}`);
    expectErrorBody(res, 422);
  });

  test('a huge _filter answers 422', async () => {
    const filter = encodeURIComponent(`${'('.repeat(2000)}name eq 'x'${')'.repeat(2000)}`);
    expectErrorBody(await h.get(`/resources?_filter=${filter}`), 422);
    expectErrorBody(await h.get(`/resources?_filter=${encodeURIComponent("name eq '\u0000'")}&_sort=%E2%82`), 422);
  });

  test('a malformed HTTP request answers 400 with the error body', async () => {
    const url = new URL(h.base);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GARBAGE\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 400, term: 'BadRequest', _meta: {} });
  });
});
