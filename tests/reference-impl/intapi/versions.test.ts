import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectErrorBody, type Harness, startServer, TEMPLATE, UNKNOWN, VALID_SUBMISSION } from './_support.js';

let h: Harness;
beforeAll(async () => {
  h = await startServer();
});
afterAll(() => h.close());

test('without x-api-version the general resource list behaves as version 1 (bare array)', async () => {
  const res = await h.get('/resources', { version: null });
  expect(res.status).toBe(200);
  expect(res.list).toHaveLength(20);
});

test('version 1 answers a bare array, version 2 the envelope, with the same items', async () => {
  const v1 = await h.get('/resources?_limit=7&_offset=1', { version: '1' });
  const v2 = await h.get('/resources?_limit=7&_offset=1', { version: '2' });
  expect(v2.obj.resources).toEqual(v1.list);
  expect(v2.obj).toMatchObject({ totalItems: 75, returnedItems: 7, limit: 7, offset: 1 });
});

test.each(['3', '0', '', 'v2', '2.0', '1,2'])('x-api-version %j answers 400 naming x-api-version', async (value) => {
  const res = await h.get('/resources', { version: value });
  const body = expectErrorBody(res, 400, 'UnsupportedVersion');
  expect(body.validations).toEqual(['x-api-version: must be 1 or 2']);
});

describe('version-2-only operations called with version 1 answer 404', () => {
  test.each([
    ['GET', '/submissions'],
    ['POST', '/submissions'],
    ['GET', `/submissions/${UNKNOWN}`],
    ['PUT', `/submissions/${UNKNOWN}`],
    ['GET', '/templates'],
    ['GET', `/templates/${TEMPLATE}`],
    ['GET', '/question-banks'],
    ['POST', '/question-banks'],
    ['GET', `/question-banks/${UNKNOWN}`],
    ['PUT', `/question-banks/${UNKNOWN}`],
    ['GET', `/question-banks/${UNKNOWN}/questions`],
    ['POST', `/question-banks/${UNKNOWN}/questions`],
    ['GET', `/question-banks/${UNKNOWN}/questions/${UNKNOWN}`],
    ['PUT', `/question-banks/${UNKNOWN}/questions/${UNKNOWN}`],
  ])('%s %s', async (method, path) => {
    const body = method === 'GET' ? undefined : VALID_SUBMISSION;
    expectErrorBody(await h.call(method, path, { version: '1', body }), 404, 'NotFound');
    expectErrorBody(await h.call(method, path, { version: null, body }), 404, 'NotFound');
  });
});

test('the version is checked after the key and before the token', async () => {
  expectErrorBody(await h.get('/resources', { version: '3', noKey: true }), 401);
  expectErrorBody(await h.get('/resources', { version: '3', noToken: true }), 400);
  expectErrorBody(await h.get('/submissions', { version: '1', noToken: true }), 404);
});
