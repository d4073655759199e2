import { isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import type { FilterNode } from './filter.js';
import type { Attr, ResourceSchema } from './schema.js';

/**
 * Groups as identity providers use them, and the requests identity providers send
 * (docs/decisions/scim/groups-and-identity-providers.md). The group entries of ScimBehaviour
 * (`groups`) break one rule on /Groups only: `resourceBehaviour` maps them onto the general entries
 * the code reads, in the behaviour the group operations use. The `idp` entries are read here and at
 * their point in index.ts and patch.ts.
 */

/** The top-level attributes a filter may name on a resource (lower case), for a support list made narrower. */
function filterable(schema: ResourceSchema, support: ScimBehaviour['filter']['support']): string[] {
  return support.attributes === 'all' ? [...schema.core.keys()] : [...support.attributes];
}

/** The behaviour the operations of `schema` use: `b` itself, or a copy with a group or client fault mapped onto the entries it breaks. */
export function resourceBehaviour(b: ScimBehaviour, schema: ResourceSchema, isGroup: boolean): ScimBehaviour {
  const g = b.groups;
  const groupFault =
    isGroup &&
    (g.displayNameCase !== 'insensitive' ||
      g.membersFilter !== 'supported' ||
      g.sort !== 'applied' ||
      g.projection !== 'honoured' ||
      g.addMembers === 'replaces' ||
      g.removeMemberFilter !== 'honoured');
  if (!groupFault && b.idp.externalIdFilter === 'supported') return b;
  const out = structuredClone(b);
  const narrow = (name: string): void => {
    out.filter.support = { ...out.filter.support, attributes: filterable(schema, out.filter.support).filter((a) => a !== name) };
  };
  if (b.idp.externalIdFilter === 'refused') narrow('externalid');
  if (!isGroup) return out;
  if (g.displayNameCase === 'sensitive') out.filter.otherStringsCase = 'sensitive';
  if (g.membersFilter === 'refused') narrow('members');
  if (g.sort === 'ignored') out.sort.applied = 'ignored';
  if (g.projection === 'ignored') Object.assign(out.projection, { attributes: 'ignored', excludedAttributes: 'ignored' });
  if (g.addMembers === 'replaces') out.patch.addMultiValued = 'replaces';
  if (g.removeMemberFilter === 'all') out.patch.valueFilter = 'ignored';
  return out;
}

/** The list parameters a list reads: filter and paging dropped where a group fault ignores them. */
export function listParameters(
  b: ScimBehaviour,
  isGroup: boolean,
  q: { filter: string | undefined; startIndex: string | undefined; count: string | undefined },
): { filter: string | undefined; startIndex: string | undefined; count: string | undefined } {
  if (!isGroup) return q;
  return {
    filter: b.groups.filter === 'ignored' ? undefined : q.filter,
    ...(b.groups.paging === 'ignored' ? { startIndex: undefined, count: undefined } : { startIndex: q.startIndex, count: q.count }),
  };
}

/** "True" / "False" in any case, where the attribute is a boolean, made a boolean (Entra ID's legacy requests); other values as sent. */
export function idpBooleans(attr: Attr, value: JsonValue | undefined): JsonValue | undefined {
  if (value === undefined || value === null) return value;
  if (attr.multiValued && Array.isArray(value)) return value.map((v) => idpBooleans({ ...attr, multiValued: false }, v) ?? null);
  if (attr.type === 'boolean' && typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (attr.sub !== undefined && isJsonObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const sub = attr.sub.get(k.toLowerCase());
      out[k] = sub === undefined ? v : (idpBooleans(sub, v) ?? null);
    }
    return out;
  }
  return value;
}

/** A request body with "True" / "False" read as booleans where the schema has a boolean. */
export function idpBody(schema: ResourceSchema, body: unknown): unknown {
  if (!isJsonObject(body)) return body;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    const attr = schema.core.get(key.toLowerCase());
    out[key] = attr === undefined ? value : (idpBooleans(attr, value) ?? null);
  }
  return out;
}

/** The value an add with an unmatched value filter creates (Entra ID): the filter's `eq` terms (joined
 * by and), and the sub-attribute after the filter set to the value; undefined when the filter has other terms. */
export function valueFromFilter(node: FilterNode, sub: Attr | undefined, value: JsonValue | undefined): JsonObject | undefined {
  const out: JsonObject = {};
  const collect = (n: FilterNode): boolean => {
    if (n.kind === 'and') return collect(n.left) && collect(n.right);
    if (n.kind !== 'compare' || n.op !== 'eq' || n.path.includes('.')) return false;
    out[n.path] = n.value as JsonValue;
    return true;
  };
  if (!collect(node)) return undefined;
  if (sub !== undefined) out[sub.name] = value ?? null;
  else if (isJsonObject(value)) Object.assign(out, value);
  return out;
}

/** A group's members after a PUT that merges (the fault scim.client-put-members-merged): those it had, then the new ones. */
export function mergedMembers(before: JsonValue | undefined, sent: JsonValue | undefined): JsonValue | undefined {
  const old = Array.isArray(before) ? before : [];
  const added = Array.isArray(sent) ? sent.filter((m) => !old.some((o) => isJsonObject(o) && isJsonObject(m) && o.value === m.value)) : [];
  const all = [...old, ...added];
  return all.length === 0 ? sent : all;
}
