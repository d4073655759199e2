import { ApiError, validationFailed } from '../http/errors.js';
import type { QueryValue } from '../http/route.js';
import type { JsonObject, JsonValue } from '../rules/json.js';
import { isGuid } from '../rules/guid.js';
import type { LearnerBehaviour } from './behaviour.js';

/**
 * Query parameters and path ids of the learner API, and the HAL list envelope. Every failure of a
 * request's query is collected and answered together: 422, one `validations` entry per parameter.
 */
export const MAX_OFFSET = 65_535;

export interface PageRequest {
  readonly limit: number;
  /** 0-based page number (items, under the fault `learner.offset-items`). */
  readonly offset: number;
}

/** A path id: not a GUID is 422 (or 404 under a fault), before any lookup. */
export function pathGuid(name: string, value: string | undefined, errors: LearnerBehaviour['errors']): string {
  const id = value ?? '';
  if (isGuid(id)) return id;
  if (errors.notGuidStatus === 404) throw new ApiError(404, `No ${name} ${id}.`);
  throw validationFailed([`${name}: Invalid format provided for ${name}`]);
}

const DIGITS = /^\d{1,9}$/;

export class QueryReader {
  readonly #query: Readonly<Record<string, QueryValue>>;
  readonly #failures: string[] = [];

  constructor(query: Readonly<Record<string, QueryValue>>) {
    this.#query = query;
  }

  /** The value of a parameter given once; a repeated parameter is a failure. */
  one(name: string): string | undefined {
    const value = this.#query[name];
    if (!Array.isArray(value)) return value;
    this.#failures.push(`${name}: must be given at most once`);
    return undefined;
  }

  /** `true` or `false` (exactly); anything else a failure, or absent when `malformed` is 'absent'. */
  flag(name: string, malformed: 'reject' | 'absent' = 'reject'): boolean | undefined {
    const value = this.one(name);
    if (value === undefined || value === 'true' || value === 'false') return value === undefined ? undefined : value === 'true';
    if (malformed === 'reject') this.#failures.push(`${name}: must be true or false`);
    return undefined;
  }

  /** A GUID-valued parameter. */
  guid(name: string): string | undefined {
    const value = this.one(name);
    if (value === undefined || isGuid(value)) return value;
    this.#failures.push(`${name}: Invalid format provided for ${name}`);
    return undefined;
  }

  /** `_limit` (1..max, default) and `_offset` (0..65535, default 0). */
  page(paging: LearnerBehaviour['paging']): PageRequest {
    const read = (name: string, min: number, max: number, fallback: number): number => {
      const text = this.one(name);
      if (text === undefined) return fallback;
      if (!DIGITS.test(text) && paging.malformed === 'default') return fallback;
      if (!DIGITS.test(text) && paging.malformed === 'crash') throw new TypeError(`${name} is not a number`);
      const n = DIGITS.test(text) ? Number(text) : Number.NaN;
      if (n >= min && n <= max) return n;
      this.#failures.push(`${name}: must be an integer from ${min} to ${max}`);
      return fallback;
    };
    return { limit: read('_limit', 1, paging.maxLimit, paging.defaultLimit), offset: read('_offset', 0, MAX_OFFSET, 0) };
  }

  /** Throws 422 listing every failure, if any. */
  check(): void {
    if (this.#failures.length > 0) throw validationFailed(this.#failures);
  }
}

const PAGING = new Set(['_limit', '_offset']);

/** `path?<the request's other parameters, in order>&_limit=L&_offset=O`. */
function href(path: string, query: Readonly<Record<string, QueryValue>>, page: PageRequest): string {
  const params: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (PAGING.has(name) || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.push(`${encodeURIComponent(name)}=${encodeURIComponent(one)}`);
  }
  params.push(`_limit=${page.limit}`, `_offset=${page.offset}`);
  return `${path}?${params.join('&')}`;
}

/**
 * The HAL envelope of one page: `{_embedded: {<key>: [...]}, _links: {self: {href}, next?: {href}}}`,
 * `next` only when items follow this page. Hrefs are path-absolute (`/api/rest/v2/...`).
 */
export function halPage(
  items: readonly JsonValue[],
  page: PageRequest,
  paging: LearnerBehaviour['paging'],
  list: { readonly key: string; readonly path: string; readonly query: Readonly<Record<string, QueryValue>> },
): JsonObject {
  const start = paging.offset === 'item' ? page.offset : Math.max(0, page.offset * page.limit - (page.offset > 0 ? paging.overlap : 0));
  const end = start + page.limit;
  const links: JsonObject = { self: { href: href(list.path, list.query, page) } };
  if (end < items.length || paging.next === 'always') links.next = { href: href(list.path, list.query, { ...page, offset: page.offset + 1 }) };
  return { _embedded: { [paging.key === 'named' ? list.key : 'items']: items.slice(start, end) }, _links: links };
}
