/**
 * List checks, one requirement each, for every list that takes the common list parameters
 * (spec#integration-api-common-list-parameters-v1-and-v2-list-operations-that-list-below-as-list,
 * spec#paged-list-envelope-v2-list-operations, public-facts#list-parameters-and-envelope-integration-api).
 * Filters and sorts are judged against the suite's own evaluation (filter.ts) over the collection
 * the check read; the reference server's evaluation is an independent reading of the same grammar.
 */
import fc from 'fast-check';
import type { OperationId } from '../../../src/profile/index.js';
import { boundaryExpression, filterExpression, pageOfAtLeastTwo, rangeConjunction, pageWithin, sortSpec, type PageRequest } from './arbitraries.js';
import { preferring } from '../generators.js';
import { boundsOf, type ContractName } from '../contracts.js';
import { CheckFailure, describeResponse, expectRejected, expectStatus, fail } from '../failure.js';
import { blockedBy } from '../outcomes.js';
import {
  boundaryOf,
  filterRecords,
  keyDecisions,
  render,
  sortRecords,
  type FilterAst,
  renderSort,
  sortViolationIndex,
  type DataRecord,
  type FieldType,
  type FieldTypes,
  type SortKey,
} from './filter.js';
import { collectionOf, type ApiResponse } from '../http.js';
import { idsOf } from '../records.js';
import {
  COMPLETENESS_PROBES,
  LARGE_COLLECTION,
  MIN_WHOLE_WALKS,
  seededPages,
  segmentsOf,
  WALK_PAGES,
  WHOLE_WALK_ITEMS,
  WHOLE_WALK_PAGES,
  WINDOW_SAMPLES,
  windowPage,
  type Segment,
} from '../budget.js';
import { requirement, type CheckContext } from '../requirement.js';
import { queryRoom } from '../url-budget.js';
import type { Uses } from '../scheduler.js';

export interface ListTarget {
  /** Check-id prefix, e.g. `intapi.v2.submissions.list`. */
  idPrefix: string;
  label: string;
  op: OperationId;
  version: '1' | '2';
  params?: (t: CheckContext) => Promise<Record<string, string>>;
  /** The envelope's collection key; undefined for a bare array. */
  key?: string;
  /** The item contract: field types for the filter evaluation. */
  itemContract: ContractName;
  /** The profile's list of filterable/sortable fields; undefined when the list takes only _limit/_offset. */
  collection?: 'resources' | 'templates' | 'submissions' | 'users' | 'groups';
  /** Makes sure the collection has at least a few items before the check. */
  prepare?: (t: CheckContext) => Promise<void>;
  /** Creates one item and answers its id, for lists whose items the API creates (default order). */
  create?: (t: CheckContext) => Promise<string>;
  /** Collections `prepare` writes (other than the listed one). */
  prepareWrites?: readonly string[];
  /** The collections whose writes change what the list shows, which its checks observe whole (no
   * check writing them runs meanwhile); by default the listed collection. A list of records only
   * `prepare` writes (one the suite made for itself, whole before any check reads it) observes none,
   * so its checks run beside each other and beside the writers of the collection's other records. */
  observes?: readonly string[];
}

/** What reading a list needs: the operation and the shape of its answer. */
export type ListSource = Pick<ListTarget, 'label' | 'op' | 'version' | 'params' | 'key'>;

const LIST_SPEC = 'spec#integration-api-common-list-parameters-v1-and-v2-list-operations-that-list-below-as-list';
const ENVELOPE_SPEC = 'spec#paged-list-envelope-v2-list-operations';
const FACTS_SPEC = 'public-facts#list-parameters-and-envelope-integration-api';

type Query = Record<string, string | number | undefined>;

interface Page {
  res: ApiResponse;
  items: DataRecord[];
  envelope?: { totalItems: unknown; returnedItems: unknown; limit: unknown; offset: unknown };
}

/** One page of a list (status 200, the list's shape), for checks outside this file. */
export const listPage = (t: CheckContext, target: ListSource, query: Query) => page(t, target, query);

async function page(t: CheckContext, target: ListSource, query: Query): Promise<Page> {
  const res = await t.http.send({ op: target.op, version: target.version, query, ...(target.params ? { params: await target.params(t) } : {}) });
  expectStatus(res, 200, `for ${target.label} ${JSON.stringify(query)}`);
  const body = res.json;
  if (target.key === undefined) {
    if (!Array.isArray(body)) fail('a bare JSON array', describeResponse(res), res);
    return { res, items: body as DataRecord[] };
  }
  const items = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[target.key] : undefined;
  if (!Array.isArray(items)) fail(`an envelope with the array ${target.key}`, describeResponse(res), res);
  const e = body as Page['envelope'] & object;
  return { res, items: items as DataRecord[], envelope: { totalItems: e.totalItems, returnedItems: e.returnedItems, limit: e.limit, offset: e.offset } };
}

/** What the last page's envelope said, for a failure's Received line (a list check shows the page,
 * not only what it missed): `; the last page said totalItems 12, returnedItems 0, offset 1, limit 1000`. */
function envelopeSaid(p: Page): string {
  const e = p.envelope;
  if (!e) return `; the last page held ${p.items.length} items`;
  const said = (v: unknown) => JSON.stringify(v) ?? '(absent)';
  return `; the last page said totalItems ${said(e.totalItems)}, returnedItems ${said(e.returnedItems)}, offset ${said(e.offset)}, limit ${said(e.limit)} (${p.items.length} items)`;
}

/** Whether `walked` holds each of `chosen` exactly once, and nothing else. */
const onceEach = (walked: readonly string[], chosen: readonly string[]): boolean => {
  const seen = new Set(walked);
  return seen.size === walked.length && walked.length === chosen.length && chosen.every((id) => seen.has(id));
};

/** What a walk held against the items it should have held once each, for a failure. */
const walkedAgainst = (walked: readonly string[], chosen: readonly string[]): string => {
  const seen = new Set(walked);
  return `${walked.length} items, ${seen.size} distinct, ${chosen.filter((id) => !seen.has(id)).length} missing`;
};

/** Every item, page by page at `limit`, until a short page (public-facts: clients increment
 * _offset until a page comes back empty). Bounded: a target whose pages never end (one that
 * ignores _offset, say) fails once the walk holds more than `maxItems`. */
async function walk(
  t: CheckContext,
  target: ListSource,
  limit: number,
  query: Query = {},
  maxItems = 100_000,
  end = Number.POSITIVE_INFINITY,
): Promise<{ items: DataRecord[]; last: Page }> {
  const items: DataRecord[] = [];
  for (let offset = 0; offset <= 65535; offset++) {
    const p = await page(t, target, { ...query, _limit: limit, _offset: offset });
    items.push(...p.items);
    // A walk that knows its list's size (`end`) stops there: the page past the end is another check's rule.
    if (p.items.length < limit || items.length >= end) return { items, last: p };
    if (items.length > maxItems) fail(`a walk over the pages to end within ${maxItems} items`, `${items.length} items after ${offset + 1} full pages`, p.res);
  }
  fail('a walk over the pages to end', 'page 65535 was still full');
}

/** The largest `_limit` the target serves (the profile's maxLimit; public-facts: a larger one is
 * refused with 422). Every limit a check sends stays within it, but those of the check of that refusal. */
const maxLimitOf = (t: CheckContext): number => t.profile.expectations.lists.maxLimit;

/** Items per page when the harness reads a collection: 1000, or maxLimit if smaller (budget.ts windowPage). */
export const readingPage = (t: CheckContext): number => windowPage(maxLimitOf(t));

/** The whole collection, in pages of `readingPage` (1000). */
export const readAll = (t: CheckContext, target: ListSource, query: Query = {}) => walk(t, target, readingPage(t), query);

/** The head of a list: pages of `readingPage` (1000) from the start until a short page (then `whole`:
 * the same requests as readAll) or until it holds more than LARGE_COLLECTION items (budget.ts). */
export async function readHead(
  t: CheckContext,
  target: ListSource,
  query: Query = {},
): Promise<{ items: DataRecord[]; whole: boolean; last: Page; pages: Map<number, DataRecord[]> }> {
  const items: DataRecord[] = [];
  const pages = new Map<number, DataRecord[]>();
  const size = readingPage(t);
  for (let offset = 0; ; offset++) {
    const p = await page(t, target, { ...query, _limit: size, _offset: offset });
    items.push(...p.items);
    pages.set(offset, p.items);
    if (p.items.length < size) return { items, whole: true, last: p, pages };
    if (items.length > LARGE_COLLECTION) return { items, whole: false, last: p, pages };
  }
}

/** What a check knows of a collection: the whole of it, or (large) a window of it. */
export interface Survey {
  /** At most LARGE_COLLECTION items: `items` is the whole collection, exactly what readAll reads. */
  whole: boolean;
  /** The number of items: where the pages of `page` items end (a lower bound when they reach maxOffset). */
  size: number;
  /** Whether `size` is where the pages end (false only past maxOffset pages). */
  complete: boolean;
  /** Items per page of the survey's reads (`readingPage`: 1000, or the profile's maxLimit if smaller). */
  page: number;
  /** Whole: every item. Large: the window's items, in list order (the segments concatenated). */
  items: DataRecord[];
  /** The items at known positions: one segment from 0 when whole. */
  segments: Segment[];
  last: Page;
}

/**
 * The collection as a check may afford to know it (budget.ts). At most LARGE_COLLECTION items: read
 * whole (the same requests as readAll). Larger: the head (the pages of `readingPage` read to find out),
 * the end, found by a doubling search and a bisection over those pages (the first page that is not
 * full; so the size is exact when paging is), WINDOW_SAMPLES pages at positions drawn from the
 * check's seed, and the page before the end. Recorded on the check as sampled.
 */
export async function survey(t: CheckContext, target: ListSource, query: Query = {}): Promise<Survey> {
  const head = await readHead(t, target, query);
  const pageSize = readingPage(t);
  if (head.whole && head.items.length <= LARGE_COLLECTION) {
    const segments = [{ start: 0, items: head.items }];
    return { whole: true, size: head.items.length, complete: true, page: pageSize, items: head.items, segments, last: head.last };
  }
  const pages = new Map(head.pages);
  let last = head.last;
  const read = async (n: number) => {
    const known = pages.get(n);
    if (known) return known;
    const p = await page(t, target, { ...query, _limit: pageSize, _offset: n });
    pages.set(n, p.items);
    last = p;
    return p.items;
  };
  const maxOffset = t.profile.expectations.lists.maxOffset;
  let size: number;
  let complete = true;
  let end: number;
  if (head.whole) {
    end = pages.size - 1;
    size = head.items.length;
  } else {
    // pages 0..lo are full; find the first page that is not (at most maxOffset).
    let lo = pages.size - 1;
    let hi = lo;
    while ((await read(hi)).length === pageSize && hi < maxOffset) {
      lo = hi;
      hi = Math.min(maxOffset, 2 * hi + 1);
    }
    if ((await read(hi)).length === pageSize) {
      complete = false;
      end = hi;
      size = (hi + 1) * pageSize;
    } else {
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if ((await read(mid)).length === pageSize) lo = mid;
        else hi = mid;
      }
      end = hi;
      size = hi * pageSize + (await read(hi)).length;
    }
    const headPages = head.pages.size;
    for (const n of seededPages(t.seed, 'window', WINDOW_SAMPLES, headPages, end - 2)) await read(n);
    if (end > 0) await read(end - 1);
  }
  // The window: the head, the sampled pages and the end (the search's other pages are left out, to
  // keep the suite's own evaluation over the window small).
  const keep = new Set([...head.pages.keys(), ...seededPages(t.seed, 'window', WINDOW_SAMPLES, head.pages.size, end - 2), end - 1, end]);
  const segments = segmentsOf(new Map([...pages].filter(([n]) => keep.has(n))), pageSize);
  const items = segments.flatMap((s) => [...s.items] as DataRecord[]);
  t.sampled(size, items.length);
  return { whole: false, size, complete, page: pageSize, items, segments, last };
}

function fieldTypes(contract: ContractName): FieldTypes {
  const types: Record<string, FieldType> = {};
  for (const b of boundsOf(contract)) {
    if (b.type === 'array' || b.type === 'object') continue;
    types[b.field] = b.format === 'uuid' ? 'guid' : b.format === 'date-time' ? 'datetime' : b.type;
  }
  return types;
}

const ids = idsOf;

/** Bytes a `_filter` expression of the list may take within the URL budget (url-budget.ts). */
async function filterRoom(t: CheckContext, target: ListSource): Promise<number> {
  return queryRoom(t.profile, target.op, target.params ? await target.params(t) : undefined);
}

/** A list check observes its collection whole (or what the target says it observes): no check that writes it runs meanwhile. */
function check(
  target: ListTarget,
  rule: string,
  level: 'MUST' | 'PROFILE',
  spec: string,
  title: string,
  body: (t: CheckContext) => Promise<void>,
  writes: readonly string[] = [],
): void {
  const uses: Uses = { observe: [...(target.observes ?? [collectionOf(target.op)])], write: [...(target.prepareWrites ?? []), ...writes] };
  requirement(
    { id: `${target.idPrefix}.${rule}`, level, spec, title },
    async (t) => {
      await target.prepare?.(t);
      await body(t);
    },
    uses,
  );
}

/** The collection's size, read first so that pages are drawn among its pages (coverage.ts). */
async function sizeOf(t: CheckContext, target: ListSource): Promise<number> {
  return (await survey(t, target)).size;
}

/** Pages a request can reach: offsets within the profile's maxOffset (a large collection has more
 * pages), limits of at most 40 (pageWithin's default) within its maxLimit. */
const reach = (t: CheckContext) => ({ maxOffset: t.profile.expectations.lists.maxOffset, maxLimit: Math.min(40, maxLimitOf(t)) });

// ---------------------------------------------------------------------------------------------
// Sampled variants: what a check does with a large collection (budget.ts). Each draws what it reads
// inside its property (fast-check values, so a failure shrinks and replays) and judges it against
// the window the survey read, never the whole collection.

/** totalItems against the size where the survey's pages end, on sampled pages; and the page at
 * floor(totalItems/limit), where a walk at the drawn limit ends, holds exactly the rest. */
async function sampledTotalItems(t: CheckContext, target: ListTarget, s: Survey, env: (p: Page) => NonNullable<Page['envelope']>): Promise<void> {
  const pages = reach(t);
  const { maxOffset } = pages;
  await t.property(pageWithin(s.size, { pastEnd: true, ...pages }), async ({ limit, offset }) => {
    const p = await page(t, target, { _limit: limit, _offset: offset });
    const total = env(p).totalItems;
    if (s.complete ? total !== s.size : typeof total !== 'number' || total < s.size) {
      fail(`totalItems ${s.complete ? '' : 'at least '}${s.size} (where the pages of ${s.page} end)`, `totalItems ${JSON.stringify(total)}`, p.res);
    }
    const endPage = Math.floor(s.size / limit);
    if (!s.complete || endPage > maxOffset) return t.outcome('total-items-sampled');
    const end = endPage === offset ? p : await page(t, target, { _limit: limit, _offset: endPage });
    const rest = s.size - endPage * limit;
    if (end.items.length !== rest)
      fail(`${rest} items on page ${endPage} of ${limit}, where a walk over ${s.size} items ends`, `${end.items.length} items`, end.res);
    t.outcome('total-items-sampled-end-page');
  });
}

/** A run of up to WALK_PAGES consecutive pages at the drawn limit, inside a segment of the window
 * (or ending the collection): each page holds the window's items at its positions, in order, each once. */
async function sampledWalk(t: CheckContext, target: ListTarget, s: Survey, maxRuns?: number): Promise<void> {
  const { maxOffset } = reach(t);
  const limits = fc.integer({ min: 1, max: Math.min(30, maxLimitOf(t)) });
  const runs = fc.record({ limit: limits, segment: fc.nat(), at: fc.nat(), pages: fc.integer({ min: 2, max: WALK_PAGES }) });
  const walkSome = async ({ limit, segment, at, pages }: { limit: number; segment: number; at: number; pages: number }): Promise<void> => {
    const reachable = s.segments.flatMap((seg) => {
      const end = seg.start + seg.items.length;
      const atEnd = s.complete && end === s.size;
      const first = Math.ceil(seg.start / limit);
      // The last page inside the segment (or, ending the collection, the short or empty page after it).
      const last = Math.min(maxOffset, atEnd ? Math.floor(end / limit) : Math.floor(end / limit) - 1);
      return last >= first ? [{ seg, first, last, atEnd }] : [];
    });
    // Small draws (fast-check's bias, and shrinking) pick the segment that ends the collection.
    const r = reachable[reachable.length - 1 - (segment % Math.max(1, reachable.length))];
    if (!r) return t.degenerate('no page at this limit within the window');
    const from = r.first + (at % (r.last - r.first + 1));
    const to = Math.min(r.last, from + pages - 1);
    const walked: string[] = [];
    for (let n = from; n <= to; n++) {
      const p = await page(t, target, { _limit: limit, _offset: n });
      const at0 = n * limit - r.seg.start;
      const want = ids(r.seg.items.slice(at0, at0 + limit) as DataRecord[]);
      const got = ids(p.items);
      if (got.join() !== want.join()) {
        const other = got.filter((id) => !want.includes(id)).length;
        fail(
          `page ${n} of ${limit}: the ${want.length} items at positions ${n * limit}.. of the pages of ${s.page}, in order`,
          `${got.length} items, ${other} of them others${got.length - other === want.length ? ' (the same items in another order)' : ''}`,
          p.res,
        );
      }
      walked.push(...got);
    }
    if (new Set(walked).size !== walked.length)
      fail(`the items of pages ${from}..${to} of ${limit}, each once`, `${walked.length} items, ${new Set(walked).size} distinct`);
    t.outcome(r.atEnd && to === r.last ? 'sampled-walk-to-the-end' : 'sampled-walk-within');
  };
  await t.property(runs, walkSome, maxRuns === undefined ? {} : { maxRuns });
}

/** Soundness on the filtered answer's head (every item read matches, by the suite's evaluator) and
 * completeness on the window: each window item the expression selects is in the answer (the whole
 * answer when it is small; else looked up by `(<expr>) and id eq guid'<id>'`, COMPLETENESS_PROBES per
 * run, and one window item it does not select is not); totalItems at least the matches found. */
async function sampledFilter(t: CheckContext, target: ListTarget, s: Survey, fields: FieldTypes, drawn: fc.Arbitrary<FilterAst>): Promise<void> {
  const window = s.items;
  const byId = fields.id === 'guid' || fields.id === 'string';
  const literal = (id: string) => (fields.id === 'guid' ? `guid'${id}'` : `'${id.replaceAll("'", "''")}'`);
  await t.property(fc.tuple(drawn, fc.nat()), async ([ast, pick]) => {
    const text = render(ast);
    const matching = filterRecords(window, ast, fields);
    const boundary = boundaryOf(ast, window);
    if (matching.length > 0 && matching.length < window.length) t.outcome('filter-selected-proper-subset');
    else if (boundary) t.outcome(`filter-${boundary}`);
    else t.degenerate(matching.length === 0 ? 'a filter that selects no item of the window' : 'a filter that selects every item of the window');
    const got = await readHead(t, target, { _filter: text });
    const wrong = got.items.filter((item) => filterRecords([item], ast, fields).length === 0);
    if (wrong.length > 0)
      fail(
        `only items for which _filter=${text} is true`,
        `${wrong.length} of the ${got.items.length} items read do not match, e.g. ${JSON.stringify(wrong[0])?.slice(0, 160)}`,
        got.last.res,
      );
    const returned = new Set(ids(got.items));
    if (returned.size !== got.items.length)
      fail(`the items of _filter=${text}, each once`, `${got.items.length} items, ${returned.size} distinct`, got.last.res);
    const missing = matching.filter((item) => !returned.has(String(item.id)));
    let found = returned.size;
    if (got.whole) {
      if (missing.length > 0)
        fail(
          `the ${matching.length} window items for which _filter=${text} is true, in its ${got.items.length} items`,
          `${missing.length} missing, e.g. ${String(missing[0]?.id)}`,
          got.last.res,
        );
    } else if (byId) {
      const probes = [...missing.slice(pick % Math.max(1, missing.length)), ...missing].slice(0, COMPLETENESS_PROBES);
      const selected = new Set(matching);
      const others = window.filter((item) => !selected.has(item));
      const other = others[pick % Math.max(1, others.length)];
      for (const [item, selects] of [...probes.map((i) => [i, true] as const), ...(other ? [[other, false] as const] : [])]) {
        const id = String(item.id);
        const one = await page(t, target, { _filter: `(${text}) and id eq ${literal(id)}` });
        if (ids(one.items).join() !== (selects ? id : ''))
          fail(
            `${selects ? `the item ${id}` : 'no item'} for _filter=(${text}) and id eq ${literal(id)}`,
            `${one.items.length} items: ${ids(one.items).slice(0, 3).join()}`,
            one.res,
          );
        if (selects) found++;
      }
    }
    const total = got.last.envelope?.totalItems;
    if (got.last.envelope && (typeof total !== 'number' || total < found))
      fail(`totalItems of _filter=${text} at least the ${found} matching items found`, `totalItems ${JSON.stringify(total)}`, got.last.res);
  });
}

function envelopeChecks(target: ListTarget): void {
  const env = (p: Page) => p.envelope ?? fail('an envelope', describeResponse(p.res), p.res);
  check(target, 'envelope.returned-items', 'MUST', ENVELOPE_SPEC, `${target.label}: returnedItems is the page length and at most limit`, async (t) => {
    const total = await sizeOf(t, target);
    t.requireData(total >= 2, `${target.label} has ${total} items; pages of items need at least 2`);
    await t.property(pageWithin(total, reach(t)), async ({ limit, offset }) => {
      const p = await page(t, target, { _limit: limit, _offset: offset });
      const e = env(p);
      if (p.items.length === 0) t.degenerate('an empty page');
      if (e.returnedItems !== p.items.length || p.items.length > limit) {
        fail(
          `returnedItems ${p.items.length} (the page length), at most ${limit}`,
          `returnedItems ${JSON.stringify(e.returnedItems)} with ${p.items.length} items`,
          p.res,
        );
      }
    });
  });
  check(target, 'envelope.limit-echo', 'MUST', ENVELOPE_SPEC, `${target.label}: the envelope's limit is the page size in force`, async (t) => {
    const pages = pageWithin(await sizeOf(t, target), { pastEnd: true, ...reach(t) });
    await t.property(
      preferring(pages, (p) => p.limit !== t.profile.expectations.lists.defaultLimit),
      async ({ limit, offset }) => {
        const p = await page(t, target, { _limit: limit, _offset: offset });
        if (limit === t.profile.expectations.lists.defaultLimit) t.degenerate('the default limit, which a target that echoes the default also answers');
        if (env(p).limit !== limit) fail(`limit ${limit}`, `limit ${JSON.stringify(env(p).limit)}`, p.res);
      },
    );
  });
  check(target, 'envelope.offset-echo', 'MUST', ENVELOPE_SPEC, `${target.label}: the envelope's offset is the offset in force`, async (t) => {
    await t.property(
      preferring(pageWithin(await sizeOf(t, target), { pastEnd: true, ...reach(t) }), (p) => p.offset !== 0),
      async ({ limit, offset }) => {
        const p = await page(t, target, { _limit: limit, _offset: offset });
        if (offset === 0) t.degenerate('offset 0, which a target that echoes the default also answers');
        if (env(p).offset !== offset) fail(`offset ${offset}`, `offset ${JSON.stringify(env(p).offset)}`, p.res);
      },
    );
  });
  check(target, 'envelope.total-items', 'MUST', ENVELOPE_SPEC, `${target.label}: totalItems counts the whole collection, not the page`, async (t) => {
    const all = await survey(t, target);
    if (!all.whole) return sampledTotalItems(t, target, all, env);
    t.requireData(all.items.length >= 2, `${target.label} has ${all.items.length} items; a page shorter than the collection needs at least 2`);
    await t.property(pageWithin(all.items.length, { pastEnd: true, maxLimit: reach(t).maxLimit }), async ({ limit, offset }) => {
      const p = await page(t, target, { _limit: limit, _offset: offset });
      if (p.items.length === all.items.length) t.degenerate('a page holding the whole collection, whose length is also its total');
      if (env(p).totalItems !== all.items.length) fail(`totalItems ${all.items.length}`, `totalItems ${JSON.stringify(env(p).totalItems)}`, p.res);
    });
  });
}

/** public-facts: "totalItems counts the whole (filtered) collection". A filter drawn from the
 * collection's values, preferring one that selects some items but not all (a filter selecting every
 * item has the unfiltered total too); the filtered collection is walked in pages of `readingPage` (its size is
 * what the walk yields, whatever the filter's semantics), then one page of it at a drawn limit and
 * offset must report that size. */
function filteredTotalCheck(target: ListTarget, collection: NonNullable<ListTarget['collection']>): void {
  const types = fieldTypes(target.itemContract);
  check(
    target,
    'envelope.filtered-total-items',
    'PROFILE',
    FACTS_SPEC,
    `${target.label}: with _filter, totalItems counts the filtered collection`,
    async (t) => {
      const surveyed = await survey(t, target);
      const { items } = surveyed;
      t.requireData(items.length >= 2, `${target.label} has ${items.length} items; a filter that selects some but not all needs at least 2`);
      const fields = Object.fromEntries(t.profile.expectations.lists[collection].filterable.flatMap((f) => (types[f] ? [[f, types[f]]] : [])));
      const proper = (ast: FilterAst) => {
        const selected = filterRecords(items, ast, fields).length;
        return selected > 0 && selected < items.length;
      };
      const room = await filterRoom(t, target);
      const cases = fc.tuple(preferring(filterExpression(fields, items, room), proper), fc.integer({ min: 1, max: Math.min(30, maxLimitOf(t)) }), fc.nat());
      await t.property(cases, async ([ast, limit, pick]) => {
        const text = render(ast);
        const read = surveyed.whole ? readAll : readHead;
        const filtered = await read(t, target, { _filter: text });
        const size = filtered.items.length;
        const whole = !('whole' in filtered) || filtered.whole;
        if (size === 0) t.degenerate('a filter that selects no item');
        else if (whole && size >= surveyed.size) t.degenerate('a filter that selects every item, whose total is the unfiltered one');
        else t.outcome('filtered-total-proper-subset');
        const offset = Math.min(reach(t).maxOffset, pick % Math.max(1, Math.ceil(size / limit)));
        const p = await page(t, target, { _filter: text, _limit: limit, _offset: offset });
        const total = env(p).totalItems;
        if (whole ? total !== size : typeof total !== 'number' || total < size)
          fail(
            `totalItems ${whole ? '' : 'at least '}${size} (the items a walk over _filter=${text} yields)`,
            `totalItems ${JSON.stringify(total)}${total === surveyed.size ? ' (the unfiltered total)' : ''}`,
            p.res,
          );
      });
    },
  );
}

const env = (p: Page) => p.envelope ?? fail('an envelope', describeResponse(p.res), p.res);

function pagingChecks(target: ListTarget): void {
  walkOnceCheck(target);
  limitChecks(target);
  paramChecks(target);
  defaultOrderCheck(target);
}

function walkOnceCheck(target: ListTarget): void {
  // The specification states it (_offset: "number of pages to offset into the collection", _limit: the
  // page size); public-facts only repeats it, so the MUST check quotes the specification.
  check(target, 'paging.walk-once', 'MUST', LIST_SPEC, `${target.label}: a walk over all pages yields every item exactly once`, async (t) => {
    const surveyed = await survey(t, target);
    if (!surveyed.whole) return sampledWalk(t, target, surveyed);
    const all = ids(surveyed.items);
    t.requireData(all.length >= 2, `${target.label} has ${all.length} items; a walk over several pages needs at least 2`);
    // Each whole walk reads every item: WHOLE_WALK_ITEMS in all, in at most WHOLE_WALK_PAGES pages
    // each; the other runs walk up to WALK_PAGES pages, anywhere (budget.ts).
    const walks = Math.max(MIN_WHOLE_WALKS, Math.floor(WHOLE_WALK_ITEMS / all.length));
    const largest = Math.max(1, Math.min(30, all.length - 1, maxLimitOf(t)));
    const limits = fc.integer({ min: Math.min(largest, Math.ceil(all.length / WHOLE_WALK_PAGES)), max: largest });
    const walkWhole = async (limit: number): Promise<void> => {
      // A correct walk holds the collection's items, plus at most one full page before a short one.
      if (all.length <= limit) t.degenerate('a walk of a single page');
      const { items, last } = await walk(t, target, limit, {}, all.length + limit);
      const walked = ids(items);
      if (!onceEach(walked, all)) fail(`the ${all.length} items, each once, over pages of ${limit}`, walkedAgainst(walked, all), last.res);
    };
    await t.property(limits, walkWhole, { maxRuns: walks });
    if (walks < t.config.runs) await sampledWalk(t, target, surveyed, t.config.runs - walks);
  });
}

function limitChecks(target: ListTarget): void {
  check(target, 'limit.page-size', 'MUST', LIST_SPEC, `${target.label}: _limit bounds the page size and fills the first page`, async (t) => {
    const total = await sizeOf(t, target);
    t.requireData(total >= 2, `${target.label} has ${total} items; a page that _limit cuts short needs at least 2`);
    // Mostly limits below the collection size (the page is cut at the limit); one in 20 above it (the page holds all).
    // (Limits stay at most the profile's maxLimit, which refuses more: a larger collection gets only cut pages.)
    const maxLimit = maxLimitOf(t);
    const cut = fc.integer({ min: 1, max: Math.max(1, Math.min(60, total - 1, maxLimit)) });
    const limits =
      total > maxLimit
        ? cut
        : fc.oneof({ weight: 19, arbitrary: cut }, { weight: 1, arbitrary: fc.integer({ min: total, max: Math.min(maxLimit, total + 20) }) });
    // The first run cuts the page about in half, so that a single run (`--runs 1`) exercises the rule.
    const half = Math.max(1, Math.min(60, total - 1, Math.ceil(total / 2), maxLimit));
    await t.property(
      limits,
      async (limit) => {
        const p = await page(t, target, { _limit: limit });
        if (limit >= total) t.degenerate('a limit at least the collection size, which a target that ignores _limit also fills');
        if (p.items.length !== Math.min(limit, total)) fail(`${Math.min(limit, total)} items on the first page of ${limit}`, `${p.items.length} items`, p.res);
      },
      { examples: [half] },
    );
  });
  check(target, 'limit.default', 'PROFILE', FACTS_SPEC, `${target.label}: without _limit a page holds the profile's default page size`, async (t) => {
    const total = await sizeOf(t, target);
    const expected = Math.min(t.profile.expectations.lists.defaultLimit, total);
    const p = await page(t, target, {});
    if (p.items.length !== expected) fail(`${expected} items`, `${p.items.length} items`, p.res);
  });
}

/** The paging parameters: malformed or out-of-bounds values, and the deprecated names. */
function paramChecks(target: ListTarget): void {
  const invalid = (
    rule: string,
    level: 'MUST' | 'PROFILE',
    spec: string,
    param: '_limit' | '_offset',
    what: string,
    arb: (t: CheckContext) => fc.Arbitrary<string>,
  ) =>
    check(target, rule, level, spec, `${target.label}: ${param} ${what} answers 422 naming ${param}`, async (t) => {
      const params = target.params ? { params: await target.params(t) } : {};
      await t.property(arb(t), async (value) => {
        const res = await t.http.send({ op: target.op, version: target.version, query: { [param]: value }, ...params });
        expectRejected(res, param);
      });
    });
  const notInteger = fc.oneof(
    fc.constantFrom('abc', '1.5', '', '1e2', ' 3', '0x10'),
    fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/^\s*-?\d+\s*$/.test(s)),
  );
  invalid('params.limit-not-integer', 'MUST', 'spec#errors', '_limit', 'that is not an integer', () => notInteger);
  invalid('params.limit-above-max', 'PROFILE', FACTS_SPEC, '_limit', 'above the maximum', (t) =>
    fc.integer({ min: t.profile.expectations.lists.maxLimit + 1, max: 10 ** 6 }).map(String),
  );
  invalid('params.limit-below-one', 'PROFILE', FACTS_SPEC, '_limit', 'below 1', () => fc.integer({ min: -1000, max: 0 }).map(String));
  invalid('params.offset-not-integer', 'MUST', 'spec#errors', '_offset', 'that is not an integer', () => notInteger);
  invalid('params.offset-negative', 'MUST', 'spec#errors', '_offset', 'that is negative', () => fc.integer({ min: -1000, max: -1 }).map(String));
  invalid('params.offset-above-max', 'PROFILE', FACTS_SPEC, '_offset', 'above the maximum', (t) =>
    fc.integer({ min: t.profile.expectations.lists.maxOffset + 1, max: 10 ** 7 }).map(String),
  );
  check(
    target,
    'params.deprecated-limit-offset',
    'PROFILE',
    FACTS_SPEC,
    `${target.label}: the deprecated limit and offset act as _limit and _offset`,
    async (t) => {
      const total = await sizeOf(t, target);
      t.requireData(total >= 2, `${target.label} has ${total} items; pages other than the default page need at least 2`);
      const page0 = (p: { limit: number; offset: number }) => p.offset === 0 && p.limit === t.profile.expectations.lists.defaultLimit;
      await t.property(
        preferring(pageWithin(total, reach(t)), (p) => !page0(p)),
        async ({ limit, offset }) => {
          const current = await page(t, target, { _limit: limit, _offset: offset });
          const deprecated = await page(t, target, { limit, offset });
          if (current.items.length === 0) t.degenerate('an empty page');
          else if (offset === 0 && limit === t.profile.expectations.lists.defaultLimit)
            t.degenerate('the default page, which a target that ignores limit and offset also answers');
          if (ids(deprecated.items).join() !== ids(current.items).join()) {
            fail(
              `the items of _limit=${limit}&_offset=${offset}`,
              `${deprecated.items.length} other items for limit=${limit}&offset=${offset}`,
              deprecated.res,
            );
          }
        },
      );
    },
  );
}

function defaultOrderCheck(target: ListTarget): void {
  const create = target.create;
  if (create) {
    check(
      target,
      'default-order',
      'PROFILE',
      FACTS_SPEC,
      `${target.label}: without _sort, items come in creation order`,
      async (t) => {
        const first = await create(t);
        const second = await create(t);
        // A large collection: its window ends with its last page, where the new items are.
        const { items, last } = await survey(t, target);
        const order = ids(items);
        if (!(order.indexOf(first) >= 0 && order.indexOf(first) < order.indexOf(second))) {
          fail(`${first} (created first) before ${second}`, `positions ${order.indexOf(first)} and ${order.indexOf(second)}`, last.res);
        }
      },
      [collectionOf(target.op)],
    );
  }
}

/** The types, in the list's item contract, of the fields it is given (those the contract has). */
type TypesOf = (fields: readonly string[]) => FieldTypes;

function typesIn(target: ListTarget): TypesOf {
  const types = fieldTypes(target.itemContract);
  return (fields) => Object.fromEntries(fields.flatMap((f) => (types[f] ? [[f, types[f]]] : [])));
}

/** Up to 12 surveyed items whose `field` ties in groups: most of each of the largest groups, so pages start inside them. */
function tiedSelection(items: readonly DataRecord[], field: string): DataRecord[] {
  const groups = new Map<string, DataRecord[]>();
  for (const item of items) {
    const key = JSON.stringify(item[field] ?? null);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const tied = [...groups.values()].filter((g) => g.length >= 2).sort((a, b) => b.length - a.length);
  const single = [...groups.values()].find((g) => g.length === 1) ?? [];
  // A group of 3 or more leaves its first item out: the pages then also pass records the filter does not select.
  const chosen = tied.slice(0, 3).flatMap((g) => (g.length >= 3 ? g.slice(1, 5) : g));
  return [...chosen, ...single].slice(0, 12);
}

function tiedSortWalkCheck(target: ListTarget, collection: NonNullable<ListTarget['collection']>): void {
  const typesOf = typesIn(target);
  // _offset counts pages of _limit items, and _filter and _sort apply together (the specification's list
  // parameters): a walk over the pages of one filtered, sorted list (one key or two) holds each
  // selected item once, whatever order the server gives items that tie. The filter names surveyed
  // items by id, so items other checks create meanwhile stay out of it; pages of 2 or 3 start inside
  // groups of ties. The order itself is the sort checks' rule, and a walk without _sort the
  // filtered-walk check's: this check judges neither (a failing unsorted walk ends it blocked by
  // paging.filtered-walk-once).
  check(
    target,
    'paging.filtered-sorted-walk-once',
    'MUST',
    LIST_SPEC,
    `${target.label}: pages of a filtered sort with ties hold each selected item once`,
    async (t) => {
      const lists = t.profile.expectations.lists[collection];
      if (!lists.filterable.some((f) => f.toLowerCase() === 'id')) return t.skip('the profile does not name id as filterable');
      const fields = typesOf(lists.sortable);
      const surveyed = await survey(t, target);
      if (!surveyed.whole) return t.skip(`${target.label} is larger than a survey reads whole`);
      const candidates = Object.keys(fields)
        .map((field) => ({ field, selection: tiedSelection(surveyed.items, field) }))
        .filter(({ selection }) => selection.length >= 4);
      t.requireData(candidates.length > 0, `no sortable field of ${target.label} has items that tie`);
      // Sometimes a second key, which orders the items inside each group of ties on the first.
      const sortable = Object.keys(fields);
      const second = fc.option(fc.tuple(fc.constantFrom(...sortable), fc.boolean()), { nil: undefined });
      await t.property(
        fc.tuple(fc.constantFrom(...candidates), fc.boolean(), fc.integer({ min: 2, max: 3 }), second),
        async ([{ field, selection }, descending, limit, then]) => {
          const spec: SortKey[] = [{ field, descending }];
          if (then !== undefined && then[0] !== field) spec.push({ field: then[0], descending: then[1] });
          const chosen = ids(selection);
          const query = { _filter: chosen.map((id) => `id eq guid'${id}'`).join(' or '), _sort: renderSort(spec) };
          // The same selection walked without _sort first: a walk that loses or repeats items there
          // breaks paging.filtered-walk-once's rule, which that check reports; this one is about ties.
          const walkOnce = `${target.idPrefix}.paging.filtered-walk-once`;
          const unsorted = `the walk of _filter=${query._filter} without _sort over pages of ${limit}`;
          const plain = await walk(t, target, limit, { _filter: query._filter }, chosen.length + limit, chosen.length).catch((error: unknown) =>
            error instanceof CheckFailure ? blockedBy(walkOnce, `${unsorted}: ${error.message}`) : Promise.reject(error),
          );
          if (!onceEach(ids(plain.items), chosen)) blockedBy(walkOnce, unsorted, plain.last.res);
          const { items, last } = await walk(t, target, limit, query, chosen.length + limit, chosen.length);
          const walked = ids(items);
          if (!onceEach(walked, chosen))
            fail(
              `the ${chosen.length} items of _filter=${query._filter}, each once, over pages of ${limit} sorted by ${query._sort}`,
              walkedAgainst(walked, chosen),
              last.res,
            );
        },
      );
    },
  );
}

/**
 * A failing walk at `limit` over at most `pages` pages, read again without `_filter` and `_sort` for
 * as many pages: those pages must hold the survey's first items (from position 0, in pages of
 * `readingPage`) each once. A target whose plain pages at that limit do not breaks paging.walk-once's
 * rule, which that check reports, and the check that met it ends blocked by it. Otherwise the
 * failure is the caller's own.
 */
async function unlessPlainWalkFails(t: CheckContext, target: ListTarget, surveyed: Survey, limit: number, pages: number): Promise<void> {
  const head = surveyed.segments.find((segment) => segment.start === 0)?.items ?? [];
  const expected = ids(head.slice(0, pages * limit) as DataRecord[]);
  const walkOnce = `${target.idPrefix}.paging.walk-once`;
  const plain = `the first ${pages} pages of ${limit} without _filter and _sort`;
  const got: string[] = [];
  for (let n = 0; n < pages; n++) {
    const p = await page(t, target, { _limit: limit, _offset: n }).catch((error: unknown) =>
      error instanceof CheckFailure ? blockedBy(walkOnce, `${plain}: ${error.message}`) : Promise.reject(error),
    );
    got.push(...ids(p.items));
    if (p.items.length < limit) break;
  }
  if (!onceEach(got, expected)) blockedBy(walkOnce, `${plain}: ${walkedAgainst(got, expected)} of the list's first ${expected.length} items`);
}

/** A walk's failure (its own CheckFailure, or `judge`'s) stands only when the plain pages at that limit hold (unlessPlainWalkFails). */
async function ownWalkFailure<T>(
  t: CheckContext,
  target: ListTarget,
  surveyed: Survey,
  walk: { limit: number; pages: number },
  judge: () => Promise<T>,
): Promise<T> {
  try {
    return await judge();
  } catch (error) {
    if (error instanceof CheckFailure) await unlessPlainWalkFails(t, target, surveyed, walk.limit, walk.pages);
    throw error;
  }
}

/** Runs of the filtered-walk check, each a filter of its own whose selection is read and walked (at
 * most 10 requests): 30 filters meet both ways a target may select (an index range and a predicate
 * over every record, in the reference server); more runs would repeat walks of the same kinds. */
const FILTERED_WALKS = 30;
/** Full pages of a filtered walk at most: with the selection's read and the last page, WALK_PAGES requests per run (budget.ts). */
const FILTERED_WALK_PAGES = WALK_PAGES - 2;

function filteredWalkCheck(target: ListTarget, collection: NonNullable<ListTarget['collection']>): void {
  const typesOf = typesIn(target);
  // _offset counts pages of the collection _filter selects (the specification's list parameters;
  // public-facts: totalItems counts the filtered collection), so a walk over the pages of a filtered
  // list without _sort holds each selected item once. The selection is the target's own, read in one
  // page: which items a filter selects is filter.matches-model's rule, not this check's.
  check(target, 'paging.filtered-walk-once', 'MUST', LIST_SPEC, `${target.label}: pages of a filtered list hold each selected item once`, async (t) => {
    // A large collection's window says little of how many items a filter drawn from it selects in
    // the whole: nearly every draw would select more than one page reads.
    const surveyed = await survey(t, target);
    if (!surveyed.whole) return t.skip(`${target.label} is larger than a survey reads whole`);
    const { items } = surveyed;
    t.requireData(items.length >= 3, `${target.label} has ${items.length} items; a filter that selects several but not all needs at least 3`);
    const fields = typesOf(t.profile.expectations.lists[collection].filterable);
    const several = (ast: FilterAst) => {
      const selected = filterRecords(items, ast, fields).length;
      return selected >= 3 && selected < Math.min(items.length, readingPage(t));
    };
    const room = await filterRoom(t, target);
    const walkFiltered = async ([ast, pick]: [FilterAst, number]) => {
      const text = render(ast);
      const whole = await page(t, target, { _filter: text, _limit: readingPage(t) });
      const selected = ids(whole.items);
      if (selected.length < 2) return t.degenerate('a filter that selects fewer than 2 items, which one page holds');
      if (selected.length >= readingPage(t)) return t.degenerate('a selection larger than one page of the reading size');
      if (new Set(selected).size !== selected.length)
        blockedBy(`${target.idPrefix}.filter.matches-model`, `the selection of _filter=${text} in one page repeats items`, whole.res);
      // A limit below the selection's size, so that the walk has several pages: at most FILTERED_WALK_PAGES
      // full ones and the short or empty one after them.
      const min = Math.max(1, Math.ceil(selected.length / FILTERED_WALK_PAGES));
      const limit = min + (pick % (selected.length - min));
      t.outcome('filtered-walk-several-pages');
      await ownWalkFailure(t, target, surveyed, { limit, pages: Math.ceil(selected.length / limit) + 1 }, async () => {
        const walked = await walk(t, target, limit, { _filter: text }, selected.length + limit);
        const got = ids(walked.items);
        if (!onceEach(got, selected))
          fail(`the ${selected.length} items of _filter=${text}, each once, over pages of ${limit}`, walkedAgainst(got, selected), walked.last.res);
      });
    };
    await t.property(fc.tuple(preferring(filterExpression(fields, items, room), several), fc.nat()), walkFiltered, { maxRuns: FILTERED_WALKS });
  });
}

/** Pages per walk of the sorted-walk check: its limit is at least the collection's size over this. */
const SORTED_WALK_PAGES = 25;

/** The size of the largest group of items that tie on `field`. */
function largestTie(items: readonly DataRecord[], field: string): number {
  const counts = new Map<string, number>();
  for (const item of items) {
    const key = JSON.stringify(item[field] ?? null);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
}

/** Limits from `min` to `max`, one draw in two a divisor of `size` when there is one (the walk's empty page then starts at the end). */
function walkLimits(size: number, min: number, max: number): fc.Arbitrary<number> {
  const any = fc.integer({ min, max });
  const divisors = Array.from({ length: max - min + 1 }, (_, i) => min + i).filter((d) => size % d === 0);
  return divisors.length === 0 ? any : fc.oneof(any, fc.constantFrom(...divisors));
}

/** The walk of `walk`, and then, when its last page was short but not empty, the page after it: clients walk to an empty page. */
async function walkToEmpty(t: CheckContext, target: ListTarget, limit: number, query: Query, maxItems: number): Promise<{ items: DataRecord[]; last: Page }> {
  const walked = await walk(t, target, limit, query, maxItems);
  if (walked.last.items.length === 0) return walked;
  const next = (walked.items.length - walked.last.items.length) / limit + 1;
  const after = await page(t, target, { ...query, _limit: limit, _offset: next });
  return { items: [...walked.items, ...after.items], last: after };
}

function sortedWalkCheck(target: ListTarget, collection: NonNullable<ListTarget['collection']>): void {
  const typesOf = typesIn(target);
  // _offset counts pages of _limit items in the order _sort gives (the specification's list
  // parameters), and clients increment it until a page comes back empty (public-facts): a walk over
  // the pages of a sorted list, to its empty page, holds every item once, whatever order the target
  // gives items that tie. Sorted by the fields with the largest groups of ties, so that pages start
  // inside them. The order itself is the sort checks' rule.
  check(
    target,
    'paging.sorted-walk-once',
    'MUST',
    LIST_SPEC,
    `${target.label}: pages of a sorted list, walked to an empty page, hold every item once`,
    async (t) => {
      const surveyed = await survey(t, target);
      if (!surveyed.whole) return t.skip(`${target.label} is larger than a survey reads whole`);
      const all = ids(surveyed.items);
      t.requireData(all.length >= 3, `${target.label} has ${all.length} items; a walk over several pages needs at least 3`);
      const sortable = Object.keys(typesOf(t.profile.expectations.lists[collection].sortable));
      if (sortable.length === 0) return t.skip('the profile names no sortable field');
      const ties = new Map(sortable.map((field) => [field, largestTie(surveyed.items, field)]));
      const most = Math.max(...ties.values());
      const fields = sortable.filter((field) => (ties.get(field) ?? 0) * 2 >= most);
      const min = Math.max(1, Math.ceil(all.length / SORTED_WALK_PAGES));
      const max = Math.max(min, Math.min(30, all.length - 1, maxLimitOf(t)));
      const cases = fc.tuple(fc.constantFrom(...fields), fc.boolean(), walkLimits(all.length, min, max));
      const walkSorted = async ([field, descending, limit]: [string, boolean, number]) => {
        if (most < 2) t.degenerate('a sort without ties');
        const query = { _sort: renderSort([{ field, descending }]) };
        await ownWalkFailure(t, target, surveyed, { limit, pages: Math.ceil(all.length / limit) + 1 }, async () => {
          const walked = await walkToEmpty(t, target, limit, query, all.length + limit);
          const got = ids(walked.items);
          if (!onceEach(got, all))
            fail(
              `the ${all.length} items, each once, over pages of ${limit} sorted by ${query._sort} to an empty page`,
              walkedAgainst(got, all),
              walked.last.res,
            );
        });
      };
      await t.property(cases, walkSorted, { maxRuns: MIN_WHOLE_WALKS });
    },
  );
}

function filterSortChecks(target: ListTarget, collection: NonNullable<ListTarget['collection']>): void {
  const typesOf = typesIn(target);
  filterModelCheck(target, collection, typesOf);
  filterRejectionChecks(target, collection);
  sortChecks(target, collection, typesOf);
}

function filterModelCheck(target: ListTarget, collection: NonNullable<ListTarget['collection']>, typesOf: TypesOf): void {
  check(target, 'filter.matches-model', 'MUST', LIST_SPEC, `${target.label}: _filter selects exactly the items its expression is true for`, async (t) => {
    const surveyed = await survey(t, target);
    const { items } = surveyed;
    t.requireData(items.length >= 2, `${target.label} has ${items.length} items; a filter that selects some but not all needs at least 2`);
    const fields = typesOf(t.profile.expectations.lists[collection].filterable);
    // Expressions drawn from the collection's values, mostly preferring those that prove something:
    // a proper subset, or a boundary of the rule (filter.ts boundaryOf), where a case-changed `eq` that
    // selects nothing is what catches a server that compares without case. One in five as it comes.
    const proper = (ast: FilterAst) => {
      const selected = filterRecords(items, ast, fields).length;
      return selected > 0 && selected < items.length;
    };
    const telling = (ast: FilterAst) => proper(ast) || boundaryOf(ast, items) !== undefined;
    const room = await filterRoom(t, target);
    const expressions = filterExpression(fields, items, room);
    const boundaries = boundaryExpression(fields, items, room);
    const drawn = fc.oneof(
      { weight: 2, arbitrary: preferring(expressions, telling) },
      { weight: 2, arbitrary: boundaries },
      { weight: 1, arbitrary: expressions },
    );
    // Then conjunctions of ranges, a property of their own so that the first one's draws stay as
    // they were: they tell the intersection of ranges from one of them or from their union.
    const ranges = rangeConjunction(fields, items, room);
    const rangeDraws = ranges === undefined ? undefined : preferring(ranges, proper);
    if (!surveyed.whole) {
      await sampledFilter(t, target, surveyed, fields, drawn);
      if (rangeDraws !== undefined) await sampledFilter(t, target, surveyed, fields, rangeDraws);
      return;
    }
    const selectsAsModelled = async (ast: FilterAst) => {
      const text = render(ast);
      const expected = ids(filterRecords(items, ast, fields)).sort();
      const boundary = boundaryOf(ast, items);
      if (expected.length > 0 && expected.length < items.length) t.outcome('filter-selected-proper-subset');
      else if (boundary) t.outcome(`filter-${boundary}`);
      else t.degenerate(expected.length === 0 ? 'a filter that selects no item' : 'a filter that selects every item');
      const got = await readAll(t, target, { _filter: text });
      const actual = ids(got.items).sort();
      if (expected.join() !== actual.join()) {
        const extra = actual.filter((id) => !expected.includes(id)).length;
        const missing = expected.filter((id) => !actual.includes(id)).length;
        fail(
          `${expected.length} items for _filter=${text}`,
          `${actual.length} items (${extra} that do not match, ${missing} missing)${envelopeSaid(got.last)}`,
          got.last.res,
        );
      }
    };
    // A single run (`--runs 1`) takes a filter that selects some items but not all, drawn from the
    // check's seed, so that it exercises the rule (the drawn filter selected all or none of a list in 3
    // of 56 such runs). More runs draw as before: an example first shifts every later draw, and the
    // negative controls' detections at 25 runs found a filter fault under other seeds than with it.
    const first = t.config.runs === 1 ? fc.sample(expressions, { seed: t.seed, numRuns: 50 }).find(proper) : undefined;
    await t.property(drawn, selectsAsModelled, first === undefined ? {} : { examples: [first] });
    if (rangeDraws !== undefined) await t.property(rangeDraws, selectsAsModelled);
  });
}

/** Filters no OData-style grammar parses. They are the property's examples, which fast-check sends
 * first, so a run of at least as many runs as filters (the default's, the mutation judge's 20) sends
 * every one; `--runs 1` sends the first. Among them, tokens in a place where their text would mean
 * something else: a parser that reads a token's text without its kind takes `'eq'` for `eq`, `'and'`
 * for `and`, `'startswith'` for the function and `'('` for a parenthesis; one that takes any
 * punctuation for `(` reads a stray `)` as one; one that takes a field followed by `(` for a
 * transform reads `name(name)` as one. */
const BROKEN_FILTERS = [
  'name eq',
  "name eq 'unterminated",
  'eq 1',
  '(name eq 1',
  "name eq 'a')",
  'name === 1',
  'startswith(name)',
  'not',
  "name eq 'a' and",
  "name 'eq' 'x'",
  "name eq 'a' 'and' name eq 'b'",
  "'startswith'(name,'a')",
  "'(' name eq 'a')",
  ") name eq 'a')",
  "name(name) eq 'a'",
];

function filterRejectionChecks(target: ListTarget, collection: NonNullable<ListTarget['collection']>): void {
  check(target, 'filter.invalid-422', 'MUST', 'spec#errors', `${target.label}: a _filter that does not parse answers 422 naming _filter`, async (t) => {
    const broken = fc.constantFrom(...BROKEN_FILTERS);
    await t.property(
      broken,
      async (text) => {
        expectRejected(await t.http.send({ op: target.op, version: target.version, query: { _filter: text } }), '_filter');
      },
      { examples: [...BROKEN_FILTERS] },
    );
  });
  check(target, 'filter.field-names-any-case', 'PROFILE', FACTS_SPEC, `${target.label}: field names in _filter and _sort match in any case`, async (t) => {
    const [field] = t.profile.expectations.lists[collection].filterable;
    if (!field) return t.skip('the profile names no filterable field');
    const shouted = field.toUpperCase();
    const surveyed = await survey(t, target);
    const present = surveyed.items.filter((item) => item[field] !== null && item[field] !== undefined).length;
    t.requireData(present >= 2, `${target.label} has ${present} items with ${field} set; comparing two answers needs at least 2`);
    // A large collection: the two answers' heads (more than LARGE_COLLECTION items each) are compared.
    const read = surveyed.whole ? readAll : readHead;
    const lower = await read(t, target, { _filter: `${field} ne null`, _sort: field });
    // Two empty answers would agree whatever the case rule: they prove nothing.
    if (lower.items.length === 0)
      fail(`the ${present} items whose ${field} is not null, for _filter=${field} ne null (not exercised otherwise)`, 'no item', lower.last.res);
    const expected = ids(lower.items).join();
    const got = await read(t, target, { _filter: `${shouted} ne null`, _sort: shouted });
    if (ids(got.items).join() !== expected)
      fail(`the items of _filter=${field} ne null&_sort=${field}`, `${got.items.length} other items with ${shouted}`, got.last.res);
  });
  check(
    target,
    'filter.unknown-field-422',
    'PROFILE',
    LIST_SPEC,
    `${target.label}: a _filter on a field that does not allow filtering answers 422`,
    async (t) => {
      expectRejected(await t.http.send({ op: target.op, version: target.version, query: { _filter: "lpcNoSuchField eq 'x'" } }), '_filter');
    },
  );
}

// One direction per check, on one field; several fields in mixed directions in a third check.
// The collection is read first: keys are drawn among the fields whose values differ in it (a key
// after the first among those it leaves tied), and pages among those with at least 2 items.
function sortCheck(
  target: ListTarget,
  collection: NonNullable<ListTarget['collection']>,
  typesOf: TypesOf,
  rule: string,
  title: string,
  keys: (ordering: string[], sortable: string[]) => fc.Arbitrary<SortKey[]>,
): void {
  check(target, rule, 'MUST', LIST_SPEC, `${target.label}: ${title}`, async (t) => {
    const fields = typesOf(t.profile.expectations.lists[collection].sortable);
    const surveyed = await survey(t, target);
    const { items: all } = surveyed;
    t.requireData(all.length >= 2, `${target.label} has ${all.length} items; a sort needs at least 2`);
    // A spec and page exercise the rule when, on the page the suite expects, the (later) keys decide an order.
    const decides = (records: readonly DataRecord[], spec: SortKey[]) => {
      const decided = keyDecisions(records, spec, fields);
      return spec.length === 1 ? (decided[0] ?? 0) > 0 : decided.slice(1).some((n) => n > 0);
    };
    const ordering = Object.keys(fields).filter((field) => decides(all, [{ field, descending: false }]));
    t.requireData(ordering.length > 0, `no sortable field of ${target.label} has two different values`);
    const expectedPage = ([spec, { limit, offset }]: [SortKey[], PageRequest]) => sortRecords(all, spec, fields).slice(offset * limit, (offset + 1) * limit);
    // A large collection: its sorted pages cannot be predicted from the window. A page at a relative
    // position q of the sorted answer is preferred when the window's items next to q decide an order.
    const nearby = ([spec, { limit, offset }]: [SortKey[], PageRequest]) => {
      const sorted = sortRecords(all, spec, fields);
      const at = Math.min(sorted.length - 2, Math.floor(((offset * limit) / surveyed.size) * sorted.length));
      return decides(sorted.slice(at, at + 2), spec);
    };
    // Pages of at most 100 items (pageOfAtLeastTwo's default), within the profile's maxLimit.
    const sortLimit = Math.min(100, maxLimitOf(t));
    const cases = surveyed.whole
      ? preferring(fc.tuple(keys(ordering, Object.keys(fields)), pageOfAtLeastTwo(all.length, sortLimit)), (c) => decides(expectedPage(c), c[0]))
      : preferring(fc.tuple(keys(ordering, Object.keys(fields)), pageOfAtLeastTwo(surveyed.size, sortLimit, t.profile.expectations.lists.maxOffset)), nearby);
    // The order is verified on the returned items: one page, at a generated offset.
    await t.property(cases, async ([spec, { limit, offset }]) => {
      const { items, res } = await page(t, target, { _sort: renderSort(spec), _limit: limit, _offset: offset });
      const decided = keyDecisions(items, spec, fields);
      if (items.length < 2) t.degenerate('a page of fewer than 2 items');
      else if (decided.every((n) => n === 0)) t.degenerate('a page whose items tie on every sort key');
      else if (spec.length > 1 && decided.slice(1).every((n) => n === 0)) t.degenerate('a page where no key after the first decides an order');
      else t.outcome(`sort-${spec.length}-key${spec.length > 1 ? 's' : ''}-${items.length === limit ? 'full' : 'short'}-page`);
      const at = sortViolationIndex(items, spec, fields);
      if (at >= 0) {
        fail(
          `items ordered by _sort=${renderSort(spec)}`,
          `item ${at + 1} ${JSON.stringify(items[at])?.slice(0, 160)} after ${JSON.stringify(items[at - 1])?.slice(0, 160)}`,
          res,
        );
      }
    });
  });
}

function sortChecks(target: ListTarget, collection: NonNullable<ListTarget['collection']>, typesOf: TypesOf): void {
  const sortCheckOf = (rule: string, title: string, keys: (ordering: string[], sortable: string[]) => fc.Arbitrary<SortKey[]>) =>
    sortCheck(target, collection, typesOf, rule, title, keys);
  const oneField = (descending: boolean) => (fields: string[]) => fc.constantFrom(...fields).map((field) => [{ field, descending }]);
  sortCheckOf('sort.ascending', '_sort on a field orders ascending', oneField(false));
  sortCheckOf('sort.descending', '_sort on a field with a - prefix orders descending', oneField(true));
  sortCheckOf('sort.multi-key', '_sort on several fields orders by each in turn', (_ordering, sortable) =>
    sortSpec(sortable).filter((spec) => spec.length >= Math.min(2, sortable.length)),
  );
  check(target, 'sort.unknown-field-422', 'PROFILE', LIST_SPEC, `${target.label}: a _sort on a field that does not allow sorting answers 422`, async (t) => {
    expectRejected(await t.http.send({ op: target.op, version: target.version, query: { _sort: 'lpcNoSuchField' } }), '_sort');
  });
}

/** Lists that accept only _limit and _offset (spec: question bank and question lists). */
function onlyPagingChecks(target: ListTarget): void {
  const rejected = (param: '_filter' | '_sort', value: string) =>
    check(
      target,
      `params.${param.slice(1)}-rejected`,
      'PROFILE',
      LIST_SPEC,
      `${target.label}: ${param}, which this list does not take, answers 422`,
      async (t) => {
        const params = target.params ? { params: await target.params(t) } : {};
        expectRejected(await t.http.send({ op: target.op, version: target.version, query: { [param]: value }, ...params }), param);
      },
    );
  rejected('_filter', "name eq 'x'");
  rejected('_sort', 'name');
}

export function listChecks(target: ListTarget): void {
  if (target.key !== undefined) envelopeChecks(target);
  pagingChecks(target);
  if (target.collection) {
    filterSortChecks(target, target.collection);
    tiedSortWalkCheck(target, target.collection);
    filteredWalkCheck(target, target.collection);
    sortedWalkCheck(target, target.collection);
  } else onlyPagingChecks(target);
  if (target.collection && target.key !== undefined) filteredTotalCheck(target, target.collection);
}
