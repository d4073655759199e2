import type { JsonObject } from '../rules/json.js';
import type { Attr, ResourceSchema } from './schema.js';

/** GET /Schemas (public-facts: supported): the schema definitions of rfc7643#section-7. */
const SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** rfc7643#section-7 `uniqueness`: userName and id are the server's; with unique emails, their values too. */
function uniquenessOf(a: Attr, path: string, emailsUnique: boolean): string {
  return path === 'userName' || path === 'id' || (emailsUnique && path === 'emails.value') ? 'server' : 'none';
}

function attribute(a: Attr, emailsUnique: boolean, parent?: string): JsonObject {
  const path = parent === undefined ? a.name : `${parent}.${a.name}`;
  const out: JsonObject = {
    name: a.name,
    type: a.type,
    multiValued: a.multiValued,
    required: a.required,
    caseExact: a.caseExact,
    mutability: a.mutability,
    returned: a.returned,
    uniqueness: uniquenessOf(a, path, emailsUnique),
  };
  if (a.sub !== undefined) out.subAttributes = [...a.sub.values()].map((s) => attribute(s, emailsUnique, path));
  return out;
}

const COMMON = new Set(['schemas', 'id', 'externalId', 'meta']);

function definition(baseUrl: string, id: string, name: string, attrs: Iterable<Attr>, emailsUnique: boolean): JsonObject {
  return {
    schemas: [SCHEMA_URN],
    id,
    name,
    attributes: [...attrs].filter((a) => !COMMON.has(a.name)).map((a) => attribute(a, emailsUnique)),
    // rfc7643#section-3.1: the URI of the resource, absolute like the Users' and Groups'.
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${id}` },
  };
}

/** One attribute definition of rfc7643#section-8.7.2's Schema schema. */
const characteristic = (name: string, type: string, extra: JsonObject = {}): JsonObject => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readOnly',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** The characteristics an attribute definition carries (rfc7643#section-7), as section 8.7.2 lists them. */
const CHARACTERISTICS: readonly JsonObject[] = [
  characteristic('name', 'string', { required: true, caseExact: true }),
  characteristic('type', 'string', { required: true, canonicalValues: ['string', 'complex', 'boolean', 'decimal', 'integer', 'dateTime', 'reference'] }),
  characteristic('multiValued', 'boolean', { required: true }),
  characteristic('description', 'string', { caseExact: true }),
  characteristic('required', 'boolean'),
  characteristic('canonicalValues', 'string', { multiValued: true, caseExact: true }),
  characteristic('caseExact', 'boolean'),
  characteristic('mutability', 'string', { caseExact: true, canonicalValues: ['readOnly', 'readWrite', 'immutable', 'writeOnly'] }),
  characteristic('returned', 'string', { caseExact: true, canonicalValues: ['always', 'never', 'default', 'request'] }),
  characteristic('uniqueness', 'string', { caseExact: true, canonicalValues: ['none', 'server', 'global'] }),
  characteristic('referenceTypes', 'string', { multiValued: true, caseExact: true }),
];

/**
 * The Schema resource's own schema as rfc7643#section-8.7.2 represents it: `attributes` is complex,
 * and its sub-attribute `subAttributes` is complex with sub-attributes of its own (which section
 * 2.3.8 forbids for the attributes of ordinary resources).
 */
function schemaSchema(baseUrl: string): JsonObject {
  return {
    schemas: [SCHEMA_URN],
    id: SCHEMA_URN,
    name: 'Schema',
    description: 'Specifies the schema attribute definitions',
    attributes: [
      characteristic('id', 'string', { required: true, caseExact: true }),
      characteristic('name', 'string', { caseExact: true }),
      characteristic('description', 'string', { caseExact: true }),
      characteristic('attributes', 'complex', {
        multiValued: true,
        required: true,
        subAttributes: [...CHARACTERISTICS, characteristic('subAttributes', 'complex', { multiValued: true, subAttributes: [...CHARACTERISTICS] })],
      }),
    ],
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCHEMA_URN}` },
  };
}

/** The Schema resources of the server's User and Group; `baseUrl` is the SCIM base (`http://host/scim/v2`) of their locations. */
export function schemaResources(baseUrl: string, user: ResourceSchema, group: ResourceSchema, emailsUnique: boolean, withSchemaSchema = false): JsonObject[] {
  return [
    ...(withSchemaSchema ? [schemaSchema(baseUrl)] : []),
    definition(baseUrl, user.urn, 'User', user.core.values(), emailsUnique),
    definition(baseUrl, group.urn, 'Group', group.core.values(), emailsUnique),
    ...[...user.extensions.values()].map((e) => definition(baseUrl, e.urn, 'EnterpriseUser', e.attrs.values(), emailsUnique)),
  ];
}
