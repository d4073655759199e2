import type { Family, HttpMethod } from '../http/route.js';
import { bulkOperation } from './bulk.js';
import type { ScimContext, ScimOperation } from './context.js';
import { discoveryOperations } from './discovery.js';
import { schemaOperations, scimGuard, type ScimTokens, tokenOperation, unsupported } from './endpoints.js';
import { badRequest, ScimError, scimErrorRenderer } from './errors.js';
import { resourceOperations } from './resource-handlers.js';
import { SCIM_PREFIX, type ScimDeps, type ScimState, scimState } from './state.js';

export type { ScimContext, ScimOperation };
export { SCIM_PREFIX, type ScimDeps };
export { SCIM_TOKEN_LIFETIME_MS } from './endpoints.js';

/**
 * The SCIM 2.0 family under /scim/v2 (public-facts "Base addresses and prefixes"): Users and
 * Groups (rfc7644#section-3), the token exchange of public-facts "Authentication (SCIM)", /Schemas,
 * and the unsupported endpoints of specification rule 4. docs/decisions/scim/reference-server.md "SCIM reference server: choices".
 * Put together in stages: the state its handlers share (state.ts), the resources' operations
 * (resource-handlers.ts), the other endpoints and the guard (endpoints.ts), the routes as served
 * (below), and the family's transport (its media types and error body).
 */

const SCIM_TYPE = 'application/scim+json; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Every operation the family routes: what it serves, and what it answers as not served. */
function routedOperations(s: ScimState, tokens: ScimTokens): ScimOperation[] {
  const { b } = s;
  const ALL: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const users = resourceOperations(s, s.userSchema);
  const groups = resourceOperations(s, s.groupSchema);
  const served = discoveryOperations({ b, users, groups, userSchema: s.userSchema, groupSchema: s.groupSchema, store: s.store, now: s.now });
  if (b.bulk.supported) served.push(bulkOperation({ b, resources: [...users, ...groups], renderError: scimErrorRenderer(b) }));
  return [
    tokenOperation(s, tokens),
    ...users,
    ...groups,
    ...schemaOperations(s),
    ...served,
    // Specification rule 4: what the server does not serve answers 501.
    ...ALL.filter((m) => !served.some((o) => o.method === m && o.path === '/Me')).map((m) => unsupported(s, m, '/Me')),
    ...(b.endpoints.discovery === 'served' ? [] : [unsupported(s, 'GET', '/ServiceProviderConfig'), unsupported(s, 'GET', '/ResourceTypes')]),
    ...(b.bulk.supported ? [] : [unsupported(s, 'POST', '/Bulk')]),
    unsupported(s, 'POST', '/.search'),
    ...(b.endpoints.search === 'served' ? [] : [unsupported(s, 'POST', '/Users/.search'), unsupported(s, 'POST', '/Groups/.search')]),
  ];
}

export function createScimFamily(deps: ScimDeps): Family<ScimContext, ScimOperation> {
  const s = scimState(deps);
  const { b } = s;
  const tokens: ScimTokens = new Map();
  if (deps.token !== undefined) tokens.set(deps.token, Number.POSITIVE_INFINITY);
  return {
    prefix: SCIM_PREFIX,
    operations: routedOperations(s, tokens),
    guard: scimGuard(s, tokens),
    renderError: scimErrorRenderer(b),
    contentType: b.transport.responseType === 'scim+json' ? SCIM_TYPE : JSON_TYPE,
    ...(b.transport.maxUrlBytes === undefined ? {} : { maxUrlBytes: b.transport.maxUrlBytes }),
    bodyTypes: {
      types: b.transport.requestTypes === 'json-only' ? ['application/json'] : ['application/scim+json', 'application/json'],
      // The token exchange (public-facts: a JSON body) reads JSON under this fault too.
      refuse:
        b.transport.requestTypes === 'scim+json-only'
          ? (url, type) =>
              /^application\/json\b/i.test(type) && !/\/token(\?|$)/.test(url)
                ? new ScimError(415, 'The request body must be application/scim+json.')
                : undefined
          : undefined,
      notJson: () =>
        b.errors.malformedJson === 'server-error'
          ? new ScimError(500, 'Unexpected token in JSON.')
          : badRequest('invalidSyntax', 'The request body is not valid JSON.'),
    },
  };
}
