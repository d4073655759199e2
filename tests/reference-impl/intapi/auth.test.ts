import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../../reference-impl/index.js';
import { ADMIN, COURSE1, COURSE2, CREDENTIALS_BODY, expectErrorBody, type Harness, names, send, startServer, USER2 } from './_support.js';

let h: Harness;
beforeAll(async () => {
  h = await startServer();
});
afterAll(() => h.close());

describe('x-api-key', () => {
  test.each([
    ['GET', '/resources'],
    ['GET', '/submissions'],
    ['POST', '/submissions'],
    ['GET', `/resources/${ADMIN}`],
  ])('%s %s without x-api-key answers 401 with the error body', async (method, path) => {
    const res = await h.call(method, path, { noKey: true, body: method === 'POST' ? {} : undefined });
    const body = expectErrorBody(res, 401, 'Unauthorized');
    expect(body.validations).toContain('x-api-key: is required');
  });

  test('a wrong x-api-key answers 401', async () => {
    expectErrorBody(await h.get('/resources', { headers: { 'x-api-key': 'nope' } }), 401, 'Unauthorized');
  });

  test('POST /authenticate needs the key too', async () => {
    expectErrorBody(await send(h.base, 'POST', '/authenticate', CREDENTIALS_BODY, {}), 401);
    expectErrorBody(await h.authenticate(CREDENTIALS_BODY, { 'x-api-key': 'wrong' }), 401);
  });

  test('the key is checked before the body is read (401, not 400/415)', async () => {
    expectErrorBody(await h.call('POST', '/submissions', { noKey: true, body: '{not json' }), 401);
    expectErrorBody(await h.call('POST', '/submissions', { noKey: true, body: 'x', headers: { 'content-type': 'text/plain' } }), 401);
  });
});

describe('POST /authenticate', () => {
  test('answers 200 with a bare JSON string token', async () => {
    const res = await h.authenticate();
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(typeof res.json).toBe('string');
    expect(res.text.startsWith('"')).toBe(true);
    h.token = String(res.json);
  });

  test.each(['username', 'password', 'privateKey'])('a missing %s answers 400 naming it', async (field) => {
    const { [field as keyof typeof CREDENTIALS_BODY]: _left, ...rest } = CREDENTIALS_BODY;
    const res = await h.authenticate(rest);
    expectErrorBody(res, 400, 'BadRequest');
    expect(names(res, field)).toBe(true);
  });

  test('a body that is not an object answers 400 naming every field', async () => {
    const res = await h.authenticate([]);
    expectErrorBody(res, 400);
    expect(names(res, 'username') && names(res, 'password') && names(res, 'privateKey')).toBe(true);
  });

  test.each([
    ['username', 'someone.else'],
    ['password', 'wrong'],
    ['privateKey', 'wrong'],
  ])('a wrong %s answers 401', async (field, value) => {
    expectErrorBody(await h.authenticate({ ...CREDENTIALS_BODY, [field]: value }), 401, 'Unauthorized');
  });
});

describe('Bearer token', () => {
  test('a missing token answers 401', async () => {
    expectErrorBody(await h.get('/resources', { noToken: true }), 401, 'Unauthorized');
  });

  test('an unknown token answers 401', async () => {
    expectErrorBody(await h.get('/resources', { token: 'not-a-token' }), 401);
  });

  test('a raw token (no "Bearer ") and a lower-case scheme are accepted', async () => {
    expect((await h.get('/resources', { noToken: true, headers: { authorization: h.token } })).status).toBe(200);
    expect((await h.get('/resources', { noToken: true, headers: { authorization: `bearer ${h.token}` } })).status).toBe(200);
  });

  test('a new token for the user invalidates the previous one', async () => {
    const old = h.token;
    const fresh = String((await h.authenticate()).json);
    expect(fresh).not.toBe(old);
    expectErrorBody(await h.get('/resources', { token: old }), 401);
    expect((await h.get('/resources', { token: fresh })).status).toBe(200);
    h.token = fresh;
  });
});

test('tokens last four hours by the injected clock', async () => {
  let now = Date.parse('2024-01-01T00:00:00Z');
  const t = await startServer({ clock: () => new Date(now) });
  try {
    now += 4 * 3600_000 - 1;
    expect((await t.get('/resources')).status).toBe(200);
    now += 1;
    expectErrorBody(await t.get('/resources'), 401);
  } finally {
    await t.close();
  }
});

test('custom credentials replace the sandbox ones', async () => {
  const credentials = { apiKey: 'k', username: 'u', password: 'p', privateKey: 'pk' };
  const t = await startServer({ families: { intapi: { credentials } } });
  try {
    expect((await t.get('/resources')).status).toBe(200);
    expectErrorBody(await t.get('/resources', { headers: { 'x-api-key': SANDBOX_CREDENTIALS.apiKey } }), 401);
  } finally {
    await t.close();
  }
});

test('current-user operations act on the token user (the credentials authenticate as lpc.admin)', async () => {
  const mine = await h.get('/enrollments/myresources', { version: '1' });
  const admins = await h.get(`/users/${ADMIN}/resources`, { version: '1' });
  expect(mine.status).toBe(200);
  expect(mine.list).toEqual(admins.list);
  expect(mine.list).not.toEqual((await h.get(`/users/${USER2}/resources`)).list);
  expect((await h.get(`/enrollments/${COURSE1}/myresources`)).status).toBe(200);
  expect((await h.get(`/enrollments/${COURSE2}/myresources`)).status).toBe(200);
});
