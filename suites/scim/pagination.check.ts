// SCIM pagination (RFC 7644 §3.4.2.4; specification "SCIM 2.0 API" rule 1 and "Limits"): every
// check pages through users it created itself, scoped with `userName sw "<its prefix>"`, except the
// cap, which holds for the whole collection whatever others do.
import fc from 'fast-check';
import { fail } from '../_harness/failure.js';
import { memo } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { createListFixture, type ListFixture } from '../_harness/scim/list-fixture.js';
import { expectExactlyOnce, listUsers, walk } from '../_harness/scim/paging.js';
import { idsOfResources } from '../_harness/scim/records.js';

const SIZE = 25;
const WRITES = { write: ['scim.users'] } as const;

/** Each check's own users, made once and shared by its property runs. */
const fixtureOf = (): ((t: CheckContext) => Promise<ListFixture>) => memo((t) => createListFixture(t, 'pg', SIZE));

interface PageAsk {
  startIndex: number;
  count: number;
}

/** startIndex and count over the interesting ranges: below 1, inside the set, past its end, above it. */
const pageAsk: fc.Arbitrary<PageAsk> = fc.record({
  startIndex: fc.oneof(
    { arbitrary: fc.constantFrom(-5, -1, 0), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: SIZE }), weight: 4 },
    { arbitrary: fc.integer({ min: SIZE + 1, max: SIZE + 5 }), weight: 1 },
  ),
  count: fc.oneof(
    { arbitrary: fc.constantFrom(-3, -1, 0), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: SIZE - 1 }), weight: 4 },
    { arbitrary: fc.constantFrom(SIZE, SIZE + 5, 1001), weight: 1 },
  ),
});

/** The page RFC 7644 §3.4.2.4 asks for: startIndex < 1 is 1, a negative count is 0. */
const effective = (ask: PageAsk): PageAsk => ({ startIndex: Math.max(1, ask.startIndex), count: Math.max(0, ask.count) });

const sortsOrSkip = (t: CheckContext): void => {
  if (!t.profile.expectations.scim.sort)
    t.skip('the profile says the target does not sort: the RFC defines no order of an unsorted list, so pages cannot be compared (RFC 7644 §3.4.2.4)');
};

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.count-not-exceeded',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'A page never holds more resources than count asks for (a negative count counts as 0)',
    },
    async (t) => {
      const f = await fixture(t);
      await t.property(pageAsk, async (ask) => {
        const { res, page } = await listUsers(t, { filter: f.filter, ...ask });
        const limit = effective(ask).count;
        if (limit >= SIZE) t.degenerate('a count at least the size of the set');
        if (page.resources.length > limit) fail(`at most ${limit} resources (count=${ask.count})`, `${page.resources.length} resources`, res);
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.total-results',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2',
      title: 'totalResults is the number of matching resources on every page, not the page size',
    },
    async (t) => {
      const f = await fixture(t);
      await t.property(pageAsk, async (ask) => {
        const { res, page } = await listUsers(t, { filter: f.filter, ...ask });
        if (page.resources.length === SIZE) t.degenerate('a page holding the whole set');
        if (page.totalResults !== SIZE)
          fail(
            `totalResults ${SIZE} (the users matching the filter)`,
            `totalResults ${String(page.totalResults)} with ${page.resources.length} resources`,
            res,
          );
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  /** The whole set in the server's userName order, read in one page. */
  const order = memo(async (t) => {
    const f = await fixture(t);
    const { res, page } = await listUsers(t, { filter: f.filter, sortBy: 'userName', startIndex: 1, count: SIZE }, 'to the whole set sorted by userName');
    expectExactlyOnce(f.ids, page.resources, `startIndex=1&count=${SIZE} over the ${SIZE} users`, res);
    return idsOfResources(page.resources);
  });
  requirement(
    {
      id: 'scim.pagination.page-is-slice',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'A page is the slice at the 1-based startIndex of count resources of the sorted set',
    },
    async (t) => {
      sortsOrSkip(t);
      const f = await fixture(t);
      const all = await order(t);
      await t.property(pageAsk, async (ask) => {
        const { res, page } = await listUsers(t, { filter: f.filter, sortBy: 'userName', ...ask });
        const e = effective(ask);
        const want = all.slice(e.startIndex - 1, e.startIndex - 1 + e.count);
        const got = idsOfResources(page.resources);
        if (want.length === 0) t.outcome('empty-slice');
        if (got.join(',') !== want.join(','))
          fail(
            `the resources at positions ${e.startIndex}..${e.startIndex + want.length - 1} of the userName order (${want.length} resources, the first ${want[0] ?? 'none'})`,
            `${got.length} resources, the first ${got[0] ?? 'none'} at position ${got[0] === undefined ? '-' : all.indexOf(got[0]) + 1}`,
            res,
          );
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.start-index-below-one',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'A startIndex below 1 is read as 1: 200, startIndex 1 and the first page',
    },
    async (t) => {
      const f = await fixture(t);
      const ask = fc.record({ startIndex: fc.integer({ min: -50, max: 0 }), count: fc.integer({ min: 1, max: SIZE + 3 }) });
      await t.property(ask, async ({ startIndex, count }) => {
        const { res, page } = await listUsers(t, { filter: f.filter, startIndex, count }, `(startIndex=${startIndex} SHALL be read as 1)`);
        const want = Math.min(count, SIZE);
        if (page.startIndex !== 1 || page.resources.length !== want)
          fail(`startIndex 1 and ${want} resources`, `startIndex ${String(page.startIndex)} and ${page.resources.length} resources`, res);
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.negative-count',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'A negative count is read as 0: no resources, and totalResults of the whole set',
    },
    async (t) => {
      const f = await fixture(t);
      const ask = fc.record({ startIndex: fc.integer({ min: 1, max: SIZE }), count: fc.integer({ min: -50, max: -1 }) });
      await t.property(ask, async (q) => {
        const { res, page } = await listUsers(t, { filter: f.filter, ...q }, `(count=${q.count} SHALL be read as 0)`);
        if (page.resources.length !== 0 || page.totalResults !== SIZE)
          fail(`no resources and totalResults ${SIZE}`, `${page.resources.length} resources, totalResults ${String(page.totalResults)}`, res);
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.count-zero',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'count=0 returns no resources, only totalResults of the whole set',
    },
    async (t) => {
      const f = await fixture(t);
      await t.property(fc.integer({ min: 1, max: SIZE }), async (startIndex) => {
        const { res, page } = await listUsers(t, { filter: f.filter, startIndex, count: 0 });
        if (page.resources.length !== 0 || page.totalResults !== SIZE)
          fail(`no resources and totalResults ${SIZE}`, `${page.resources.length} resources, totalResults ${String(page.totalResults)}`, res);
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.past-end',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'A startIndex past the end returns no resources and the same totalResults',
    },
    async (t) => {
      const f = await fixture(t);
      const ask = fc.record({ startIndex: fc.integer({ min: SIZE + 1, max: SIZE + 50 }), count: fc.integer({ min: 1, max: SIZE + 3 }) });
      await t.property(ask, async (q) => {
        const { res, page } = await listUsers(t, { filter: f.filter, ...q });
        if (page.resources.length !== 0 || page.totalResults !== SIZE)
          fail(`no resources (${SIZE} match) and totalResults ${SIZE}`, `${page.resources.length} resources, totalResults ${String(page.totalResults)}`, res);
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.items-per-page',
      level: 'PROFILE',
      spec: 'rfc7644#section-3.4.2',
      title: 'itemsPerPage is the number of resources returned (or, if the profile allows, the count asked)',
    },
    async (t) => {
      const f = await fixture(t);
      const strict = t.profile.expectations.scim.itemsPerPage === 'returned';
      // Pages that run past the end of the set: fewer returned than asked, where the two readings differ.
      const short = fc
        .integer({ min: 1, max: SIZE + 3 })
        .chain((startIndex) =>
          fc.record({ startIndex: fc.constant(startIndex), count: fc.integer({ min: Math.max(1, SIZE - startIndex + 2), max: SIZE + 5 }) }),
        );
      await t.property(short, async (ask) => {
        const { res, page } = await listUsers(t, { filter: f.filter, ...ask });
        const n = page.resources.length;
        if (n === Math.max(0, ask.count)) t.degenerate('a full page (returned equals asked)');
        const ok = strict ? page.itemsPerPage === n : page.itemsPerPage === n || page.itemsPerPage === ask.count;
        if (!ok)
          fail(
            `itemsPerPage ${n} (the number returned)${strict ? '' : ` or ${ask.count} (the count asked)`}`,
            `itemsPerPage ${String(page.itemsPerPage)} with ${n} resources`,
            res,
          );
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.walk-exactly-once',
      level: 'MUST',
      spec: 'spec#scim-20-api',
      title: 'Advancing startIndex until no records come back yields every match once, then stops',
    },
    async (t) => {
      const f = await fixture(t);
      // The RFC defines no order without sortBy (pages need not repeat): sort when the target does.
      const sortBy = t.profile.expectations.scim.sort ? 'userName' : undefined;
      await t.property(fc.integer({ min: 3, max: SIZE + 2 }), async (count) => {
        const w = await walk(t, { filter: f.filter, sortBy }, count, SIZE);
        expectExactlyOnce(f.ids, w.resources, `a walk with count=${count}`, w.last);
      });
    },
    WRITES,
  );
}

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.default-page',
      level: 'MUST',
      spec: 'spec#limits',
      title: 'Without startIndex and count, a list returns the first 20 resources (startIndex 1)',
    },
    async (t) => {
      const f = await fixture(t);
      const { res, page } = await listUsers(t, { filter: f.filter });
      if (page.resources.length !== 20 || (page.startIndex !== undefined && page.startIndex !== 1))
        fail(`20 of the ${SIZE} matching resources, startIndex 1`, `${page.resources.length} resources, startIndex ${String(page.startIndex)}`, res);
    },
    WRITES,
  );
}

requirement(
  { id: 'scim.pagination.count-capped', level: 'MUST', spec: 'spec#limits', title: 'A count above 1000 returns at most 1000 resources' },
  async (t) => {
    // The whole collection: the cap holds whatever else it holds (no filter).
    const { page } = await listUsers(t, { startIndex: 1, count: 0 });
    t.requireData((page.totalResults ?? 0) > 1000, `the cap needs more than 1000 users; the target has ${String(page.totalResults)}`);
    const { res, page: big } = await listUsers(t, { startIndex: 1, count: 1500 });
    if (big.resources.length > 1000) fail('at most 1000 resources (the SCIM maximum count)', `${big.resources.length} resources`, res);
  },
);
