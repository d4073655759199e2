/**
 * The profile's parts of an OAuth 2.0 authorization-code flow, for every family that has one: the
 * client (`credentials…oauth`: id, secret, optional refresh token and log-in) and the flow's
 * expectations (paths under the family's base URL, redirect URI, scope, the access token's longest
 * lifetime, issuer). The suites drive the flow with suites/_harness/oauth.ts.
 */
import { BASE_URL_PATTERN, closed, PATH_PATTERN, type Schema } from './schema-parts.js';
import type { EnvRef, OAuthClientCredentials } from './types.js';

/** `credentials…oauth` of a family whose defaults are `defaults`. A log-in in the defaults (a family
 * whose own credentials may be a ready token) may be given here too; by default the log-in is the
 * family's token exchange's username and password, when the profile gives those. */
export function oauthClientSchema(defaults: OAuthClientCredentials, description?: string): Schema {
  const { username, password } = defaults;
  const login = username !== undefined && password !== undefined;
  const otherwise = (ref: EnvRef) => `the token exchange's when given, else ${ref.env}`;
  return closed(
    {
      clientId: { $ref: '#/$defs/envRef', description: `OAuth 2.0 client id (default ${defaults.clientId.env}).` },
      clientSecret: { $ref: '#/$defs/envRef', description: `OAuth 2.0 client secret (default ${defaults.clientSecret.env}).` },
      refreshToken: { $ref: '#/$defs/envRef', description: 'A refresh token issued to the client, for a target whose log-in the suite cannot drive.' },
      ...(login
        ? {
            username: { $ref: '#/$defs/envRef', description: `The log-in page's username (default: ${otherwise(username)}).` },
            password: { $ref: '#/$defs/envRef', description: `The log-in page's password (default: ${otherwise(password)}).` },
          }
        : {}),
    },
    {
      ...(login ? { dependentRequired: { username: ['password'], password: ['username'] } } : {}),
      description: description ?? `The OAuth 2.0 client of the authorization-code flow${login ? ', and the user its log-in page signs in' : ''}.`,
    },
  );
}

/** `expectations…oauth` of a family; `base` names its base URL in the descriptions. */
export function oauthFlowSchema(base: string): Schema {
  return closed({
    authorizePath: { type: 'string', pattern: PATH_PATTERN, description: `The authorization endpoint under ${base}.` },
    tokenPath: { type: 'string', pattern: PATH_PATTERN, description: `The token endpoint under ${base}.` },
    redirectUri: { type: 'string', pattern: BASE_URL_PATTERN, description: "The client's registered redirect URI (never fetched)." },
    scope: { type: 'string', minLength: 1 },
    accessTokenMaxSeconds: { type: 'integer', minimum: 1, description: 'The longest access token lifetime allowed (4 hours).' },
    issuer: { type: 'string', pattern: BASE_URL_PATTERN, description: `The issuer; default: ${base} + /oauth.` },
  });
}
