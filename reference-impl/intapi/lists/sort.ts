import type { JsonValue } from '../../rules/json.js';
import { comparable, type FieldDef, type FieldNameMatching, type FieldSchema, order } from '../../rules/fields.js';

/**
 * `_sort`: a comma list of fields, `-` prefix for descending (public-facts "List parameters").
 * Nulls sort first ascending, last descending; the sort is stable, so ties keep creation order.
 */
export interface SortKey<R> {
  readonly field: FieldDef<R>;
  readonly descending: boolean;
}

export interface SortSemantics {
  readonly fieldNames: FieldNameMatching;
  /** `honour`: `-name` sorts descending; `ignore`: every key sorts ascending. */
  readonly descending: 'honour' | 'ignore';
  /** `all`: later keys break ties; `first`: only the first key counts; `none`: `_sort` is checked, then ignored. */
  readonly keys: 'all' | 'first' | 'none';
  /** Where null sorts in ascending order. */
  readonly nulls: 'first' | 'last';
}

export const SPEC_SORT_SEMANTICS: SortSemantics = { fieldNames: 'case-insensitive', descending: 'honour', keys: 'all', nulls: 'first' };

/** How many of the parsed keys order the list. */
const KEPT_KEYS: Readonly<Record<SortSemantics['keys'], number>> = { all: Number.POSITIVE_INFINITY, first: 1, none: 0 };

export class SortError extends Error {
  override readonly name = 'SortError';
}

export function parseSort<R>(text: string, schema: FieldSchema<R>, semantics: SortSemantics): SortKey<R>[] {
  const keys = text.split(',').map((part): SortKey<R> => {
    const item = part.trim();
    const descending = item.startsWith('-');
    const name = descending ? item.slice(1) : item;
    if (name === '') throw new SortError('an empty field name');
    const field = schema.resolve(name, semantics.fieldNames);
    if (field === undefined) throw new SortError(`unknown or non-sortable field '${name}'`);
    return { field, descending: descending && semantics.descending === 'honour' };
  });
  return keys.slice(0, KEPT_KEYS[semantics.keys]);
}

/**
 * Rank of a stored value within one field: null, then values of the field's type, then values of
 * another type (stored only when a fault let them in), which order by their JSON text.
 */
export interface SortValue {
  readonly rank: number;
  readonly value: string | number | boolean;
}

/** The sort value of a record's field; `nullRank` 0 puts nulls first, 3 last. */
export function sortValue<R>(record: R, field: FieldDef<R>, nullRank: number): SortValue {
  const raw: JsonValue = field.get(record);
  const value = comparable(raw, field.type);
  if (value === null) return { rank: nullRank, value: 0 };
  if (value === undefined) return { rank: 2, value: JSON.stringify(raw) };
  return { rank: 1, value };
}

/** Ascending order of two sort values of one field: negative, zero (a tie), positive. */
export function compareSortValues(x: SortValue, y: SortValue): number {
  const result = x.rank - y.rank;
  if (result !== 0 || x.rank === 0 || x.rank === 3) return result;
  return Math.sign(order(x.value, y.value)) || 0;
}

export function sortRecords<R>(records: readonly R[], keys: readonly SortKey<R>[], semantics: SortSemantics): R[] {
  if (keys.length === 0) return [...records];
  const nullRank = semantics.nulls === 'first' ? 0 : 3;
  const decorated = records.map((record) => ({ record, values: keys.map((key) => sortValue(record, key.field, nullRank)) }));
  // Array.prototype.sort is stable: ties keep creation order.
  decorated.sort((a, b) => compareByKeys(keys, a.values, b.values));
  return decorated.map((entry) => entry.record);
}

/** Two records' sort values under `keys`: the first key that tells them apart decides, reversed
 * where it is descending; 0 when they tie on every key. Both evaluations order by it. */
export function compareByKeys(keys: readonly Pick<SortKey<never>, 'descending'>[], x: readonly SortValue[], y: readonly SortValue[]): number {
  for (let k = 0; k < keys.length; k++) {
    const a = x[k];
    const b = y[k];
    if (a === undefined || b === undefined) continue;
    const result = compareSortValues(a, b);
    if (result !== 0) return keys[k]?.descending === true ? -result : result;
  }
  return 0;
}
