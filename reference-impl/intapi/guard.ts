import { notFound, unauthorized } from '../http/errors.js';
import { intapiError } from './error-body.js';
import { bearerToken, headerValue } from '../http/headers.js';
import type { Headers } from '../http/route.js';
import { userOfToken } from './auth/tokens.js';
import type { ApiVersion, IntapiContext, IntapiDeps, IntapiOperation } from './context.js';

/**
 * The checks every Integration API call passes before its body is read, in this order:
 * x-api-key (401), x-api-version (400), version availability (404), Bearer token (401).
 * public-facts#authentication-integration-api, docs/decisions/intapi/reference-choices.md "Authentication" and "Versions".
 */
export function createGuard(deps: IntapiDeps): (headers: Headers, operation: IntapiOperation) => IntapiContext {
  const { store, behaviour, credentials, clock } = deps;
  const { auth, versions } = behaviour;

  const checkApiKey = (headers: Headers, operation: IntapiOperation): void => {
    if (auth.keyUnchecked.has(operation.id)) return;
    const key = headerValue(headers, 'x-api-key');
    if (key === undefined) {
      if (auth.missingApiKey === 'reject') throw intapiError(401, 'Unauthorized', 'An API key is required.', ['x-api-key: is required']);
    } else if (key !== credentials.apiKey && auth.wrongApiKey === 'reject') {
      throw intapiError(401, 'Unauthorized', 'The API key is not valid.', ['x-api-key: is not valid']);
    }
  };

  const readVersion = (headers: Headers): ApiVersion => {
    const value = headerValue(headers, 'x-api-version');
    if (value === undefined) return versions.missing;
    if (value === '1' || value === '2') return Number(value) as ApiVersion;
    if (versions.unsupported === 'as-v2') return 2;
    throw intapiError(400, 'UnsupportedVersion', `Unsupported API version '${value}'.`, ['x-api-version: must be 1 or 2']);
  };

  /** The user behind the token; with the token unchecked, the credentials' user stands in. */
  const tokenUser = (headers: Headers): string => {
    const token = bearerToken(headerValue(headers, 'authorization'), auth.rawToken === 'accept');
    // A session token of /authenticate, or an OAuth 2.0 access token (reference-impl/http/oauth, mounted by intapi/oauth.ts).
    const userId = token === undefined ? undefined : (userOfToken(store, token, clock().getTime()) ?? deps.oauth?.accessTokenAccount(token, clock().getTime()));
    if (userId !== undefined) return userId;
    if (auth.token === 'not-checked') return store.principalUserId;
    throw unauthorized(token === undefined ? 'A Bearer token is required.' : 'The token is not valid or has expired.');
  };

  /** "Current user" operations act on the token's user (spec#integration-api). */
  const currentUser = (tokenUserId: string): string => {
    if (auth.currentUser === 'token-user') return tokenUserId;
    const key = tokenUserId.toLowerCase();
    return store.users.values().find((user) => user.id.toLowerCase() !== key)?.id ?? tokenUserId;
  };

  return (headers, operation) => {
    checkApiKey(headers, operation);
    const version = readVersion(headers);
    if (!operation.versions.includes(version) && versions.v2OnlyOnV1 === 'not-found' && !versions.servedOnV1.has(operation.id)) {
      throw notFound(`The operation is not available in version ${version}.`);
    }
    return { version, userId: operation.auth === 'token' ? currentUser(tokenUser(headers)) : undefined };
  };
}
