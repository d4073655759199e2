// Learner authentication: the token exchange (x-api-key + a learner's username and password), the
// key and Bearer token on every call, revocation by a new token, the lifetime on the injected
// clock, and the learner error body on every refusal.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, SANDBOX_LEARNERS } from '../../../reference-impl/index.js';
import { send } from '../intapi/_support.js';
import { API, expectLearnerError, KEY, type LearnerHarness, names, startLearner, testClock } from './_learner.js';

const clock = testClock();
let h: LearnerHarness;
beforeAll(async () => {
  h = await startLearner({ clock: clock.now, families: { learner: { tokenTtlSeconds: 600 } } });
});
afterAll(() => h.close());

const token = (body: unknown, headers: Record<string, string> = { 'x-api-key': KEY }) => send(h.base, 'POST', `${API}/token`, body, headers);

describe('POST /api/rest/v2/token', () => {
  test('answers 200 {access_token, token_type: Bearer, expires_in} with the configured lifetime', async () => {
    const answer = await token(SANDBOX_LEARNERS.b);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json; charset=utf-8');
    expect(Object.keys(answer.obj)).toEqual(['access_token', 'token_type', 'expires_in']);
    expect(answer.obj.token_type).toBe('Bearer');
    expect(answer.obj.expires_in).toBe(600);
    expect(String(answer.obj.access_token)).toMatch(/^[\w-]{20,}$/);
  });

  test.each([
    ['no key', {}],
    ['a wrong key', { 'x-api-key': 'wrong' }],
  ])('%s: 401 naming x-api-key', async (_, headers) => {
    const answer = await token(SANDBOX_LEARNERS.a, headers);
    expectLearnerError(answer, 401);
    expect(names(answer, 'x-api-key')).toBe(true);
  });

  test.each([
    ['a wrong password', { ...SANDBOX_LEARNERS.a, password: 'nope' }],
    ['an unknown learner', { username: 'nobody@example.com', password: 'x' }],
    ["another learner's password", { username: SANDBOX_LEARNERS.a.username, password: SANDBOX_LEARNERS.b.password }],
  ])('%s: 401', async (_, body) => {
    expectLearnerError(await token(body), 401);
  });

  test.each([
    ['username', { password: 'x' }],
    ['password', { username: SANDBOX_LEARNERS.a.username }],
    ['username', { username: '', password: 'x' }],
    ['password', { username: SANDBOX_LEARNERS.a.username, password: 7 }],
    ['username', []],
  ])('missing or empty %s: 400 naming it', async (field, body) => {
    const answer = await token(body);
    expectLearnerError(answer, 400);
    expect(names(answer, field)).toBe(true);
  });

  test('a body that is not JSON: 400; another content type: 415; too large: 413', async () => {
    expectLearnerError(await send(h.base, 'POST', `${API}/token`, '{"username":', { 'x-api-key': KEY, 'content-type': 'application/json' }), 400);
    expectLearnerError(await send(h.base, 'POST', `${API}/token`, 'username=a', { 'x-api-key': KEY, 'content-type': 'text/plain' }), 415);
    expectLearnerError(await token({ username: 'x'.repeat(1_100_000), password: 'x' }), 413);
  });
});

describe('every call', () => {
  test.each([
    ['no key', { noKey: true }, 'x-api-key'],
    ['a wrong key', { headers: { 'x-api-key': 'wrong' } }, 'x-api-key'],
  ])('%s: 401 naming x-api-key, even with a valid token', async (_, options, name) => {
    const answer = await h.get('/my-catalog', options);
    expectLearnerError(answer, 401);
    expect(names(answer, name)).toBe(true);
  });

  test.each([
    ['no token', { noToken: true }],
    ['an unknown token', { token: 'not-a-token' }],
    ['a raw token without Bearer', { headers: { authorization: 'RAW' } }],
  ])('%s: 401', async (_, options) => {
    const o = 'headers' in options ? { headers: { authorization: h.token } } : options;
    expectLearnerError(await h.get('/my-branding', o), 401);
  });

  test('an unknown route is 404 before authentication', async () => {
    expectLearnerError(await h.get('/nope', { noKey: true, noToken: true }), 404);
    expectLearnerError(await h.call('DELETE', '/my-catalog'), 404);
  });

  test("a new token revokes the learner's previous one, not the other learner's", async () => {
    const b = await h.login('b');
    const old = h.token;
    h.token = await h.login('a');
    expectLearnerError(await h.get('/my-branding', { token: old }), 401);
    expect((await h.get('/my-branding')).status).toBe(200);
    expect((await h.get('/my-branding', { token: b })).status).toBe(200);
  });

  test('a token expires after its lifetime on the injected clock', async () => {
    const fresh = await h.login('b');
    clock.advance(599_999);
    expect((await h.get('/my-branding', { token: fresh })).status).toBe(200);
    clock.advance(1);
    expectLearnerError(await h.get('/my-branding', { token: fresh }), 401);
    h.token = await h.login('a');
  });
});

test('the learner tokenTtlSeconds must be a positive integer', () => {
  expect(() => createReferenceServer({ families: { learner: { tokenTtlSeconds: 0 } } })).toThrow(/learner tokenTtlSeconds/);
  expect(() => createReferenceServer({ families: { learner: { tokenTtlSeconds: 1.5 } } })).toThrow(/learner tokenTtlSeconds/);
});

test('other learner credentials replace the sandbox ones', async () => {
  const server = createReferenceServer({ families: { learner: { learners: { a: { username: 'x@example.com', password: 'px' }, b: SANDBOX_LEARNERS.b } } } });
  const base = await server.listen();
  try {
    const login = (body: unknown) => send(base, 'POST', `${API}/token`, body, { 'x-api-key': KEY });
    expect((await login({ username: 'x@example.com', password: 'px' })).status).toBe(200);
    expect((await login(SANDBOX_LEARNERS.a)).status).toBe(401);
  } finally {
    await server.close();
  }
});
