/**
 * The request budget of checks that read collections (docs/decisions/core/large-targets.md "Large targets: the request
 * budget"). A collection of at most LARGE_COLLECTION items is read whole, as it always was. A larger
 * one is sampled: the check works on a window of it (pages of WINDOW_PAGE items at positions drawn
 * from the check's seed, plus its head and its end) instead of every page, so that a run against
 * 10^6 records costs about what a run against 10^3 does. The pure parts live here; reading pages is
 * lists.ts (`survey`, `readHead`). Every family's list checks may reuse both.
 */
import fc from 'fast-check';
import { checkSeed } from './requirement.js';

/** A collection (or a filtered answer) with more items than this is large: checks sample it. */
export const LARGE_COLLECTION = 2000;

/** Items per page when the harness reads a collection (whole or its window): `_limit=1000`, or the
 * profile's `maxLimit` when the target serves smaller pages (`windowPage`). */
export const WINDOW_PAGE = 1000;

/** The page the harness reads a collection in on a target whose largest page is `maxLimit`: a target
 * answers a larger `_limit` with 422 (public-facts#list-parameters-and-envelope-integration-api), so a
 * profile that declares a smaller maximum gets pages of that size, never a refusal it did not cause. */
export function windowPage(maxLimit: number): number {
  return Math.max(1, Math.min(WINDOW_PAGE, maxLimit));
}

/** Pages (of `windowPage` items) at positions drawn from the check's seed, beyond the head and the end. */
export const WINDOW_SAMPLES = 2;

/** Consecutive pages a sampled walk (`paging.walk-once`) reads at its generated limit. */
export const WALK_PAGES = 8;

/** Items the whole walks of `paging.walk-once` read in all over a collection read whole (each walk
 * reads every item): the walks a check makes are this divided by the collection's size, at least
 * MIN_WHOLE_WALKS, each of at most WHOLE_WALK_PAGES pages (its limit at least the size over that);
 * its other runs walk WALK_PAGES pages, as on a large collection. So a collection that earlier runs
 * and other clients filled costs a bounded number of requests. */
export const WHOLE_WALK_ITEMS = 3000;
export const MIN_WHOLE_WALKS = 3;
export const WHOLE_WALK_PAGES = 100;

/** Window items a sampled filter check looks up by id in the filtered answer, per property run. */
export const COMPLETENESS_PROBES = 3;

/** Requests a survey of a large collection may make in pages of `page` items: the head, the search
 * for the end (a doubling search, then a bisection, over at most `maxOffset` pages), the sampled
 * pages and the end's page. */
export function surveyBudget(maxOffset: number, page: number): number {
  const steps = Math.ceil(Math.log2(maxOffset + 2));
  return Math.ceil(LARGE_COLLECTION / page) + 1 + 2 * steps + WINDOW_SAMPLES + 2;
}

/** A run of a collection's items at known positions (0-based item positions in the list's order). */
export interface Segment {
  start: number;
  items: readonly Record<string, unknown>[];
}

/** `count` distinct page numbers in [lo, hi], drawn from the check's seed (the same for the same
 * seed, check and range: a replay reads the same window). */
export function seededPages(seed: number, label: string, count: number, lo: number, hi: number): number[] {
  if (hi < lo) return [];
  const n = Math.min(count, hi - lo + 1);
  const [pages] = fc.sample(fc.uniqueArray(fc.integer({ min: lo, max: hi }), { minLength: n, maxLength: n }), {
    seed: checkSeed(seed, `${label}:${lo}-${hi}`),
    numRuns: 1,
  });
  return [...(pages ?? [])].sort((a, b) => a - b);
}

/** Pages read at `page` items each, merged into segments where they are consecutive. */
export function segmentsOf(pages: ReadonlyMap<number, readonly Record<string, unknown>[]>, page: number): Segment[] {
  const segments: { start: number; items: Record<string, unknown>[] }[] = [];
  for (const n of [...pages.keys()].sort((a, b) => a - b)) {
    const items = pages.get(n) ?? [];
    if (items.length === 0) continue;
    const start = n * page;
    const prev = segments.at(-1);
    if (prev && prev.start + prev.items.length === start) prev.items.push(...items);
    else segments.push({ start, items: [...items] });
  }
  return segments;
}
