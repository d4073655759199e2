/**
 * List checks, one requirement each, for every list that takes the common list parameters
 * (spec#integration-api-common-list-parameters-v1-and-v2-list-operations-that-list-below-as-list,
 * spec#paged-list-envelope-v2-list-operations, public-facts#list-parameters-and-envelope-integration-api).
 * Filters and sorts are judged against the suite's own evaluation (filter.ts) over the collection
 * the check read; the reference server's evaluation is an independent reading of the same grammar.
 */
import fc from 'fast-check';
import type { OperationId } from '../../src/profile/index.js';
import { boundaryExpression, filterExpression, pageOfAtLeastTwo, pageWithin, preferring, sortSpec, type PageRequest } from './arbitraries.js';
import { boundsOf, type ContractName } from './contracts.js';
import { describeResponse, expectRejected, expectStatus, fail } from './failure.js';
import { boundaryOf, filterRecords, keyDecisions, render, sortRecords, type FilterAst, renderSort, sortViolationIndex, type DataRecord, type FieldType, type FieldTypes, type SortKey } from './filter.js';
import { collectionOf, type ApiResponse } from './http.js';
import { idsOf } from './records.js';
import { requirement, type CheckContext } from './requirement.js';
import type { Uses } from './scheduler.js';

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
  collection?: 'resources' | 'templates' | 'submissions';
  /** Makes sure the collection has at least a few items before the check. */
  prepare?: (t: CheckContext) => Promise<void>;
  /** Creates one item and answers its id, for lists whose items the API creates (default order). */
  create?: (t: CheckContext) => Promise<string>;
  /** Collections `prepare` writes (other than the listed one). */
  prepareWrites?: readonly string[];
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

/** Every item, page by page at `limit`, until a short page (public-facts: clients increment
 * _offset until a page comes back empty). Bounded: a target whose pages never end (one that
 * ignores _offset, say) fails once the walk holds more than `maxItems`. */
async function walk(t: CheckContext, target: ListSource, limit: number, query: Query = {}, maxItems = 100_000): Promise<{ items: DataRecord[]; last: Page }> {
  const items: DataRecord[] = [];
  for (let offset = 0; offset <= 65535; offset++) {
    const p = await page(t, target, { ...query, _limit: limit, _offset: offset });
    items.push(...p.items);
    if (p.items.length < limit) return { items, last: p };
    if (items.length > maxItems) fail(`a walk over the pages to end within ${maxItems} items`, `${items.length} items after ${offset + 1} full pages`, p.res);
  }
  fail('a walk over the pages to end', 'page 65535 was still full');
}

/** The whole collection, in pages of 1000. */
export const readAll = (t: CheckContext, target: ListSource, query: Query = {}) => walk(t, target, 1000, query);

function fieldTypes(contract: ContractName): FieldTypes {
  const types: Record<string, FieldType> = {};
  for (const b of boundsOf(contract)) {
    if (b.type === 'array' || b.type === 'object') continue;
    types[b.field] = b.format === 'uuid' ? 'guid' : b.format === 'date-time' ? 'datetime' : b.type;
  }
  return types;
}

const ids = idsOf;

/** A list check observes its collection whole: no check that writes it runs meanwhile. */
function check(target: ListTarget, rule: string, level: 'MUST' | 'PROFILE', spec: string, title: string, body: (t: CheckContext) => Promise<void>, writes: readonly string[] = []): void {
  const uses: Uses = { observe: [collectionOf(target.op)], write: [...(target.prepareWrites ?? []), ...writes] };
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
  return (await readAll(t, target)).items.length;
}

function envelopeChecks(target: ListTarget): void {
  const env = (p: Page) => p.envelope ?? fail('an envelope', describeResponse(p.res), p.res);
  check(target, 'envelope.returned-items', 'MUST', ENVELOPE_SPEC, `${target.label}: returnedItems is the page length and at most limit`, async (t) => {
    const total = await sizeOf(t, target);
    t.requireData(total >= 2, `${target.label} has ${total} items; pages of items need at least 2`);
    await t.property(pageWithin(total), async ({ limit, offset }) => {
      const p = await page(t, target, { _limit: limit, _offset: offset });
      const e = env(p);
      if (p.items.length === 0) t.degenerate('an empty page');
      if (e.returnedItems !== p.items.length || p.items.length > limit) {
        fail(`returnedItems ${p.items.length} (the page length), at most ${limit}`, `returnedItems ${JSON.stringify(e.returnedItems)} with ${p.items.length} items`, p.res);
      }
    });
  });
  check(target, 'envelope.limit-echo', 'MUST', ENVELOPE_SPEC, `${target.label}: the envelope's limit is the page size in force`, async (t) => {
    const pages = pageWithin(await sizeOf(t, target), { pastEnd: true });
    await t.property(preferring(pages, (p) => p.limit !== t.profile.expectations.lists.defaultLimit), async ({ limit, offset }) => {
      const p = await page(t, target, { _limit: limit, _offset: offset });
      if (limit === t.profile.expectations.lists.defaultLimit) t.degenerate('the default limit, which a target that echoes the default also answers');
      if (env(p).limit !== limit) fail(`limit ${limit}`, `limit ${JSON.stringify(env(p).limit)}`, p.res);
    });
  });
  check(target, 'envelope.offset-echo', 'MUST', ENVELOPE_SPEC, `${target.label}: the envelope's offset is the offset in force`, async (t) => {
    await t.property(preferring(pageWithin(await sizeOf(t, target), { pastEnd: true }), (p) => p.offset !== 0), async ({ limit, offset }) => {
      const p = await page(t, target, { _limit: limit, _offset: offset });
      if (offset === 0) t.degenerate('offset 0, which a target that echoes the default also answers');
      if (env(p).offset !== offset) fail(`offset ${offset}`, `offset ${JSON.stringify(env(p).offset)}`, p.res);
    });
  });
  check(target, 'envelope.total-items', 'MUST', ENVELOPE_SPEC, `${target.label}: totalItems counts the whole collection, not the page`, async (t) => {
    const all = await readAll(t, target);
    t.requireData(all.items.length >= 2, `${target.label} has ${all.items.length} items; a page shorter than the collection needs at least 2`);
    await t.property(pageWithin(all.items.length, { pastEnd: true }), async ({ limit, offset }) => {
      const p = await page(t, target, { _limit: limit, _offset: offset });
      if (p.items.length === all.items.length) t.degenerate('a page holding the whole collection, whose length is also its total');
      if (env(p).totalItems !== all.items.length) fail(`totalItems ${all.items.length}`, `totalItems ${JSON.stringify(env(p).totalItems)}`, p.res);
    });
  });
}

function pagingChecks(target: ListTarget): void {
  check(target, 'paging.walk-once', 'MUST', FACTS_SPEC, `${target.label}: a walk over all pages yields every item exactly once`, async (t) => {
    const all = ids((await readAll(t, target)).items);
    t.requireData(all.length >= 2, `${target.label} has ${all.length} items; a walk over several pages needs at least 2`);
    await t.property(fc.integer({ min: 1, max: Math.max(1, Math.min(30, all.length - 1)) }), async (limit) => {
      // A correct walk holds the collection's items, plus at most one full page before a short one.
      if (all.length <= limit) t.degenerate('a walk of a single page');
      const { items, last } = await walk(t, target, limit, {}, all.length + limit);
      const walked = ids(items);
      const seen = new Set(walked);
      if (seen.size !== walked.length || walked.length !== all.length || !all.every((id) => seen.has(id))) {
        fail(`the ${all.length} items, each once, over pages of ${limit}`, `${walked.length} items, ${seen.size} distinct, ${all.filter((id) => !seen.has(id)).length} missing`, last.res);
      }
    });
  });
  check(target, 'limit.page-size', 'MUST', LIST_SPEC, `${target.label}: _limit bounds the page size and fills the first page`, async (t) => {
    const total = await sizeOf(t, target);
    t.requireData(total >= 2, `${target.label} has ${total} items; a page that _limit cuts short needs at least 2`);
    // Mostly limits below the collection size (the page is cut at the limit); one in 20 above it (the page holds all).
    const limits = fc.oneof({ weight: 19, arbitrary: fc.integer({ min: 1, max: Math.min(60, total - 1) }) }, { weight: 1, arbitrary: fc.integer({ min: total, max: total + 20 }) });
    await t.property(limits, async (limit) => {
      const p = await page(t, target, { _limit: limit });
      if (limit >= total) t.degenerate('a limit at least the collection size, which a target that ignores _limit also fills');
      if (p.items.length !== Math.min(limit, total)) fail(`${Math.min(limit, total)} items on the first page of ${limit}`, `${p.items.length} items`, p.res);
    });
  });
  check(target, 'limit.default', 'PROFILE', FACTS_SPEC, `${target.label}: without _limit a page holds the profile's default page size`, async (t) => {
    const total = (await readAll(t, target)).items.length;
    const expected = Math.min(t.profile.expectations.lists.defaultLimit, total);
    const p = await page(t, target, {});
    if (p.items.length !== expected) fail(`${expected} items`, `${p.items.length} items`, p.res);
  });
  const invalid = (rule: string, level: 'MUST' | 'PROFILE', spec: string, param: '_limit' | '_offset', what: string, arb: (t: CheckContext) => fc.Arbitrary<string>) =>
    check(target, rule, level, spec, `${target.label}: ${param} ${what} answers 422 naming ${param}`, async (t) => {
      const params = target.params ? { params: await target.params(t) } : {};
      await t.property(arb(t), async (value) => {
        const res = await t.http.send({ op: target.op, version: target.version, query: { [param]: value }, ...params });
        expectRejected(res, param);
      });
    });
  const notInteger = fc.oneof(fc.constantFrom('abc', '1.5', '', '1e2', ' 3', '0x10'), fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/^\s*-?\d+\s*$/.test(s)));
  invalid('params.limit-not-integer', 'MUST', 'spec#errors', '_limit', 'that is not an integer', () => notInteger);
  invalid('params.limit-above-max', 'PROFILE', FACTS_SPEC, '_limit', 'above the maximum', (t) => fc.integer({ min: t.profile.expectations.lists.maxLimit + 1, max: 10 ** 6 }).map(String));
  invalid('params.limit-below-one', 'PROFILE', FACTS_SPEC, '_limit', 'below 1', () => fc.integer({ min: -1000, max: 0 }).map(String));
  invalid('params.offset-not-integer', 'MUST', 'spec#errors', '_offset', 'that is not an integer', () => notInteger);
  invalid('params.offset-negative', 'MUST', 'spec#errors', '_offset', 'that is negative', () => fc.integer({ min: -1000, max: -1 }).map(String));
  invalid('params.offset-above-max', 'PROFILE', FACTS_SPEC, '_offset', 'above the maximum', (t) => fc.integer({ min: t.profile.expectations.lists.maxOffset + 1, max: 10 ** 7 }).map(String));
  check(target, 'params.deprecated-limit-offset', 'PROFILE', FACTS_SPEC, `${target.label}: the deprecated limit and offset act as _limit and _offset`, async (t) => {
    const total = await sizeOf(t, target);
    t.requireData(total >= 2, `${target.label} has ${total} items; pages other than the default page need at least 2`);
    const page0 = (p: { limit: number; offset: number }) => p.offset === 0 && p.limit === t.profile.expectations.lists.defaultLimit;
    await t.property(preferring(pageWithin(total), (p) => !page0(p)), async ({ limit, offset }) => {
      const current = await page(t, target, { _limit: limit, _offset: offset });
      const deprecated = await page(t, target, { limit, offset });
      if (current.items.length === 0) t.degenerate('an empty page');
      else if (offset === 0 && limit === t.profile.expectations.lists.defaultLimit) t.degenerate('the default page, which a target that ignores limit and offset also answers');
      if (ids(deprecated.items).join() !== ids(current.items).join()) {
        fail(`the items of _limit=${limit}&_offset=${offset}`, `${deprecated.items.length} other items for limit=${limit}&offset=${offset}`, deprecated.res);
      }
    });
  });
  const create = target.create;
  if (create) {
    check(target, 'default-order', 'PROFILE', FACTS_SPEC, `${target.label}: without _sort, items come in creation order`, async (t) => {
      const first = await create(t);
      const second = await create(t);
      const { items, last } = await readAll(t, target);
      const order = ids(items);
      if (!(order.indexOf(first) >= 0 && order.indexOf(first) < order.indexOf(second))) {
        fail(`${first} (created first) before ${second}`, `positions ${order.indexOf(first)} and ${order.indexOf(second)}`, last.res);
      }
    }, [collectionOf(target.op)]);
  }
}

function filterSortChecks(target: ListTarget, collection: NonNullable<ListTarget['collection']>): void {
  const types = fieldTypes(target.itemContract);
  const typesOf = (fields: readonly string[]): FieldTypes => Object.fromEntries(fields.flatMap((f) => (types[f] ? [[f, types[f]]] : [])));
  check(target, 'filter.matches-model', 'MUST', LIST_SPEC, `${target.label}: _filter selects exactly the items its expression is true for`, async (t) => {
    const { items } = await readAll(t, target);
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
    const expressions = filterExpression(fields, items);
    const boundaries = boundaryExpression(fields, items);
    const drawn = fc.oneof({ weight: 2, arbitrary: preferring(expressions, telling) }, { weight: 2, arbitrary: boundaries }, { weight: 1, arbitrary: expressions });
    await t.property(drawn, async (ast) => {
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
        fail(`${expected.length} items for _filter=${text}`, `${actual.length} items (${extra} that do not match, ${missing} missing)`, got.last.res);
      }
    });
  });
  check(target, 'filter.invalid-422', 'MUST', 'spec#errors', `${target.label}: a _filter that does not parse answers 422 naming _filter`, async (t) => {
    const broken = fc.constantFrom('name eq', "name eq 'unterminated", 'eq 1', '(name eq 1', "name eq 'a')", 'name === 1', "startswith(name)", 'not', "name eq 'a' and");
    await t.property(broken, async (text) => {
      expectRejected(await t.http.send({ op: target.op, version: target.version, query: { _filter: text } }), '_filter');
    });
  });
  check(target, 'filter.field-names-any-case', 'PROFILE', FACTS_SPEC, `${target.label}: field names in _filter and _sort match in any case`, async (t) => {
    const [field] = t.profile.expectations.lists[collection].filterable;
    if (!field) return t.skip('the profile names no filterable field');
    const shouted = field.toUpperCase();
    const { items } = await readAll(t, target);
    const present = items.filter((item) => item[field] !== null && item[field] !== undefined).length;
    t.requireData(present >= 2, `${target.label} has ${present} items with ${field} set; comparing two answers needs at least 2`);
    const lower = await readAll(t, target, { _filter: `${field} ne null`, _sort: field });
    // Two empty answers would agree whatever the case rule: they prove nothing.
    if (lower.items.length === 0) fail(`the ${present} items whose ${field} is not null, for _filter=${field} ne null (not exercised otherwise)`, 'no item', lower.last.res);
    const expected = ids(lower.items).join();
    const got = await readAll(t, target, { _filter: `${shouted} ne null`, _sort: shouted });
    if (ids(got.items).join() !== expected) fail(`the items of _filter=${field} ne null&_sort=${field}`, `${got.items.length} other items with ${shouted}`, got.last.res);
  });
  check(target, 'filter.unknown-field-422', 'PROFILE', LIST_SPEC, `${target.label}: a _filter on a field that does not allow filtering answers 422`, async (t) => {
    expectRejected(await t.http.send({ op: target.op, version: target.version, query: { _filter: "lpcNoSuchField eq 'x'" } }), '_filter');
  });
  // One direction per check, on one field; several fields in mixed directions in a third check.
  // The collection is read first: keys are drawn among the fields whose values differ in it (a key
  // after the first among those it leaves tied), and pages among those with at least 2 items.
  const sortCheck = (rule: string, title: string, keys: (ordering: string[], sortable: string[]) => fc.Arbitrary<SortKey[]>) =>
    check(target, rule, 'MUST', LIST_SPEC, `${target.label}: ${title}`, async (t) => {
      const fields = typesOf(t.profile.expectations.lists[collection].sortable);
      const { items: all } = await readAll(t, target);
      t.requireData(all.length >= 2, `${target.label} has ${all.length} items; a sort needs at least 2`);
      // A spec and page exercise the rule when, on the page the suite expects, the (later) keys decide an order.
      const decides = (records: readonly DataRecord[], spec: SortKey[]) => {
        const decided = keyDecisions(records, spec, fields);
        return spec.length === 1 ? (decided[0] ?? 0) > 0 : decided.slice(1).some((n) => n > 0);
      };
      const ordering = Object.keys(fields).filter((field) => decides(all, [{ field, descending: false }]));
      t.requireData(ordering.length > 0, `no sortable field of ${target.label} has two different values`);
      const expectedPage = ([spec, { limit, offset }]: [SortKey[], PageRequest]) => sortRecords(all, spec, fields).slice(offset * limit, (offset + 1) * limit);
      const cases = preferring(fc.tuple(keys(ordering, Object.keys(fields)), pageOfAtLeastTwo(all.length)), (c) => decides(expectedPage(c), c[0]));
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
          fail(`items ordered by _sort=${renderSort(spec)}`, `item ${at + 1} ${JSON.stringify(items[at])?.slice(0, 160)} after ${JSON.stringify(items[at - 1])?.slice(0, 160)}`, res);
        }
      });
    });
  const oneField = (descending: boolean) => (fields: string[]) => fc.constantFrom(...fields).map((field) => [{ field, descending }]);
  sortCheck('sort.ascending', '_sort on a field orders ascending', oneField(false));
  sortCheck('sort.descending', '_sort on a field with a - prefix orders descending', oneField(true));
  sortCheck('sort.multi-key', '_sort on several fields orders by each in turn', (_ordering, sortable) => sortSpec(sortable).filter((spec) => spec.length >= Math.min(2, sortable.length)));
  check(target, 'sort.unknown-field-422', 'PROFILE', LIST_SPEC, `${target.label}: a _sort on a field that does not allow sorting answers 422`, async (t) => {
    expectRejected(await t.http.send({ op: target.op, version: target.version, query: { _sort: 'lpcNoSuchField' } }), '_sort');
  });
}

/** Lists that accept only _limit and _offset (spec: question bank and question lists). */
function onlyPagingChecks(target: ListTarget): void {
  const rejected = (param: '_filter' | '_sort', value: string) =>
    check(target, `params.${param.slice(1)}-rejected`, 'PROFILE', LIST_SPEC, `${target.label}: ${param}, which this list does not take, answers 422`, async (t) => {
      const params = target.params ? { params: await target.params(t) } : {};
      expectRejected(await t.http.send({ op: target.op, version: target.version, query: { [param]: value }, ...params }), param);
    });
  rejected('_filter', "name eq 'x'");
  rejected('_sort', 'name');
}

export function listChecks(target: ListTarget): void {
  if (target.key !== undefined) envelopeChecks(target);
  pagingChecks(target);
  if (target.collection) filterSortChecks(target, target.collection);
  else onlyPagingChecks(target);
}
