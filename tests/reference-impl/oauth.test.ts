// The reference server's OAuth 2.0 authorization-code flow (reference-impl/oauth; public-facts:
// /oauth/authorize, /oauth/token, single-use code, access token 4 h, refresh token 1 year, admin.v1).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SANDBOX_OAUTH_CLIENT } from '../../reference-impl/index.js';
import { authorizeRequest, exchange, oauthTokens, obtainCode, tokenRequest } from './_oauth.js';
import { type Harness, startServer } from './_support.js';

describe('OAuth 2.0 authorization-code flow', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(() => h.close());

  test('log-in, code, tokens: 4 h access token, a refresh token, scope admin.v1; the code is single use', async () => {
    const tokens = await oauthTokens(h.base);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 14400, scope: 'admin.v1' });
    expect(typeof tokens.body.refresh_token).toBe('string');
    expect((await exchange(h.base, tokens.code, tokens.verifier)).body.error).toBe('invalid_grant');
  });

  test('the access token is accepted by the Integration API; a refreshed one too', async () => {
    const tokens = await oauthTokens(h.base);
    expect((await h.get('/resources', { token: String(tokens.body.access_token) })).status).toBe(200);
    const renewed = await tokenRequest(h.base, { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) });
    expect(renewed.status).toBe(200);
    expect((await h.get('/resources', { token: String(renewed.body.access_token) })).status).toBe(200);
    expect((await h.get('/resources', { token: 'not-a-token' })).status).toBe(401);
  });

  test('a wrong password shows the form again (401); a wrong redirect_uri is refused without a redirect', async () => {
    expect((await obtainCode(h.base, 'wrong')).status).toBe(401);
    const res = await fetch(authorizeRequest(h.base, 'https://elsewhere.invalid/cb').url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(SANDBOX_OAUTH_CLIENT.redirectUri).toMatch(/^https:/);
  });
});
