// SCIM filters (rfc7644#section-3.4.2.2): the parser on its own, then the server's answers over
// the seeded users and users the test creates.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { referenceScimBehaviour } from '../../../reference-impl/scim/behaviour.js';
import { parseFilter, parsePatchPath } from '../../../reference-impl/scim/filter.js';
import { scimSeedUserId } from '../../../reference-impl/index.js';
import { expectScimError, q, resourcesOf, type ScimHarness, startScim, unique } from './_scim.js';

const B = referenceScimBehaviour().filter;

describe('parser', () => {
  test('precedence: not > and > or; grouping', () => {
    expect(parseFilter('a eq "1" or b eq "2" and c eq "3"', B)).toMatchObject({ kind: 'or', right: { kind: 'and' } });
    expect(parseFilter('(a eq "1" or b eq "2") and c eq "3"', B)).toMatchObject({ kind: 'and', left: { kind: 'or' } });
    expect(parseFilter('not (a pr) and b pr', B)).toMatchObject({ kind: 'and', left: { kind: 'not' } });
  });
  test('keywords and operators are case-insensitive; literals true false null numbers strings', () => {
    expect(parseFilter('userName Eq "x" AND active EQ TRUE Or x Ne null', B)).toMatchObject({ kind: 'or', left: { kind: 'and' } });
    expect(parseFilter('x gt 1.5e3', B)).toMatchObject({ value: 1500 });
    expect(parseFilter('x eq "a \\"q\\" \\u00e9"', B)).toMatchObject({ value: 'a "q" é' });
  });
  test('value paths and URN-qualified attribute paths', () => {
    expect(parseFilter('emails[type eq "work" and value co "@x"]', B)).toMatchObject({ kind: 'valuePath', path: 'emails', filter: { kind: 'and' } });
    expect(parseFilter('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "1"', B)).toMatchObject({
      path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber',
    });
  });
  test.each([
    '',
    'userName',
    'userName eq',
    'userName regex "x"',
    'userName eq "x" and',
    '(userName eq "x"',
    'userName eq "x")',
    'userName eq x',
    'emails[type eq "work"',
    'emails[type[value eq "x"] eq "y"]',
    'not userName eq "x"',
    'userName eq "unterminated',
    'eq "x"',
    '1 eq "x"',
  ])('malformed: %j throws invalidFilter', (text) => {
    expect(() => parseFilter(text, B)).toThrow(expect.objectContaining({ status: 400, scimType: 'invalidFilter' }));
  });
  test('PATCH paths', () => {
    expect(parsePatchPath('emails[type eq "work"].value', B)).toMatchObject({ attrPath: 'emails', subAfterFilter: 'value' });
    expect(parsePatchPath('members[value eq "a]b"]', B)).toMatchObject({ attrPath: 'members', subAfterFilter: undefined });
    expect(parsePatchPath('name.givenName', B)).toMatchObject({ attrPath: 'name.givenName', filter: undefined });
    for (const bad of ['', 'emails[', 'emails[type eq]', 'emails[type eq "x"]value', '1abc', 'a b']) expect(parsePatchPath(bad, B)).toBeUndefined();
  });
});

let h: ScimHarness;
beforeAll(async () => {
  h = await startScim();
});
afterAll(() => h.close());

const matching = async (filter: string): Promise<Record<string, unknown>[]> => resourcesOf(await h.get(`/Users${q({ filter, count: 1000 })}`));
const total = async (filter: string): Promise<number> => (await h.get(`/Users${q({ filter, count: 0 })}`)).obj.totalResults as number;

describe('server', () => {
  test('userName is compared case-insensitively (eq, sw, ew, co)', async () => {
    const seeded = (await h.get(`/Users/${scimSeedUserId(0)}`)).obj;
    const name = String(seeded.userName);
    for (const f of [`userName eq "${name.toLowerCase()}"`, `USERNAME eq "${name}"`, `userName sw "${name.slice(0, 8).toLowerCase()}"`]) {
      expect((await matching(f)).map((r) => r.id)).toContain(scimSeedUserId(0));
    }
    expect(await total(`userName ew "${name.slice(-6).toLowerCase()}"`)).toBeGreaterThan(0);
  });
  test('externalId and id are caseExact', async () => {
    expect(await total('externalId eq "EXT-9"')).toBe(1);
    expect(await total('externalId eq "ext-9"')).toBe(0);
    expect(await total(`id eq "${scimSeedUserId(0).toUpperCase()}"`)).toBe(0);
  });
  test('every operator on a string attribute agrees with its definition', async () => {
    const all = await Promise.all([1, 1001, 2001].map((s) => h.get(`/Users${q({ startIndex: s, count: 1000, attributes: 'title' })}`)));
    const titles = all.flatMap((r) => resourcesOf(r)).map((r) => (r.title === undefined ? undefined : String(r.title).toLowerCase()));
    const count = (p: (t: string) => boolean) => titles.filter((t) => t !== undefined && p(t)).length;
    expect(await total('title eq "engineer"')).toBe(count((t) => t === 'engineer'));
    expect(await total('title ne "engineer"')).toBe(titles.length - count((t) => t === 'engineer'));
    expect(await total('title co "NAL"')).toBe(count((t) => t.includes('nal')));
    expect(await total('title sw "d"')).toBe(count((t) => t.startsWith('d')));
    expect(await total('title ew "r"')).toBe(count((t) => t.endsWith('r')));
    expect(await total('title gt "engineer"')).toBe(count((t) => t > 'engineer'));
    expect(await total('title ge "engineer"')).toBe(count((t) => t >= 'engineer'));
    expect(await total('title lt "engineer"')).toBe(count((t) => t < 'engineer'));
    expect(await total('title le "engineer"')).toBe(count((t) => t <= 'engineer'));
    expect(await total('title pr')).toBe(count(() => true));
    expect(await total('not (title pr)')).toBe(titles.length - count(() => true));
    expect(await total('title eq null')).toBe(titles.length - count(() => true));
  });
  test('booleans: eq/ne only; gt on a boolean is 400 invalidFilter', async () => {
    const active = await total('active eq true');
    const inactive = await total('active eq false');
    expect(active).toBeGreaterThan(0);
    expect(inactive).toBeGreaterThan(0);
    expect(await total('active ne true')).toBe(2500 - active);
    expectScimError(await h.get(`/Users${q({ filter: 'active gt false' })}`), 400, 'invalidFilter');
    expectScimError(await h.get(`/Users${q({ filter: 'active eq "true"' })}`), 400, 'invalidFilter');
  });
  test('dates compare as instants, whatever the literal form', async () => {
    const iso = '2020-01-02T00:00:00.000Z';
    const a = await total(`meta.created lt "${iso}"`);
    expect(a).toBe(24);
    expect(await total('meta.created lt "2020-01-02T01:00:00+01:00"')).toBe(24);
    expect(await total('meta.created eq "2020-01-01T00:00:00Z"')).toBe(1);
    expectScimError(await h.get(`/Users${q({ filter: 'meta.created gt "yesterday"' })}`), 400, 'invalidFilter');
  });
  test('multi-valued attributes match when any value does; value paths; complex without sub-attribute reads value', async () => {
    const created = await h.createUser({
      emails: [
        { value: 'first@one.example', type: 'work' },
        { value: 'Second@Two.example', type: 'home' },
      ],
    });
    const id = String(created.id);
    const ids = async (f: string) => (await matching(f)).map((r) => r.id);
    expect(await ids('emails.value eq "second@two.example"')).toContain(id);
    expect(await ids('emails co "two.example"')).toContain(id);
    expect(await ids('emails[type eq "home" and value sw "second"]')).toContain(id);
    expect(await ids('emails[type eq "work" and value sw "second"]')).not.toContain(id);
  });
  test('precedence on the server: a or b and c', async () => {
    const n = unique('Prec');
    const u = await h.createUser({ userName: n, title: 'zzz' });
    const f = `userName eq "${n}" or title eq "nope" and userType eq "nope"`;
    expect((await matching(f)).map((r) => r.id)).toEqual([u.id]);
  });
  test('enterprise extension attributes by URN', async () => {
    expect(await total('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department pr')).toBeGreaterThan(0);
  });
  test.each(['userName eq', 'shoeSize eq "x"', 'name eq "x"', 'userName eq 1', 'userName xx "a"', 'emails[type eq "work"'])(
    'invalid filter %j: 400 invalidFilter',
    async (filter) => {
      expectScimError(await h.get(`/Users${q({ filter })}`), 400, 'invalidFilter');
    },
  );
  test('a filter that matches nothing: 200 with totalResults 0', async () => {
    expect((await h.get(`/Users${q({ filter: 'userName eq "nobody-at-all"' })}`)).obj).toMatchObject({ totalResults: 0, Resources: [] });
  });
  test('groups: members[value eq …]', async () => {
    const g = resourcesOf(await h.get('/Groups?count=50')).find((x) => Array.isArray(x.members) && x.members.length > 0);
    const member = String(((g?.members as Record<string, unknown>[])[0] ?? {}).value);
    expect(resourcesOf(await h.get(`/Groups${q({ filter: `members[value eq "${member}"]` })}`)).map((x) => x.id)).toContain(g?.id);
  });
});
