import { isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import { badRequest } from './errors.js';
import { type Attr, type ResourceSchema, resolvePath } from './schema.js';
import type { ScimRecord, ScimStore } from './store.js';

/**
 * Bodies in and representations out: a POST/PUT body (or a PATCHed resource) becomes the stored
 * wire form with canonical attribute names (rfc7643#section-2.1: names are case-insensitive);
 * `null` and `[]` unassign (rfc7643#section-2.5); read-only attributes are ignored
 * (rfc7644#section-3.3). Representations carry `schemas`, `id`, `meta` and, for users, the derived
 * `groups`, projected by `attributes` / `excludedAttributes` (rfc7644#section-3.4.2.5).
 */
const codePoints = (s: string): number => [...s].length;

function isEmpty(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

function simpleValue(attr: Attr, value: JsonValue, where: string): JsonValue {
  switch (attr.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw badRequest('invalidValue', `${where} must be a boolean.`);
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest('invalidValue', `${where} must be an integer.`);
      return value;
    case 'dateTime':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw badRequest('invalidValue', `${where} must be a dateTime.`);
      return value;
    default:
      if (typeof value !== 'string') throw badRequest('invalidValue', `${where} must be a string.`);
      if (attr.maxLength !== undefined && codePoints(value) > attr.maxLength) {
        throw badRequest('invalidValue', `${where} must be at most ${attr.maxLength} characters.`);
      }
      return value;
  }
}

function complexValue(attr: Attr, value: JsonValue, where: string): JsonObject | undefined {
  if (!isJsonObject(value)) throw badRequest('invalidValue', `${where} must be an object.`);
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const sub = attr.sub?.get(key.toLowerCase());
    if (sub === undefined) throw badRequest('invalidSyntax', `${where} has no sub-attribute '${key}'.`);
    if (sub.mutability === 'readOnly' || isEmpty(v) || v === null) continue;
    out[sub.name] = simpleValue(sub, v, `${where}.${sub.name}`);
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** One attribute's value, checked and canonicalised; undefined = unassigned. */
export function attributeValue(attr: Attr, value: JsonValue, where = attr.name): JsonValue | undefined {
  if (isEmpty(value)) return undefined;
  if (attr.multiValued) {
    const list = Array.isArray(value) ? value : [value];
    const out: JsonValue[] = [];
    for (const [i, item] of list.entries()) {
      if (item === null) continue;
      const v = attr.sub === undefined ? simpleValue(attr, item, `${where}[${i}]`) : complexValue(attr, item, `${where}[${i}]`);
      if (v !== undefined) out.push(v);
    }
    if (attr.sub?.has('primary') && out.filter((v) => isJsonObject(v) && v.primary === true).length > 1) {
      throw badRequest('invalidValue', `At most one value of ${where} may be primary.`);
    }
    return out.length === 0 ? undefined : out;
  }
  if (Array.isArray(value)) throw badRequest('invalidValue', `${where} is single-valued.`);
  return attr.sub === undefined ? simpleValue(attr, value, where) : complexValue(attr, value, where);
}

/** The attributes of an object (core or extension) into `out`, read-only ones ignored. */
function readAttributes(attrs: ReadonlyMap<string, Attr>, body: JsonObject, out: JsonObject, where: string): void {
  for (const [key, value] of Object.entries(body)) {
    const attr = attrs.get(key.toLowerCase());
    if (attr === undefined) throw badRequest('invalidSyntax', `Unknown attribute '${where}${key}'.`);
    if (attr.mutability === 'readOnly') continue;
    const v = attributeValue(attr, value, `${where}${attr.name}`);
    if (v !== undefined) out[attr.name] = v;
  }
}

/** A body's attributes in stored form (no checks of required attributes or references). */
export function readBody(schema: ResourceSchema, body: unknown): JsonObject {
  if (!isJsonObject(body)) throw badRequest('invalidSyntax', 'The body must be a JSON object.');
  const schemas = body.schemas ?? body.Schemas;
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === schema.urn.toLowerCase())) {
    throw badRequest('invalidSyntax', `schemas must contain ${schema.urn}.`);
  }
  const core: JsonObject = {};
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    if (key.toLowerCase() === 'schemas') continue;
    if (key.toLowerCase().startsWith('urn:')) {
      const ext = schema.extensions.get(key.toLowerCase());
      if (ext === undefined) throw badRequest('invalidSyntax', `Unknown schema '${key}'.`);
      if (isEmpty(value)) continue;
      if (!isJsonObject(value)) throw badRequest('invalidValue', `${key} must be an object.`);
      const extOut: JsonObject = {};
      readAttributes(ext.attrs, value, extOut, `${ext.urn}:`);
      if (Object.keys(extOut).length > 0) out[ext.urn] = extOut;
    } else {
      core[key] = value;
    }
  }
  const coreOut: JsonObject = {};
  readAttributes(schema.core, core, coreOut, '');
  return { ...coreOut, ...out };
}

/** Required attributes present (rfc7643#section-4: userName, and name per public-facts; Group displayName). */
export function checkRequired(schema: ResourceSchema, data: JsonObject): void {
  for (const attr of schema.core.values()) {
    if (!attr.required) continue;
    const v = data[attr.name];
    if (v === undefined || v === '') throw badRequest('invalidValue', `${attr.name} is required.`);
  }
}

/** Group members name live users or groups; stored as {value, type}. */
export function checkMembers(store: ScimStore, data: JsonObject, references: ScimBehaviour['writes']['memberReferences']): void {
  const members = data.members;
  if (!Array.isArray(members)) return;
  const seen = new Set<string>();
  data.members = members.flatMap((m) => {
    if (!isJsonObject(m) || typeof m.value !== 'string') throw badRequest('invalidValue', 'Every member needs a value.');
    const user = store.users.get(m.value);
    const group = store.groups.get(m.value);
    const type = user !== undefined && !user.deleted ? 'User' : group !== undefined && !group.deleted ? 'Group' : undefined;
    if (type === undefined && references === 'checked') throw badRequest('invalidValue', `members: no resource with id ${m.value}.`);
    if (seen.has(m.value)) return [];
    seen.add(m.value);
    return [{ value: m.value, type: type ?? 'User' }];
  });
}

// --- representations --------------------------------------------------------------------------

export interface ViewContext {
  readonly baseUrl: string;
  readonly store: ScimStore;
  readonly b: ScimBehaviour;
  /** userId → groups it is a direct member of (built once per request). */
  readonly groupsOf: () => ReadonlyMap<string, readonly ScimRecord[]>;
}

/**
 * userId → the groups it is a direct member of, in the groups' stored order. Kept per store and
 * rebuilt only when a group changed: a group's `data` is replaced whole by every write, and its
 * `members` replaced (never changed in place) when a deletion drops a member, so the group record,
 * its `data`, its `members` and its `deleted` flag, compared in order, tell whether the index still
 * holds (a pass over the groups instead of over every membership on each request).
 */
interface MembershipCache {
  readonly stamps: unknown[];
  readonly index: Map<string, ScimRecord[]>;
}
const memberships = new WeakMap<ScimStore, MembershipCache>();

export function membershipIndex(store: ScimStore): Map<string, ScimRecord[]> {
  const cached = memberships.get(store);
  if (cached !== undefined && stampsHold(store, cached.stamps)) return cached.index;
  const stamps: unknown[] = [];
  const index = new Map<string, ScimRecord[]>();
  for (const group of store.groups.values()) {
    stamps.push(group, group.data, group.data.members, group.deleted);
    if (group.deleted) continue;
    const members = group.data.members;
    if (!Array.isArray(members)) continue;
    for (const m of members) {
      if (!isJsonObject(m) || typeof m.value !== 'string') continue;
      const list = index.get(m.value) ?? [];
      list.push(group);
      index.set(m.value, list);
    }
  }
  memberships.set(store, { stamps, index });
  return index;
}

function stampsHold(store: ScimStore, stamps: readonly unknown[]): boolean {
  if (stamps.length !== store.groups.size * 4) return false;
  let i = 0;
  for (const group of store.groups.values()) {
    if (stamps[i] !== group || stamps[i + 1] !== group.data || stamps[i + 2] !== group.data.members || stamps[i + 3] !== group.deleted) return false;
    i += 4;
  }
  return true;
}

/**
 * The full representation (before projection; password included only under its fault). With
 * `only`, just those top-level attributes: what a list's filter and sort read, so that a filtered
 * list over thousands of users builds whole representations for its page alone.
 */
export function fullView(schema: ResourceSchema, record: ScimRecord, ctx: ViewContext, only?: ReadonlySet<string>): JsonObject {
  if (only !== undefined && !only.has('members') && !only.has('groups') && !only.has('meta')) return partialView(schema, record, ctx, only);
  const wanted = (key: string): boolean => only === undefined || only.has(key);
  const view: JsonObject =
    ctx.b.writes.resourceSchemas === 'present' && wanted('schemas') ? { schemas: schemasOf(schema, record), id: record.id } : { id: record.id };
  // The record's attributes in stored order; of a partial view, just the ones asked for.
  const keys = only === undefined ? Object.keys(record.data) : [...only].filter((key) => Object.hasOwn(record.data, key));
  for (const key of keys) {
    const value = record.data[key] as JsonValue;
    if (key === 'password' && ctx.b.projection.password === 'never') continue;
    if (key === 'members' && Array.isArray(value)) {
      view.members = value.map((m) => {
        if (!isJsonObject(m) || typeof m.value !== 'string') return m;
        const type = m.type === 'Group' ? 'Group' : 'User';
        const target = type === 'User' ? ctx.store.users.get(m.value) : ctx.store.groups.get(m.value);
        const display = type === 'User' ? target?.data.userName : target?.data.displayName;
        const value: JsonObject = ctx.b.writes.memberValue === 'present' ? { value: m.value } : {};
        return { ...value, $ref: `${ctx.baseUrl}/${type}s/${m.value}`, type, ...(typeof display === 'string' ? { display } : {}) };
      });
      continue;
    }
    view[key] = value;
  }
  if (schema.resourceType === 'User' && ctx.b.patch.userGroups === 'derived' && wanted('groups')) {
    const groups = ctx.groupsOf().get(record.id) ?? [];
    if (groups.length > 0) {
      view.groups = groups.map((g) => ({
        value: g.id,
        $ref: `${ctx.baseUrl}/Groups/${g.id}`,
        display: typeof g.data.displayName === 'string' ? g.data.displayName : '',
        type: 'direct',
      }));
    }
  }
  if (!wanted('meta')) return view;
  const meta: JsonObject = {
    ...(ctx.b.writes.metaResourceType === 'present' ? { resourceType: schema.resourceType } : {}),
    created: record.created,
    lastModified: record.lastModified,
  };
  if (ctx.b.writes.metaLocation === 'present') meta.location = `${ctx.baseUrl}${schema.endpoint}/${record.id}`;
  view.meta = meta;
  return view;
}

const schemasOf = (schema: ResourceSchema, record: ScimRecord): JsonValue[] => {
  const urns: JsonValue[] = [schema.urn];
  for (const e of schema.extensions.values()) if (record.data[e.urn] !== undefined) urns.push(e.urn);
  return urns;
};

/**
 * The partial view of a list's filter and sort when they read none of the attributes computed from
 * other records or the request (members, groups, meta): built for every record of the collection
 * on every filtered list, so without the closures and copies of the general path. The same view as
 * fullView's general path would build (attributes in the order of `only`).
 */
function partialView(schema: ResourceSchema, record: ScimRecord, ctx: ViewContext, only: ReadonlySet<string>): JsonObject {
  const data = record.data;
  const view: JsonObject =
    ctx.b.writes.resourceSchemas === 'present' && only.has('schemas') ? { schemas: schemasOf(schema, record), id: record.id } : { id: record.id };
  for (const key of only) {
    if (!Object.hasOwn(data, key) || (key === 'password' && ctx.b.projection.password === 'never')) continue;
    view[key] = data[key] as JsonValue;
  }
  return view;
}

export interface Projection {
  readonly attributes: readonly string[] | undefined;
  readonly excluded: readonly string[] | undefined;
}

const splitList = (v: string | undefined): string[] | undefined =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

export function projectionOf(attributes: string | undefined, excluded: string | undefined): Projection {
  return { attributes: splitList(attributes), excluded: splitList(excluded) };
}

/** Where a selected (sub-)attribute lives in a view: container key path and attribute names. */
interface Selected {
  readonly urn: string | undefined;
  readonly attr: string;
  readonly sub: string | undefined;
}

function selections(schema: ResourceSchema, names: readonly string[], b: ScimBehaviour): Selected[] {
  return names.flatMap((name) => {
    const ext = schema.extensions.get(name.toLowerCase());
    if (ext !== undefined) return [{ urn: undefined, attr: ext.urn, sub: undefined }];
    const r = resolvePath(schema, name);
    if (r === undefined) return []; // unknown names are ignored (docs/decisions/scim/reference-server.md)
    // Under its fault a name in another case than the schema's is unknown.
    if (b.projection.namesCase === 'exact' && name.split(/[.:]/).at(b.projection.subAttributes === 'honoured' && r.sub ? -2 : -1) !== r.attr.name) return [];
    const sub = b.projection.subAttributes === 'honoured' ? r.sub?.name : undefined;
    return [{ urn: r.urn, attr: r.attr.name, sub }];
  });
}

function pick(value: JsonValue | undefined, sub: string): JsonValue | undefined {
  if (Array.isArray(value)) {
    const out = value.flatMap((v) => (isJsonObject(v) && v[sub] !== undefined ? [{ [sub]: v[sub] ?? null }] : []));
    return out.length === 0 ? undefined : out;
  }
  if (isJsonObject(value) && value[sub] !== undefined) return { [sub]: value[sub] ?? null };
  return undefined;
}

function without(value: JsonValue | undefined, sub: string): JsonValue | undefined {
  const drop = (v: JsonValue): JsonValue => {
    if (!isJsonObject(v)) return v;
    const copy = { ...v };
    delete copy[sub];
    return copy;
  };
  if (Array.isArray(value)) return value.map(drop);
  return value === undefined ? undefined : drop(value);
}

/** Applies `attributes` (or else `excludedAttributes`): `schemas` and `id` always stay. */
export function project(schema: ResourceSchema, view: JsonObject, p: Projection, b: ScimBehaviour): JsonObject {
  // `schemas` and (returned "always") `id` head every projection.
  const keepId = (out: JsonObject): JsonObject => ({
    schemas: view.schemas ?? [],
    ...(b.projection.idAlways === 'yes' ? { id: view.id ?? null } : {}),
    ...out,
  });
  if (p.attributes !== undefined && p.attributes.length > 0 && b.projection.attributes === 'honoured') {
    const out: JsonObject = {};
    for (const s of selections(schema, p.attributes, b)) {
      const container = s.urn === undefined ? view : view[s.urn];
      if (!isJsonObject(container)) continue;
      const value = s.sub === undefined ? container[s.attr] : pick(container[s.attr], s.sub);
      if (value === undefined) continue;
      const target = s.urn === undefined ? out : isJsonObject(out[s.urn]) ? (out[s.urn] as JsonObject) : (out[s.urn] = {});
      const existing = target[s.attr];
      if (s.sub !== undefined && existing !== undefined && existing !== null && !Array.isArray(existing) && isJsonObject(existing) && isJsonObject(value)) {
        target[s.attr] = { ...existing, ...value };
      } else if (s.sub !== undefined && Array.isArray(existing) && Array.isArray(value)) {
        target[s.attr] = existing.map((e, i) => (isJsonObject(e) && isJsonObject(value[i]) ? { ...e, ...(value[i] as JsonObject) } : e));
      } else if (!(existing !== undefined && s.sub !== undefined)) {
        target[s.attr] = value;
      }
    }
    return keepId(out);
  }
  if (p.excluded !== undefined && p.excluded.length > 0 && b.projection.excludedAttributes === 'honoured') {
    const out: JsonObject = { ...view };
    for (const s of selections(schema, p.excluded, b)) {
      if (s.urn === undefined && (s.attr === 'schemas' || (s.attr === 'id' && b.projection.idAlways === 'yes'))) continue;
      if (s.urn === undefined) {
        if (s.sub === undefined) delete out[s.attr];
        else out[s.attr] = without(out[s.attr], s.sub) ?? null;
      } else {
        const ext = out[s.urn];
        if (!isJsonObject(ext)) continue;
        const copy = { ...ext };
        if (s.sub === undefined) delete copy[s.attr];
        else copy[s.attr] = without(copy[s.attr], s.sub) ?? null;
        out[s.urn] = copy;
      }
    }
    return out;
  }
  return view;
}
