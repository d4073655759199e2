import type { Call, HttpMethod, QueryValue, Result } from '../http/route.js';
import { isJsonObject, type JsonObject } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import { badRequest, scimNotFound } from './errors.js';
import type { ScimContext, ScimOperation } from './context.js';
import { LIST_URN, type ResourceSchema } from './schema.js';
import type { ScimStore } from './store.js';

/**
 * The endpoints a server may serve or leave unsupported (specification rule 4 names them; a
 * variant of the reference server serves them, ScimBehaviour.endpoints):
 * - GET /ServiceProviderConfig and GET /ResourceTypes (rfc7644#section-4), which say what the
 *   server does (filter, sort, patch; no bulk, changePassword or etag);
 * - POST /Users/.search and /Groups/.search (rfc7644#section-3.4.3): the list, its parameters in a
 *   SearchRequest body;
 * - GET, PUT and PATCH /Me (rfc7644#section-3.11): an alias of the user the token belongs to, a
 *   service account made on first use (POST and DELETE /Me stay 501).
 */
export const SPC_URN = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
export const RESOURCE_TYPE_URN = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
export const SEARCH_URN = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
/** The userName of the service account /Me stands for. */
export const SERVICE_USER_NAME = 'lpc-sandbox-service-account';

interface DiscoveryDeps {
  readonly b: ScimBehaviour;
  readonly users: readonly ScimOperation[];
  readonly groups: readonly ScimOperation[];
  readonly userSchema: ResourceSchema;
  readonly groupSchema: ResourceSchema;
  readonly store: () => ScimStore;
  readonly now: () => string;
}

const opOf = (ops: readonly ScimOperation[], suffix: string): ScimOperation => {
  const found = ops.find((o) => o.id.endsWith(suffix));
  if (found === undefined) throw new Error(`no SCIM operation ${suffix}`);
  return found;
};

function serviceProviderConfig(b: ScimBehaviour, baseUrl: string): JsonObject {
  // What the server does (ScimBehaviour), unless a fault makes the declaration lie (b.declares).
  const bulk = b.bulk.supported
    ? { supported: true, maxOperations: b.bulk.maxOperations, maxPayloadSize: b.bulk.maxPayloadSize }
    : { supported: false, maxOperations: 0, maxPayloadSize: 0 };
  return {
    schemas: [SPC_URN],
    patch: { supported: b.patchServed === 'yes' || b.declares.patch === 'supported' },
    bulk,
    filter: { supported: true, maxResults: b.declares.maxResults === 'understated' ? 2 : b.paging.maxCount },
    // A password is written by POST, PUT and PATCH where the schema keeps one (a service provider's choice).
    changePassword: { supported: b.schema === 'full' },
    sort: { supported: b.sort.applied === 'yes' || b.declares.sort === 'supported' },
    ...(b.declares.etagBlock === 'present' ? { etag: { supported: b.etag.supported } } : {}),
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'OAuth Bearer Token', description: 'A bearer token in the Authorization header.' }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

function resourceType(schema: ResourceSchema, baseUrl: string, b: ScimBehaviour): JsonObject {
  return {
    schemas: [RESOURCE_TYPE_URN],
    id: schema.resourceType,
    name: schema.resourceType,
    endpoint: schema.resourceType === 'Group' && b.declares.groupEndpoint === 'wrong' ? '/Group' : schema.endpoint,
    schema: schema.urn,
    schemaExtensions: [...schema.extensions.values()].map((e) => ({ schema: e.urn, required: false })),
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${schema.resourceType}` },
  };
}

/** A SearchRequest body (rfc7644#section-3.4.3) as the list's query parameters. */
function searchQuery(body: unknown): Record<string, QueryValue> {
  if (!isJsonObject(body)) throw badRequest('invalidSyntax', 'The body must be a SearchRequest object.');
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === SEARCH_URN.toLowerCase())) {
    throw badRequest('invalidSyntax', `schemas must contain ${SEARCH_URN}.`);
  }
  const query: Record<string, QueryValue> = {};
  for (const key of ['filter', 'sortBy', 'sortOrder', 'startIndex', 'count', 'attributes', 'excludedAttributes']) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) query[key] = v.map(String).join(',');
    else if (typeof v === 'string' || typeof v === 'number') query[key] = String(v);
    else throw badRequest('invalidValue', `${key} must be a string or a number.`);
  }
  return query;
}

/** /ServiceProviderConfig and /ResourceTypes (rfc7644#section-4), when served. */
function discoveryEndpoints(deps: DiscoveryDeps): ScimOperation[] {
  const { b } = deps;
  const out: ScimOperation[] = [];
  if (b.endpoints.discovery === 'served') {
    const types = [deps.userSchema, deps.groupSchema];
    out.push(
      {
        id: 'scim.discovery.service-provider-config',
        method: 'GET',
        path: '/ServiceProviderConfig',
        auth: true,
        handle: (call) => ({ status: 200, body: serviceProviderConfig(b, call.context.baseUrl) }),
      },
      {
        id: 'scim.discovery.resource-types',
        method: 'GET',
        path: '/ResourceTypes',
        auth: true,
        handle: (call) => {
          const resources = types.map((t) => resourceType(t, call.context.baseUrl, b));
          return {
            status: 200,
            body: { schemas: [LIST_URN], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources },
          };
        },
      },
      {
        id: 'scim.discovery.resource-type',
        method: 'GET',
        path: '/ResourceTypes/:id',
        auth: true,
        handle: (call) => {
          const found = types.find((t) => t.resourceType === call.params.id) ?? (b.declares.unknownResourceType === 'first' ? types[0] : undefined);
          if (found === undefined) throw scimNotFound(`ResourceType ${call.params.id ?? ''} not found.`);
          return { status: 200, body: resourceType(found, call.context.baseUrl, b) };
        },
      },
    );
  }
  return out;
}

/** POST /Users/.search and /Groups/.search (rfc7644#section-3.4.3), when served: the list with the body's query. */
function searchEndpoints(deps: DiscoveryDeps): ScimOperation[] {
  const { b } = deps;
  const out: ScimOperation[] = [];
  if (b.endpoints.search === 'served') {
    for (const [ops, path] of [
      [deps.users, '/Users/.search'],
      [deps.groups, '/Groups/.search'],
    ] as const) {
      const list = opOf(ops, 's.list');
      out.push({
        id: `${list.id}.search`,
        method: 'POST',
        path,
        auth: true,
        handle: (call) => list.handle({ ...call, query: searchQuery(call.body), body: undefined }),
      });
    }
  }
  return out;
}

/** GET, PUT and PATCH /Me (rfc7644#section-3.11), when served: the service account's user. */
function meEndpoints(deps: DiscoveryDeps): ScimOperation[] {
  const { b } = deps;
  const out: ScimOperation[] = [];
  if (b.endpoints.me === 'served') {
    // The token is a service account's: /Me stands for its user, made on first use.
    const serviceId = (): string => {
      const users = deps.store().users;
      for (const user of users.values()) {
        if (user.deleted || user.data.userName !== SERVICE_USER_NAME) continue;
        if (b.meSubject === 'stable') return user.id;
        user.deleted = true; // the fault me-subject-unstable: a new account on every call
      }
      const id = b.meSubject === 'stable' ? '5c300000-0000-4000-8000-000000000001' : `5c300000-0000-4000-8000-${String(users.size).padStart(12, '0')}`;
      const stamp = deps.now();
      users.set(id, {
        id,
        data: { userName: SERVICE_USER_NAME, name: { givenName: 'Service', familyName: 'Account' } },
        created: stamp,
        lastModified: stamp,
        deleted: false,
      });
      return id;
    };
    const alias = (method: HttpMethod, suffix: string): ScimOperation => {
      const target = opOf(deps.users, suffix);
      return {
        id: `scim.me.${method.toLowerCase()}`,
        method,
        path: '/Me',
        auth: true,
        handle: (call: Call<ScimContext>): Result => target.handle({ ...call, params: { id: serviceId() } }),
      };
    };
    out.push(alias('GET', 's.get'), alias('PUT', 's.replace'), alias('PATCH', 's.patch'));
  }
  return out;
}

export function discoveryOperations(deps: DiscoveryDeps): ScimOperation[] {
  return [...discoveryEndpoints(deps), ...searchEndpoints(deps), ...meEndpoints(deps)];
}
