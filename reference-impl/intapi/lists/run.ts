import type { Behaviour } from '../behaviour.js';
import { DEFAULT_LIMIT } from '../behaviour.js';
import { validationFailed } from '../../http/errors.js';
import type { JsonObject, JsonValue } from '../../rules/json.js';
import type { FieldSchema } from '../../rules/fields.js';
import { type CompiledFilter, compileFilterCached, FilterError, SPEC_FILTER_SEMANTICS } from '../filter/index.js';
import { pageOf } from './paging.js';
import { compareSortValues, parseSort, type SortKey, SortError, SPEC_SORT_SEMANTICS, sortRecords, sortValue } from './sort.js';
import { Table } from '../../store/table.js';
import { indexedPage } from './indexed.js';
import type { ListParams } from './params.js';

/**
 * Runs a list: default order (creation), `_filter`, `_sort`, then the page. `totalItems` counts
 * the filtered collection; a page past the end is empty with `totalItems` unchanged.
 */
export interface ListOutcome<R> {
  readonly total: number;
  /** The collection's size before `_filter` (what a server that ignores the filter in its count says). */
  readonly unfilteredTotal: number;
  readonly page: readonly R[];
  /** The values in force, echoed by the envelope. */
  readonly limit: number;
  readonly offset: number;
}

export interface ListOptions {
  /** false where a fault makes the version 1 list ignore `_filter`. */
  readonly applyFilter?: boolean;
}

function compiledFilter<R>(text: string, schema: FieldSchema<R>, lists: Behaviour['lists']): CompiledFilter<R> | undefined {
  try {
    return compileFilterCached(text, schema, lists.filter);
  } catch (error) {
    if (!(error instanceof FilterError)) throw error;
    if (error.kind === 'syntax' && lists.filterSyntaxError === 'ignore') return undefined;
    throw validationFailed([`_filter: ${error.message}`]);
  }
}

function sortKeys<R>(text: string, schema: FieldSchema<R>, lists: Behaviour['lists']): SortKey<R>[] {
  try {
    return parseSort(text, schema, lists.sort);
  } catch (error) {
    if (error instanceof SortError) throw validationFailed([`_sort: ${error.message}`]);
    throw error;
  }
}

/**
 * The indexed evaluation (indexed.ts) serves a table under the specification's filter and sort
 * semantics and the creation default order; anything a fault changed takes the plain evaluation
 * below, which is the definition both must agree with.
 */
function indexable(lists: Behaviour['lists']): boolean {
  return lists.filter === SPEC_FILTER_SEMANTICS && lists.sort === SPEC_SORT_SEMANTICS && lists.defaultOrder === 'creation' && lists.tiedPageStart === 'offset';
}

export function runList<R extends { readonly id: string }>(
  source: readonly R[] | Table<R>,
  params: ListParams,
  schema: FieldSchema<R> | undefined,
  lists: Behaviour['lists'],
  options: ListOptions = {},
): ListOutcome<R> {
  const filter =
    params.filter !== undefined && schema !== undefined && options.applyFilter !== false ? compiledFilter(params.filter, schema, lists) : undefined;
  const keys = params.sort !== undefined && schema !== undefined ? sortKeys(params.sort, schema, lists) : undefined;
  const pageSize = lists.limit === 'honour' ? params.limit : DEFAULT_LIMIT;
  // A negative offset is only possible under a fault: it reads as the first page.
  const offset = Math.max(0, params.offset);
  if (source instanceof Table && indexable(lists) && pagesAsSpecified(lists)) {
    const start = lists.offsetUnit === 'page' ? offset * pageSize : offset;
    const { total, page } = indexedPage(source, filter, keys ?? [], start, pageSize, lists.rangesPerField);
    return { total, unfilteredTotal: source.size, page, limit: params.limit, offset: params.offset };
  }
  const records = source instanceof Table ? source.values() : source;
  let items: readonly R[] = lists.defaultOrder === 'creation' ? records : [...records].reverse();
  if (filter !== undefined) items = items.filter(filter.predicate);
  if (keys !== undefined) items = sortRecords(items, keys, lists.sort);
  let page = pageOf(items, pageSize, offset, lists.offsetUnit);
  if (lists.tiedPageStart === 'tie-group' && filter !== undefined && keys?.[0] !== undefined) page = fromTieGroup(items, page, keys[0]);
  if (lists.tiedPageStart === 'tie-group-unfiltered' && filter === undefined && keys?.[0] !== undefined) page = fromTieGroup(items, page, keys[0]);
  if (lists.filteredPageEnd === 'selection-end' && filter !== undefined && keys === undefined) page = items.slice(startOf(offset, pageSize, lists));
  if (lists.pastEndPage === 'last-page' && keys !== undefined && page.length === 0 && items.length > 0) page = lastPage(items, pageSize);
  return { total: items.length, unfilteredTotal: records.length, page, limit: params.limit, offset: params.offset };
}

/** Whether the pages are cut as the specification says (no fault moves their ends): the indexed evaluation's condition too. */
function pagesAsSpecified(lists: Behaviour['lists']): boolean {
  return lists.filteredPageEnd === 'limit' && lists.pastEndPage === 'empty';
}

/** The index of a page's first record in the list. */
const startOf = (offset: number, pageSize: number, lists: Behaviour['lists']): number => (lists.offsetUnit === 'page' ? offset * pageSize : offset);

/** The list's last page of `pageSize` (a fault's answer past the end). */
const lastPage = <R>(items: readonly R[], pageSize: number): R[] => items.slice(Math.floor((items.length - 1) / pageSize) * pageSize);

/** The page moved back to the first record its first record ties with on `key` (a fault). */
function fromTieGroup<R>(items: readonly R[], page: R[], key: SortKey<R>): R[] {
  const first = page[0];
  if (first === undefined) return page;
  const value = sortValue(first, key.field, 0);
  let start = items.indexOf(first);
  while (start > 0 && compareSortValues(sortValue(items[start - 1] as R, key.field, 0), value) === 0) start--;
  return items.slice(start, start + page.length);
}

/** spec#paged-list-envelope-v2-list-operations: `{totalItems, returnedItems, limit, offset, <key>}`. */
export function envelope(key: string, outcome: ListOutcome<unknown>, items: JsonValue[], shape: Behaviour['envelope']): JsonObject {
  return {
    totalItems: shape.totalItems === 'collection' ? outcome.total : shape.totalItems === 'unfiltered' ? outcome.unfilteredTotal : items.length,
    returnedItems: items.length + (shape.returnedItems === 'page-length' ? 0 : 1),
    limit: shape.limit === 'in-force' ? outcome.limit : DEFAULT_LIMIT,
    offset: shape.offset === 'in-force' ? outcome.offset : 0,
    [key]: items,
  };
}
