/**
 * The SCIM part of `lp-conformance openapi`: the RFC 7644 endpoints at the profile's routes, their
 * bodies the SCIM contracts (contracts/scim.*.yaml) as application/scim+json, a Bearer token (the
 * profile's, or the answer of the token exchange, public-facts "Authentication (SCIM)") or an access
 * token of the OAuth 2.0 authorization-code flow at the profile's addresses (expectations.scim.oauth). Statuses are
 * RFC 7644's: §3.3 (create 201, 409 uniqueness), §3.4.2 (query parameters, 400 invalidFilter), §3.5.1
 * (PUT 200), §3.5.2 (PATCH 200 with the resource or 204, as the profile says), §3.6 (DELETE 204), §3.12
 * (errors in the Error schema).
 */
import type { BuildOptions, ContractSchemas, JsonObject, OperationDescription } from '../../openapi/base/document.js';
import { describedPaths, embedContracts, USERNAME_PASSWORD } from '../../openapi/base/document.js';
import type { Profile } from '../../profile/base/types.js';
import { SCIM_OPERATIONS } from './operations.js';

const MEDIA = 'application/scim+json';
const ATTRIBUTES: JsonObject[] = [
  { name: 'attributes', in: 'query', required: false, description: 'Attributes to return, comma-separated (RFC 7644 §3.4.2.5).', schema: { type: 'string' } },
  {
    name: 'excludedAttributes',
    in: 'query',
    required: false,
    description: 'Attributes not to return, comma-separated (RFC 7644 §3.4.2.5).',
    schema: { type: 'string' },
  },
];
const QUERY: JsonObject[] = [
  { name: 'filter', in: 'query', required: false, description: 'A SCIM filter (RFC 7644 §3.4.2.2).', schema: { type: 'string' } },
  { name: 'startIndex', in: 'query', required: false, description: '1-based index of the first result (RFC 7644 §3.4.2.4).', schema: { type: 'integer' } },
  { name: 'count', in: 'query', required: false, description: 'Results per page (RFC 7644 §3.4.2.4).', schema: { type: 'integer' } },
  { name: 'sortBy', in: 'query', required: false, description: 'Attribute to sort by (RFC 7644 §3.4.2.3).', schema: { type: 'string' } },
  {
    name: 'sortOrder',
    in: 'query',
    required: false,
    description: 'ascending (default) or descending (RFC 7644 §3.4.2.3).',
    schema: { type: 'string', enum: ['ascending', 'descending'] },
  },
  ...ATTRIBUTES,
];
const ID = { type: 'string', minLength: 1 };
const UNAUTHORIZED = [401, 'the Bearer token is missing or not valid (RFC 7644 §3.12)'] as const;
const NOT_FOUND = [404, 'no resource has the id'] as const;
const INVALID = [400, 'the body or a parameter is not valid (scimType says why)'] as const;
const CONFLICT = [409, 'a unique attribute (userName, displayName) is taken: scimType uniqueness'] as const;

function resource(kind: 'Users' | 'Groups', contract: string, p: Profile): Record<string, OperationDescription> {
  const ops = kind === 'Users' ? (['users', 'User'] as const) : (['groups', 'Group'] as const);
  const [key, name] = ops;
  const patch = String(p.expectations.scim.patchSuccess);
  const patchStatuses = patch === 'either' ? [200, 204] : [Number(patch)];
  return {
    [`scim.${key}.create`]: {
      summary: `Create a ${name} (RFC 7644 §3.3)`,
      request: { contract, media: MEDIA },
      success: { statuses: [201], contract },
      errors: [INVALID, UNAUTHORIZED, CONFLICT],
    },
    [`scim.${key}.list`]: {
      summary: `Query ${kind} (RFC 7644 §3.4.2)`,
      query: QUERY,
      success: { statuses: [200], contract: 'scim/listResponse' },
      errors: [[400, 'the filter or another query parameter is not valid (invalidFilter, invalidValue)'], UNAUTHORIZED],
    },
    [`scim.${key}.get`]: {
      summary: `Get a ${name} (RFC 7644 §3.4.1)`,
      pathIds: { id: ID },
      query: ATTRIBUTES,
      success: { statuses: [200], contract },
      errors: [UNAUTHORIZED, NOT_FOUND],
    },
    [`scim.${key}.replace`]: {
      summary: `Replace a ${name} (RFC 7644 §3.5.1)`,
      pathIds: { id: ID },
      request: { contract, media: MEDIA },
      success: { statuses: [200], contract },
      errors: [INVALID, UNAUTHORIZED, NOT_FOUND, CONFLICT],
    },
    [`scim.${key}.patch`]: {
      summary: `Modify a ${name} (RFC 7644 §3.5.2)`,
      pathIds: { id: ID },
      request: { contract: 'scim/patchOp', media: MEDIA },
      success: { statuses: patchStatuses, contract, description: 'Success: 200 with the resource, or 204 without a body.' },
      errors: [INVALID, UNAUTHORIZED, NOT_FOUND, CONFLICT],
    },
    [`scim.${key}.delete`]: {
      summary: `Delete a ${name} (RFC 7644 §3.6)`,
      pathIds: { id: ID },
      success: { statuses: [204] },
      errors: [UNAUTHORIZED, NOT_FOUND],
    },
  };
}

/** The OpenAPI part of the profile's SCIM service provider. */
export function scimOpenApi(contracts: ContractSchemas, p: Profile, _options: BuildOptions): JsonObject {
  const operations: Record<string, OperationDescription> = {
    'scim.auth.token': {
      summary: 'Obtain a long-lived bearer token from a username and password (public facts)',
      request: {
        media: 'application/json',
        schema: USERNAME_PASSWORD,
      },
      success: { statuses: [200], contract: 'scim/token' },
      errors: [
        [400, 'a body field is missing'],
        [401, 'wrong credentials'],
      ],
      security: [],
    },
    ...resource('Users', 'scim/user', p),
    ...resource('Groups', 'scim/group', p),
    'scim.schemas.list': {
      summary: 'The schemas the service provider supports (RFC 7644 §4)',
      success: { statuses: [200], contract: 'scim/schemas' },
      errors: [UNAUTHORIZED],
    },
    'scim.schemas.get': {
      summary: 'A schema by its URI (RFC 7644 §4)',
      pathIds: { id: ID },
      success: { statuses: [200], contract: 'scim/schema' },
      errors: [UNAUTHORIZED, NOT_FOUND],
    },
  };
  const routes = Object.fromEntries(Object.keys(SCIM_OPERATIONS).map((id) => [id, p.operations[id as keyof typeof SCIM_OPERATIONS]]));
  return {
    servers: [{ url: p.families.scim.baseUrl, description: `SCIM 2.0 service provider (profile ${p.name})` }],
    paths: describedPaths({
      operations,
      routes,
      tag: () => 'scim',
      media: MEDIA,
      errorContract: 'scim/error',
      // A bearer token (the profile's, or the exchange's), or an access token of the OAuth flow.
      security: [{ scimBearer: [] }, { scimOAuth: [p.expectations.scim.oauth.scope] }],
      source: p.source,
    }),
    components: {
      schemas: embedContracts(contracts, 'scim/'),
      securitySchemes: {
        scimBearer: { type: 'http', scheme: 'bearer', description: "The profile's SCIM token, or the answer of scim.auth.token." },
        // The specification's recommended method (spec#scim-api): the OAuth 2.0 authorization-code flow,
        // at the addresses the profile declares under the SCIM base URL (expectations.scim.oauth).
        scimOAuth: {
          type: 'oauth2',
          description: 'An access token of the OAuth 2.0 authorization-code flow, sent as Authorization: Bearer.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${p.families.scim.baseUrl}${p.expectations.scim.oauth.authorizePath}`,
              tokenUrl: `${p.families.scim.baseUrl}${p.expectations.scim.oauth.tokenPath}`,
              refreshUrl: `${p.families.scim.baseUrl}${p.expectations.scim.oauth.tokenPath}`,
              scopes: { [p.expectations.scim.oauth.scope]: 'The SCIM API.' },
            },
          },
        },
      },
    },
  };
}
