import type { Behaviour } from '../behaviour.js';
import type { FieldDef } from '../../rules/fields.js';
import type { CompiledFilter, Constraint } from '../filter/index.js';
import { order } from '../../rules/fields.js';
import { compareByKeys, type SortKey, type SortValue, sortValue } from './sort.js';
import { SortedIndex } from '../../store/sorted-index.js';
import type { Table } from '../../store/table.js';

/**
 * A list page over a table through per-field sorted indexes, with exactly the semantics of the
 * plain evaluation in run.ts under the specification's semantics (filter as compiled, stable sort
 * with nulls first, ties and the default order by creation):
 * - the filter's candidates are the narrowest index range among its indexable conjuncts (plan.ts),
 *   or every record; the compiled predicate decides on each candidate, unless every conjunct is
 *   indexable: then the selection is the intersection of the ranges, without the predicate;
 * - a small selection is sorted outright; a large one is walked in the order of the first sort
 *   key's index, and only the groups of tied keys that overlap the page are ordered by the next
 *   keys (recursively), so no page sorts the whole selection.
 * Indexes are built on first use per (table, field) and follow the table's writes.
 */
const NULLS_FIRST = 0;
/** `last` only under the fault intapi.filter-range-last-per-field: one range per field, the last written. */
type RangesPerField = Behaviour['lists']['rangesPerField'];
/**
 * Selections up to `outrightSortMax` records (or a 64th of the table) are sorted outright, larger
 * ones walked along an index. Tests lower it to take the walk on small tables, and so does the
 * environment variable LPC_REFERENCE_OUTRIGHT_SORT_MAX (a non-negative integer; the mutation judge
 * sets it to 3 so that the seed's lists take the walk too, and the smallest selections the sort).
 * Both ways answer the same pages.
 */
export const INDEXED_TUNING = { outrightSortMax: outrightSortMaxOf(process.env.LPC_REFERENCE_OUTRIGHT_SORT_MAX) };

function outrightSortMaxOf(text: string | undefined): number {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : 4096;
}
const outright = (size: number, n: number): boolean => size <= Math.max(INDEXED_TUNING.outrightSortMax, n >> 6);

/** Nulls tie among themselves: their rank alone orders them. */
const FLAT_RANKS: ReadonlySet<number> = new Set([0, 3]);

type Indexed<R extends { readonly id: string }> = SortedIndex<R>;
const indexes = new WeakMap<object, Map<FieldDef<never>, Indexed<never>>>();

function indexOf<R extends { readonly id: string }>(table: Table<R>, field: FieldDef<R>): Indexed<R> {
  let byField = indexes.get(table) as Map<FieldDef<R>, Indexed<R>> | undefined;
  if (byField === undefined) {
    byField = new Map();
    indexes.set(table, byField as unknown as Map<FieldDef<never>, Indexed<never>>);
  }
  let index = byField.get(field);
  if (index === undefined) {
    // The index orders (rank, value) by `<` within a rank: the order of compareSortValues.
    index = new SortedIndex(table, (record: R) => sortValue(record, field, NULLS_FIRST), FLAT_RANKS);
    byField.set(field, index);
  }
  return index;
}

/** A set of table positions: all of them, or a list (ascending when `ascending`) with a membership map. */
interface Selection {
  readonly all: boolean;
  readonly size: number;
  readonly positions: Int32Array | undefined;
  readonly ascending: boolean;
  member: Uint8Array | undefined;
}

function listSelection(positions: Int32Array, ascending: boolean): Selection {
  return { all: false, size: positions.length, positions, ascending, member: undefined };
}

function membership(selection: Selection, n: number): Uint8Array | undefined {
  if (selection.all) return undefined;
  if (selection.member === undefined) {
    const member = new Uint8Array(n);
    for (const position of selection.positions ?? []) member[position] = 1;
    selection.member = member;
  }
  return selection.member;
}

/** [lo, hi) slots of the index whose keys may satisfy the constraint (a superset of them). */
function rangeOf<R extends { readonly id: string }>(index: Indexed<R>, constraint: Constraint<R>): [number, number] {
  // Values of the field's type have rank 1: after nulls (0), before values of another type (2).
  const typedFrom = index.firstSlot((rank) => rank >= 1);
  const typedTo = index.firstSlot((rank) => rank >= 2, typedFrom);
  if (constraint.kind === 'prefix') {
    const prefix = constraint.prefix;
    // Strings starting with the prefix are contiguous in code-unit order, right from the prefix itself.
    const from = index.firstSlot((_, value) => typeof value === 'string' && value >= prefix, typedFrom, typedTo);
    const to = index.firstSlot((_, value) => typeof value === 'string' && value >= prefix && !value.startsWith(prefix), from, typedTo);
    return [from, to];
  }
  const literal = constraint.literal;
  if (literal === null) {
    // `eq null` is the nulls; an ordering comparison with null is false.
    return constraint.op === 'eq' ? [0, typedFrom] : [0, 0];
  }
  const atLeast = index.firstSlot((_, value) => order(value, literal) >= 0, typedFrom, typedTo);
  const above = index.firstSlot((_, value) => order(value, literal) > 0, atLeast, typedTo);
  switch (constraint.op) {
    case 'eq':
      return [atLeast, above];
    case 'gt':
      return [above, typedTo];
    case 'ge':
      return [atLeast, typedTo];
    case 'lt':
      return [typedFrom, atLeast];
    case 'le':
      return [typedFrom, above];
  }
}

function select<R extends { readonly id: string }>(table: Table<R>, filter: CompiledFilter<R> | undefined, perField: RangesPerField): Selection {
  const records = table.values();
  const n = records.length;
  if (filter === undefined) return { all: true, size: n, positions: undefined, ascending: true, member: undefined };
  // The narrowest range, intersecting the constraints on one field.
  const ranges = new Map<FieldDef<R>, [number, number]>();
  for (const constraint of filter.constraints) {
    const [lo, hi] = rangeOf(indexOf(table, constraint.field), constraint);
    const seen = ranges.get(constraint.field);
    ranges.set(constraint.field, seen === undefined || perField === 'last' ? [lo, hi] : [Math.max(lo, seen[0]), Math.min(hi, seen[1])]);
  }
  let best: { field: FieldDef<R>; lo: number; hi: number } | undefined;
  for (const [field, [lo, hi]] of ranges) {
    if (best === undefined || Math.max(0, hi - lo) < Math.max(0, best.hi - best.lo)) best = { field, lo, hi };
  }
  const index = best === undefined ? undefined : indexOf(table, best.field);
  if (best === undefined || index === undefined) {
    const out = new Int32Array(n);
    let m = 0;
    for (let p = 0; p < n; p++) if (filter.predicate(records[p] as R)) out[m++] = p;
    return listSelection(out.subarray(0, m), true);
  }
  const out = new Int32Array(Math.max(0, best.hi - best.lo));
  let m = 0;
  if (filter.exact) {
    // Every conjunct is a range: the filter is their intersection, taken through the indexes alone.
    const chosen = best.field;
    const others = [...ranges].filter(([field]) => field !== chosen);
    const hits = others.length === 0 ? undefined : new Uint8Array(n);
    for (const [field, [lo, hi]] of others) {
      const other = indexOf(table, field);
      for (let s = lo; s < hi; s++) {
        const p = other.positionAt(s);
        if (hits !== undefined) hits[p] = (hits[p] ?? 0) + 1;
      }
    }
    for (let s = best.lo; s < best.hi; s++) {
      const p = index.positionAt(s);
      if (hits === undefined || hits[p] === others.length) out[m++] = p;
    }
    return listSelection(out.subarray(0, m), false);
  }
  for (let s = best.lo; s < best.hi; s++) {
    const p = index.positionAt(s);
    if (filter.predicate(records[p] as R)) out[m++] = p;
  }
  return listSelection(out.subarray(0, m), false);
}

/** Positions [from, to) of the selection in position (creation) order. */
function inPositionOrder(selection: Selection, from: number, to: number, n: number): number[] {
  if (selection.all) return range(from, to);
  const positions = selection.positions ?? new Int32Array(0);
  if (selection.ascending) return Array.from(positions.subarray(from, to));
  if (outright(selection.size, n)) return Array.from(Int32Array.from(positions).sort().subarray(from, to));
  const member = membership(selection, n) ?? new Uint8Array(0);
  const out: number[] = [];
  for (let p = 0, seen = 0; p < n && seen < to; p++) {
    if (member[p] === 1 && seen++ >= from) out.push(p);
  }
  return out;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

/** Positions [from, to) of the selection in `_sort` order (ties by position). */
function sorted<R extends { readonly id: string }>(table: Table<R>, selection: Selection, keys: readonly SortKey<R>[], from: number, to: number): number[] {
  const n = table.size;
  to = Math.min(to, selection.size);
  if (from >= to) return [];
  const [first, ...rest] = keys;
  if (first === undefined) return inPositionOrder(selection, from, to, n);
  if (outright(selection.size, n)) return sortOutright(table, selection, keys, from, to);

  const index = indexOf(table, first.field);
  const member = membership(selection, n);
  const descending = first.descending;
  // The slot of the from-th selected record in walk order.
  let slot = -1;
  if (member === undefined) {
    slot = descending ? n - 1 - from : from;
  } else {
    for (let i = 0, seen = 0; i < n; i++) {
      const s = descending ? n - 1 - i : i;
      if (member[index.positionAt(s)] === 1 && seen++ === from) {
        slot = s;
        break;
      }
    }
  }
  if (slot < 0) return [];
  let [groupFrom, groupTo] = index.tiesOf(slot);
  // Selected records before the first group in walk order.
  let before = from - countSelected(index, member, descending ? slot + 1 : groupFrom, descending ? groupTo : slot);
  const out: number[] = [];
  for (;;) {
    // A group's slots hold its tied records in position order: creation order, as ties keep.
    const windowFrom = Math.max(0, from - before);
    const windowTo = to - before;
    if (rest.length === 0) {
      let seen = 0;
      for (let s = groupFrom; s < groupTo && seen < windowTo; s++) {
        const p = index.positionAt(s);
        if (member !== undefined && member[p] !== 1) continue;
        if (seen++ >= windowFrom) out.push(p);
      }
      before += seen;
    } else {
      const group: number[] = [];
      for (let s = groupFrom; s < groupTo; s++) {
        const p = index.positionAt(s);
        if (member === undefined || member[p] === 1) group.push(p);
      }
      out.push(...sorted(table, listSelection(Int32Array.from(group), true), rest, windowFrom, Math.min(group.length, windowTo)));
      before += group.length;
    }
    if (before >= to) break;
    if (descending) {
      if (groupFrom === 0) break;
      [groupFrom, groupTo] = index.tiesOf(groupFrom - 1);
    } else {
      if (groupTo >= index.size) break;
      [groupFrom, groupTo] = index.tiesOf(groupTo);
    }
  }
  return out;
}

function countSelected<R extends { readonly id: string }>(index: Indexed<R>, member: Uint8Array | undefined, from: number, to: number): number {
  if (member === undefined) return Math.max(0, to - from);
  let count = 0;
  for (let s = from; s < to; s++) count += member[index.positionAt(s)] ?? 0;
  return count;
}

function sortOutright<R extends { readonly id: string }>(
  table: Table<R>,
  selection: Selection,
  keys: readonly SortKey<R>[],
  from: number,
  to: number,
): number[] {
  const positions = selection.all ? range(0, table.size) : Array.from(selection.positions ?? []);
  const values = new Map<number, SortValue[]>();
  for (const p of positions) {
    const record = table.at(p) as R;
    values.set(
      p,
      keys.map((key) => sortValue(record, key.field, NULLS_FIRST)),
    );
  }
  positions.sort((a, b) => compareByKeys(keys, values.get(a) ?? [], values.get(b) ?? []) || a - b);
  return positions.slice(from, to);
}

/** The page [start, start + limit) of the filtered, sorted table, and the filtered count. */
export function indexedPage<R extends { readonly id: string }>(
  table: Table<R>,
  filter: CompiledFilter<R> | undefined,
  keys: readonly SortKey<R>[],
  start: number,
  limit: number,
  perField: RangesPerField,
): { total: number; page: R[] } {
  const selection = select(table, filter, perField);
  const positions = sorted(table, selection, keys, start, start + limit);
  return { total: selection.size, page: positions.map((p) => table.at(p) as R) };
}
