/**
 * SCIM's OAuth 2.0 authorization-code flow, the specification's recommended method (spec#scim-api),
 * under the SCIM base (public-facts#authentication-scim: its example authorises at
 * `/scim/v2/oauth/authorize`), as the generic flow harness (../oauth.ts) drives it: the client
 * `credentials.scim.oauth` and its log-in (by default the token exchange's username and password),
 * `expectations.scim.oauth`, the token accepted by `GET /Users`.
 */
import type { OAuthFlow } from '../oauth.js';

export const SCIM_OAUTH_FLOW: OAuthFlow = {
  idPrefix: 'scim.oauth',
  spec: 'spec#scim-api',
  baseUrl: (t) => t.profile.families.scim.baseUrl,
  expectations: (t) => t.profile.expectations.scim.oauth,
  client: (t) => t.profile.familyCredentials.scim.oauth ?? t.skip('the profile names no SCIM OAuth client (credentials.scim.oauth)'),
  clientAt: 'credentials.scim.oauth',
  login: (t) => {
    const o = t.profile.familyCredentials.scim.oauth;
    return {
      ...(o?.username ? { username: o.username } : {}),
      ...(o?.password ? { password: o.password } : {}),
      named: "the username and password of credentials.scim.oauth (by default the token exchange's, else LPC_SCIM_USERNAME and LPC_SCIM_PASSWORD)",
    };
  },
  tokenVar: 'LPC_SCIM_OAUTH',
  accepted: { request: { op: 'scim.users.list', query: { count: 1 } }, title: 'a SCIM call', what: 'listing users' },
};
