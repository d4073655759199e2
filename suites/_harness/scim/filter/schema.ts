// Attribute descriptions the evaluator reads (RFC 7643 section 2.2 characteristics, the ones a
// filter's meaning depends on) and the RFC's own User, Enterprise User and Group schemas.
//
// caseExact is `true`, `false` or `'either'`: 'either' where the RFC says both (a value the prose
// calls case exact, the schema text of section 8.7.1 `"caseExact": false`), so that
// RFC-following servers may compare either way and the evaluator answers 'ambiguous' where the
// two readings differ:
// - references (RFC 7643 section 2.3.7: "A reference is case exact") and binary values
//   (section 2.3.6: "case exact") that section 8.7.1 declares `"caseExact": false`
//   (profileUrl, photos.value, groups.$ref, members.$ref, manager.$ref, x509Certificates.value);
// - identifiers of other resources (groups.value, members.value, manager.value): the `id` they
//   hold is case exact (section 3.1), their schema text says false;
// - schemas (URIs; section 3 sets no caseExact), meta.location (a reference) and meta.version
//   (an entity tag, compared as opaque text, for which section 3.1 sets no caseExact).
// id, externalId (section 3.1) and meta.resourceType (section 3.1) are case exact.

export type AttributeType = 'string' | 'boolean' | 'dateTime' | 'decimal' | 'integer' | 'complex' | 'reference' | 'binary';

export interface AttributeDescription {
  readonly name: string;
  readonly type: AttributeType;
  readonly multiValued: boolean;
  /** RFC 7643 section 2.2; meaningful for string, reference and binary values. */
  readonly caseExact: boolean | 'either';
  readonly subAttributes?: readonly AttributeDescription[];
  /** RFC 7643 section 2.2 `returned`; 'never' (password) makes the value invisible to a filter check. */
  readonly returned?: 'always' | 'never' | 'default' | 'request';
}

/** A resource type as the evaluator sees it: its core schema and its schema extensions. */
export interface ResourceSchema {
  /** Core schema URN (`urn:ietf:params:scim:schemas:core:2.0:User`): its attributes sit at the top of a resource. */
  readonly schema: string;
  /** Attributes of the core schema, common attributes (id, externalId, meta, schemas) included. */
  readonly attributes: readonly AttributeDescription[];
  /** Extension URN -> its attributes, found in a resource under the URN's key. */
  readonly extensions: Readonly<Record<string, readonly AttributeDescription[]>>;
}

export const USER_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

type Options = Partial<Pick<AttributeDescription, 'multiValued' | 'caseExact' | 'returned' | 'subAttributes'>>;

function attribute(name: string, type: AttributeType, options: Options = {}): AttributeDescription {
  // RFC 7643 section 2.2: caseExact defaults to false, multiValued is false unless said.
  return { name, type, multiValued: options.multiValued ?? false, caseExact: options.caseExact ?? false, ...pick(options) };
}

function pick(options: Options): Pick<AttributeDescription, 'returned' | 'subAttributes'> {
  return {
    ...(options.returned === undefined ? {} : { returned: options.returned }),
    ...(options.subAttributes === undefined ? {} : { subAttributes: options.subAttributes }),
  };
}

const text = (name: string, caseExact: boolean | 'either' = false): AttributeDescription => attribute(name, 'string', { caseExact });
const complex = (name: string, subAttributes: readonly AttributeDescription[], multiValued = false): AttributeDescription =>
  attribute(name, 'complex', { subAttributes, multiValued });

/** RFC 7643 section 2.4: the usual sub-attributes of a multi-valued attribute, `value` typed as given. */
function multiValued(name: string, value: AttributeDescription, extra: readonly AttributeDescription[] = []): AttributeDescription {
  return complex(name, [value, text('display'), text('type'), attribute('primary', 'boolean'), ...extra], true);
}

/** RFC 7643 section 3.1: id, externalId, meta; section 3: schemas. */
const COMMON: readonly AttributeDescription[] = [
  attribute('id', 'string', { caseExact: true, returned: 'always' }),
  text('externalId', true),
  complex('meta', [
    text('resourceType', true),
    attribute('created', 'dateTime'),
    attribute('lastModified', 'dateTime'),
    attribute('location', 'reference', { caseExact: 'either' }),
    text('version', 'either'),
  ]),
  attribute('schemas', 'reference', { multiValued: true, caseExact: 'either' }),
];

/** RFC 7643 section 4.1 (and 8.7.1): the User resource. */
export const SCIM_USER: ResourceSchema = {
  schema: USER_SCHEMA_URN,
  attributes: [
    ...COMMON,
    text('userName'),
    complex('name', [text('formatted'), text('familyName'), text('givenName'), text('middleName'), text('honorificPrefix'), text('honorificSuffix')]),
    text('displayName'),
    text('nickName'),
    attribute('profileUrl', 'reference', { caseExact: 'either' }),
    text('title'),
    text('userType'),
    text('preferredLanguage'),
    text('locale'),
    text('timezone'),
    attribute('active', 'boolean'),
    attribute('password', 'string', { returned: 'never' }),
    multiValued('emails', text('value')),
    multiValued('phoneNumbers', text('value')),
    multiValued('ims', text('value')),
    multiValued('photos', attribute('value', 'reference', { caseExact: 'either' })),
    complex(
      'addresses',
      [
        text('formatted'),
        text('streetAddress'),
        text('locality'),
        text('region'),
        text('postalCode'),
        text('country'),
        text('type'),
        attribute('primary', 'boolean'),
      ],
      true,
    ),
    complex('groups', [text('value', 'either'), attribute('$ref', 'reference', { caseExact: 'either' }), text('display'), text('type')], true),
    multiValued('entitlements', text('value')),
    multiValued('roles', text('value')),
    multiValued('x509Certificates', attribute('value', 'binary', { caseExact: 'either' })),
  ],
  extensions: {
    // RFC 7643 section 4.3.
    [ENTERPRISE_USER_URN]: [
      text('employeeNumber'),
      text('costCenter'),
      text('organization'),
      text('division'),
      text('department'),
      complex('manager', [text('value', 'either'), attribute('$ref', 'reference', { caseExact: 'either' }), text('displayName')]),
    ],
  },
};

/** RFC 7643 section 4.2 (and 8.7.1): the Group resource. */
export const SCIM_GROUP: ResourceSchema = {
  schema: GROUP_SCHEMA_URN,
  attributes: [
    ...COMMON,
    text('displayName'),
    complex('members', [text('value', 'either'), attribute('$ref', 'reference', { caseExact: 'either' }), text('type'), text('display')], true),
  ],
  extensions: {},
};
