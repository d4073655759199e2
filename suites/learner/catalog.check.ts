// The learner catalog (spec#learner-facing-api: GET /my-catalog answers `parentCategoryId`; with a
// category and `includeSubcategories=true`, the courses of all its child categories too) and the
// HAL lists of the learner API (public-facts#learner-api; paging per the reference server's choices).
import fc from 'fast-check';
import { categories, ids, LIST_KEYS, type ListOp, missingFrom, showIds, subtree, walk, type Category, type Item } from '../_harness/learner/api.js';
import { expectRejected, expectStatus, fail } from '../_harness/failure.js';
import { unknownId } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';

const SPEC = 'spec#learner-facing-api';
const FACTS = 'public-facts#learner-api';
const LIST_FACTS = 'public-facts#list-parameters-and-envelope-integration-api';

const parentOf = (course: Item): string | null => (typeof course.parentCategoryId === 'string' ? course.parentCategoryId.toLowerCase() : null);

/** The whole catalog and its categories, read once per check. */
async function catalog(t: CheckContext): Promise<{ courses: Item[]; cats: Category[] }> {
  const [{ items: courses }, cats] = await Promise.all([walk(t, 'learner.catalog.list'), categories(t)]);
  t.requireData(cats.length > 0 && courses.length > 0, 'the catalog has no categories or no courses');
  return { courses, cats };
}

/** The catalog's listing for one category, as ids, checked against the expected ids exactly. */
async function expectListing(t: CheckContext, category: string, includeSubcategories: boolean | undefined, expected: readonly string[], what: string) {
  const query = { categoryId: category, ...(includeSubcategories === undefined ? {} : { includeSubcategories }) };
  const got = ids((await walk(t, 'learner.catalog.list', query)).items);
  const missing = missingFrom(expected, got);
  const extra = missingFrom(got, expected);
  if (missing.length > 0 || extra.length > 0) {
    const flag = includeSubcategories === undefined ? '' : `&includeSubcategories=${includeSubcategories}`;
    fail(
      `categoryId=${category}${flag} to list exactly ${what} (${expected.length} courses)`,
      `${got.length} courses; missing ${showIds(missing)}, not expected ${showIds(extra)}`,
    );
  }
  return got;
}

requirement(
  {
    id: 'learner.catalog.parent-category-id',
    level: 'MUST',
    spec: SPEC,
    title: 'Every catalog course carries parentCategoryId: null or one of the catalog categories',
  },
  async (t) => {
    const { courses, cats } = await catalog(t);
    const known = new Set(cats.map((c) => c.id));
    for (const course of courses) {
      const parent = course.parentCategoryId;
      if (!('parentCategoryId' in course) || (parent !== null && (typeof parent !== 'string' || !known.has(parent.toLowerCase())))) {
        fail('a parentCategoryId on every course: null or a category of GET /my-catalog/categories', `course ${String(course.id)}: ${JSON.stringify(parent)}`);
      }
    }
  },
);

requirement(
  {
    id: 'learner.catalog.category-own-courses',
    level: 'MUST',
    spec: SPEC,
    title: "For every category, categoryId alone lists exactly the category's own courses",
  },
  async (t) => {
    const { courses, cats } = await catalog(t);
    for (const c of cats) {
      await expectListing(t, c.id, undefined, ids(courses.filter((course) => parentOf(course) === c.id)), `the courses whose parentCategoryId is ${c.id}`);
    }
  },
);

requirement(
  {
    id: 'learner.catalog.include-subcategories-descendants',
    level: 'MUST',
    spec: SPEC,
    title: 'For every category, includeSubcategories=true lists exactly its and its descendants’ courses',
  },
  async (t) => {
    const { courses, cats } = await catalog(t);
    t.requireData(
      cats.some((c) => c.parentCategoryId !== null),
      'no category has a parent category',
    );
    for (const c of cats) {
      const tree = subtree(cats, c.id);
      const without = ids((await walk(t, 'learner.catalog.list', { categoryId: c.id, includeSubcategories: false })).items);
      const withSub = await expectListing(
        t,
        c.id,
        true,
        ids(courses.filter((course) => tree.has(parentOf(course) ?? ''))),
        `the courses of ${c.id} and of its ${tree.size - 1} descendant categories`,
      );
      const lost = missingFrom(without, withSub);
      if (lost.length > 0) fail(`includeSubcategories=true to list every course that =false lists (${c.id})`, `missing ${showIds(lost)}`);
    }
  },
);

const LIST_OPS = Object.keys(LIST_KEYS).filter((op) => op !== 'learner.sessions.list') as ListOp[];

requirement(
  {
    id: 'learner.lists.walk-sees-each-once',
    level: 'PROFILE',
    spec: FACTS,
    title: 'Following _links.next from the first page lists every item exactly once, then stops',
  },
  async (t) => {
    const all = new Map<ListOp, string[]>();
    for (const op of LIST_OPS) all.set(op, listIds(op, (await walk(t, op, { _limit: 30 })).items));
    // The first run walks the longest list in about three pages (at most 30 items a page), so that a
    // single run (`--runs 1`) exercises the rule whenever a list has two items or more.
    const [longest] = [...all].sort(([, a], [, b]) => b.length - a.length);
    const first = longest && longest[1].length >= 2 ? [{ op: longest[0], limit: Math.min(30, Math.ceil(longest[1].length / 3)) }] : [];
    await t.property(
      fc.record({ op: fc.constantFrom(...LIST_OPS), limit: fc.integer({ min: 1, max: 30 }) }),
      async ({ op, limit }) => {
        const expected = all.get(op) ?? [];
        if (expected.length <= limit) t.degenerate('one page holds the whole list');
        const { items, pages } = await walk(t, op, { _limit: limit }, undefined, true);
        const got = listIds(op, items);
        const seen = new Set<string>();
        const twice = got.filter((id) => seen.has(id) || !seen.add(id));
        const missing = missingFrom(expected, got);
        if (twice.length > 0 || missing.length > 0 || got.length !== expected.length) {
          fail(
            `the ${expected.length} items of ${op} once each in a _limit=${limit} walk`,
            `${got.length} items in ${pages} pages; seen twice ${showIds(twice)}, missing ${showIds(missing)}`,
          );
        }
      },
      { examples: first },
    );
  },
);

/** An item's identity in its list: the id, or the course of a catalog calendar entry. */
function listIds(op: ListOp, items: readonly Item[]): string[] {
  return op === 'learner.calendar.list' ? items.map((i) => String(i.courseId).toLowerCase()) : ids(items);
}

requirement(
  { id: 'learner.lists.limit-31-422', level: 'PROFILE', spec: LIST_FACTS, title: 'Every learner API list answers _limit=31 with 422 naming _limit' },
  async (t) => {
    for (const op of LIST_OPS) expectRejected(await t.http.send({ op, query: { _limit: 31 } }), '_limit');
  },
);

requirement(
  {
    id: 'learner.lists.malformed-paging-422',
    level: 'PROFILE',
    spec: SPEC,
    title: 'A learner list answers a _limit or _offset that is not an integer with 422 naming it',
  },
  async (t) => {
    for (const [name, value] of [
      ['_limit', 'ten'],
      ['_offset', '1.5'],
    ] as const) {
      expectRejected(await t.http.send({ op: 'learner.catalog.list', query: { [name]: value } }), name);
    }
  },
);

requirement(
  { id: 'learner.lists.default-limit-10', level: 'PROFILE', spec: SPEC, title: 'A learner list without _limit answers pages of 10 items' },
  async (t) => {
    const { items } = await walk(t, 'learner.catalog.list');
    t.requireData(items.length > 10, 'the catalog has 10 courses or fewer');
    const res = await t.http.send({ op: 'learner.catalog.list' });
    expectStatus(res, 200);
    const page = (res.json as { _embedded?: { courses?: unknown[] } })._embedded?.courses ?? [];
    if (page.length !== 10) fail('10 courses on the first page without _limit', `${page.length} courses`, res);
  },
);

requirement(
  { id: 'learner.courses.not-guid-422', level: 'PROFILE', spec: SPEC, title: 'A course id that is not a GUID answers 422 naming courseId' },
  async (t) => {
    expectRejected(await t.http.send({ op: 'learner.courses.get', params: { courseId: 'not-a-guid' } }), 'courseId');
  },
);

requirement({ id: 'learner.courses.unknown-id-404', level: 'PROFILE', spec: SPEC, title: 'A course GUID no catalog course has answers 404' }, async (t) => {
  expectStatus(await t.http.send({ op: 'learner.courses.get', params: { courseId: unknownId(t) } }), 404, 'for a course GUID the catalog does not hold');
});
