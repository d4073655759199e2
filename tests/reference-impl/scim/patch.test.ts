// SCIM PATCH (rfc7644#section-3.5.2; specification rule 3).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectScimError, GROUP_URN, PATCH_URN, type ScimHarness, startScim } from './_scim.js';

let h: ScimHarness;
let now = Date.UTC(2026, 1, 1);
beforeAll(async () => {
  h = await startScim({ clock: () => new Date(now) });
});
afterAll(() => h.close());

const EMAILS = [
  { value: 'w@work.example', type: 'work', primary: true },
  { value: 'h@home.example', type: 'home' },
];

async function user(extra: Record<string, unknown> = {}): Promise<string> {
  return String((await h.createUser({ emails: EMAILS, title: 'T', ...extra })).id);
}
const read = async (id: string) => (await h.get(`/Users/${id}`)).obj;

describe('operations and paths', () => {
  test('replace a simple attribute; op names are case-insensitive; 200 with the resource', async () => {
    const id = await user();
    const res = await h.patch(`/Users/${id}`, [{ op: 'Replace', path: 'title', value: 'New' }]);
    expect(res.status).toBe(200);
    expect(res.obj.title).toBe('New');
    expect((await h.patch(`/Users/${id}`, [{ op: 'ADD', path: 'nickName', value: 'n' }])).obj.nickName).toBe('n');
  });
  test('add to a multi-valued attribute appends; an identical value is not duplicated and leaves lastModified', async () => {
    const id = await user();
    const res = await h.patch(`/Users/${id}`, [{ op: 'add', path: 'emails', value: [{ value: 'x@x.example', type: 'other' }] }]);
    expect((res.obj.emails as unknown[]).length).toBe(3);
    const before = (await read(id)).meta;
    now += 1000;
    const same = await h.patch(`/Users/${id}`, [{ op: 'add', path: 'emails', value: [{ value: 'x@x.example', type: 'other' }] }]);
    expect((same.obj.emails as unknown[]).length).toBe(3);
    expect(same.obj.meta).toEqual(before);
  });
  test('lastModified advances on a change', async () => {
    const id = await user();
    now += 5000;
    const res = await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'title', value: 'changed' }]);
    expect((res.obj.meta as Record<string, unknown>).lastModified).toBe(new Date(now).toISOString());
  });
  test('value filters: replace emails[type eq "work"].value, remove emails[type eq "home"]', async () => {
    const id = await user();
    await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'new@work.example' }]);
    expect((await read(id)).emails).toEqual([{ ...EMAILS[0], value: 'new@work.example' }, EMAILS[1]]);
    await h.patch(`/Users/${id}`, [{ op: 'remove', path: 'emails[type eq "home"]' }]);
    expect((await read(id)).emails).toEqual([{ ...EMAILS[0], value: 'new@work.example' }]);
    await h.patch(`/Users/${id}`, [{ op: 'remove', path: 'emails[type eq "work"]' }]);
    expect((await read(id)).emails).toBeUndefined();
  });
  test('replace a whole matched value; primary on one value clears the others', async () => {
    const id = await user();
    await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'emails[type eq "home"]', value: { value: 'p@home.example', type: 'home', primary: true } }]);
    const emails = (await read(id)).emails as Record<string, unknown>[];
    expect(emails.filter((e) => e.primary === true).map((e) => e.value)).toEqual(['p@home.example']);
  });
  test('no-path add/replace with an object value, dotted and URN keys', async () => {
    const id = await user();
    const res = await h.patch(`/Users/${id}`, [
      { op: 'replace', value: { active: false, 'name.givenName': 'Dotted', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department': 'D' } },
      { op: 'add', value: { displayName: 'Disp', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { costCenter: 'C' } } },
    ]);
    expect(res.status).toBe(200);
    expect(res.obj).toMatchObject({ active: false, displayName: 'Disp', name: { givenName: 'Dotted', familyName: 'F' } });
    expect(res.obj['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: 'D', costCenter: 'C' });
  });
  test('a path naming the whole enterprise extension: add its attributes, remove it', async () => {
    const id = await user();
    const urn = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
    const added = await h.patch(`/Users/${id}`, [{ op: 'add', path: urn, value: { department: 'D', manager: { value: 'm' } } }]);
    expect(added.obj[urn]).toEqual({ department: 'D', manager: { value: 'm' } });
    expect(added.obj.schemas).toContain(urn);
    const removed = await h.patch(`/Users/${id}`, [{ op: 'remove', path: urn }]);
    expect(removed.obj[urn]).toBeUndefined();
    expect(removed.obj.schemas).not.toContain(urn);
  });
  test('replace of a complex attribute merges its sub-attributes; remove of a sub-attribute', async () => {
    const id = await user();
    expect((await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'name', value: { middleName: 'M' } }])).obj.name).toEqual({
      givenName: 'G',
      familyName: 'F',
      middleName: 'M',
    });
    expect((await h.patch(`/Users/${id}`, [{ op: 'remove', path: 'name.middleName' }])).obj.name).toEqual({ givenName: 'G', familyName: 'F' });
  });
  test('groups: add members, remove members[value eq …], the legacy remove with a value list', async () => {
    const [a, b, c] = [await user(), await user(), await user()];
    const g = await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: 'patch-group' } });
    const gid = String(g.obj.id);
    await h.patch(`/Groups/${gid}`, [{ op: 'add', path: 'members', value: [{ value: a }, { value: b }, { value: c }] }]);
    await h.patch(`/Groups/${gid}`, [{ op: 'remove', path: `members[value eq "${b}"]` }]);
    await h.patch(`/Groups/${gid}`, [{ op: 'Remove', path: 'members', value: [{ value: a }] }]);
    expect(((await h.get(`/Groups/${gid}`)).obj.members as Record<string, unknown>[]).map((m) => m.value)).toEqual([c]);
    expectScimError(await h.patch(`/Groups/${gid}`, [{ op: 'add', path: 'members', value: [{ value: 'nobody' }] }]), 400, 'invalidValue');
  });
});

describe('errors', () => {
  test.each([
    ['remove without path', [{ op: 'remove' }], 'noTarget'],
    ['a value filter matching nothing', [{ op: 'replace', path: 'emails[type eq "pager"].value', value: 'x' }], 'noTarget'],
    ['an unknown attribute', [{ op: 'replace', path: 'shoeSize', value: 1 }], 'invalidPath'],
    ['a malformed path', [{ op: 'replace', path: 'emails[type eq', value: 1 }], 'invalidPath'],
    ['an unknown sub-attribute after a filter', [{ op: 'replace', path: 'emails[type eq "work"].nope', value: 1 }], 'invalidPath'],
    ['remove of a required attribute', [{ op: 'remove', path: 'userName' }], 'mutability'],
    ['replace of id', [{ op: 'replace', path: 'id', value: 'x' }], 'mutability'],
    ['replace of meta', [{ op: 'replace', path: 'meta.created', value: '2020-01-01T00:00:00Z' }], 'mutability'],
    ['an unknown op', [{ op: 'move', path: 'title', value: 'x' }], 'invalidSyntax'],
    ['add without value', [{ op: 'add', path: 'title' }], 'invalidValue'],
    ['a wrong value type', [{ op: 'replace', path: 'active', value: 'no' }], 'invalidValue'], // "False" is Entra ID's false here
    ['no-path replace with a non-object', [{ op: 'replace', value: 'x' }], 'invalidValue'],
    ['empty userName', [{ op: 'replace', path: 'userName', value: '' }], 'invalidValue'],
  ])('%s: 400 %s', async (_, operations, scimType) => {
    const id = await user();
    expectScimError(await h.patch(`/Users/${id}`, operations), 400, scimType);
  });
  test.each([
    ['no schemas', { Operations: [{ op: 'add', path: 'title', value: 'x' }] }],
    ['empty Operations', { schemas: [PATCH_URN], Operations: [] }],
    ['Operations not an array', { schemas: [PATCH_URN], Operations: {} }],
  ])('%s: 400 invalidSyntax', async (_, body) => {
    const id = await user();
    expectScimError(await h.call('PATCH', `/Users/${id}`, { body }), 400, 'invalidSyntax');
  });
  test('a PATCH to a userName taken in another case: 409 uniqueness', async () => {
    const a = await h.createUser();
    const id = await user();
    expectScimError(await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'userName', value: String(a.userName).toUpperCase() }]), 409, 'uniqueness');
  });
  test('atomic: a request whose second operation fails leaves the resource unchanged', async () => {
    const id = await user();
    const before = await read(id);
    now += 1000;
    expectScimError(
      await h.patch(`/Users/${id}`, [
        { op: 'replace', path: 'title', value: 'half' },
        { op: 'remove', path: 'userName' },
      ]),
      400,
      'mutability',
    );
    expect(await read(id)).toEqual(before);
  });
});
