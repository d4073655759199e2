// SCIM lists: pagination (rfc7644#section-3.4.2.4, spec "Limits"), sorting (rfc7644#section-3.4.2.3)
// and projection (rfc7644#section-3.4.2.5) over the seeded users and groups.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCIM_SEED_GROUPS, SCIM_SEED_USERS, scimSeedUserId } from '../../../reference-impl/index.js';
import { expectScimError, LIST_URN, q, resourcesOf, type ScimHarness, startScim, unique } from './_scim.js';

let h: ScimHarness;
beforeAll(async () => {
  h = await startScim();
});
afterAll(() => h.close());

const ids = (rs: Record<string, unknown>[]): string[] => rs.map((r) => String(r.id));
const seeded = (from: number, n: number): string[] => Array.from({ length: n }, (_, i) => scimSeedUserId(from + i));

describe('pagination', () => {
  test('seed: at least 2,500 users and 50 groups', async () => {
    expect(SCIM_SEED_USERS).toBeGreaterThanOrEqual(2500);
    expect((await h.get('/Users?count=0')).obj.totalResults).toBe(SCIM_SEED_USERS);
    expect((await h.get('/Groups?count=0')).obj.totalResults).toBe(SCIM_SEED_GROUPS);
  });
  test('default page: startIndex 1, count 20; ListResponse envelope', async () => {
    const res = await h.get('/Users');
    expect(res.obj).toMatchObject({ schemas: [LIST_URN], totalResults: SCIM_SEED_USERS, startIndex: 1, itemsPerPage: 20 });
    expect(ids(resourcesOf(res))).toEqual(seeded(0, 20));
  });
  test('startIndex is 1-based', async () => {
    expect(ids(resourcesOf(await h.get(`/Users${q({ startIndex: 1, count: 3 })}`)))).toEqual(seeded(0, 3));
    expect(ids(resourcesOf(await h.get(`/Users${q({ startIndex: 5, count: 3 })}`)))).toEqual(seeded(4, 3));
  });
  test.each([0, -5])('startIndex %i counts as 1', async (startIndex) => {
    const res = await h.get(`/Users${q({ startIndex, count: 2 })}`);
    expect(res.obj.startIndex).toBe(1);
    expect(ids(resourcesOf(res))).toEqual(seeded(0, 2));
  });
  test('a negative count counts as 0: only totalResults', async () => {
    const res = await h.get(`/Users${q({ startIndex: 1, count: -3 })}`);
    expect(res.obj).toMatchObject({ totalResults: SCIM_SEED_USERS, itemsPerPage: 0, Resources: [] });
  });
  test('count=0 returns only totalResults', async () => {
    expect((await h.get('/Users?count=0')).obj).toMatchObject({ totalResults: SCIM_SEED_USERS, itemsPerPage: 0, Resources: [] });
  });
  test('count is capped at 1000', async () => {
    const res = await h.get(`/Users${q({ startIndex: 1, count: 5000 })}`);
    expect(resourcesOf(res)).toHaveLength(1000);
    expect(res.obj.itemsPerPage).toBe(1000);
  });
  test('past the end: no resources, totalResults unchanged; itemsPerPage is the number returned', async () => {
    const past = await h.get(`/Users${q({ startIndex: SCIM_SEED_USERS + 1, count: 10 })}`);
    expect(past.obj).toMatchObject({ totalResults: SCIM_SEED_USERS, itemsPerPage: 0, Resources: [] });
    const last = await h.get(`/Users${q({ startIndex: SCIM_SEED_USERS - 2, count: 10 })}`);
    expect(last.obj.itemsPerPage).toBe(3);
  });
  test('one of the two parameters alone: the other takes its default', async () => {
    expect(ids(resourcesOf(await h.get('/Users?startIndex=21')))).toEqual(seeded(20, 20));
    expect(ids(resourcesOf(await h.get('/Users?count=2')))).toEqual(seeded(0, 2));
  });
  test('a walk of pages yields every user exactly once', async () => {
    const seen: string[] = [];
    for (let start = 1; ; start += 1000) {
      const page = resourcesOf(await h.get(`/Users${q({ startIndex: start, count: 1000, attributes: 'id' })}`));
      if (page.length === 0) break;
      seen.push(...ids(page));
    }
    expect(seen).toHaveLength(SCIM_SEED_USERS);
    expect(new Set(seen).size).toBe(SCIM_SEED_USERS);
  });
  test.each(['x', '1.5', ''])('a non-integer startIndex/count (%j): 400 invalidValue', async (v) => {
    expectScimError(await h.get(`/Users?count=${v}`), 400, 'invalidValue');
    expectScimError(await h.get(`/Users?startIndex=${v}`), 400, 'invalidValue');
  });
});

const userNames = async (query: Record<string, string | number>): Promise<string[]> =>
  resourcesOf(await h.get(`/Users${q({ count: 1000, ...query })}`)).map((r) => String(r.userName));

/** Every user's attribute (or '' when absent), in the order of the sorted walk of all pages. */
async function allSorted(query: Record<string, string>, attribute: string): Promise<string[]> {
  const out: string[] = [];
  for (let start = 1; start <= SCIM_SEED_USERS + 1000; start += 1000) {
    const page = resourcesOf(await h.get(`/Users${q({ ...query, startIndex: start, count: 1000, attributes: attribute })}`));
    out.push(...page.map((r) => (r[attribute] === undefined ? '' : String(r[attribute]))));
  }
  return out;
}

describe('sorting', () => {
  test('userName ascending and descending, case-insensitively (caseExact false)', async () => {
    const asc = await allSorted({ sortBy: 'userName' }, 'userName');
    const lower = asc.map((s) => s.toLowerCase());
    expect(lower).toEqual([...lower].sort());
    expect(asc.some((s) => s !== s.toLowerCase())).toBe(true);
    expect(asc.some((s) => s !== s.toUpperCase())).toBe(true);
    const desc = await allSorted({ sortBy: 'userName', sortOrder: 'descending' }, 'userName');
    expect(desc).toEqual([...asc].reverse());
  });
  test('sortOrder defaults to ascending; an unknown sortOrder is 400 invalidValue', async () => {
    expect(await userNames({ sortBy: 'userName', sortOrder: 'ascending' })).toEqual(await userNames({ sortBy: 'userName' }));
    expectScimError(await h.get('/Users?sortBy=userName&sortOrder=up'), 400, 'invalidValue');
  });
  test('nested name.givenName; missing values last ascending, first descending', async () => {
    const titles = await allSorted({ sortBy: 'title' }, 'title');
    const firstMissing = titles.indexOf('');
    expect(firstMissing).toBeGreaterThan(0);
    expect(titles.slice(firstMissing).every((t) => t === '')).toBe(true);
    const present = titles.slice(0, firstMissing).map((t) => t.toLowerCase());
    expect(present).toEqual([...present].sort());
    const desc = await allSorted({ sortBy: 'title', sortOrder: 'descending' }, 'title');
    expect(desc).toEqual([...titles].reverse().sort((a, b) => (a === '' ? (b === '' ? 0 : -1) : b === '' ? 1 : 0)));
    expect(desc[0]).toBe('');
    const given = resourcesOf(await h.get(`/Users${q({ sortBy: 'name.givenName', count: 1000, attributes: 'name.givenName' })}`)).map((r) =>
      String((r.name as Record<string, unknown>).givenName).toLowerCase(),
    );
    expect(given).toEqual([...given].sort());
  });
  test('multi-valued emails sorts by the primary value, else the first', async () => {
    const res = resourcesOf(await h.get(`/Users${q({ sortBy: 'emails', count: 1000, attributes: 'emails', filter: 'emails pr' })}`));
    const keys = res.map((r) => {
      const emails = r.emails as Record<string, unknown>[];
      return String((emails.find((e) => e.primary === true) ?? emails[0])?.value).toLowerCase();
    });
    expect(keys).toEqual([...keys].sort());
  });
  test('a sub-attribute of a multi-valued attribute (emails.type) or an unknown attribute: 400 invalidValue', async () => {
    expectScimError(await h.get('/Users?sortBy=emails.type'), 400, 'invalidValue');
    expectScimError(await h.get('/Users?sortBy=shoeSize'), 400, 'invalidValue');
  });
  test('dates sort as instants; ties keep creation order', async () => {
    const res = resourcesOf(await h.get(`/Users${q({ sortBy: 'meta.lastModified', count: 50 })}`));
    const stamps = res.map((r) => Date.parse(String((r.meta as Record<string, unknown>).lastModified)));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    const groups = resourcesOf(await h.get(`/Groups${q({ sortBy: 'externalId', count: 100 })}`));
    const withId = groups.filter((g) => g.externalId !== undefined);
    const without = groups.filter((g) => g.externalId === undefined).map((g) => String(g.id));
    expect(groups.slice(withId.length).map((g) => String(g.id))).toEqual(without);
    expect(without).toEqual([...without].sort());
  });
  test('sort combines with filter and pagination', async () => {
    const all = await userNames({ sortBy: 'userName', filter: 'userName sw "a"' });
    const page2 = await userNames({ sortBy: 'userName', filter: 'userName sw "a"', startIndex: 11, count: 10 });
    expect(page2).toEqual(all.slice(10, 20));
  });
});

describe('attributes and excludedAttributes', () => {
  const one = async (query: Record<string, string>) => (await h.get(`/Users/${scimSeedUserId(0)}${q(query)}`)).obj;
  test('attributes replaces the default set; id and schemas always stay', async () => {
    const r = await one({ attributes: 'userName' });
    expect(Object.keys(r).sort()).toEqual(['id', 'schemas', 'userName']);
  });
  test('sub-attributes: name.givenName, emails.value; names case-insensitive; URN-qualified', async () => {
    const r = await one({ attributes: 'NAME.givenname,emails.value,urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department' });
    expect(Object.keys(r.name as object)).toEqual(['givenName']);
    expect((r.emails as Record<string, unknown>[]).every((e) => Object.keys(e).join() === 'value')).toBe(true);
    expect(r['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: expect.any(String) });
  });
  test('excludedAttributes removes from the default set, never id', async () => {
    const r = await one({ excludedAttributes: 'id,name.familyName,emails,meta' });
    expect(r.id).toBe(scimSeedUserId(0));
    expect(r.emails).toBeUndefined();
    expect(r.meta).toBeUndefined();
    expect(r.name).not.toHaveProperty('familyName');
    expect(r.name).toHaveProperty('givenName');
  });
  test('password is never returned, even when asked for', async () => {
    const created = await h.createUser({ password: 'hunter2' });
    const r = (await h.get(`/Users/${String(created.id)}?attributes=password,userName`)).obj;
    expect(r.password).toBeUndefined();
    expect((await h.get(`/Users?filter=${encodeURIComponent(`id eq "${String(created.id)}"`)}`)).text).not.toContain('hunter2');
  });
  test('lists and writes are projected too; excludedAttributes=members on groups', async () => {
    const list = resourcesOf(await h.get('/Groups?excludedAttributes=members&count=50'));
    expect(list.every((g) => g.members === undefined && typeof g.id === 'string')).toBe(true);
    const created = await h.call('POST', '/Users?attributes=userName', {
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'proj.x', name: { givenName: 'p' } },
    });
    expect(Object.keys(created.obj).sort()).toEqual(['id', 'schemas', 'userName']);
  });
});

// The same filter sent again sees every write made between the lists: a rename (PATCH), a new
// user, a deletion (the server narrows a filter's records by what it saw of the stored data).
describe('a filter repeated across writes', () => {
  test('renames, creations and deletions between two identical lists show in the second', async () => {
    const prefix = unique('rep');
    const filter = `/Users${q({ filter: `userName sw "${prefix}"`, sortBy: 'userName' })}`;
    const names = async (): Promise<string[]> => resourcesOf(await h.get(filter)).map((r) => String(r.userName));
    const a = await h.createUser({ userName: `${prefix}a` });
    const b = await h.createUser({ userName: `${prefix}b` });
    expect(await names()).toEqual([`${prefix}a`, `${prefix}b`]);
    expect((await h.patch(`/Users/${String(a.id)}`, [{ op: 'replace', path: 'userName', value: `other${prefix}` }])).status).toBeLessThan(300);
    expect(await names()).toEqual([`${prefix}b`]);
    await h.createUser({ userName: `${prefix}c` });
    expect(await names()).toEqual([`${prefix}b`, `${prefix}c`]);
    expect((await h.call('DELETE', `/Users/${String(b.id)}`)).status).toBe(204);
    expect(await names()).toEqual([`${prefix}c`]);
  });
});
