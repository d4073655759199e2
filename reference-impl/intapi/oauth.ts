import type { OAuthBehaviour, OAuthMount } from '../http/oauth/server.js';

/**
 * The Integration API's OAuth 2.0 authorization-code flow (public-facts#authentication-integration-api:
 * `/oauth/authorize`, `/oauth/token`, single-use code, access token 4 h, refresh token 1 year, scope
 * `admin.v1`): the generic flow of http/oauth/ mounted under `/oauth` of the Integration API's host.
 */
export const OAUTH_PREFIX = '/oauth';
export const OAUTH_SCOPE = 'admin.v1';
export const INTAPI_OAUTH_MOUNT: OAuthMount = { prefix: OAUTH_PREFIX, scope: OAUTH_SCOPE, resource: 'urn:lp-conformance:intapi' };

/** The flow's rules, and whether the Integration API accepts its access tokens as Bearer tokens. */
export interface IntapiOAuthBehaviour extends OAuthBehaviour {
  intapiAccepts: 'accepted' | 'ignored';
}
