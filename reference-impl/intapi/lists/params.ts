import type { Behaviour } from '../behaviour.js';
import { validationFailed } from '../../http/errors.js';
import type { QueryValue } from '../../http/route.js';
import { parseIntegerParam } from './paging.js';

/**
 * The common list parameters (spec#integration-api-common-list-parameters-v1-and-v2-list-operations-that-list-below-as-list):
 * `_filter`, `_sort`, `_limit` (1..1000, default 20), `_offset` (page number 0..65535, default 0);
 * the deprecated `limit`/`offset` are accepted too (public-facts "List parameters and envelope").
 * A bad value answers 422 naming the parameter.
 */
export interface ListParams {
  readonly filter: string | undefined;
  readonly sort: string | undefined;
  readonly limit: number;
  readonly offset: number;
}

/** `full`: all four parameters; `paging-only`: question bank and question lists (`_limit`, `_offset`). */
export type ListKind = 'full' | 'paging-only';

type Query = Readonly<Record<string, QueryValue>>;

interface Named {
  readonly name: string;
  readonly value: string;
}

/** The parameter as given once; a repeated parameter is an error. */
function single(query: Query, names: readonly string[], errors: string[]): Named | undefined {
  for (const name of names) {
    const given = query[name];
    if (given === undefined) continue;
    if (Array.isArray(given)) {
      errors.push(`${name}: must be given once`);
      return undefined;
    }
    return { name, value: given };
  }
  return undefined;
}

function boundedInteger(
  param: Named | undefined,
  range: { min: number; max: number; fallback: number },
  nonInteger: Behaviour['lists']['nonInteger'],
  errors: string[],
): number {
  if (param === undefined) return range.fallback;
  const value = parseIntegerParam(param.value);
  if (value === undefined && nonInteger === 'default') return range.fallback;
  if (value !== undefined && value >= range.min && value <= range.max) return value;
  const shownMin = range.min <= Number.MIN_SAFE_INTEGER ? 'any' : String(range.min);
  errors.push(`${param.name}: must be an integer from ${shownMin} to ${range.max}`);
  return range.fallback;
}

export function readListParams(query: Query, kind: ListKind, lists: Behaviour['lists']): ListParams {
  const errors: string[] = [];
  const aliases = lists.deprecatedAliases === 'honour';
  const limit = boundedInteger(
    single(query, aliases ? ['_limit', 'limit'] : ['_limit'], errors),
    { min: 1, max: lists.maxLimit, fallback: lists.defaultLimit },
    lists.nonInteger,
    errors,
  );
  const offset = boundedInteger(
    single(query, aliases ? ['_offset', 'offset'] : ['_offset'], errors),
    { min: lists.minOffset, max: lists.maxOffset, fallback: 0 },
    lists.nonInteger,
    errors,
  );
  let filter = single(query, ['_filter'], errors)?.value;
  let sort = single(query, ['_sort'], errors)?.value;
  if (kind === 'paging-only') {
    // spec: "Question bank list and question bank question list accept only _limit and _offset."
    if (lists.pagingOnlyExtras === 'reject') {
      if (filter !== undefined) errors.push('_filter: is not supported by this list');
      if (sort !== undefined) errors.push('_sort: is not supported by this list');
    }
    filter = undefined;
    sort = undefined;
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { filter, sort, limit, offset };
}
