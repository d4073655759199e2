import type { QueryValue } from '../http/route.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import { badRequest, type ScimError } from './errors.js';
import { compileFilter, type FilterNode, parseFilter, type Predicate, topLevelReads } from './filter.js';
import { type ResolvedPath, type ResourceSchema, resolvePath } from './schema.js';

/**
 * Query parameters of a list (rfc7644#section-3.4.2): filter, sortBy/sortOrder
 * (rfc7644#section-3.4.2.3), startIndex/count (rfc7644#section-3.4.2.4, spec "Limits": default
 * 1/20, count at most 1000).
 */
export const one = (v: QueryValue): string | undefined => (Array.isArray(v) ? v[0] : v);

/** A list's filter or sort: what it does over representations, and the top-level attributes it reads. */
export interface ViewReader<F> {
  readonly apply: F;
  readonly reads: ReadonlySet<string>;
}

/**
 * A list's filter; with `narrow`, a predicate over a record's stored `data` that every record the
 * filter matches passes (the filter's leftmost conjunct, where it reads one stored attribute), so
 * that a list builds views for the records that pass it only.
 */
export interface ListFilter extends ViewReader<Predicate> {
  readonly narrow?: Predicate;
}

/** The attributes of a view that are not the stored data's own (computed, or left out of views). */
const COMPUTED = new Set(['id', 'schemas', 'meta', 'members', 'groups', 'password']);

/**
 * The filter's leftmost conjunct (`a` of `a and b`, of `(a and c) and b`, of `a` alone) when it is a comparison
 * or a presence test reading one top-level attribute the views copy from the stored data as it is:
 * then it gives on the data what it gives on the view, and the filter, which evaluates it first on
 * every record, matches no record it rejects. Compiled by the same code as the filter's own.
 */
function narrowing(schema: ResourceSchema, node: FilterNode, b: ScimBehaviour['filter']): Predicate | undefined {
  let leaf = node;
  while (leaf.kind === 'and') leaf = leaf.left;
  if (leaf.kind !== 'compare' && leaf.kind !== 'present') return undefined;
  const reads = [...topLevelReads(schema, leaf)];
  if (reads.length !== 1 || COMPUTED.has(reads[0] as string)) return undefined;
  return compileFilter(schema, leaf, b);
}

/** The filter parameter as a predicate; undefined = no filter. */
export function filterOf(schema: ResourceSchema, text: string | undefined, b: ScimBehaviour): ListFilter | undefined {
  if (text === undefined) return undefined;
  let node;
  try {
    node = parseFilter(text, b.filter);
  } catch (error) {
    if (b.filter.malformed === 'ignore') return undefined;
    throw error;
  }
  checkSupported(node, b.filter.support);
  const apply = compileFilter(schema, node, b.filter);
  const narrow = narrowing(schema, node, b.filter);
  return { apply, reads: topLevelReads(schema, node), ...(narrow !== undefined ? { narrow } : {}) };
}

const within = (list: 'all' | readonly string[], word: string): boolean => list === 'all' || list.includes(word.toLowerCase());

/** The top-level attribute a filter path names (`emails` of `emails.value`, `employeeNumber` of its URN form). */
const topLevel = (path: string): string => (path.split(/:(?=[^:]*$)/).at(-1) ?? path).split('.')[0] ?? path;

/**
 * A filter the server does not support answers 400 invalidFilter (rfc7644#section-3.4.2.2, Table 9:
 * "the specified attribute and filter comparison combination is not supported").
 */
function checkSupported(node: FilterNode, support: ScimBehaviour['filter']['support']): void {
  const refuse = (what: string): never => {
    throw badRequest('invalidFilter', `This server does not support ${what} in a filter.`);
  };
  switch (node.kind) {
    case 'and':
    case 'or':
      if (!within(support.logical, node.kind)) refuse(`'${node.kind}'`);
      checkSupported(node.left, support);
      checkSupported(node.right, support);
      return;
    case 'not':
      if (!within(support.logical, 'not')) refuse(`'not'`);
      checkSupported(node.operand, support);
      return;
    case 'present':
    case 'compare':
      if (!within(support.operators, node.kind === 'present' ? 'pr' : node.op)) refuse(`'${node.kind === 'present' ? 'pr' : node.op}'`);
      if (!within(support.attributes, topLevel(node.path))) refuse(`the attribute ${node.path}`);
      return;
    case 'valuePath':
      if (!support.valuePaths) refuse('value paths');
      if (!within(support.attributes, topLevel(node.path))) refuse(`the attribute ${node.path}`);
      checkSupported(node.filter, { ...support, attributes: 'all' });
      return;
  }
}

// --- sorting ------------------------------------------------------------------------------------

type Key = string | number | undefined;

/** The attribute sortBy names: 400 invalidValue when the schema has none. */
function sortAttribute(schema: ResourceSchema, sortBy: string, b: ScimBehaviour): ResolvedPath {
  const r = resolvePath(schema, sortBy);
  if (r !== undefined) return r;
  if (b.sort.unknownAttribute === 'server-error') throw new TypeError(`sortBy: no attribute '${sortBy}' to read.`);
  throw badRequest('invalidValue', `sortBy: unknown attribute '${sortBy}'.`);
}

/** A comparator over full views, stable sort by the caller; undefined = no sortBy. */
export function sorterOf(
  schema: ResourceSchema,
  sortBy: string | undefined,
  sortOrder: string | undefined,
  b: ScimBehaviour,
): ViewReader<(a: JsonObject, c: JsonObject) => number> | undefined {
  if (sortOrder !== undefined && !['ascending', 'descending'].includes(sortOrder.toLowerCase())) {
    throw badRequest('invalidValue', 'sortOrder must be ascending or descending.');
  }
  if (sortBy === undefined || b.sort.applied === 'ignored') return undefined;
  const r = sortAttribute(schema, sortBy, b);
  if (r.attr.multiValued && r.sub !== undefined && b.sort.multiValuedSub === 'reject')
    throw badRequest('invalidValue', `sortBy: cannot sort on a sub-attribute of the multi-valued ${r.attr.name}.`);
  if (r.attr.returned === 'never') throw badRequest('invalidValue', `sortBy: ${r.attr.name} is never returned.`);
  const type = r.sub ?? (r.attr.multiValued && r.attr.sub !== undefined ? r.attr.sub.get('value') : r.attr);
  if (type === undefined || (r.sub === undefined && r.attr.sub !== undefined && !r.attr.multiValued)) {
    throw badRequest('invalidValue', `sortBy: ${r.attr.name} is complex; name a sub-attribute.`);
  }
  const insensitive = !type.caseExact && b.sort.caseInsensitive === 'honoured';
  const { attr, sub, urn } = r;
  const keyOf = (view: JsonObject): Key => {
    const container = urn === undefined || b.sort.extension === 'top-level' ? view : view[urn];
    if (!isJsonObject(container)) return undefined;
    let v: JsonValue | undefined = container[attr.name];
    if (attr.multiValued && Array.isArray(v)) {
      const values = v;
      const chosen = b.sort.multiValued === 'last' ? values.at(-1) : (values.find((x) => isJsonObject(x) && x.primary === true) ?? values[0]);
      v = attr.sub !== undefined && isJsonObject(chosen) ? chosen[sub?.name ?? 'value'] : chosen;
    } else if (sub !== undefined) {
      v = isJsonObject(v) ? v[sub.name] : undefined;
    }
    if (typeof v === 'boolean') return Number(v);
    if (typeof v === 'number') return v;
    if (typeof v !== 'string') return undefined;
    if (type.type === 'dateTime') return Date.parse(v);
    return insensitive ? v.toLowerCase() : v;
  };
  const descending = sortOrder?.toLowerCase() === 'descending' && b.sort.descending === 'honoured';
  const missingFirst = b.sort.missing === 'first';
  const cache = new WeakMap<JsonObject, Key>();
  const key = (v: JsonObject): Key => {
    if (cache.has(v)) return cache.get(v);
    const k = keyOf(v);
    cache.set(v, k);
    return k;
  };
  const compare = (x: JsonObject, y: JsonObject): number => {
    const a = key(x);
    const c = key(y);
    if (a === undefined || c === undefined) {
      if (a === c) return 0;
      // Missing values last ascending and first descending (rfc7644#section-3.4.2.3).
      const missingLast = a === undefined ? 1 : -1;
      if (descending) return -missingLast;
      return missingFirst ? -missingLast : missingLast;
    }
    const order = a < c ? -1 : a > c ? 1 : 0;
    return descending ? -order : order;
  };
  return { apply: compare, reads: new Set([urn ?? attr.name]) };
}

// --- pagination ---------------------------------------------------------------------------------

export interface Page {
  /** 1-based index of the first resource returned, as answered. */
  readonly startIndex: number;
  readonly offset: number;
  readonly count: number;
  /** Whether the request gave `count` (for the count-plus-one fault). */
  readonly counted: boolean;
}

const INTEGER = /^[+-]?\d{1,15}$/;

function integerParam(name: string, v: string | undefined, p: ScimBehaviour['paging']): number | undefined {
  if (v === undefined) return undefined;
  if (!INTEGER.test(v.trim()) && p.nonInteger === 'invalid-value') throw badRequest('invalidValue', `${name} must be an integer.`);
  return Number(v.trim());
}

/**
 * startIndex/count: either alone takes the other's default (docs/decisions/scim/reference-server.md);
 * startIndex < 1 is 1; a negative count is 0; count above the cap is the cap.
 */
export function pageOf(startIndexText: string | undefined, countText: string | undefined, b: ScimBehaviour): Page {
  const p = b.paging;
  let startIndex = integerParam('startIndex', startIndexText, p) ?? 1;
  let count = integerParam('count', countText, p) ?? p.defaultCount;
  if (startIndex < 1) {
    if (p.startIndexBelowOne === 'reject') throw badRequest('invalidValue', 'startIndex must be at least 1.') as ScimError;
    startIndex = 1;
  }
  if (count < 0) count = p.negativeCount === 'as-zero' ? 0 : p.defaultCount;
  if (count === 0 && p.countZero === 'default') count = p.defaultCount;
  count = Math.min(count, p.maxCount);
  // Under its fault the page starts at the next boundary of count (a server that turns startIndex into a page number).
  const start = p.startAt === 'page-boundary' && count > 0 ? Math.ceil((startIndex - 1) / count) * count + 1 : startIndex;
  return { startIndex, offset: p.base === 1 ? start - 1 : start, count, counted: countText !== undefined };
}

/** The page of `matches` and the ListResponse fields around it. */
export function pageItems<T>(matches: readonly T[], page: Page, b: ScimBehaviour): { items: T[]; totalResults: number; itemsPerPage: number } {
  const size = b.paging.countLimit === 'one-more' && page.counted && page.count > 0 ? page.count + 1 : page.count;
  let items = matches.slice(page.offset, page.offset + size);
  if (page.offset >= matches.length && b.paging.pastEnd === 'everything') items = matches.slice(0, page.count);
  const totalResults = b.paging.totalResults === 'page' ? items.length : matches.length;
  const itemsPerPage = b.paging.itemsPerPage === 'requested' ? page.count : items.length;
  return { items, totalResults, itemsPerPage };
}
