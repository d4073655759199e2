import type { OAuthBehaviour, OAuthMount } from '../http/oauth/server.js';

/**
 * SCIM's OAuth 2.0 authorization-code flow, the specification's recommended method (spec#scim-api;
 * public-facts#authentication-scim): the generic flow of http/oauth/ mounted under the SCIM base, where
 * public-facts' example authorises (`/scim/v2/oauth/authorize`), its token endpoint beside it
 * (`/scim/v2/oauth/token`). Lifetimes are the Integration API flow's (access token 4 h, refresh token
 * 1 year); the scope is `scim`, as the token exchange's answer names it. docs/decisions/scim/oauth.md.
 */
export const SCIM_OAUTH_MOUNT: OAuthMount = { prefix: '/scim/v2/oauth', scope: 'scim', resource: 'urn:lp-conformance:scim' };

/** The flow's rules, and whether SCIM accepts its access tokens as Bearer tokens. */
export interface ScimOAuthBehaviour extends OAuthBehaviour {
  scimAccepts: 'accepted' | 'ignored';
}

export const referenceScimOAuth = (): ScimOAuthBehaviour => ({
  codeReuse: 'refused',
  redirectUri: 'registered',
  refreshToken: 'issued',
  accessTokenTtl: 4 * 3600,
  scimAccepts: 'accepted',
});
