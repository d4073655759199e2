/**
 * Reading SCIM lists page by page (RFC 7644 §3.4.2.4; specification "SCIM 2.0 API" rule 1: clients
 * advance startIndex until no records come back). The walk is bounded: a server whose pages never
 * end (or repeat themselves) fails the check within `size + 1` pages instead of looping.
 */
import { describeResponse, fail } from '../failure.js';
import { blockedBy, notSetUp } from '../outcomes.js';
import type { ApiResponse } from '../http.js';
import type { Json } from '../records.js';
import type { CheckContext } from '../requirement.js';
import { pageOf, pageSaid, resourceOf, type ListPage } from './records.js';

export type ListQuery = Record<string, string | number | undefined>;

/** GET /Users with the query; 200 expected (anything else fails the check). A 400 invalidFilter
 * refuses the filter that confines the list to the check's users (target.ts chose it from what the
 * target declares): the check is not set up. */
export async function listUsers(t: CheckContext, query: ListQuery, what = 'to a list of users'): Promise<{ res: ApiResponse; page: ListPage }> {
  const res = await t.http.send({ op: 'scim.users.list', query });
  if (res.status === 400 && resourceOf(res).scimType === 'invalidFilter' && query.filter !== undefined)
    notSetUp(res, "the list of the check's users (its filter)");
  if (res.status !== 200) fail(`200 with a ListResponse ${what}`, describeResponse(res), res);
  return { res, page: pageOf(res) };
}

export interface Walk {
  /** Every resource, in the order the pages gave them. */
  resources: Json[];
  /** Requests made (the last one answered no resources). */
  pages: number;
  /** totalResults of the first page. */
  totalResults: number | undefined;
  /** The last answer. */
  last: ApiResponse;
}

/**
 * Walks the list: startIndex 1, then advanced by the number each page returned, until a page comes
 * back empty. `size` (the number of matching resources when the check knows it, else the first
 * page's totalResults) bounds the walk: more than `size + 1` requests, or more than `size`
 * resources, fails the check.
 */
export async function walk(t: CheckContext, query: ListQuery, count: number, size?: number): Promise<Walk> {
  const resources: Json[] = [];
  let startIndex = 1;
  let pages = 0;
  let totalResults: number | undefined;
  let bound: number | undefined = size;
  for (;;) {
    const { res, page } = await listUsers(t, { ...query, startIndex, count }, `to the page at startIndex ${startIndex} of a walk`);
    pages++;
    if (pages === 1) {
      totalResults = page.totalResults;
      bound ??= page.totalResults ?? 0;
    }
    if (page.resources.length === 0) return { resources, pages, totalResults, last: res };
    resources.push(...page.resources);
    const limit = bound ?? 0;
    if (resources.length > limit || pages > limit + 1) {
      fail(
        `a walk advancing startIndex by the number returned to end with an empty page within ${limit + 1} requests (${limit} matching resources)`,
        `${resources.length} resources in ${pages} pages and still no empty page (the last, asked at startIndex ${startIndex}: ${pageSaid(page).replace(/^the page said /, '')})`,
        res,
      );
    }
    startIndex += page.resources.length;
  }
}

/**
 * Reads the set a check created, page by page (startIndex advanced by the number each page
 * returned), and stops on what the pages say: when as many resources as the first page's
 * totalResults have come, or a page comes back empty. Unlike `walk`, whose end (an empty page) is
 * the rule scim.pagination.walk-exactly-once judges, a reading ends where a check that is about
 * something else (an order, a projection) would stop: a server that answers a startIndex past the
 * end with resources again is past-end's deviation, not this reading's. When the reading does not
 * give each of `ids` once, the check is blocked by the rule that failed: totalResults
 * (scim.pagination.total-results) or the paging (scim.pagination.walk-exactly-once).
 */
export async function readSet(t: CheckContext, query: ListQuery, count: number, ids: readonly string[]): Promise<Walk> {
  const resources: Json[] = [];
  let startIndex = 1;
  let pages = 0;
  let totalResults: number | undefined;
  let last: ApiResponse | undefined;
  for (;;) {
    const { res, page } = await listUsers(t, { ...query, startIndex, count }, `to the page at startIndex ${startIndex} of the check's users`);
    last = res;
    pages++;
    if (pages === 1) totalResults = page.totalResults;
    if (page.resources.length === 0) break;
    resources.push(...page.resources);
    startIndex += page.resources.length;
    if (resources.length >= (totalResults ?? ids.length) || pages > ids.length) break;
  }
  if (totalResults !== ids.length) {
    blockedBy('scim.pagination.total-results', `totalResults ${String(totalResults)} for the ${ids.length} users the filter selects`, last);
  }
  const want = new Set(ids);
  const got = resources.map((r) => String(r.id));
  if (got.length !== want.size || new Set(got).size !== got.length || got.some((id) => !want.has(id))) {
    blockedBy('scim.pagination.walk-exactly-once', `${got.length} resources in ${pages} pages of ${count}, not each of the ${ids.length} users once`, last);
  }
  return { resources, pages, totalResults, last };
}

/** The ids must be exactly `expected`, each once (order not judged). */
export function expectExactlyOnce(expected: readonly string[], got: readonly Json[], what: string, res: ApiResponse): void {
  const ids = got.map((r) => String(r.id));
  const seen = new Set<string>();
  const duplicates = ids.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  const want = new Set(expected);
  const missing = expected.filter((id) => !seen.has(id));
  const extra = [...seen].filter((id) => !want.has(id));
  if (duplicates.length + missing.length + extra.length > 0) {
    fail(
      `${what}: each of the ${expected.length} matching resources exactly once`,
      `${ids.length} resources; ${missing.length} missing, ${duplicates.length} repeated${duplicates.length ? ` (e.g. ${duplicates[0]})` : ''}, ${extra.length} not matching; the last ${pageSaid(pageOf(res)).replace(/^the /, '')}`,
      res,
    );
  }
}
