/**
 * The attributes of the SCIM User (with the enterprise extension) and Group resources and their
 * characteristics (rfc7643#section-4, rfc7643#section-8.7.1): the server reads `caseExact`,
 * `mutability`, `returned`, `required` and `multiValued` from here for filters, sorting,
 * projection, writes and PATCH.
 */
export type AttrType = 'string' | 'boolean' | 'dateTime' | 'reference' | 'complex' | 'integer';

export interface Attr {
  /** Canonical name as the server writes it. */
  readonly name: string;
  readonly type: AttrType;
  readonly multiValued: boolean;
  readonly caseExact: boolean;
  readonly mutability: 'readWrite' | 'readOnly' | 'writeOnly' | 'immutable';
  readonly returned: 'always' | 'never' | 'default';
  readonly required: boolean;
  readonly maxLength?: number;
  /** Sub-attributes of a complex attribute, by lower-case name. */
  readonly sub?: ReadonlyMap<string, Attr>;
}

export const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_URN = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

type Spec = Partial<Omit<Attr, 'name' | 'sub'>> & { sub?: Record<string, Spec> };

function attr(name: string, spec: Spec = {}): Attr {
  const sub = spec.sub === undefined ? undefined : new Map(Object.entries(spec.sub).map(([n, s]) => [n.toLowerCase(), attr(n, s)]));
  return {
    name,
    type: spec.type ?? (sub === undefined ? 'string' : 'complex'),
    multiValued: spec.multiValued ?? false,
    caseExact: spec.caseExact ?? false,
    mutability: spec.mutability ?? 'readWrite',
    returned: spec.returned ?? 'default',
    required: spec.required ?? false,
    ...(spec.maxLength === undefined ? {} : { maxLength: spec.maxLength }),
    ...(sub === undefined ? {} : { sub }),
  };
}

function table(specs: Record<string, Spec>): ReadonlyMap<string, Attr> {
  return new Map(Object.entries(specs).map(([n, s]) => [n.toLowerCase(), attr(n, s)]));
}

const multiValue = (extra: Record<string, Spec> = {}): Spec => ({
  multiValued: true,
  sub: { value: {}, display: {}, type: {}, primary: { type: 'boolean' }, ...extra },
});

const META: Spec = {
  mutability: 'readOnly',
  sub: {
    resourceType: { caseExact: true, mutability: 'readOnly' },
    created: { type: 'dateTime', mutability: 'readOnly' },
    lastModified: { type: 'dateTime', mutability: 'readOnly' },
    location: { type: 'reference', caseExact: true, mutability: 'readOnly' },
    version: { caseExact: true, mutability: 'readOnly' },
  },
};

const COMMON: Record<string, Spec> = {
  schemas: { multiValued: true, caseExact: true, type: 'reference', mutability: 'readOnly' },
  id: { caseExact: true, mutability: 'readOnly', returned: 'always' },
  externalId: { caseExact: true },
  meta: META,
};

export interface ResourceSchema {
  readonly resourceType: 'User' | 'Group';
  readonly endpoint: '/Users' | '/Groups';
  readonly urn: string;
  readonly core: ReadonlyMap<string, Attr>;
  /** Extension URN (lower case) → its attributes. */
  readonly extensions: ReadonlyMap<string, { readonly urn: string; readonly attrs: ReadonlyMap<string, Attr> }>;
}

export const USER_SCHEMA: ResourceSchema = {
  resourceType: 'User',
  endpoint: '/Users',
  urn: USER_URN,
  core: table({
    ...COMMON,
    userName: { required: true },
    name: {
      required: true,
      sub: { formatted: {}, familyName: {}, givenName: {}, middleName: {}, honorificPrefix: {}, honorificSuffix: {} },
    },
    displayName: {},
    nickName: {},
    profileUrl: { type: 'reference' },
    title: { maxLength: 255 },
    userType: {},
    preferredLanguage: { maxLength: 7 },
    locale: {},
    timezone: {},
    active: { type: 'boolean' },
    password: { mutability: 'writeOnly', returned: 'never', caseExact: true, maxLength: 255 },
    emails: multiValue(),
    phoneNumbers: multiValue(),
    addresses: {
      multiValued: true,
      sub: {
        formatted: {},
        streetAddress: {},
        locality: {},
        region: {},
        postalCode: {},
        country: {},
        type: {},
        primary: { type: 'boolean' },
      },
    },
    groups: {
      multiValued: true,
      mutability: 'readOnly',
      sub: {
        value: { caseExact: true, mutability: 'readOnly' },
        $ref: { type: 'reference', caseExact: true, mutability: 'readOnly' },
        display: { mutability: 'readOnly' },
        type: { mutability: 'readOnly' },
      },
    },
  }),
  extensions: new Map([
    [
      ENTERPRISE_URN.toLowerCase(),
      {
        urn: ENTERPRISE_URN,
        attrs: table({
          employeeNumber: {},
          costCenter: {},
          organization: {},
          division: {},
          department: {},
          manager: { sub: { value: { caseExact: true }, $ref: { type: 'reference', caseExact: true }, displayName: { mutability: 'readOnly' } } },
        }),
      },
    ],
  ]),
};

export const GROUP_SCHEMA: ResourceSchema = {
  resourceType: 'Group',
  endpoint: '/Groups',
  urn: GROUP_URN,
  core: table({
    ...COMMON,
    displayName: { required: true },
    members: {
      multiValued: true,
      sub: {
        value: { caseExact: true, mutability: 'immutable' },
        $ref: { type: 'reference', caseExact: true, mutability: 'immutable' },
        display: { mutability: 'readOnly' },
        type: { caseExact: false, mutability: 'immutable' },
      },
    },
  }),
  extensions: new Map(),
};

/** An attribute reference resolved against a schema: where it lives, its definition, an optional sub. */
export interface ResolvedPath {
  /** undefined for core attributes; the extension URN for extension attributes. */
  readonly urn: string | undefined;
  readonly attr: Attr;
  readonly sub: Attr | undefined;
}

/**
 * Resolves `name`, `name.sub`, `urn:…:name[.sub]` (case-insensitively, rfc7643#section-2.1);
 * undefined when the schema has no such attribute.
 */
export function resolvePath(schema: ResourceSchema, path: string): ResolvedPath | undefined {
  let urn: string | undefined;
  let rest = path;
  if (path.toLowerCase().startsWith('urn:')) {
    const cut = path.lastIndexOf(':');
    const prefix = path.slice(0, cut).toLowerCase();
    rest = path.slice(cut + 1);
    if (prefix === schema.urn.toLowerCase()) urn = undefined;
    else if (schema.extensions.has(prefix)) urn = schema.extensions.get(prefix)?.urn;
    else return undefined;
  }
  const parts = rest.split('.');
  if (parts.length > 2 || parts.some((p) => p === '')) return undefined;
  const attrs = urn === undefined ? schema.core : schema.extensions.get(urn.toLowerCase())?.attrs;
  const attr = attrs?.get((parts[0] ?? '').toLowerCase());
  if (attr === undefined) return undefined;
  if (parts.length === 1) return { urn, attr, sub: undefined };
  const sub = attr.sub?.get((parts[1] ?? '').toLowerCase());
  return sub === undefined ? undefined : { urn, attr, sub };
}

/** The User of a server that keeps a small core (an identity provider's app, ScimBehaviour.schema
 * `core`): these top-level attributes and name's formatted, familyName, givenName; no extension, no
 * derived `groups`. With `emailsRequired`, emails is required (and its values unique, index.ts). */
const CORE_USER = ['schemas', 'id', 'externalid', 'meta', 'username', 'name', 'displayname', 'emails', 'active'];
const CORE_NAME = ['formatted', 'familyname', 'givenname'];

function coreUser(emailsRequired: boolean): ResourceSchema {
  const core = new Map<string, Attr>();
  for (const key of CORE_USER) {
    const attr = USER_SCHEMA.core.get(key);
    if (attr === undefined) continue;
    if (key === 'name' && attr.sub !== undefined) core.set(key, { ...attr, sub: new Map([...attr.sub].filter(([k]) => CORE_NAME.includes(k))) });
    else if (key === 'emails') core.set(key, { ...attr, required: emailsRequired });
    else core.set(key, attr);
  }
  return { ...USER_SCHEMA, core, extensions: new Map() };
}

/** The User and Group schemas a server keeps: the full ones, or the small core. */
export function resourceSchemas(kind: 'full' | 'core', emailsRequired: boolean): { readonly user: ResourceSchema; readonly group: ResourceSchema } {
  if (kind === 'full' && !emailsRequired) return { user: USER_SCHEMA, group: GROUP_SCHEMA };
  const user =
    kind === 'core'
      ? coreUser(emailsRequired)
      : { ...USER_SCHEMA, core: new Map([...USER_SCHEMA.core].map(([k, a]) => [k, k === 'emails' ? { ...a, required: emailsRequired } : a])) };
  return { user, group: GROUP_SCHEMA };
}
