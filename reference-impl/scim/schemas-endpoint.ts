import type { JsonObject } from '../rules/json.js';
import { type Attr, GROUP_SCHEMA, USER_SCHEMA } from './schema.js';

/** GET /Schemas (public-facts: supported): the schema definitions of rfc7643#section-7. */
const SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

function attribute(a: Attr): JsonObject {
  const out: JsonObject = {
    name: a.name,
    type: a.type,
    multiValued: a.multiValued,
    required: a.required,
    caseExact: a.caseExact,
    mutability: a.mutability,
    returned: a.returned,
    uniqueness: a.name === 'userName' || a.name === 'id' ? 'server' : 'none',
  };
  if (a.sub !== undefined) out.subAttributes = [...a.sub.values()].map(attribute);
  return out;
}

const COMMON = new Set(['schemas', 'id', 'externalId', 'meta']);

function definition(baseUrl: string, id: string, name: string, attrs: Iterable<Attr>): JsonObject {
  return {
    schemas: [SCHEMA_URN],
    id,
    name,
    attributes: [...attrs].filter((a) => !COMMON.has(a.name)).map(attribute),
    // rfc7643#section-3.1: the URI of the resource, absolute like the Users' and Groups'.
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${id}` },
  };
}

/** The Schema resources; `baseUrl` is the SCIM base (`http://host/scim/v2`) of their locations. */
export function schemaResources(baseUrl: string): JsonObject[] {
  return [
    definition(baseUrl, USER_SCHEMA.urn, 'User', USER_SCHEMA.core.values()),
    definition(baseUrl, GROUP_SCHEMA.urn, 'Group', GROUP_SCHEMA.core.values()),
    ...[...USER_SCHEMA.extensions.values()].map((e) => definition(baseUrl, e.urn, 'EnterpriseUser', e.attrs.values())),
  ];
}
