// The catalog of the learner reference server: its seed (a tree five levels deep, empty categories
// and courses at every level), category filtering with and without includeSubcategories for every
// category, the HAL envelope and its links, and the list parameters.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LEARNER_SEED_IDS } from '../../../reference-impl/index.js';
import type { JsonRecord } from '../intapi/_support.js';
import { API, embedded, expectLearnerError, ids, type LearnerHarness, names, nextHref, startLearner, UNKNOWN, walk } from './_learner.js';

let h: LearnerHarness;
let courses: JsonRecord[];
let categories: JsonRecord[];

beforeAll(async () => {
  h = await startLearner();
  [courses, categories] = await Promise.all([walk(h, '/my-catalog', 'courses'), walk(h, '/my-catalog/categories', 'categories')]);
});
afterAll(() => h.close());

const parentOf = (id: string): string | null => (categories.find((c) => c.id === id)?.parentCategoryId as string | null) ?? null;
const depthOf = (id: string | null): number => (id === null ? 0 : 1 + depthOf(parentOf(id)));
const descendantsOf = (id: string): Set<string> => {
  const found = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of categories) {
      if (c.parentCategoryId !== null && found.has(String(c.parentCategoryId)) && !found.has(String(c.id))) {
        found.add(String(c.id));
        grew = true;
      }
    }
  }
  return found;
};
const ownCount = (id: string): number => courses.filter((c) => c.parentCategoryId === id).length;

describe('seed', () => {
  test('at least 60 courses of the three types, each with the fields of public-facts', () => {
    expect(courses.length).toBeGreaterThanOrEqual(60);
    expect(new Set(courses.map((c) => c.courseType))).toEqual(new Set(['OnlineCourse', 'InstructorLedCourse', 'Curriculum']));
    for (const c of courses) {
      expect(Object.keys(c)).toEqual(['id', 'name', 'description', 'imageUrl', 'courseType', 'enrollmentStatus', 'parentCategoryId']);
    }
    expect(courses.some((c) => c.imageUrl === null)).toBe(true);
    expect(courses.some((c) => c.enrollmentStatus === null) && courses.some((c) => typeof c.enrollmentStatus === 'number')).toBe(true);
  });

  test('a category tree at least four levels deep, with empty categories and courses at every level', () => {
    const depths = categories.map((c) => depthOf(String(c.id)));
    const deepest = Math.max(...depths);
    expect(deepest).toBeGreaterThanOrEqual(4);
    for (let level = 1; level <= deepest; level++) {
      const at = categories.filter((c) => depthOf(String(c.id)) === level).map((c) => String(c.id));
      expect(at.some((id) => ownCount(id) === 0)).toBe(true);
      expect(at.some((id) => ownCount(id) > 0)).toBe(true);
    }
    expect(courses.some((c) => c.parentCategoryId === null)).toBe(true);
    expect(courses.every((c) => c.parentCategoryId === null || categories.some((k) => k.id === c.parentCategoryId))).toBe(true);
  });

  test('a category whose own courses differ from its subtree, and one with none of its own but some below', () => {
    const c = LEARNER_SEED_IDS.categoryWithDescendants;
    expect(ownCount(c)).toBeGreaterThan(0);
    expect(courses.filter((k) => descendantsOf(c).has(String(k.parentCategoryId))).length).toBeGreaterThan(ownCount(c));
    expect(categories.some((k) => ownCount(String(k.id)) === 0 && [...descendantsOf(String(k.id))].some((d) => ownCount(d) > 0))).toBe(true);
  });
});

describe('category filter', () => {
  test('for every category: exactly its own courses, and with includeSubcategories=true exactly its subtree', async () => {
    for (const category of categories) {
      const id = String(category.id);
      const own = await walk(h, `/my-catalog?categoryId=${id}`, 'courses');
      const subtree = await walk(h, `/my-catalog?categoryId=${id}&includeSubcategories=true`, 'courses');
      const below = descendantsOf(id);
      expect(ids(own)).toEqual(ids(courses.filter((c) => c.parentCategoryId === id)));
      expect(ids(subtree)).toEqual(ids(courses.filter((c) => below.has(String(c.parentCategoryId)))));
      expect(ids(await walk(h, `/my-catalog?categoryId=${id}&includeSubcategories=false`, 'courses'))).toEqual(ids(own));
    }
  });

  test('an upper-case category id filters the same; an unknown one lists nothing; includeSubcategories alone changes nothing', async () => {
    const id = LEARNER_SEED_IDS.categoryWithDescendants;
    expect(ids(await walk(h, `/my-catalog?categoryId=${id.toUpperCase()}&includeSubcategories=true`, 'courses'))).toEqual(
      ids(await walk(h, `/my-catalog?categoryId=${id}&includeSubcategories=true`, 'courses')),
    );
    expect(await walk(h, `/my-catalog?categoryId=${UNKNOWN}`, 'courses')).toEqual([]);
    expect(ids(await walk(h, '/my-catalog?includeSubcategories=true', 'courses'))).toEqual(ids(courses));
  });

  test.each([
    ['categoryId=nope', 'categoryId'],
    ['includeSubcategories=yes', 'includeSubcategories'],
    ['includeSubcategories=True', 'includeSubcategories'],
    [`categoryId=${UNKNOWN}&categoryId=${UNKNOWN}`, 'categoryId'],
  ])('%s: 422 naming %s', async (query, name) => {
    const answer = await h.get(`/my-catalog?${query}`);
    expectLearnerError(answer, 422);
    expect(names(answer, name)).toBe(true);
  });
});

describe('HAL lists', () => {
  test('default page of 10, self and next links keep the other parameters, no next on the last page', async () => {
    const first = await h.get(`/my-catalog?categoryId=${LEARNER_SEED_IDS.categoryWithDescendants}&includeSubcategories=true`);
    expect(Object.keys(first.obj)).toEqual(['_embedded', '_links']);
    expect(embedded(first, 'courses')).toHaveLength(10);
    const self = `${API}/my-catalog?categoryId=${LEARNER_SEED_IDS.categoryWithDescendants}&includeSubcategories=true&_limit=10&_offset=0`;
    expect(first.obj._links).toEqual({ self: { href: self }, next: { href: self.replace('_offset=0', '_offset=1') } });
    const pages = Math.ceil(courses.length / 10);
    const last = await h.get(`/my-catalog?_offset=${pages - 1}`);
    expect(embedded(last, 'courses').length).toBe(courses.length - 10 * (pages - 1));
    expect(nextHref(last)).toBeUndefined();
    const past = await h.get(`/my-catalog?_offset=${pages}`);
    expect(embedded(past, 'courses')).toEqual([]);
    expect(nextHref(past)).toBeUndefined();
  });

  test('_offset is a 0-based page number: page walks by _offset and by next see each course once, in order', async () => {
    for (const limit of [1, 7, 30]) {
      const byOffset: JsonRecord[] = [];
      for (let page = 0; ; page++) {
        const items = embedded(await h.get(`/my-catalog?_limit=${limit}&_offset=${page}`), 'courses');
        if (items.length === 0) break;
        byOffset.push(...items);
      }
      expect(ids(byOffset)).toEqual(ids(courses));
      expect(ids(await walk(h, '/my-catalog', 'courses', limit))).toEqual(ids(courses));
    }
  });

  test.each(['_limit=31', '_limit=0', '_limit=-1', '_limit=2.5', '_limit=abc', '_limit=', '_offset=-1', '_offset=65536', '_offset=x', '_limit=5&_limit=6'])(
    '%s: 422 naming the parameter',
    async (query) => {
      const answer = await h.get(`/my-catalog/categories?${query}`);
      expectLearnerError(answer, 422);
      expect(names(answer, query.split('=')[0] ?? '')).toBe(true);
    },
  );

  test('_limit=30 and _offset=65535 are accepted', async () => {
    expect(embedded(await h.get('/my-catalog?_limit=30'), 'courses')).toHaveLength(30);
    expect(embedded(await h.get('/my-catalog?_offset=65535'), 'courses')).toEqual([]);
  });
});

describe('course detail', () => {
  test('GET /courses/{id}: the catalog fields with tags and ordered lessons', async () => {
    const answer = await h.get(`/courses/${LEARNER_SEED_IDS.playerCourse}`);
    expect(answer.status).toBe(200);
    const { tags, lessons, ...rest } = answer.obj;
    expect(rest).toEqual(courses.find((c) => c.id === LEARNER_SEED_IDS.playerCourse));
    expect(tags).toHaveLength(3);
    expect((lessons as JsonRecord[]).map((l) => l.order)).toEqual([1, 2, 3]);
  });

  test('unknown course 404, not a GUID 422 naming courseId', async () => {
    expectLearnerError(await h.get(`/courses/${UNKNOWN}`), 404);
    const answer = await h.get('/courses/nope');
    expectLearnerError(answer, 422);
    expect(names(answer, 'courseId')).toBe(true);
  });

  test('course images are served by the player', async () => {
    const url = String(courses.find((c) => c.imageUrl !== null)?.imageUrl);
    const image = await h.raw(url.slice(h.base.length));
    expect([image.status, image.contentType]).toEqual([200, 'image/svg+xml']);
  });
});
