// SCIM pagination (RFC 7644 §3.4.2.4; specification "SCIM 2.0 API" rule 1 and "Limits"): every
// check pages through users it created itself, confined to them by the filter the target supports
// (list-fixture.ts), except the cap, which holds for the whole collection whatever others do.
// One rule per check, leaning on no other: a check draws only the parameters its rule is
// about (a negative count is negative-count's, count=0 count-zero's, a startIndex below 1
// start-index-below-one's, past the end past-end's, the value of totalResults total-results'), and
// RFC 7644 §3.4.2.4's "MAY return fewer results than requested" holds everywhere but count-capped.
import fc from 'fast-check';
import { fail } from '../_harness/failure.js';
import { memo } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { createFilteredUser, createListFixture, type ListFixture } from '../_harness/scim/list-fixture.js';
import { expectExactlyOnce, listUsers, readSet, walk } from '../_harness/scim/paging.js';
import { expectScimError, idsOfResources, pageOf, pageSaid } from '../_harness/scim/records.js';
import { scimTargetOf } from '../_harness/scim/target.js';

const SIZE = 25;
const WRITES = { write: ['scim.users'] } as const;

/** Each check's own users, made once and shared by its property runs. */
const fixtureOf = (): ((t: CheckContext) => Promise<ListFixture>) => memo((t) => createListFixture(t, 'pg', SIZE));

interface PageAsk {
  startIndex: number;
  count: number;
}

/** A startIndex inside the set (1..SIZE) and a positive count up to past the set's size. */
const inside = (maxCount = SIZE + 5): fc.Arbitrary<PageAsk> =>
  fc.record({
    startIndex: fc.integer({ min: 1, max: SIZE }),
    count: fc.oneof({ arbitrary: fc.integer({ min: 1, max: SIZE - 1 }), weight: 4 }, { arbitrary: fc.constantFrom(SIZE, maxCount), weight: 1 }),
  });

const sortsOrSkip = async (t: CheckContext): Promise<void> => {
  if (!(await scimTargetOf(t)).sort)
    t.skip(
      'the target does not sort (profile or /ServiceProviderConfig): the RFC defines no order of an unsorted list, so pages cannot be compared (RFC 7644 §3.4.2.4)',
    );
};

/** sortBy=userName where the target sorts: the same request then answers the same order (RFC 7644 §3.4.2.4 defines none without sortBy). */
const orderedBy = async (t: CheckContext): Promise<{ sortBy?: string }> => ((await scimTargetOf(t)).sort ? { sortBy: 'userName' } : {});

{
  const fixture = fixtureOf();
  requirement(
    {
      id: 'scim.pagination.count-not-exceeded',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'A page never holds more resources than count asks for',
    },
    async (t) => {
      const f = await fixture(t);
      // Pages that end inside the set: more than count resources are there to be returned.
      const ask = fc
        .integer({ min: 1, max: SIZE - 1 })
        .chain((count) => fc.record({ startIndex: fc.integer({ min: 1, max: SIZE - count }), count: fc.constant(count) }));
      await t.property(ask, async (ask) => {
        const { res, page } = await listUsers(t, { filter: f.filter, ...ask });
        if (page.resources.length > ask.count) fail(`at most ${ask.count} resources (count=${ask.count})`, `${page.resources.length} resources`, res);
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
      // Pages anywhere, count=0 and past the end too: the value of totalResults is this check's rule alone.
      const ask = fc.record({
        startIndex: fc.oneof({ arbitrary: fc.integer({ min: 1, max: SIZE }), weight: 4 }, fc.integer({ min: SIZE + 1, max: SIZE + 5 })),
        count: fc.oneof({ arbitrary: fc.integer({ min: 1, max: SIZE - 1 }), weight: 4 }, fc.constantFrom(0, SIZE)),
      });
      await t.property(ask, async (ask) => {
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
  /** The whole set in the server's userName order (read in pages, stopping at totalResults). */
  const order = memo(async (t) => {
    const f = await fixture(t);
    const all = await readSet(t, { filter: f.filter, sortBy: 'userName' }, SIZE, f.ids);
    return idsOfResources(all.resources);
  });
  requirement(
    {
      id: 'scim.pagination.page-is-slice',
      level: 'MUST',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'A page is the slice at the 1-based startIndex of count resources of the sorted set',
    },
    async (t) => {
      await sortsOrSkip(t);
      const f = await fixture(t);
      const all = await order(t);
      await t.property(inside(), async (ask) => {
        const { res, page } = await listUsers(t, { filter: f.filter, sortBy: 'userName', ...ask });
        const got = idsOfResources(page.resources);
        // RFC 7644 §3.4.2.4: a page MAY hold fewer than count; how many is count-not-exceeded's and the
        // walk's to judge, where the page starts and what it holds is this one's.
        const want = all.slice(ask.startIndex - 1, ask.startIndex - 1 + Math.min(got.length, ask.count));
        if (got.length === 0) t.degenerate('an empty page inside the set');
        if (got.join(',') !== want.join(','))
          fail(
            `the resources at positions ${ask.startIndex}..${ask.startIndex + want.length - 1} of the userName order (${want.length} resources, the first ${want[0] ?? 'none'})`,
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
      const sort = await orderedBy(t);
      const ask = fc.record({ startIndex: fc.integer({ min: -50, max: 0 }), count: fc.integer({ min: 1, max: SIZE + 3 }) });
      await t.property(ask, async ({ startIndex, count }) => {
        // The page at startIndex=1 with the same count is what the RFC says this one is.
        const first = await listUsers(t, { filter: f.filter, ...sort, startIndex: 1, count }, '(startIndex=1)');
        const { res, page } = await listUsers(t, { filter: f.filter, ...sort, startIndex, count }, `(startIndex=${startIndex} SHALL be read as 1)`);
        const want = idsOfResources(first.page.resources);
        const got = idsOfResources(page.resources);
        const same = sort.sortBy ? got.join(',') === want.join(',') : got.length === want.length && got.every((id) => want.includes(id));
        if (page.startIndex !== 1 || !same)
          fail(
            `startIndex 1 and the page of startIndex=1&count=${count} (${want.length} resources, the first ${want[0] ?? 'none'})`,
            `startIndex ${String(page.startIndex)} and ${got.length} resources, the first ${got[0] ?? 'none'}`,
            res,
          );
      });
    },
    WRITES,
  );
}

{
  const fixture = memo((t) => createFilteredUser(t, 'pgn'));
  requirement(
    {
      id: 'scim.pagination.start-index-not-integer',
      level: 'SHOULD',
      spec: 'rfc7644#section-3.4.2.4',
      title: 'A startIndex that is no integer answers 400, or the page of the default startIndex 1',
    },
    async (t) => {
      // Table 5 defines startIndex as a 1-based index and says nothing of a value that is no number:
      // refusing it (a 400 SCIM error, §3.12) and reading it as absent (the default 1) both conform. A
      // 200 that leaves out the user its filter selects is neither. The form of the page's own
      // startIndex is the ListResponse contract's rule (scim.invariant.success-body-matches-contract).
      const f = await fixture(t);
      const what = 'to startIndex=lpc (no integer)';
      const res = await t.http.send({ op: 'scim.users.list', query: { filter: f.filter, startIndex: 'lpc' } });
      if (res.status !== 200) return expectScimError(res, 400, undefined, `or 200 ${what}`);
      const page = pageOf(res);
      if (!idsOfResources(page.resources).includes(f.id))
        fail(`the user its filter selects, on the page of startIndex 1, in the 200 ${what}`, pageSaid(page), res);
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
      title: 'A negative count is read as 0: no resources, only totalResults',
    },
    async (t) => {
      const f = await fixture(t);
      const ask = fc.record({ startIndex: fc.integer({ min: 1, max: SIZE }), count: fc.integer({ min: -50, max: -1 }) });
      await t.property(ask, async (q) => {
        const { res, page } = await listUsers(t, { filter: f.filter, ...q }, `(count=${q.count} SHALL be read as 0)`);
        // The value of totalResults is scim.pagination.total-results' rule; here it must be there.
        if (page.resources.length !== 0 || page.totalResults === undefined)
          fail('no resources and a totalResults', `${page.resources.length} resources, totalResults ${String(page.totalResults)}`, res);
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
      title: 'count=0 returns no resources, only totalResults',
    },
    async (t) => {
      const f = await fixture(t);
      await t.property(fc.integer({ min: 1, max: SIZE }), async (startIndex) => {
        const { res, page } = await listUsers(t, { filter: f.filter, startIndex, count: 0 });
        // The value of totalResults is scim.pagination.total-results' rule; here it must be there.
        if (page.resources.length !== 0 || page.totalResults === undefined)
          fail('no resources and a totalResults', `${page.resources.length} resources, totalResults ${String(page.totalResults)}`, res);
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
      title: 'A startIndex past the end returns no resources',
    },
    async (t) => {
      const f = await fixture(t);
      const ask = fc.record({ startIndex: fc.integer({ min: SIZE + 1, max: SIZE + 50 }), count: fc.integer({ min: 1, max: SIZE + 3 }) });
      await t.property(ask, async (q) => {
        const { res, page } = await listUsers(t, { filter: f.filter, ...q });
        if (page.resources.length !== 0)
          fail(`no resources (${SIZE} match)`, `${page.resources.length} resources, totalResults ${String(page.totalResults)}`, res);
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
      const sort = await orderedBy(t);
      await t.property(fc.integer({ min: 3, max: SIZE + 2 }), async (count) => {
        const w = await walk(t, { filter: f.filter, ...sort }, count, SIZE);
        expectExactlyOnce(f.ids, w.resources, `a walk with count=${count}`, w.last);
      });
    },
    WRITES,
  );
}

/** The largest default page the check creates users for (one more than the default). */
const MAX_DEFAULT_CHECKED = 100;

{
  // One user more than the default page: the page without count must stop at the default.
  const fixture = memo((t) => createListFixture(t, 'pg', t.profile.expectations.scim.defaultCount + 1));
  requirement(
    {
      id: 'scim.pagination.default-page',
      level: 'MUST',
      spec: 'spec#limits',
      title: "Without startIndex and count, a list returns the profile's default page (the platform's: 20)",
    },
    async (t) => {
      // spec#limits: the platform's default page is 20; RFC 7644 §3.4.2.4 leaves it to the provider: the profile's.
      const size = t.profile.expectations.scim.defaultCount;
      t.requireData(size <= MAX_DEFAULT_CHECKED, `a default page of ${size} needs ${size + 1} users; the check creates at most ${MAX_DEFAULT_CHECKED + 1}`);
      const f = await fixture(t);
      const { res, page } = await listUsers(t, { filter: f.filter });
      if (page.resources.length !== size || (page.startIndex !== undefined && page.startIndex !== 1))
        fail(`${size} of the ${size + 1} matching resources, startIndex 1`, `${page.resources.length} resources, startIndex ${String(page.startIndex)}`, res);
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
