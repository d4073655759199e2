// OAuth 2.0 authorization-code flow of the Integration API (public-facts#authentication-integration-api:
// `/oauth/authorize`, `/oauth/token`, single-use code, access token 4 hours, refresh token 1 year,
// scope `admin.v1`; the specification names the flow as the recommended method). Driven with
// oauth4webapi through the target's own log-in page (suites/_harness/intapi/oauth.ts). PROFILE level:
// the facts come from public-facts.md, and the paths, redirect URI and scope from the profile.
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import { authorizationCode, authorize, exchangeCode, oauthSetup, oauthTokens, processCodeAnswer, refresh } from '../_harness/intapi/oauth.js';
import { requirement } from '../_harness/requirement.js';

const FACTS = 'public-facts#authentication-integration-api';
/** A redirect URI no client registers (never fetched). */
const WRONG_REDIRECT = 'https://elsewhere.lp-conformance.invalid/callback';

requirement(
  {
    id: 'intapi.oauth.code-single-use',
    level: 'PROFILE',
    spec: FACTS,
    title: 'An authorization code is exchanged for tokens once: a second exchange is refused',
  },
  async (t) => {
    const s = oauthSetup(t);
    const code = await authorizationCode(t, s);
    const first = await exchangeCode(s, code);
    const tokens = await processCodeAnswer(s, first);
    t.secrets.remember('LPC_OAUTH_ACCESS_TOKEN', tokens.access_token);
    const second = await exchangeCode(s, code);
    const body = (await second.text()).slice(0, 200);
    if (second.ok) fail('the second exchange of the code refused (400 invalid_grant)', `${second.status} ${t.secrets.redact(body)}`);
  },
);

requirement(
  {
    id: 'intapi.oauth.wrong-redirect-uri-refused',
    level: 'PROFILE',
    spec: FACTS,
    title: 'An authorization request with an unregistered redirect_uri is refused, never redirected there',
  },
  async (t) => {
    const s = oauthSetup(t);
    const { outcome } = await authorize(t, s, WRONG_REDIRECT);
    if (outcome.kind === 'redirected') {
      const to = new URL(outcome.to);
      for (const secret of ['code', 'state']) if (to.searchParams.has(secret)) to.searchParams.set(secret, '…');
      fail(`a refusal (an error page, no redirect to ${WRONG_REDIRECT})`, `a redirect to ${to.href}`);
    }
  },
);

requirement(
  { id: 'intapi.oauth.refresh', level: 'PROFILE', spec: FACTS, title: 'The token answer carries a refresh token, and refreshing answers a new access token' },
  async (t) => {
    const s = oauthSetup(t);
    const tokens = await oauthTokens(t, s);
    const refreshToken = tokens.refresh_token ?? s.refreshToken;
    if (refreshToken === undefined) fail('a refresh_token in the token answer (refresh tokens last 1 year)', `the fields ${Object.keys(tokens).join(', ')}`);
    const renewed = await refresh(s, refreshToken);
    t.secrets.remember('LPC_OAUTH_ACCESS_TOKEN_2', renewed.access_token);
    if (typeof renewed.access_token !== 'string' || renewed.access_token === '') fail('a new access_token', `the fields ${Object.keys(renewed).join(', ')}`);
  },
);

requirement(
  {
    id: 'intapi.oauth.access-token-accepted',
    level: 'PROFILE',
    spec: FACTS,
    title: 'An access token of the flow is accepted by an Integration API call as Authorization: Bearer',
  },
  async (t) => {
    const s = oauthSetup(t);
    const tokens = await oauthTokens(t, s);
    const res = await t.http.send({ op: 'resources.list', token: { env: 'LPC_OAUTH_ACCESS_TOKEN', value: tokens.access_token } });
    expectStatus(res, 200, 'listing resources with the OAuth access token');
    if (res.json === undefined) fail('a JSON answer', describeResponse(res), res);
  },
);

requirement(
  { id: 'intapi.oauth.expires-in-at-most-4h', level: 'PROFILE', spec: FACTS, title: "The access token's expires_in is at most the profile's bound (4 hours)" },
  async (t) => {
    const s = oauthSetup(t);
    const tokens = await oauthTokens(t, s);
    const max = t.profile.expectations.oauth.accessTokenMaxSeconds;
    if (typeof tokens.expires_in !== 'number' || tokens.expires_in <= 0 || tokens.expires_in > max) {
      fail(`expires_in from 1 to ${max} seconds`, `expires_in ${JSON.stringify(tokens.expires_in)}`);
    }
  },
);
