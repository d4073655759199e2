/**
 * What the SCIM target is, as far as the checks need it (verdicts that stay true on
 * servers that are not ours), read once per target server:
 * - its User schema, from GET /Schemas (RFC 7643 §7): which attributes it lists, which are
 *   required, which hold unique values. Fixtures are built from it (`fitUser`): attributes it does
 *   not list are left out, required ones are filled in, and every value a server may hold unique is
 *   unique per run. A target that does not answer /Schemas is taken to have RFC 7643's User.
 * - what its `filter` supports: the profile's declaration (`expectations.scim.filter`), narrowed by
 *   /ServiceProviderConfig when the profile says it is served (`filter.supported: false`), and
 *   `sort` likewise (`sort.supported`);
 * - how a check confines a list to its own users (`scopeOf`): `userName sw "<prefix>"` where `sw`
 *   is supported (and a probe does not refuse it), else one `externalId eq` shared by the set, else
 *   `userName eq` joined by `or`; none when the filter can do none of these.
 */
import type { ScimFilterOperator, ScimFilterSupport } from '../../../src/families/scim/profile.js';

export type { ScimFilterSupport };
import type { Json } from '../records.js';
import { perServer } from '../records.js';
import type { CheckContext } from '../requirement.js';
import { runMarker } from '../marker.js';
import type { AttrPath, ScimFilter } from './filter.js';
import { SCIM_USER, type AttributeDescription, type ResourceSchema } from './filter.js';

export const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SPC_URN = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';

/** An attribute as the target's /Schemas describes it (RFC 7643 §7). */
export interface TargetAttribute {
  readonly name: string;
  readonly type: string;
  readonly multiValued: boolean;
  readonly required: boolean;
  /** `uniqueness` server or global: the target may refuse a value another resource holds. */
  readonly unique: boolean;
  readonly caseExact: boolean | undefined;
  /** Lower-case name → sub-attribute. */
  readonly sub: ReadonlyMap<string, TargetAttribute>;
}

export interface TargetSchema {
  /** Whether the target's /Schemas described its User (else RFC 7643 §4.1's User is assumed). */
  readonly described: boolean;
  /** Lower-case top-level name → attribute (common attributes id, externalId, meta, schemas are always there). */
  readonly user: ReadonlyMap<string, TargetAttribute>;
  /** Lower-case URNs of the User's schema extensions the target lists. */
  readonly extensions: ReadonlySet<string>;
  /** Lower-case paths (`name.givenname`; an extension's under its URN, `urn:…:user:manager.displayname`)
   * of the User's and its extensions' attributes and sub-attributes whose mutability is readOnly. */
  readonly readOnly: ReadonlySet<string>;
}

/** How a check confines a list to a set of users it created. */
export type ScopeStrategy = 'prefix' | 'externalId' | 'or';

export interface ScimTarget {
  readonly schema: TargetSchema;
  /** The filter support the checks judge against (profile, narrowed by discovery). */
  readonly filter: ScimFilterSupport;
  readonly sort: boolean;
  /** How list checks confine their lists to their own users; undefined: no way. */
  readonly scope: ScopeStrategy | undefined;
  /** Where the scope strategy came from, for skip reasons. */
  readonly why: string;
  /** The target's /ServiceProviderConfig, when the profile says it is served and it answered one (RFC 7643 §5). */
  readonly spc: Json | undefined;
}

const COMMON = new Set(['id', 'externalid', 'meta', 'schemas']);

// ---------------------------------------------------------------------------------------------
// /Schemas

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseAttribute(raw: Json): TargetAttribute | undefined {
  if (typeof raw.name !== 'string' || raw.name === '') return undefined;
  const subs = Array.isArray(raw.subAttributes) ? raw.subAttributes.filter(isObject).map(parseAttribute) : [];
  return {
    name: raw.name,
    type: typeof raw.type === 'string' ? raw.type : 'string',
    multiValued: raw.multiValued === true,
    required: raw.required === true,
    unique: raw.uniqueness === 'server' || raw.uniqueness === 'global',
    caseExact: typeof raw.caseExact === 'boolean' ? raw.caseExact : undefined,
    sub: new Map(subs.filter((s): s is TargetAttribute => s !== undefined).map((s) => [s.name.toLowerCase(), s])),
  };
}

/** RFC 7643 §4.1's User (and §4.3's extension), as the suite's evaluator describes it: for a target without /Schemas. */
function rfcSchema(): TargetSchema {
  const of = (a: AttributeDescription): TargetAttribute => ({
    name: a.name,
    type: a.type,
    multiValued: a.multiValued,
    required: a.name === 'userName',
    unique: a.name === 'userName',
    caseExact: a.caseExact === 'either' ? undefined : a.caseExact,
    sub: new Map((a.subAttributes ?? []).map((s) => [s.name.toLowerCase(), of(s)])),
  });
  return {
    described: false,
    user: new Map(SCIM_USER.attributes.map((a) => [a.name.toLowerCase(), of(a)])),
    extensions: new Set(Object.keys(SCIM_USER.extensions).map((u) => u.toLowerCase())),
    readOnly: RFC_READ_ONLY,
  };
}

/** The User's read-only attributes of RFC 7643 (§3.1, §4.1.2 `groups`, §4.3 `manager.displayName`): for a target without /Schemas. */
const RFC_READ_ONLY: ReadonlySet<string> = new Set(['id', 'meta', 'groups', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user:manager.displayname']);

/** The read-only paths of a schema's attributes (RFC 7643 §7 `mutability`), under `prefix`. */
function readOnlyPaths(attributes: readonly unknown[], prefix: string): string[] {
  return attributes.filter(isObject).flatMap((a) => {
    if (typeof a.name !== 'string') return [];
    const path = `${prefix}${a.name.toLowerCase()}`;
    const subs = Array.isArray(a.subAttributes) ? readOnlyPaths(a.subAttributes, `${path}.`) : [];
    return a.mutability === 'readOnly' ? [path, ...subs] : subs;
  });
}

async function readSchema(t: CheckContext): Promise<TargetSchema> {
  const res = await t.http.send({ op: 'scim.schemas.list' });
  const body = isObject(res.json) ? res.json : {};
  const resources = res.status === 200 && Array.isArray(body.Resources) ? body.Resources.filter(isObject) : [];
  const user = resources.find((r) => typeof r.id === 'string' && r.id.toLowerCase() === USER_URN.toLowerCase());
  if (!user || !Array.isArray(user.attributes)) return rfcSchema();
  const attributes = user.attributes.filter(isObject).map(parseAttribute);
  const ids = resources.map((r) => (typeof r.id === 'string' ? r.id.toLowerCase() : '')).filter((id) => id.startsWith('urn:') && id !== USER_URN.toLowerCase());
  // A listed extension of the User (the Group's schema is listed too; it is not an extension).
  const extensions = new Set(ids.filter((id) => id.includes(':extension:') && id.endsWith(':user')));
  const extensionReadOnly = resources
    .filter((r) => typeof r.id === 'string' && extensions.has(r.id.toLowerCase()) && Array.isArray(r.attributes))
    .flatMap((r) => readOnlyPaths(r.attributes as unknown[], `${String(r.id).toLowerCase()}:`));
  return {
    described: true,
    user: new Map(attributes.filter((a): a is TargetAttribute => a !== undefined).map((a) => [a.name.toLowerCase(), a])),
    extensions,
    readOnly: new Set([...readOnlyPaths(user.attributes, ''), ...extensionReadOnly]),
  };
}

// ---------------------------------------------------------------------------------------------
// Discovery, the profile's declaration, and the probe

async function readServiceProviderConfig(t: CheckContext): Promise<Json | undefined> {
  if (t.profile.expectations.scim.unsupported.includes('/ServiceProviderConfig')) return undefined;
  const res = await t.http.send({ op: 'scim.schemas.list', route: { method: 'GET', path: '/ServiceProviderConfig' } });
  const body = isObject(res.json) ? res.json : undefined;
  const schemas = body?.schemas;
  return res.status === 200 && Array.isArray(schemas) && schemas.some((s) => typeof s === 'string' && s.toLowerCase() === SPC_URN.toLowerCase())
    ? body
    : undefined;
}

const NO_FILTER: ScimFilterSupport = { operators: [], logical: [], attributes: 'all', valuePaths: false };

export const supportsAttribute = (filter: ScimFilterSupport, name: string): boolean =>
  filter.attributes === 'all' || filter.attributes.some((a) => a.toLowerCase() === name.toLowerCase());
export const supportsOperator = (filter: ScimFilterSupport, op: ScimFilterOperator): boolean => filter.operators.includes(op);
export const supportsLogical = (filter: ScimFilterSupport, op: 'and' | 'or' | 'not'): boolean => filter.logical.includes(op);

/** Whether the target refuses `userName sw` (400): a probe with a prefix no user has. */
async function refusesStartsWith(t: CheckContext): Promise<boolean> {
  const res = await t.http.send({ op: 'scim.users.list', query: { filter: `userName sw ${JSON.stringify(`${runMarker(t)}probe-`)}`, count: 1 } });
  return res.status === 400;
}

export const scimTargetOf = perServer(async (t): Promise<ScimTarget> => {
  const declared = t.profile.expectations.scim;
  const schema = await readSchema(t);
  const spc = await readServiceProviderConfig(t);
  const spcFilter = isObject(spc?.filter) ? spc.filter : undefined;
  const spcSort = isObject(spc?.sort) ? spc.sort : undefined;
  const filter = spcFilter?.supported === false ? NO_FILTER : declared.filter;
  const sort = declared.sort && spcSort?.supported !== false;
  const eq = (name: string): boolean => supportsOperator(filter, 'eq') && supportsAttribute(filter, name);
  let scope: ScopeStrategy | undefined;
  let why = 'the filter the profile declares (expectations.scim.filter)';
  if (supportsOperator(filter, 'sw') && supportsAttribute(filter, 'userName') && supportsLogical(filter, 'and')) {
    if (await refusesStartsWith(t)) why = 'the target refused `userName sw` (400) although the profile declares sw';
    else scope = 'prefix';
  }
  if (scope === undefined && eq('externalId') && !(schema.user.get('externalid')?.unique ?? false)) scope = 'externalId';
  else if (scope === undefined && eq('userName') && supportsLogical(filter, 'or')) scope = 'or';
  if (spcFilter?.supported === false) why = '/ServiceProviderConfig says filter.supported false';
  return { schema, filter, sort, scope, why, spc };
});

// ---------------------------------------------------------------------------------------------
// Filters within the support

interface Usage {
  operators: Set<ScimFilterOperator>;
  logical: Set<'and' | 'or' | 'not'>;
  attributes: Set<string>;
  valuePaths: boolean;
}

/** The top-level attribute a path names (`emails` of `emails.value`). */
const topOf = (path: AttrPath): string => path.name;

function usageOf(filter: ScimFilter, into: Usage = { operators: new Set(), logical: new Set(), attributes: new Set(), valuePaths: false }): Usage {
  switch (filter.kind) {
    case 'compare':
      into.operators.add(filter.op);
      into.attributes.add(topOf(filter.path));
      break;
    case 'present':
      into.operators.add('pr');
      into.attributes.add(topOf(filter.path));
      break;
    case 'and':
    case 'or':
      into.logical.add(filter.kind);
      usageOf(filter.left, into);
      usageOf(filter.right, into);
      break;
    case 'not':
      into.logical.add('not');
      usageOf(filter.operand, into);
      break;
    case 'group':
      usageOf(filter.operand, into);
      break;
    case 'valuePath': {
      into.valuePaths = true;
      into.attributes.add(topOf(filter.path));
      // Inside brackets the names are sub-attributes: their operators and logic count, not their names.
      const inner = usageOf(filter.filter);
      for (const op of inner.operators) into.operators.add(op);
      for (const l of inner.logical) into.logical.add(l);
      break;
    }
  }
  return into;
}

/** What of `filter` the support lacks, in words (`'or', the attribute title`); undefined when it supports all of it. */
export function unsupportedIn(filter: ScimFilter, support: ScimFilterSupport): string | undefined {
  const used = usageOf(filter);
  const missing = [
    ...[...used.operators].filter((op) => !supportsOperator(support, op)).map((op) => `'${op}'`),
    ...[...used.logical].filter((op) => !supportsLogical(support, op)).map((op) => `'${op}'`),
    ...[...used.attributes].filter((a) => !supportsAttribute(support, a)).map((a) => `the attribute ${a}`),
    ...(used.valuePaths && !support.valuePaths ? ['value paths'] : []),
  ];
  return missing.length === 0 ? undefined : missing.join(', ');
}

/** The evaluator's User narrowed to what the target's filter names (an attribute outside it may be refused). */
export function filterableUser(support: ScimFilterSupport): ResourceSchema {
  if (support.attributes === 'all') return SCIM_USER;
  return {
    schema: SCIM_USER.schema,
    attributes: SCIM_USER.attributes.filter((a) => supportsAttribute(support, a.name)),
    extensions: {},
  };
}

// ---------------------------------------------------------------------------------------------
// Fixtures fitted to the target's schema

/** Whether the target's User has the attribute (`title`, or a sub-attribute `name.givenName`). */
export function hasAttribute(schema: TargetSchema, path: string): boolean {
  const [top = '', sub] = path.toLowerCase().split('.');
  if (COMMON.has(top)) return true;
  const attr = schema.user.get(top);
  return attr !== undefined && (sub === undefined || attr.sub.has(sub));
}

/** Skips the check unless the target's User has every one of the attributes its rule is about. */
export async function requireUserAttributes(t: CheckContext, paths: readonly string[]): Promise<void> {
  const { schema } = await scimTargetOf(t);
  const missing = paths.filter((p) => !hasAttribute(schema, p));
  if (missing.length > 0) t.skip(`the target's User (GET /Schemas) has no ${missing.join(', ')} (optional in RFC 7643 §4.1)`);
}

/** An email address no other user of any run has: the run's marker, a tag and a seeded tail. */
export function uniqueEmail(t: CheckContext, tag: string): string {
  return `${runMarker(t)}${tag}-${t.uuid().slice(0, 8)}@example.com`.toLowerCase();
}

/** Whether `filler` can make a value for the attribute. */
const fillable = (attr: TargetAttribute): boolean =>
  ['emails', 'name'].includes(attr.name.toLowerCase()) || (!attr.multiValued && (attr.type === 'boolean' || attr.type === 'string'));

/** A value for a required attribute the check did not give: a marked unique string, true, or undefined (none can be made). */
function filler(t: CheckContext, attr: TargetAttribute): unknown {
  const lower = attr.name.toLowerCase();
  if (lower === 'emails') return [{ value: uniqueEmail(t, 'req'), type: 'work', primary: true }];
  if (lower === 'name') {
    const name: Json = {};
    if (attr.sub.size === 0 || attr.sub.has('givenname')) name.givenName = 'Lpc';
    if (attr.sub.size === 0 || attr.sub.has('familyname')) name.familyName = 'Check';
    return name;
  }
  if (attr.type === 'boolean' && !attr.multiValued) return true;
  if (attr.type === 'string' && !attr.multiValued) return `${runMarker(t)}req-${t.uuid().slice(0, 8)}`;
  return undefined;
}

const empty = (v: unknown): boolean => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The attributes this target turned out to require beyond what its /Schemas says: named by the
 * detail of a refusal of a user body that lacked them (RFC 7644 §3.12 `detail`). Once learned, every
 * user body the checks send carries them, for the rest of the run (unique per run: `filler`).
 */
const learnedOf = perServer(() => Promise.resolve(new Set<string>()));

/** How a body is fitted and sent: `minimal`, the minimal user (scim.users.create-201 judges it),
 * carries no learned attribute; `refusal`, a body the check means to be refused (its second answer
 * is the check's to judge, not the end of its set-up). */
export interface FitOptions {
  readonly minimal?: boolean;
  readonly refusal?: boolean;
}

/** Whether a fitted body carries the attribute (lower-case name) in every user: required by /Schemas, declared by the profile, or learned. */
export async function requiredOf(t: CheckContext, lower: string, options: FitOptions = {}): Promise<boolean> {
  const { schema } = await scimTargetOf(t);
  if (schema.user.get(lower)?.required === true) return true;
  if (t.profile.expectations.scim.userRequires.some((a) => a.toLowerCase() === lower)) return true;
  return options.minimal !== true && (await learnedOf(t)).has(lower);
}

/**
 * Learns from a refused user body: the attributes the answer's `detail` names that the body lacked
 * (present in the target's User, userName never, and ones a fixture can fill); a check whose rule is
 * a refusal (`refusal`) learns only attributes its body left out. Returns their names;
 * empty when the refusal names none (the check judges it as it is).
 */
export async function learnFromRefusal(t: CheckContext, sent: Json, res: { status: number; json?: unknown }, options: FitOptions = {}): Promise<string[]> {
  if (res.status !== 400 || !isObject(res.json) || typeof res.json.detail !== 'string') return [];
  const { schema } = await scimTargetOf(t);
  const named = new Set((res.json.detail.match(/[A-Za-z][A-Za-z0-9$_]*/g) ?? []).map((w) => w.toLowerCase()));
  const learned = await learnedOf(t);
  const found: string[] = [];
  for (const lower of named) {
    const attr = schema.user.get(lower);
    if (attr === undefined || lower === 'username' || COMMON.has(lower) || !fillable(attr)) continue;
    // Lacked: absent, or (a check clearing it, not one whose rule is a refusal) null or []. A value the
    // check sent, an empty string included, is the check's and the refusal is about it.
    const key = Object.keys(sent).find((k) => k.toLowerCase() === lower);
    const cleared = key !== undefined && (sent[key] === null || (Array.isArray(sent[key]) && sent[key].length === 0));
    if (key !== undefined && (options.refusal === true || !cleared)) continue;
    learned.add(lower);
    found.push(attr.name);
  }
  return found;
}

/**
 * A User body the target can take: attributes (and sub-attributes, extensions) its /Schemas does not
 * list are left out, and required ones the body lacks are filled in (userName never: a check
 * without one means it): those /Schemas marks required, those the profile declares
 * (`expectations.scim.userRequires`) and, unless `minimal`, those a refusal named (`learnFromRefusal`).
 * Values the check gives are kept as given (the check makes them unique).
 */
export async function fitUser(t: CheckContext, body: Json, options: FitOptions = {}): Promise<Json> {
  const { schema } = await scimTargetOf(t);
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    const lower = key.toLowerCase();
    if (lower === 'schemas' && Array.isArray(value)) {
      out[key] = value.filter((s) => typeof s !== 'string' || s.toLowerCase() === USER_URN.toLowerCase() || schema.extensions.has(s.toLowerCase()));
    } else if (lower.startsWith('urn:')) {
      if (schema.extensions.has(lower)) out[key] = value;
    } else if (COMMON.has(lower)) {
      out[key] = value;
    } else {
      const attr = schema.user.get(lower);
      if (attr === undefined) continue;
      out[key] = attr.sub.size > 0 && isObject(value) ? Object.fromEntries(Object.entries(value).filter(([k]) => attr.sub.has(k.toLowerCase()))) : value;
    }
  }
  for (const attr of schema.user.values()) {
    const lower = attr.name.toLowerCase();
    if (lower === 'username' || !(await requiredOf(t, lower, options))) continue;
    const key = Object.keys(out).find((k) => k.toLowerCase() === lower);
    if (key !== undefined && !empty(out[key])) continue;
    const value = filler(t, attr);
    if (value !== undefined) out[key ?? attr.name] = value;
  }
  return out;
}
