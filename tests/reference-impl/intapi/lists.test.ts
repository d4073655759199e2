import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectErrorBody, type Harness, idsOf, itemsOf, type JsonRecord, startServer, VALID_SUBMISSION } from './_support.js';

let h: Harness;
let all: JsonRecord[];
beforeAll(async () => {
  h = await startServer();
  all = itemsOf(await h.get('/resources?_limit=1000'), 'resources');
});
afterAll(() => h.close());

describe('paging', () => {
  test('defaults: limit 20, offset 0, totalItems counts the collection', async () => {
    const res = await h.get('/resources');
    expect(res.obj).toMatchObject({ totalItems: 75, returnedItems: 20, limit: 20, offset: 0 });
    expect(Object.keys(res.obj)).toEqual(['totalItems', 'returnedItems', 'limit', 'offset', 'resources']);
    expect(itemsOf(res, 'resources')).toEqual(all.slice(0, 20));
  });

  test.each([
    [10, 2, 20, 30],
    [20, 3, 60, 75],
    [7, 0, 0, 7],
    [1, 74, 74, 75],
    [1000, 0, 0, 75],
  ])('_limit=%i&_offset=%i is a page number: items %i..%i', async (limit, offset, from, to) => {
    const res = await h.get(`/resources?_limit=${limit}&_offset=${offset}`);
    expect(itemsOf(res, 'resources')).toEqual(all.slice(from, to));
    expect(res.obj).toMatchObject({ totalItems: 75, returnedItems: to - from, limit, offset });
  });

  test('a page past the end is empty, totalItems unchanged', async () => {
    for (const path of ['/resources?_limit=10&_offset=8', '/resources?_offset=65535&_limit=1000']) {
      const res = await h.get(path);
      expect(res.obj).toMatchObject({ totalItems: 75, returnedItems: 0 });
      expect(itemsOf(res, 'resources')).toEqual([]);
    }
  });

  test('the deprecated limit/offset are accepted; _limit/_offset win', async () => {
    expect((await h.get('/resources?limit=5&offset=1')).obj).toMatchObject({ limit: 5, offset: 1, returnedItems: 5 });
    expect((await h.get('/resources?limit=5&_limit=6')).obj).toMatchObject({ limit: 6 });
  });

  test('version 1 respects paging (bare array)', async () => {
    expect((await h.get('/resources?_limit=10&_offset=2', { version: '1' })).list).toEqual(all.slice(20, 30));
  });
});

describe('invalid list parameters answer 422 naming the parameter', () => {
  test.each([
    ['_limit=0', '_limit: must be an integer from 1 to 1000'],
    ['_limit=1001', '_limit: must be an integer from 1 to 1000'],
    ['_limit=-5', '_limit: must be an integer from 1 to 1000'],
    ['_limit=abc', '_limit: must be an integer from 1 to 1000'],
    ['_limit=1.5', '_limit: must be an integer from 1 to 1000'],
    ['_limit=', '_limit: must be an integer from 1 to 1000'],
    ['_limit=%201', '_limit: must be an integer from 1 to 1000'],
    ['_limit=99999999999999999999', '_limit: must be an integer from 1 to 1000'],
    ['limit=0', 'limit: must be an integer from 1 to 1000'],
    ['_offset=-1', '_offset: must be an integer from 0 to 65535'],
    ['_offset=65536', '_offset: must be an integer from 0 to 65535'],
    ['_offset=x', '_offset: must be an integer from 0 to 65535'],
    ['offset=1e3', 'offset: must be an integer from 0 to 65535'],
    ['_limit=1&_limit=2', '_limit: must be given once'],
  ])('%s', async (query, message) => {
    for (const path of ['/resources', '/submissions', '/templates', '/question-banks']) {
      const res = await h.get(`${path}?${query}`);
      expectErrorBody(res, 422, 'ValidationFailed');
      expect(res.obj.validations).toEqual([message]);
    }
  });

  test('every bad parameter is reported', async () => {
    const res = await h.get('/resources?_limit=0&_offset=-1');
    expect(res.obj.validations).toEqual(['_limit: must be an integer from 1 to 1000', '_offset: must be an integer from 0 to 65535']);
  });

  test.each([
    ['_filter=colour eq 1', '_filter'],
    ["_filter=name eq 'x' and", '_filter'],
    ['_filter=', '_filter'],
    ['_sort=colour', '_sort'],
    ['_sort=', '_sort'],
  ])('%s', async (query, param) => {
    const res = await h.get(`/resources?${query.replace(/ /g, '%20')}`);
    expectErrorBody(res, 422);
    expect(res.obj.validations).toHaveLength(1);
    expect(String((res.obj.validations as string[])[0])).toMatch(new RegExp(`^${param}: `));
  });
});

describe('_sort and _filter over HTTP', () => {
  const byName = (a: JsonRecord, b: JsonRecord) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0);

  test('_sort=name ascending, -name descending, stable (ties in creation order); field names case-insensitive', async () => {
    const asc = itemsOf(await h.get('/resources?_limit=1000&_sort=NAME'), 'resources');
    expect(asc).toEqual([...all].sort(byName));
    const desc = itemsOf(await h.get('/resources?_limit=1000&_sort=-name'), 'resources');
    expect(desc).toEqual([...all].sort((a, b) => -byName(a, b)));
  });

  test('_sort with two keys: nulls first ascending', async () => {
    const res = itemsOf(await h.get('/resources?_limit=1000&_sort=file,-name'), 'resources');
    const firstNonNull = res.findIndex((r) => r.file !== null);
    expect(res.slice(0, firstNonNull).every((r) => r.file === null)).toBe(true);
    expect(res.slice(firstNonNull).every((r) => r.file !== null)).toBe(true);
    const nulls = res.slice(0, firstNonNull);
    expect(nulls).toEqual([...nulls].sort((a, b) => -byName(a, b)));
  });

  test('_filter selects, totalItems counts the filtered collection, paging applies after', async () => {
    const expected = all.filter((r) => String(r.name).startsWith('Intro'));
    expect(expected.length).toBeGreaterThan(2);
    const res = await h.get(`/resources?_limit=2&_offset=1&_filter=${encodeURIComponent("startswith(name,'Intro')")}`);
    expect(res.obj).toMatchObject({ totalItems: expected.length, limit: 2, offset: 1 });
    expect(itemsOf(res, 'resources')).toEqual(expected.slice(2, 4));
  });

  test('_filter on file null / not null partitions the collection', async () => {
    const nulls = Number((await h.get('/resources?_filter=file eq null')).obj.totalItems);
    const rest = Number((await h.get('/resources?_filter=file ne null')).obj.totalItems);
    expect(nulls).toBeGreaterThan(0);
    expect(nulls + rest).toBe(75);
  });

  test('version 1 respects _filter and _sort', async () => {
    const v1 = (await h.get(`/resources?_limit=1000&_sort=-name&_filter=${encodeURIComponent("substringof('quiz',tolower(name))")}`, { version: '1' }))
      .list as JsonRecord[];
    expect(v1.length).toBeGreaterThan(0);
    expect(v1).toEqual(all.filter((r) => String(r.name).toLowerCase().includes('quiz')).sort((a, b) => -byName(a, b)));
  });

  test('submissions filter on date-times, numbers and nulls', async () => {
    const subs = itemsOf(await h.get('/submissions?_limit=1000'), 'submissions');
    const q = async (f: string) => idsOf(itemsOf(await h.get(`/submissions?_limit=1000&_filter=${encodeURIComponent(f)}`), 'submissions'));
    expect(await q("completionDate ge datetime'2022-01-01T00:00:00Z'")).toEqual(
      idsOf(subs.filter((s) => Date.parse(String(s.completionDate)) >= Date.parse('2022-01-01T00:00:00Z'))),
    );
    expect(await q('credits gt 10 and score ne null')).toEqual(idsOf(subs.filter((s) => s.credits !== null && Number(s.credits) > 10 && s.score !== null)));
    expect(await q('status eq null or status eq 0')).toEqual(idsOf(subs.filter((s) => s.status === null || s.status === 0)));
    expect(await q("vendor ne 'Udemy'")).toEqual(idsOf(subs.filter((s) => s.vendor !== 'Udemy')));
    expect(await q(`userId eq guid'${String(VALID_SUBMISSION.userId).toUpperCase()}'`)).toEqual(
      idsOf(subs.filter((s) => s.userId === VALID_SUBMISSION.userId)),
    );
  });

  test('without _sort, lists keep creation order (new records last)', async () => {
    const t = await startServer();
    try {
      const created: string[] = [];
      for (let i = 0; i < 3; i++) created.push(String((await t.call('POST', '/submissions', { body: VALID_SUBMISSION })).obj.id));
      const list = idsOf(itemsOf(await t.get('/submissions?_limit=1000'), 'submissions'));
      expect(list.slice(-3)).toEqual(created);
      expect(list).toHaveLength(33);
    } finally {
      await t.close();
    }
  });
});
