// The reference server's OAuth 2.0 authorization-code flow (reference-impl/http/oauth; the Integration API's, public-facts:
// /oauth/authorize, /oauth/token, single-use code, access token 4 h, refresh token 1 year, admin.v1), and SCIM's under /scim/v2/oauth.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SANDBOX_OAUTH_CLIENT } from '../../reference-impl/index.js';
import { authorizeRequest, exchange, oauthTokens, obtainCode, tokenRequest } from './_oauth.js';
import { type Harness, startServer } from './intapi/_support.js';

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

describe("SCIM's OAuth 2.0 authorization-code flow (under /scim/v2/oauth, scope scim)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(() => h.close());
  const scim = () => `${h.base}/scim/v2`;
  const users = async (token: string) =>
    (await fetch(`${scim()}/Users?count=1`, { headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json' } })).status;

  test("its tokens are SCIM's: accepted by SCIM, not by the Integration API, and the other flow's not by SCIM", async () => {
    const tokens = await oauthTokens(scim(), 'scim');
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 14400, scope: 'scim' });
    expect(await users(String(tokens.body.access_token))).toBe(200);
    expect((await h.get('/resources', { token: String(tokens.body.access_token) })).status).toBe(401);
    const intapi = await oauthTokens(h.base);
    expect(await users(String(intapi.body.access_token))).toBe(401);
    expect((await exchange(scim(), tokens.code, tokens.verifier)).body.error).toBe('invalid_grant');
  });

  test('a refreshed token is accepted; a wrong redirect_uri is refused without a redirect', async () => {
    const tokens = await oauthTokens(scim(), 'scim');
    const renewed = await tokenRequest(scim(), { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) });
    expect(await users(String(renewed.body.access_token))).toBe(200);
    const res = await fetch(authorizeRequest(scim(), 'https://elsewhere.invalid/cb', 'scim').url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});
