/**
 * The Integration API's OAuth 2.0 authorization-code flow (public-facts#authentication-integration-api:
 * `/oauth/authorize`, `/oauth/token`, single-use code, access token 4 hours, refresh token 1 year,
 * scope `admin.v1`; the specification names the flow as the recommended method), as the generic
 * flow harness (../oauth.ts) drives it: the client `credentials.oauth`, the log-in the Integration
 * API's username and password, `expectations.oauth`, the token accepted by `GET /resources`.
 */
import type { OAuthFlow } from '../oauth.js';

export const INTAPI_OAUTH_FLOW: OAuthFlow = {
  idPrefix: 'intapi.oauth',
  spec: 'public-facts#authentication-integration-api',
  baseUrl: (t) => t.profile.families.intapi.baseUrl,
  expectations: (t) => t.profile.expectations.oauth,
  client: (t) => t.profile.oauthCredentials,
  clientAt: 'credentials.oauth',
  login: (t) => ({
    ...(t.profile.credentials.username ? { username: t.profile.credentials.username } : {}),
    ...(t.profile.credentials.password ? { password: t.profile.credentials.password } : {}),
    named: "the Integration API's username and password (credentials.username, credentials.password)",
  }),
  tokenVar: 'LPC_OAUTH',
  accepted: { request: { op: 'resources.list' }, title: 'an Integration API call', what: 'listing resources' },
};
