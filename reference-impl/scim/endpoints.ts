import { randomBytes } from 'node:crypto';
import { bearerToken, headerValue } from '../http/headers.js';
import type { Headers, HttpMethod } from '../http/route.js';
import { isJsonObject, type JsonObject } from '../rules/json.js';
import type { ScimContext, ScimOperation } from './context.js';
import { badRequest, ScimError, scimNotFound } from './errors.js';
import { LIST_URN } from './schema.js';
import { schemaResources } from './schemas-endpoint.js';
import { ok, SCIM_PREFIX, type ScimState } from './state.js';

/**
 * The SCIM family's endpoints beside its resources: the token exchange of public-facts
 * "Authentication (SCIM)", /Schemas, the unsupported endpoints of specification rule 4, and the
 * guard that reads a request's headers and its token.
 */

/** public-facts: a long-lived token; one year here. */
export const SCIM_TOKEN_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

/** The tokens the server accepts, each with its expiry (ms on the clock). */
export type ScimTokens = Map<string, number>;

/** An endpoint the server does not serve: the behaviour's status (501 by the specification). */
export const unsupported = (s: ScimState, method: HttpMethod, path: string): ScimOperation => ({
  id: `scim.unsupported.${method} ${path}`,
  method,
  path,
  auth: true,
  handle: () => {
    throw new ScimError(s.b.errors.unsupportedStatus, `${method} ${SCIM_PREFIX}${path} is not implemented.`);
  },
});

/** POST /token: the portal account's username and password for a bearer token. */
export function tokenOperation(s: ScimState, tokens: ScimTokens): ScimOperation {
  return {
    id: 'scim.token',
    method: 'POST',
    path: '/token',
    auth: false,
    handle: (call) => {
      const body = call.body;
      if (!isJsonObject(body) || typeof body.username !== 'string' || typeof body.password !== 'string') {
        throw badRequest('invalidValue', 'The body needs username and password strings.');
      }
      if (body.username !== s.deps.credentials.username || body.password !== s.deps.credentials.password) {
        throw new ScimError(401, 'Wrong username or password.');
      }
      const token = randomBytes(32).toString('base64url');
      const expiry = s.deps.clock().getTime() + SCIM_TOKEN_LIFETIME_MS;
      tokens.set(token, expiry);
      return ok(200, { token, scope: ['scim'], tokenExpiryDate: new Date(expiry).toISOString() });
    },
  };
}

/** GET /Schemas and /Schemas/{id} (rfc7644#section-4). */
export function schemaOperations(s: ScimState): ScimOperation[] {
  const { b, userSchema, groupSchema } = s;
  // The Schema resources /Schemas lists (under the fault schemas-group-omitted, without the Group's).
  const schemasListed = (baseUrl: string): JsonObject[] =>
    schemaResources(baseUrl, userSchema, groupSchema, s.emailsUnique, b.declares.schemaSchema === 'listed').filter(
      (r) => b.declares.groupSchema === 'listed' || r.id !== groupSchema.urn,
    );
  return [
    {
      id: 'scim.schemas.list',
      method: 'GET',
      path: '/Schemas',
      auth: true,
      handle: (call) => {
        const resources = schemasListed(call.context.baseUrl);
        return ok(200, { schemas: [LIST_URN], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources });
      },
    },
    {
      id: 'scim.schemas.get',
      method: 'GET',
      path: '/Schemas/:id',
      auth: true,
      handle: (call) => {
        const listed = schemasListed(call.context.baseUrl);
        const found =
          listed.find((r) => r.id === call.params.id) ?? (b.declares.unknownSchema === 'first' ? listed.find((r) => r.id === userSchema.urn) : undefined);
        if (found === undefined) throw scimNotFound(`Schema ${call.params.id ?? ''} not found.`);
        return ok(200, found);
      },
    },
  ];
}

/** The guard: the request's context from its headers, and its bearer token checked (unless the
 * operation needs none, or a fault lets every token in). */
export function scimGuard(s: ScimState, tokens: ScimTokens): (headers: Headers, operation: ScimOperation) => ScimContext {
  const { b, deps } = s;
  return (headers, operation) => {
    const host = headerValue(headers, 'host') ?? 'localhost';
    const ifMatch = headerValue(headers, 'if-match');
    const ifNoneMatch = headerValue(headers, 'if-none-match');
    const length = Number(headerValue(headers, 'content-length'));
    const context: ScimContext = {
      baseUrl: `http://${host}${SCIM_PREFIX}`,
      ...(ifMatch === undefined ? {} : { ifMatch }),
      ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }),
      ...(Number.isFinite(length) && length > 0 ? { contentLength: length } : {}),
    };
    if (!operation.auth || b.auth.token === 'not-checked') return context;
    const token = bearerToken(headerValue(headers, 'authorization'), false);
    if (token === undefined) throw new ScimError(401, 'A Bearer token is required.');
    const now = deps.clock().getTime();
    const expiry = tokens.get(token);
    // A token of the exchange, or an access token of the OAuth flow (refused under scim.oauth-token-not-accepted).
    const valid = (expiry !== undefined && expiry > now) || (b.oauth.scimAccepts === 'accepted' && deps.oauth?.accessTokenAccount(token, now) !== undefined);
    if (!valid && b.auth.wrongToken === 'reject') throw new ScimError(401, 'The token is not valid.');
    return context;
  };
}
