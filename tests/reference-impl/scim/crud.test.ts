// SCIM Users and Groups: create, read, replace, delete, uniqueness, password, id, membership,
// authentication, content types, error bodies and the unsupported endpoints.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SANDBOX_CREDENTIALS, scimSeedUserId, seededIds } from '../../../reference-impl/index.js';
import { send } from '../intapi/_support.js';
import { expectScimError, GROUP_URN, type ScimHarness, SCIM_TYPE, startScim, unique, USER_URN } from './_scim.js';

const N = { givenName: 'g' };
let h: ScimHarness;
let now = Date.UTC(2026, 0, 1);
beforeAll(async () => {
  h = await startScim({
    clock: () => new Date(now),
    ids: (() => {
      let n = 0;
      return () => `00000000-0000-4000-9000-${(n += 1).toString().padStart(12, '0')}`;
    })(),
  });
});
afterAll(() => h.close());

describe('token exchange and authentication', () => {
  test('POST /token with username and password answers {token, scope[], tokenExpiryDate}', async () => {
    const res = await send(
      h.base.replace(/\/scim\/v2$/, ''),
      'POST',
      '/scim/v2/token',
      { username: SANDBOX_CREDENTIALS.username, password: SANDBOX_CREDENTIALS.password },
      {},
    );
    expect(res.status).toBe(200);
    expect(res.contentType.startsWith(SCIM_TYPE)).toBe(true);
    expect(typeof res.obj.token).toBe('string');
    expect(Array.isArray(res.obj.scope)).toBe(true);
    expect(Date.parse(String(res.obj.tokenExpiryDate))).toBeGreaterThan(now + 300 * 24 * 3600 * 1000);
  });
  test('wrong password: 401; missing fields: 400', async () => {
    expectScimError(await h.call('POST', '/token', { noToken: true, body: { username: SANDBOX_CREDENTIALS.username, password: 'x' } }), 401);
    expectScimError(await h.call('POST', '/token', { noToken: true, body: { username: 'x' } }), 400, 'invalidValue');
  });
  test.each([
    ['no token', { noToken: true }],
    ['a wrong token', { token: 'wrong' }],
  ])('%s: 401 with a SCIM error and WWW-Authenticate: Bearer', async (_, o) => {
    const res = await h.get('/Users', o);
    expectScimError(res, 401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });
  test('the token is long-lived (still valid after 30 days by the clock)', async () => {
    const before = now;
    now += 30 * 24 * 3600 * 1000;
    expect((await h.get('/Users?count=1')).status).toBe(200);
    now = before;
  });
  test('scimToken option: a pre-issued token is accepted', async () => {
    const other = await startScim({ families: { scim: { token: 'fixed-token' } } });
    expect((await other.get('/Users?count=1', { token: 'fixed-token' })).status).toBe(200);
    await other.close();
  });
});

describe('content types', () => {
  test('answers are application/scim+json (success and error)', async () => {
    expect((await h.get('/Users?count=1')).contentType).toBe('application/scim+json; charset=utf-8');
    expect((await h.get('/Users/nope')).contentType).toBe('application/scim+json; charset=utf-8');
    expect((await h.get('/Nope')).contentType).toBe('application/scim+json; charset=utf-8');
  });
  test('requests as application/scim+json and application/json are read; text/plain is 415', async () => {
    const body = (userName: string) => ({ schemas: [USER_URN], userName, name: N });
    expect((await h.call('POST', '/Users', { body: body(unique()), type: 'application/scim+json' })).status).toBe(201);
    expect((await h.call('POST', '/Users', { body: body(unique()), type: 'application/json' })).status).toBe(201);
    expectScimError(await h.call('POST', '/Users', { body: body(unique()), type: 'text/plain' }), 415);
  });
  test('a body that is not JSON: 400 invalidSyntax', async () => {
    expectScimError(await h.call('POST', '/Users', { body: '{nope' }), 400, 'invalidSyntax');
  });
  test('the Integration API is unchanged beside it (its own error body, application/json)', async () => {
    const res = await send(h.base.replace(/\/scim\/v2$/, ''), 'GET', '/resources', undefined, {});
    expect(res.status).toBe(401);
    expect(res.contentType).toBe('application/json; charset=utf-8');
    expect(res.obj.term).toBe('Unauthorized');
  });
});

describe('create', () => {
  test('201, Location, meta.resourceType|created|lastModified|location, no password', async () => {
    const res = await h.call('POST', '/Users', { body: { schemas: [USER_URN], userName: 'Créé.Ünïcode', name: { givenName: 'Zoë' }, password: 'pw-secret' } });
    expect(res.status).toBe(201);
    const body = res.obj;
    const meta = body.meta as Record<string, unknown>;
    expect(meta.resourceType).toBe('User');
    expect(meta.created).toBe(new Date(now).toISOString());
    expect(meta.lastModified).toBe(meta.created);
    expect(meta.location).toBe(`${h.base}/Users/${String(body.id)}`);
    expect(res.headers.location).toBe(meta.location);
    expect(res.text).not.toContain('pw-secret');
    expect(body.password).toBeUndefined();
    expect(body.userName).toBe('Créé.Ünïcode');
  });
  test('the id is server-assigned: a client id is ignored', async () => {
    const created = await h.createUser({ id: 'client-chosen' });
    expect(created.id).not.toBe('client-chosen');
    expect((await h.get('/Users/client-chosen')).status).toBe(404);
  });
  test('userName is unique case-insensitively: 409 uniqueness', async () => {
    const name = unique('Dup');
    await h.createUser({ userName: name });
    expectScimError(await h.call('POST', '/Users', { body: { schemas: [USER_URN], userName: name.toUpperCase(), name: N } }), 409, 'uniqueness');
    expectScimError(await h.call('POST', '/Users', { body: { schemas: [USER_URN], userName: name.toLowerCase(), name: N } }), 409, 'uniqueness');
    // A seeded user's userName, in another case.
    const seeded = String((await h.get(`/Users/${scimSeedUserId(0)}`)).obj.userName);
    expectScimError(await h.call('POST', '/Users', { body: { schemas: [USER_URN], userName: seeded.toLowerCase(), name: N } }), 409, 'uniqueness');
  });
  test.each([
    ['no schemas', { userName: 'x1', name: N }, 'invalidSyntax'],
    ['wrong schemas', { schemas: [GROUP_URN], userName: 'x2', name: N }, 'invalidSyntax'],
    ['no userName', { schemas: [USER_URN], name: N }, 'invalidValue'],
    ['empty userName', { schemas: [USER_URN], userName: '', name: N }, 'invalidValue'],
    ['no name', { schemas: [USER_URN], userName: 'x3' }, 'invalidValue'],
    ['active a string', { schemas: [USER_URN], userName: 'x4', name: N, active: 'yes' }, 'invalidValue'], // "True" and "False" are Entra ID's booleans here
    [
      'two primary emails',
      {
        schemas: [USER_URN],
        userName: 'x5',
        name: N,
        emails: [
          { value: 'a', primary: true },
          { value: 'b', primary: true },
        ],
      },
      'invalidValue',
    ],
    ['unknown attribute', { schemas: [USER_URN], userName: 'x6', name: N, shoeSize: 4 }, 'invalidSyntax'],
    ['title over 255', { schemas: [USER_URN], userName: 'x7', name: N, title: 'x'.repeat(256) }, 'invalidValue'],
    ['a body that is an array', [], 'invalidSyntax'],
  ])('%s: 400 %s', async (_, body, scimType) => {
    expectScimError(await h.call('POST', '/Users', { body }), 400, scimType);
  });
  test('attribute names are case-insensitive on input; readOnly attributes are ignored', async () => {
    const res = await h.call('POST', '/Users', {
      body: { schemas: [USER_URN], UserName: unique(), NAME: { GivenName: 'g' }, meta: { resourceType: 'X' }, groups: [{ value: 'x' }] },
    });
    expect(res.status).toBe(201);
    expect(res.obj.name).toEqual({ givenName: 'g' });
    expect((res.obj.meta as Record<string, unknown>).resourceType).toBe('User');
    expect(res.obj.groups).toBeUndefined();
  });
  test('the enterprise extension is stored and listed in schemas', async () => {
    const created = await h.createUser({
      schemas: [USER_URN, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D' },
    });
    expect(created.schemas).toContain('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User');
    expect(created['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: 'R&D' });
  });
});

describe('read, replace, delete', () => {
  test('GET by id; unknown id 404 with a SCIM error', async () => {
    const created = await h.createUser();
    expect((await h.get(`/Users/${String(created.id)}`)).obj).toEqual(created);
    expectScimError(await h.get('/Users/00000000-0000-4000-8000-00000000dead'), 404);
  });
  test('PUT replaces: null and [] clear, left-out attributes clear, id in the body is ignored, lastModified advances', async () => {
    const created = await h.createUser({ title: 'T', displayName: 'D', emails: [{ value: 'a@x', type: 'work' }], nickName: 'nick' });
    const id = String(created.id);
    now += 60_000;
    const res = await h.call('PUT', `/Users/${id}`, {
      body: { schemas: [USER_URN], id: 'other', userName: created.userName, name: { givenName: 'New' }, title: null, emails: [], displayName: 'D2' },
    });
    expect(res.status).toBe(200);
    const body = res.obj;
    expect(body.id).toBe(id);
    expect(body.title).toBeUndefined();
    expect(body.emails).toBeUndefined();
    expect(body.nickName).toBeUndefined();
    expect(body.displayName).toBe('D2');
    expect(body.name).toEqual({ givenName: 'New' });
    const meta = body.meta as Record<string, string>;
    expect(meta.lastModified).toBe(new Date(now).toISOString());
    expect(meta.created).not.toBe(meta.lastModified);
    expect((await h.get(`/Users/${id}`)).obj).toEqual(body);
  });
  test('PUT keeps the write-only password when the body has none; PUT to a taken userName is 409', async () => {
    const a = await h.createUser({ password: 'p' });
    const b = await h.createUser();
    const res = await h.call('PUT', `/Users/${String(b.id)}`, { body: { schemas: [USER_URN], userName: String(a.userName).toUpperCase(), name: N } });
    expectScimError(res, 409, 'uniqueness');
    expect((await h.call('PUT', `/Users/${String(a.id)}`, { body: { schemas: [USER_URN], userName: a.userName, name: N } })).obj.password).toBeUndefined();
  });
  // The server works out what it compares of each stored user once per stored state
  // (reference-impl/scim/index.ts comparedOf): a write that changed a user in place would leave it stale.
  test('the userName a PUT or a PATCH gave up is free again, and the one it took is taken', async () => {
    const [a, b] = [await h.createUser(), await h.createUser()];
    const [putName, patchName] = [unique('Put'), unique('Patched')];
    expect((await h.call('PUT', `/Users/${String(a.id)}`, { body: { schemas: [USER_URN], userName: putName, name: N } })).status).toBe(200);
    expect((await h.patch(`/Users/${String(b.id)}`, [{ op: 'replace', path: 'userName', value: patchName }])).status).toBeLessThan(300);
    const post = (userName: string) => h.call('POST', '/Users', { body: { schemas: [USER_URN], userName, name: N } });
    for (const taken of [putName, patchName]) expectScimError(await post(taken.toUpperCase()), 409, 'uniqueness');
    for (const freed of [a.userName, b.userName]) expect((await post(String(freed))).status).toBe(201);
  });
  test('with unique emails (variant idp-minimal), the email a PUT or a PATCH gave up is free again, and the one it took is taken', async () => {
    const v = await startScim({ families: { scim: { variant: 'idp-minimal' } } });
    try {
      const mail = (value: string) => ({ emails: [{ value, type: 'work' }] });
      const user = (userName: string, email: string) => ({ schemas: [USER_URN], userName, name: N, ...mail(email) });
      const [oldA, oldB, putEmail, patchEmail] = ['a', 'b', 'put', 'patched'].map((p) => `${unique(p)}@example.com`) as [string, string, string, string];
      const a = await v.createUser(mail(oldA));
      const b = await v.createUser(mail(oldB));
      expect((await v.call('PUT', `/Users/${String(a.id)}`, { body: user(String(a.userName), putEmail) })).status).toBe(200);
      expect((await v.patch(`/Users/${String(b.id)}`, [{ op: 'replace', path: 'emails', value: mail(patchEmail).emails }])).status).toBeLessThan(300);
      for (const taken of [putEmail, patchEmail])
        expectScimError(await v.call('POST', '/Users', { body: user(unique(), taken.toUpperCase()) }), 409, 'uniqueness');
      for (const freed of [oldA, oldB]) expect((await v.call('POST', '/Users', { body: user(unique(), freed) })).status).toBe(201);
    } finally {
      await v.close();
    }
  });
  test('DELETE 204 (no body), then 404 for GET, PUT, PATCH, DELETE; the userName is free again', async () => {
    const created = await h.createUser();
    const id = String(created.id);
    const del = await h.call('DELETE', `/Users/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectScimError(await h.get(`/Users/${id}`), 404);
    expectScimError(await h.call('PUT', `/Users/${id}`, { body: { schemas: [USER_URN], userName: 'z', name: N } }), 404);
    expectScimError(await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'title', value: 'x' }]), 404);
    expectScimError(await h.call('DELETE', `/Users/${id}`), 404);
    expect((await h.get(`/Users?filter=${encodeURIComponent(`id eq "${id}"`)}`)).obj.totalResults).toBe(0);
    expect((await h.call('POST', '/Users', { body: { schemas: [USER_URN], userName: created.userName, name: N } })).status).toBe(201);
  });
});

describe('groups', () => {
  test('create with members; users show their groups; membership follows user deletion', async () => {
    const u1 = await h.createUser();
    const u2 = await h.createUser();
    const res = await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: unique('G'), members: [{ value: u1.id }, { value: u2.id }] } });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`${h.base}/Groups/${String(res.obj.id)}`);
    const members = res.obj.members as Record<string, unknown>[];
    expect(members.map((m) => m.value)).toEqual([u1.id, u2.id]);
    expect(members[0]).toMatchObject({ type: 'User', display: u1.userName, $ref: `${h.base}/Users/${String(u1.id)}` });
    const groups = (await h.get(`/Users/${String(u1.id)}`)).obj.groups as Record<string, unknown>[];
    expect(groups.map((g) => g.value)).toEqual([res.obj.id]);
    await h.call('DELETE', `/Users/${String(u1.id)}`);
    const after = (await h.get(`/Groups/${String(res.obj.id)}`)).obj.members as Record<string, unknown>[];
    expect(after.map((m) => m.value)).toEqual([u2.id]);
  });
  test('a member naming no resource: 400 invalidValue; displayName required', async () => {
    expectScimError(await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: 'x', members: [{ value: 'nobody' }] } }), 400, 'invalidValue');
    expectScimError(await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN] } }), 400, 'invalidValue');
  });
});

describe('unsupported endpoints: 501 with a SCIM error body', () => {
  test.each([
    ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, '/Me']),
    ['GET', '/ServiceProviderConfig'],
    ['GET', '/ResourceTypes'],
    ['POST', '/Bulk'],
    ['POST', '/.search'],
    ['POST', '/Users/.search'],
    ['POST', '/Groups/.search'],
  ])('%s %s', async (method, path) => {
    const res = await h.call(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
    expectScimError(res, 501);
  });
  test('an unknown route under /scim/v2 is 404 with a SCIM error body', async () => {
    expectScimError(await h.get('/Nope'), 404);
  });
  test('GET /Schemas lists User, Group and the enterprise extension; userName caseExact false, password returned never', async () => {
    const res = await h.get('/Schemas');
    const ids = (res.obj.Resources as Record<string, unknown>[]).map((s) => s.id);
    expect(ids).toEqual([USER_URN, GROUP_URN, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']);
    const user = (await h.get(`/Schemas/${USER_URN}`)).obj;
    const attrs = user.attributes as Record<string, unknown>[];
    expect(attrs.find((a) => a.name === 'userName')).toMatchObject({ caseExact: false, uniqueness: 'server', required: true });
    expect(attrs.find((a) => a.name === 'password')).toMatchObject({ returned: 'never', mutability: 'writeOnly' });
    // meta.location is where the Schema resource is served (it once lacked the /scim/v2 prefix).
    expect((user.meta as Record<string, unknown>).location).toBe(`${h.base}/Schemas/${USER_URN}`);
  });
});

describe('injected ids and clock', () => {
  test('new ids come from the injected generator; seeded ids follow x-lpc-check / x-lpc-case', async () => {
    const fixed = await startScim({ ids: () => '11111111-2222-4333-8444-555555555555', clock: () => new Date(Date.UTC(2030, 0, 2)) });
    const created = await fixed.createUser();
    expect(created.id).toBe('11111111-2222-4333-8444-555555555555');
    expect((created.meta as Record<string, unknown>).created).toBe('2030-01-02T00:00:00.000Z');
    await fixed.close();
    const idOf = async (harness: ScimHarness, headers: Record<string, string>) =>
      (await harness.call('POST', '/Users', { body: { schemas: [USER_URN], userName: unique(), name: N }, headers })).obj.id;
    const a = await startScim({ ids: seededIds(3) });
    const b = await startScim({ ids: seededIds(3) });
    await idOf(b, {}); // another request in between does not shift the check's ids
    const headers = { 'x-lpc-check': 'scim.some.check', 'x-lpc-case': '0' };
    expect(await idOf(a, headers)).toBe(await idOf(b, headers));
    await a.close();
    await b.close();
  });
});
