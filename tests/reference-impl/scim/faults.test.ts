// Every SCIM fault flips the rule it names (one probe each, as ../faults.test.ts), and the SCIM
// faults stay out of listIntapiFaults() (no SCIM checks or negative-control expectations exist yet).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, listIntapiFaults, SCIM_FAULTS, type ScimFaultName, scimSeedUserId } from '../../../reference-impl/index.js';
import { authorizeRequest, exchange, oauthTokens } from '../_oauth.js';
import { GROUP_URN, q, resourcesOf, type ScimHarness, startScim, unique, USER_URN } from './_scim.js';

type Probe = (h: ScimHarness) => Promise<unknown>;
interface Spot {
  readonly probe: Probe;
  /** [without the fault, with it] */
  readonly expected: readonly [unknown, unknown];
  /** The SCIM variant both servers run (a fault that takes back one of its acceptances). */
  readonly variant?: string;
}

const status = (p: Promise<{ status: number }>) => p.then((r) => r.status);
const field =
  (path: string, name: string): Probe =>
  async (h) =>
    (await h.get(path)).obj[name];
const firstIds =
  (path: string): Probe =>
  async (h) =>
    resourcesOf(await h.get(path)).map((r) => r.id);
const total = (filter: string): Probe => field(`/Users${q({ filter, count: 0 })}`, 'totalResults');
const U0 = scimSeedUserId(0);
const body = (userName: string, extra: Record<string, unknown> = {}) => ({ schemas: [USER_URN], userName, name: { givenName: 'g' }, ...extra });
const created = async (h: ScimHarness, extra: Record<string, unknown> = {}) => String((await h.createUser(extra)).id);
/** A new group's displayName (given, or fresh). */
const group = async (h: ScimHarness, name = unique('g')): Promise<string> => {
  await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: name } });
  return name;
};
/** A new group with these members; its id. */
const memberGroup = async (h: ScimHarness, members: string[]): Promise<string> =>
  String((await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: unique('g'), members: members.map((value) => ({ value })) } })).obj.id);
/** The number of members after one PATCH of a group whose member is one user (FIRST, second and third name three users). */
const membersAfter = async (h: ScimHarness, op: string, value: { value: string }[] | undefined, path = 'members', initial = ['FIRST']): Promise<number> => {
  const users = { FIRST: await created(h), second: await created(h), third: await created(h) };
  const id = await memberGroup(
    h,
    initial.map((k) => users[k as keyof typeof users]),
  );
  const swap = (text: string) => text.replace(/FIRST|second|third/g, (k) => users[k as keyof typeof users]);
  const res = await h.patch(`/Groups/${id}`, [{ op, path: swap(path), ...(value ? { value: value.map((v) => ({ value: swap(v.value) })) } : {}) }]);
  const members = (await h.get(`/Groups/${id}`)).obj.members;
  if (res.status !== 200) return -res.status;
  return Array.isArray(members) ? members.length : 0;
};
/** A home email no other user has (the variant idp-minimal requires one, unique). */
const email = () => ({ emails: [{ value: `${unique()}@home.example`, type: 'home' }] });
const sortedUserNames =
  (query: Record<string, string | number>): Probe =>
  async (h) =>
    resourcesOf(await h.get(`/Users${q({ count: 3, attributes: 'userName', ...query })}`)).map((r) => r.userName);

const BULK_URN = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const bulk = (operations: unknown[], failOnErrors?: number) => ({ schemas: [BULK_URN], Operations: operations, ...(failOnErrors ? { failOnErrors } : {}) });
const bulkUser = (bulkId: string) => ({ method: 'POST', path: '/Users', bulkId, data: body(unique()) });
const bulkStatuses = (r: { obj: Record<string, unknown> }) => (r.obj.Operations as { status: string }[]).map((o) => o.status);

const SPOTS: Record<ScimFaultName, Spot> = {
  'scim.content-type-json': {
    probe: async (h) => (await h.get('/Users?count=1')).contentType,
    expected: ['application/scim+json; charset=utf-8', 'application/json; charset=utf-8'],
  },
  'scim.scim-json-request-rejected': { probe: (h) => status(h.call('POST', '/Users', { body: body(unique()) })), expected: [201, 415] },
  'scim.url-limit-4k': { probe: (h) => status(h.get(`/Users${q({ filter: `userName eq "${'a'.repeat(5000)}"` })}`)), expected: [200, 414] },
  'scim.error-status-integer': { probe: field('/Users/nope', 'status'), expected: ['404', 404] },
  'scim.error-scimtype-missing': { probe: field('/Users?filter=userName%20eq', 'scimType'), expected: ['invalidFilter', undefined] },
  'scim.error-schemas-missing': { probe: field('/Users/nope', 'schemas'), expected: [['urn:ietf:params:scim:api:messages:2.0:Error'], undefined] },
  'scim.unsupported-endpoints-404': { probe: (h) => status(h.get('/Me')), expected: [501, 404] },
  'scim.token-not-required': { probe: (h) => status(h.get('/Users?count=1', { noToken: true })), expected: [401, 200] },
  'scim.wrong-token-accepted': { probe: (h) => status(h.get('/Users?count=1', { token: 'wrong' })), expected: [401, 200] },
  'scim.no-www-authenticate': {
    probe: async (h) => (await h.get('/Users', { noToken: true })).headers['www-authenticate'],
    expected: ['Bearer realm="scim"', undefined],
  },
  // OAuth 2.0 authorization-code flow under /scim/v2/oauth
  'scim.oauth-code-reusable': {
    probe: async (h) => {
      const tokens = await oauthTokens(h.base, 'scim');
      return (await exchange(h.base, tokens.code, tokens.verifier)).status;
    },
    expected: [400, 200],
  },
  'scim.oauth-any-redirect-uri': {
    probe: async (h) => (await fetch(authorizeRequest(h.base, 'https://elsewhere.invalid/cb', 'scim').url, { redirect: 'manual' })).status,
    expected: [400, 303],
  },
  'scim.oauth-no-refresh-token': { probe: async (h) => 'refresh_token' in (await oauthTokens(h.base, 'scim')).body, expected: [true, false] },
  'scim.oauth-access-token-8h': { probe: async (h) => (await oauthTokens(h.base, 'scim')).body.expires_in, expected: [14400, 28800] },
  'scim.oauth-token-not-accepted': {
    probe: async (h) => status(h.get('/Users?count=1', { token: String((await oauthTokens(h.base, 'scim')).body.access_token) })),
    expected: [200, 401],
  },
  'scim.pagination-zero-based': { probe: firstIds('/Users?startIndex=1&count=1'), expected: [[U0], [scimSeedUserId(1)]] },
  'scim.count-uncapped': { probe: field('/Users?count=1500', 'itemsPerPage'), expected: [1000, 1500] },
  'scim.default-count-100': { probe: field('/Users', 'itemsPerPage'), expected: [20, 100] },
  'scim.start-index-below-one-rejected': { probe: (h) => status(h.get('/Users?startIndex=0&count=1')), expected: [200, 400] },
  'scim.start-index-not-integer-nan': { probe: (h) => status(h.get('/Users?startIndex=lpc')), expected: [400, 200] },
  'scim.negative-count-default': { probe: field('/Users?count=-1', 'itemsPerPage'), expected: [0, 20] },
  'scim.count-zero-default-page': { probe: field('/Users?count=0', 'itemsPerPage'), expected: [0, 20] },
  'scim.count-plus-one': { probe: field('/Users?count=2', 'itemsPerPage'), expected: [2, 3] },
  'scim.start-index-rounded-to-page': {
    probe: firstIds('/Users?startIndex=2&count=2'),
    expected: [
      [scimSeedUserId(1), scimSeedUserId(2)],
      [scimSeedUserId(2), scimSeedUserId(3)],
    ],
  },
  'scim.past-end-returns-first-page': { probe: field('/Users?startIndex=100000&count=2', 'itemsPerPage'), expected: [0, 2] },
  'scim.items-per-page-requested': { probe: field(`/Users${q({ filter: `id eq "${U0}"`, count: 10 })}`, 'itemsPerPage'), expected: [1, 10] },
  'scim.total-results-page-size': { probe: field(`/Users${q({ filter: 'id sw "5c100000-"', count: 5 })}`, 'totalResults'), expected: [2500, 5] },
  'scim.filter-username-case-sensitive': {
    probe: async (h) => {
      const name = String((await h.get(`/Users/${U0}`)).obj.userName);
      return (await h.get(`/Users${q({ filter: `userName eq "${name.toLowerCase()}"`, count: 0 })}`)).obj.totalResults;
    },
    expected: [1, 0],
  },
  'scim.projection-names-case-sensitive': {
    probe: async (h) => typeof (await h.get(`/Users/${U0}?attributes=USERNAME`)).obj.userName,
    expected: ['string', 'undefined'],
  },
  'scim.filter-strings-case-sensitive': { probe: async (h) => ((await total('title eq "ENGINEER"')(h)) as number) > 0, expected: [true, false] },
  'scim.filter-case-exact-ignored': { probe: total('externalId eq "ext-9"'), expected: [0, 1] },
  'scim.filter-malformed-ignored': { probe: (h) => status(h.get('/Users?filter=userName%20eq')), expected: [400, 200] },
  'scim.filter-boolean-ordering-accepted': { probe: (h) => status(h.get(`/Users${q({ filter: 'active gt false' })}`)), expected: [400, 200] },
  'scim.filter-boolean-substring-accepted': { probe: (h) => status(h.get(`/Users${q({ filter: 'active co true' })}`)), expected: [400, 200] },
  'scim.filter-complex-whole-accepted': { probe: (h) => status(h.get(`/Users${q({ filter: 'name eq "x"' })}`)), expected: [400, 200] },
  'scim.filter-value-path-on-sub-attribute': { probe: (h) => status(h.get(`/Users${q({ filter: 'emails.value[type eq "work"]' })}`)), expected: [400, 200] },
  'scim.filter-null-refused': { probe: (h) => status(h.get(`/Users${q({ filter: 'title eq null' })}`)), expected: [200, 400] },
  'scim.filter-cut-short-500': { probe: (h) => status(h.get(`/Users${q({ filter: 'userName eq "x" or' })}`)), expected: [400, 500] },
  'scim.filter-unknown-attribute-500': { probe: (h) => status(h.get(`/Users${q({ filter: 'lpcNoSuch eq "x"' })}`)), expected: [400, 500] },
  'scim.filter-type-mismatch-500': { probe: (h) => status(h.get(`/Users${q({ filter: 'userName eq true' })}`)), expected: [400, 500] },
  'scim.filter-keywords-lowercase-only': { probe: (h) => status(h.get(`/Users${q({ filter: 'userName Eq "x"' })}`)), expected: [200, 400] },
  'scim.filter-precedence-left-to-right': { probe: total(`id eq "${U0}" or id eq "x" and id eq "y"`), expected: [1, 0] },
  'scim.filter-nested-groups-refused': {
    probe: (h) => status(h.get(`/Users${q({ filter: `id eq "${U0}" and (id eq "x" or not (id eq "y"))`, count: 0 })}`)),
    expected: [200, 400],
  },
  'scim.filter-dates-as-strings': { probe: total('meta.created eq "2020-01-01T00:00:00Z"'), expected: [1, 0] },
  'scim.filter-multivalued-first-only': {
    probe: async (h) => {
      const id = await created(h, { emails: [{ value: 'a@one.example' }, { value: 'b@two.example' }] });
      return (await h.get(`/Users${q({ filter: `id eq "${id}" and emails.value eq "b@two.example"`, count: 0 })}`)).obj.totalResults;
    },
    expected: [1, 0],
  },
  'scim.filter-multivalued-refused': {
    probe: (h) => status(h.get(`/Users${q({ filter: `id eq "${U0}" and emails[type eq "work"]`, count: 0 })}`)),
    expected: [200, 400],
  },
  'scim.filter-no-match-404': { probe: (h) => status(h.get(`/Users${q({ filter: 'userName eq "nobody-at-all"' })}`)), expected: [200, 404] },
  'scim.filter-total-results-unfiltered': { probe: total(`id eq "${U0}"`), expected: [1, 2500] },
  'scim.filter-urn-qualified-404': {
    probe: (h) => status(h.get(`/Users${q({ filter: `urn:ietf:params:scim:schemas:core:2.0:User:id eq "${U0}"` })}`)),
    expected: [200, 404],
  },
  'scim.sort-ignored': {
    probe: async (h) => JSON.stringify(await firstIds('/Users?sortBy=userName&count=5')(h)) === JSON.stringify(await firstIds('/Users?count=5')(h)),
    expected: [false, true],
  },
  'scim.sort-extension-top-level': {
    probe: async (h) => {
      const ent = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
      const prefix = unique('ext');
      for (const [n, number] of [
        ['1', 'b'],
        ['2', 'a'],
      ] as const)
        await h.createUser({ schemas: [USER_URN, ent], userName: `${prefix}.${n}`, [ent]: { employeeNumber: number } });
      const list = await h.get(`/Users${q({ filter: `userName sw "${prefix}."`, sortBy: `${ent}:employeeNumber` })}`);
      return resourcesOf(list)
        .map((r) => (r[ent] as { employeeNumber?: string } | undefined)?.employeeNumber)
        .join(',');
    },
    expected: ['a,b', 'b,a'],
  },
  'scim.sort-descending-ignored': {
    probe: async (h) =>
      JSON.stringify(await sortedUserNames({ sortBy: 'userName', sortOrder: 'descending' })(h)) ===
      JSON.stringify(await sortedUserNames({ sortBy: 'userName' })(h)),
    expected: [false, true],
  },
  'scim.sort-case-sensitive': {
    probe: async (h) => {
      const names = (await sortedUserNames({ sortBy: 'userName', count: 1000 })(h)) as string[];
      const lower = names.map((n) => n.toLowerCase());
      return JSON.stringify(lower) === JSON.stringify([...lower].sort());
    },
    expected: [true, false],
  },
  'scim.sort-multivalued-last-value': {
    probe: async (h) => {
      const p = unique('mv');
      const a = await created(h, { userName: `${p}a`, emails: [{ value: 'a@x' }, { value: 'z@x' }] });
      const b = await created(h, { userName: `${p}b`, emails: [{ value: 'm@x' }] });
      return (
        resourcesOf(await h.get(`/Users${q({ filter: `userName sw "${p}"`, sortBy: 'emails' })}`))
          .map((r) => r.id)
          .join() === [a, b].join()
      );
    },
    expected: [true, false],
  },
  'scim.sort-missing-first': {
    probe: async (h) => (await h.get(`/Users${q({ sortBy: 'title', count: 1, attributes: 'title' })}`)).text.includes('"title"'),
    expected: [true, false],
  },
  'scim.filter-string-ordering-inclusive': {
    probe: async (h) => {
      const id = await created(h, { title: 'Lpc Ordering' });
      const res = await h.get(`/Users${q({ filter: 'title gt "Lpc Ordering"', count: 1000 })}`);
      return JSON.stringify(res.obj.Resources ?? []).includes(id);
    },
    expected: [false, true],
  },
  'scim.sort-unknown-attribute-500': { probe: (h) => status(h.get('/Users?sortBy=lpcNoSuchAttribute&count=1')), expected: [400, 500] },
  'scim.sort-sub-attribute-accepted': { probe: (h) => status(h.get('/Users?sortBy=emails.type&count=1')), expected: [400, 200] },
  'scim.attributes-ignored': { probe: async (h) => Object.keys((await h.get(`/Users/${U0}?attributes=userName`)).obj).length === 3, expected: [true, false] },
  'scim.excluded-attributes-ignored': {
    probe: async (h) => (await h.get(`/Users/${U0}?excludedAttributes=meta`)).obj.meta === undefined,
    expected: [true, false],
  },
  'scim.id-not-always-returned': { probe: async (h) => (await h.get(`/Users/${U0}?excludedAttributes=id`)).obj.id, expected: [U0, undefined] },
  'scim.sub-attributes-whole-parent': {
    probe: async (h) => Object.keys((await h.get(`/Users/${U0}?attributes=name.givenName`)).obj.name as object),
    expected: [['givenName'], ['givenName', 'familyName', 'formatted']],
  },
  'scim.password-returned': {
    probe: async (h) => (await h.call('POST', '/Users', { body: body(unique(), { password: 'pw' }) })).obj.password,
    expected: [undefined, 'pw'],
  },
  'scim.create-200': { probe: (h) => status(h.call('POST', '/Users', { body: body(unique()) })), expected: [201, 200] },
  'scim.no-location': {
    probe: async (h) => typeof (await h.call('POST', '/Users', { body: body(unique()) })).headers.location,
    expected: ['string', 'undefined'],
  },
  'scim.meta-location-missing': {
    probe: async (h) => typeof ((await h.get(`/Users/${U0}`)).obj.meta as Record<string, unknown>).location,
    expected: ['string', 'undefined'],
  },
  'scim.username-unique-case-sensitive': {
    probe: async (h) => {
      const n = unique('Case');
      await h.createUser({ userName: n });
      return status(h.call('POST', '/Users', { body: body(n.toLowerCase()) }));
    },
    expected: [409, 201],
  },
  'scim.uniqueness-400': {
    probe: async (h) => {
      const n = unique();
      await h.createUser({ userName: n });
      return status(h.call('POST', '/Users', { body: body(n) }));
    },
    expected: [409, 400],
  },
  'scim.client-id-used': {
    probe: async (h) => (await h.call('POST', '/Users', { body: body(unique(), { id: 'mine-1' }) })).obj.id === 'mine-1',
    expected: [false, true],
  },
  'scim.put-merges': {
    probe: async (h) => {
      const id = await created(h, { title: 'T' });
      return (await h.call('PUT', `/Users/${id}`, { body: body(unique()) })).obj.title;
    },
    expected: [undefined, 'T'],
  },
  'scim.put-null-keeps': {
    probe: async (h) => {
      const id = await created(h, { title: 'T' });
      return (await h.call('PUT', `/Users/${id}`, { body: body(unique(), { title: null }) })).obj.title;
    },
    expected: [undefined, 'T'],
  },
  'scim.last-modified-frozen': {
    probe: async (h) => {
      const id = await created(h);
      await new Promise((r) => setTimeout(r, 5));
      const res = await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'title', value: 'x' }]);
      const meta = res.obj.meta as Record<string, unknown>;
      return meta.created === meta.lastModified;
    },
    expected: [false, true],
  },
  'scim.delete-200': { probe: async (h) => status(h.call('DELETE', `/Users/${await created(h)}`)), expected: [204, 200] },
  'scim.deleted-readable': {
    probe: async (h) => {
      const id = await created(h);
      await h.call('DELETE', `/Users/${id}`);
      return status(h.get(`/Users/${id}`));
    },
    expected: [404, 200],
  },
  'scim.delete-keeps-membership': {
    probe: async (h) => {
      const id = await created(h);
      const g = await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: 'g', members: [{ value: id }] } });
      await h.call('DELETE', `/Users/${id}`);
      return (await h.get(`/Groups/${String(g.obj.id)}`)).obj.members === undefined;
    },
    expected: [true, false],
  },
  'scim.deleted-username-taken': {
    probe: async (h) => {
      const n = unique();
      await h.call('DELETE', `/Users/${await created(h, { userName: n })}`);
      return status(h.call('POST', '/Users', { body: body(n) }));
    },
    expected: [201, 409],
  },
  'scim.member-references-unchecked': {
    probe: (h) => status(h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: 'g', members: [{ value: 'nobody' }] } })),
    expected: [400, 201],
  },
  'scim.malformed-json-500': { probe: (h) => status(h.call('POST', '/Users', { body: '{"userName": ' })), expected: [400, 500] },
  'scim.error-status-mismatch': { probe: field('/Users/nope', 'status'), expected: ['404', '400'] },
  'scim.json-request-rejected': {
    probe: (h) => status(h.call('POST', '/Users', { body: body(unique()), type: 'application/json' })),
    expected: [201, 415],
  },
  'scim.unknown-id-400': { probe: (h) => status(h.get('/Users/nope')), expected: [404, 400] },
  'scim.deleted-listed': {
    probe: async (h) => {
      const n = unique();
      await h.call('DELETE', `/Users/${await created(h, { userName: n })}`);
      return (await h.get(`/Users${q({ filter: `userName eq "${n}"`, count: 0 })}`)).obj.totalResults;
    },
    expected: [0, 1],
  },
  'scim.required-unchecked': {
    probe: (h) => status(h.call('POST', '/Users', { body: { schemas: [USER_URN], name: { givenName: 'g' } } })),
    expected: [400, 201],
  },
  'scim.boolean-strings-coerced': { probe: (h) => status(h.call('POST', '/Users', { body: body(unique(), { active: 'yes' }) })), expected: [400, 201] },
  'scim.username-lowercased': {
    probe: async (h) => {
      const n = `MiXeD${unique()}`;
      return (await h.createUser({ userName: n })).userName === n;
    },
    expected: [true, false],
  },
  'scim.meta-resource-type-missing': {
    probe: async (h) => ((await h.createUser()).meta as Record<string, unknown>).resourceType,
    expected: ['User', undefined],
  },
  'scim.resource-schemas-missing': { probe: async (h) => (await h.createUser()).schemas, expected: [[USER_URN], undefined] },
  'scim.put-id-used': {
    probe: async (h) => {
      const id = await created(h);
      const other = `${id.slice(0, -4)}beef`;
      await h.call('PUT', `/Users/${id}`, { body: body(unique(), { id: other }) });
      return status(h.get(`/Users/${id}`));
    },
    expected: [200, 404],
  },
  'scim.member-value-omitted': {
    probe: async (h) => {
      const id = await created(h);
      const res = await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: unique('g'), members: [{ value: id }] } });
      return (res.obj.members as Record<string, unknown>[]).map((m) => m.value === id);
    },
    expected: [[true], [false]],
  },
  'scim.patch-path-bracket-in-string': {
    probe: async (h) => {
      const res = await h.patch(`/Users/${await created(h, { emails: [{ value: `${unique('b')}@example.com`, type: 'work' }] })}`, [
        { op: 'replace', path: 'emails[value ne "a]b"].type', value: 'home' },
      ]);
      return res.status;
    },
    expected: [200, 400],
  },
  'scim.patch-filter-on-simple-500': {
    probe: async (h) => (await h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 'userName[value eq "x"].value', value: 'x' }])).status,
    expected: [400, 500],
  },
  'scim.patch-path-type-ignored': {
    probe: async (h) => (await h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 7, value: { title: 'x' } }])).status,
    expected: [400, 200],
  },
  'scim.patch-no-path-complex-500': {
    probe: async (h) => (await h.patch(`/Users/${await created(h)}`, [{ op: 'replace', value: { name: { givenName: 'x' } } }])).status,
    expected: [200, 500],
  },
  'scim.patch-remove-all-values-kept': {
    probe: async (h) => {
      const id = await created(h, { emails: [{ value: `${unique('e')}@example.com` }] });
      await h.patch(`/Users/${id}`, [{ op: 'remove', path: 'emails' }]);
      return (await h.get(`/Users/${id}`)).obj.emails === undefined;
    },
    expected: [true, false],
  },
  'scim.patch-replace-null-deletes-required': {
    probe: async (h) => {
      const id = await created(h);
      await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'userName', value: null }]);
      return typeof (await h.get(`/Users/${id}`)).obj.userName;
    },
    expected: ['string', 'undefined'],
  },
  'scim.patch-replace-null-refused': {
    probe: async (h) => (await h.patch(`/Users/${await created(h, { title: 'x' })}`, [{ op: 'replace', path: 'title', value: null }])).status,
    expected: [200, 400],
  },
  'scim.patch-extension-sub-path-rejected': {
    probe: async (h) =>
      (
        await h.patch(`/Users/${await created(h)}`, [
          { op: 'add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value', value: 'm' },
        ])
      ).status,
    expected: [200, 400],
  },
  'scim.patch-multi-valued-sub-first-only': {
    probe: async (h) => {
      const id = await created(h, { emails: [{ value: `${unique('a')}@example.com` }, { value: `${unique('b')}@example.com` }] });
      await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'emails.type', value: 'other' }]);
      const emails = (await h.get(`/Users/${id}`)).obj.emails as { type?: string }[];
      return emails.map((e) => e.type).join(',');
    },
    expected: ['other,other', 'other,'],
  },
  'scim.patch-read-only-sub-written': {
    probe: async (h) => {
      const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
      const id = await created(h, { [enterprise]: { manager: { value: 'boss' } } });
      const res = await h.patch(`/Users/${id}`, [{ op: 'replace', path: `${enterprise}:manager.displayName`, value: 'Renamed' }]);
      const manager = ((await h.get(`/Users/${id}`)).obj[enterprise] as { manager?: { displayName?: string } } | undefined)?.manager;
      return `${res.status} ${manager?.displayName ?? '-'}`;
    },
    expected: ['400 -', '200 -'],
  },
  'scim.patch-no-path-extension-dropped': {
    probe: async (h) => {
      const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
      const id = await created(h);
      await h.patch(`/Users/${id}`, [{ op: 'replace', value: { [enterprise]: { employeeNumber: '42' } } }]);
      return ((await h.get(`/Users/${id}`)).obj[enterprise] as { employeeNumber?: string } | undefined)?.employeeNumber ?? '-';
    },
    expected: ['42', '-'],
  },
  'scim.patch-no-path-id-ignored': {
    probe: async (h) => (await h.patch(`/Users/${await created(h)}`, [{ op: 'replace', value: { id: 'another-id' } }])).status,
    expected: [400, 200],
  },
  'scim.patch-add-duplicates-values': {
    probe: async (h) => {
      const email = { value: `${unique('d')}@example.com`, type: 'home' };
      const id = await created(h, { emails: [{ value: `${unique('w')}@example.com`, type: 'work' }, email] });
      await h.patch(`/Users/${id}`, [{ op: 'add', path: 'emails', value: [email] }]);
      return ((await h.get(`/Users/${id}`)).obj.emails as unknown[]).length;
    },
    expected: [2, 3],
  },
  'scim.patch-null-operation-500': {
    probe: async (h) =>
      (await h.call('PATCH', `/Users/${await created(h)}`, { body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [null] } }))
        .status,
    expected: [400, 500],
  },
  'scim.patch-value-filter-error-500': {
    probe: async (h) =>
      (await h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 'emails[lpcNoSuch eq "x"].value', value: 'x@example.com' }])).status,
    expected: [400, 500],
  },
  'scim.patch-add-clears-primary': {
    probe: async (h) => {
      const id = await created(h, { emails: [{ value: `${unique('p')}@example.com`, type: 'work', primary: true }] });
      await h.patch(`/Users/${id}`, [{ op: 'add', path: 'emails', value: [{ value: `${unique('h')}@example.com`, type: 'home' }] }]);
      return ((await h.get(`/Users/${id}`)).obj.emails as { primary?: boolean }[]).filter((e) => e.primary === true).length;
    },
    expected: [1, 0],
  },
  'scim.patch-filtered-add-appends': {
    probe: async (h) => {
      const id = await created(h, { emails: [{ value: `${unique('w')}@example.com`, type: 'work' }] });
      await h.patch(`/Users/${id}`, [{ op: 'add', path: 'emails[type eq "work"].value', value: `${unique('n')}@example.com` }]);
      return ((await h.get(`/Users/${id}`)).obj.emails as unknown[]).length;
    },
    expected: [1, 2],
  },
  'scim.patch-filtered-null-ignored': {
    probe: async (h) => {
      const id = await created(h, { emails: [{ value: `${unique('w')}@example.com`, type: 'work' }] });
      return (await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'emails[type eq "work"]', value: null }])).status;
    },
    expected: [400, 200],
  },
  'scim.patch-filtered-write-every-value': {
    probe: async (h) => {
      const id = await created(h, {
        emails: [
          { value: `${unique('w')}@example.com`, type: 'work' },
          { value: `${unique('h')}@example.com`, type: 'home' },
        ],
      });
      await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'emails[type eq "work"]', value: { value: 'new@example.com', type: 'work' } }]);
      const emails = (await h.get(`/Users/${id}`)).obj.emails as { type?: string }[];
      return emails.map((e) => e.type).join(',');
    },
    expected: ['work,home', 'work,work'],
  },
  'scim.patch-replace-appends-values': {
    probe: async (h) => {
      const id = await created(h, { emails: [{ value: `${unique('w')}@example.com`, type: 'work' }] });
      await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'emails', value: [{ value: `${unique('o')}@example.com`, type: 'other' }] }]);
      const emails = (await h.get(`/Users/${id}`)).obj.emails as { type?: string }[];
      return emails.map((e) => e.type).join(',');
    },
    expected: ['other', 'work,other'],
  },
  'scim.patch-not-atomic': {
    probe: async (h) => {
      const id = await created(h, { title: 'before' });
      await h.patch(`/Users/${id}`, [
        { op: 'replace', path: 'title', value: 'after' },
        { op: 'remove', path: 'userName' },
      ]);
      return (await h.get(`/Users/${id}`)).obj.title;
    },
    expected: ['before', 'after'],
  },
  'scim.patch-unknown-op-skipped': {
    probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'lpcCopy', path: 'title', value: 'x' }])),
    expected: [400, 200],
  },
  'scim.patch-op-case-sensitive': {
    probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'Replace', path: 'title', value: 'x' }])),
    expected: [200, 400],
  },
  'scim.patch-value-filter-ignored': {
    probe: async (h) => {
      const id = await created(h, {
        emails: [
          { value: 'w@x', type: 'work' },
          { value: 'h@x', type: 'home' },
        ],
      });
      const res = await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'n@x' }]);
      return (res.obj.emails as Record<string, unknown>[]).map((e) => e.value);
    },
    expected: [
      ['n@x', 'h@x'],
      ['n@x', 'n@x'],
    ],
  },
  'scim.patch-remove-without-path-ok': { probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'remove' }])), expected: [400, 200] },
  'scim.patch-unknown-path-ignored': {
    probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 'shoeSize', value: 1 }])),
    expected: [400, 200],
  },
  'scim.patch-mutability-unchecked': {
    probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 'id', value: 'x' }])),
    expected: [400, 200],
  },
  'scim.patch-add-replaces-values': {
    probe: async (h) => {
      const id = await created(h, { emails: [{ value: 'a@x' }] });
      return ((await h.patch(`/Users/${id}`, [{ op: 'add', path: 'emails', value: [{ value: 'b@x' }] }])).obj.emails as unknown[]).length;
    },
    expected: [2, 1],
  },
  'scim.patch-no-path-rejected': {
    probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'replace', value: { title: 'x' } }])),
    expected: [200, 400],
  },
  'scim.patch-schemas-unchecked': {
    probe: async (h) =>
      status(h.call('PATCH', `/Users/${await created(h)}`, { body: { schemas: [USER_URN], Operations: [{ op: 'replace', path: 'title', value: 'x' }] } })),
    expected: [400, 200],
  },
  'scim.patch-empty-operations-ok': { probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [])), expected: [400, 200] },
  'scim.patch-value-optional': { probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'add', path: 'title' }])), expected: [400, 200] },
  'scim.patch-malformed-path-ignored': {
    probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }])),
    expected: [400, 200],
  },
  'scim.patch-always-204': {
    probe: async (h) => status(h.patch(`/Users/${await created(h)}?attributes=userName`, [{ op: 'replace', path: 'title', value: 'x' }])),
    expected: [200, 204],
  },
  'scim.patch-empty-200': {
    probe: async (h) => (await h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 'title', value: 'x' }])).text.length > 0,
    expected: [true, false],
  },
  'scim.user-groups-omitted': {
    probe: async (h) => {
      const id = await created(h);
      await h.call('POST', '/Groups', { body: { schemas: [GROUP_URN], displayName: unique(), members: [{ value: id }] } });
      return Array.isArray((await h.get(`/Users/${id}`)).obj.groups);
    },
    expected: [true, false],
  },
  'scim.patch-no-op-touches-last-modified': {
    probe: async (h) => {
      const user = await h.createUser({ title: 'Same' });
      await new Promise((done) => setTimeout(done, 5));
      const after = await h.patch(`/Users/${String(user.id)}`, [{ op: 'add', path: 'title', value: 'Same' }]);
      return (after.obj.meta as { lastModified: string }).lastModified === (user.meta as { lastModified: string }).lastModified;
    },
    expected: [true, false],
  },
  'scim.patch-complex-replace-overwrites': {
    probe: async (h) =>
      (
        (
          await h.patch(`/Users/${await created(h, { name: { givenName: 'g', familyName: 'f' } })}`, [
            { op: 'replace', path: 'name', value: { givenName: 'h' } },
          ])
        ).obj.name as { familyName?: string }
      ).familyName,
    expected: ['f', undefined],
  },
  'scim.patch-primary-not-cleared': {
    probe: async (h) =>
      status(
        h.patch(`/Users/${await created(h, { emails: [{ value: 'a@x', type: 'work', primary: true }] })}`, [
          { op: 'add', path: 'emails', value: [{ value: 'b@x', type: 'home', primary: true }] },
        ]),
      ),
    expected: [200, 400],
  },
  // Discovery, ETag, Bulk and /Me
  'scim.spc-etag-block-missing': { probe: field('/ServiceProviderConfig', 'etag'), expected: [{ supported: true }, undefined], variant: 'full-featured' },
  'scim.resource-types-group-endpoint-wrong': { probe: field('/ResourceTypes/Group', 'endpoint'), expected: ['/Groups', '/Group'], variant: 'full-featured' },
  'scim.schemas-group-omitted': { probe: (h) => status(h.get(`/Schemas/${GROUP_URN}`)), expected: [200, 404] },
  'scim.schema-unknown-200': { probe: (h) => status(h.get('/Schemas/urn:ietf:params:scim:schemas:extension:lpc-no-such:2.0:x')), expected: [404, 200] },
  'scim.resource-type-unknown-200': { probe: (h) => status(h.get('/ResourceTypes/NoSuchType')), expected: [404, 200], variant: 'full-featured' },
  'scim.spc-sort-overstated': {
    // Declared, and the descending order is the creation order (sortBy ignored).
    probe: async (h) => [
      (await h.get('/ServiceProviderConfig')).obj.sort,
      JSON.stringify(await sortedUserNames({ sortBy: 'userName', sortOrder: 'descending' })(h)) === JSON.stringify(await sortedUserNames({})(h)),
    ],
    expected: [
      [{ supported: true }, false],
      [{ supported: true }, true],
    ],
    variant: 'full-featured',
  },
  'scim.spc-max-results-understated': {
    probe: field('/ServiceProviderConfig', 'filter'),
    expected: [
      { supported: true, maxResults: 1000 },
      { supported: true, maxResults: 2 },
    ],
    variant: 'full-featured',
  },
  'scim.filter-refused-though-declared': {
    probe: (h) => status(h.get(`/Users${q({ filter: 'userName eq "x"' })}`)),
    expected: [200, 400],
    variant: 'full-featured',
  },
  'scim.patch-unsupported-though-declared': {
    probe: async (h) => [
      (await h.get('/ServiceProviderConfig')).obj.patch,
      await status(h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 'displayName', value: 'd' }])),
    ],
    expected: [
      [{ supported: true }, 200],
      [{ supported: true }, 501],
    ],
    variant: 'full-featured',
  },
  'scim.password-change-refused': {
    probe: async (h) => status(h.patch(`/Users/${await created(h)}`, [{ op: 'replace', path: 'password', value: 'Lpc-changed-1!' }])),
    expected: [200, 400],
    variant: 'full-featured',
  },
  'scim.etag-header-missing': {
    probe: async (h) => (await h.get(`/Users/${await created(h)}`)).headers.etag !== undefined,
    expected: [true, false],
    variant: 'full-featured',
  },
  'scim.etag-meta-version-differs': {
    probe: async (h) => {
      const r = await h.get(`/Users/${await created(h)}`);
      return (r.obj.meta as { version?: string }).version === r.headers.etag;
    },
    expected: [true, false],
    variant: 'full-featured',
  },
  'scim.etag-frozen': {
    probe: async (h) => {
      const id = await created(h);
      const before = (await h.get(`/Users/${id}`)).headers.etag;
      return (await h.patch(`/Users/${id}`, [{ op: 'replace', path: 'displayName', value: 'changed' }])).headers.etag === before;
    },
    expected: [false, true],
    variant: 'full-featured',
  },
  'scim.etag-per-read': {
    probe: async (h) => {
      const id = await created(h);
      return (await h.get(`/Users/${id}`)).headers.etag === (await h.get(`/Users/${id}`)).headers.etag;
    },
    expected: [true, false],
    variant: 'full-featured',
  },
  'scim.etag-if-match-ignored': {
    probe: (h) => status(created(h).then((id) => h.call('DELETE', `/Users/${id}`, { headers: { 'if-match': 'W/"stale"' } }))),
    expected: [412, 204],
    variant: 'full-featured',
  },
  'scim.etag-if-match-always-fails': {
    probe: async (h) => {
      const id = await created(h);
      const tag = (await h.get(`/Users/${id}`)).headers.etag ?? '';
      return status(h.call('DELETE', `/Users/${id}`, { headers: { 'if-match': tag } }));
    },
    expected: [204, 412],
    variant: 'full-featured',
  },
  'scim.etag-if-none-match-ignored': {
    probe: async (h) => {
      const id = await created(h);
      const tag = (await h.get(`/Users/${id}`)).headers.etag ?? '';
      return status(h.get(`/Users/${id}`, { headers: { 'if-none-match': tag } }));
    },
    expected: [304, 200],
    variant: 'full-featured',
  },
  'scim.bulk-bulkids-unresolved': {
    probe: async (h) =>
      bulkStatuses(
        await h.call('POST', '/Bulk', {
          body: bulk([
            bulkUser('u1'),
            { method: 'POST', path: '/Groups', bulkId: 'g1', data: { schemas: [GROUP_URN], displayName: unique('g'), members: [{ value: 'bulkId:u1' }] } },
          ]),
        }),
      ),
    expected: [
      ['201', '201'],
      ['201', '400'],
    ],
    variant: 'full-featured',
  },
  'scim.bulk-fail-on-errors-ignored': {
    probe: async (h) =>
      bulkStatuses(
        await h.call('POST', '/Bulk', { body: bulk([{ method: 'POST', path: '/Users', bulkId: 'bad', data: { schemas: [USER_URN] } }, bulkUser('u2')], 1) }),
      ),
    expected: [['400'], ['400', '201']],
    variant: 'full-featured',
  },
  'scim.bulk-max-operations-ignored': {
    probe: async (h) =>
      (await h.call('POST', '/Bulk', { body: bulk(Array.from({ length: 11 }, (_, i) => ({ method: 'DELETE', path: `/Users/nope${i}` }))) })).status,
    expected: [413, 200],
    variant: 'full-featured',
  },
  'scim.bulk-max-payload-ignored': {
    probe: async (h) => (await h.call('POST', '/Bulk', { body: bulk([{ method: 'DELETE', path: `/Users/${'x'.repeat(70_000)}` }]) })).status,
    expected: [413, 200],
    variant: 'full-featured',
  },
  'scim.bulk-failures-only': {
    probe: async (h) => bulkStatuses(await h.call('POST', '/Bulk', { body: bulk([bulkUser('u3')]) })),
    expected: [['201'], []],
    variant: 'full-featured',
  },
  'scim.me-subject-unstable': {
    probe: async (h) => (await h.get('/Me')).obj.id === (await h.get('/Me')).obj.id,
    expected: [true, false],
    variant: 'full-featured',
  },
  // Groups and identity-provider requests.
  'scim.groups-filter-ignored': {
    probe: async (h) => (await h.get(`/Groups${q({ filter: `displayName eq "${await group(h)}x"`, count: 0 })}`)).obj.totalResults !== 0,
    expected: [false, true],
  },
  'scim.groups-display-name-case-sensitive': {
    probe: async (h) => (await h.get(`/Groups${q({ filter: `displayName eq "${(await group(h)).toUpperCase()}"`, count: 0 })}`)).obj.totalResults,
    expected: [1, 0],
  },
  'scim.groups-members-filter-refused': { probe: (h) => status(h.get(`/Groups${q({ filter: 'members.value eq "x"' })}`)), expected: [200, 400] },
  'scim.groups-sort-ignored': {
    probe: async (h) => {
      const prefix = unique('gs');
      for (const n of ['b', 'a']) await group(h, `${prefix}${n}`);
      return resourcesOf(await h.get(`/Groups${q({ filter: `displayName sw "${prefix}"`, sortBy: 'displayName' })}`)).map((r) =>
        String(r.displayName).slice(-1),
      );
    },
    expected: [
      ['a', 'b'],
      ['b', 'a'],
    ],
  },
  'scim.groups-paging-ignored': {
    probe: async (h) => {
      const prefix = unique('gp');
      for (const n of ['a', 'b']) await group(h, `${prefix}${n}`);
      return resourcesOf(await h.get(`/Groups${q({ filter: `displayName sw "${prefix}"`, startIndex: 2, count: 1 })}`)).length;
    },
    expected: [1, 2],
  },
  'scim.groups-projection-ignored': {
    probe: async (h) => Array.isArray((await h.get(`/Groups/${await memberGroup(h, [await created(h)])}?excludedAttributes=members`)).obj.members),
    expected: [false, true],
  },
  'scim.groups-add-members-replaces': { probe: (h) => membersAfter(h, 'add', [{ value: 'second' }]), expected: [2, 1] },
  'scim.groups-add-members-first-only': { probe: (h) => membersAfter(h, 'add', [{ value: 'second' }, { value: 'third' }]), expected: [3, 2] },
  'scim.groups-remove-member-filter-ignored': {
    probe: (h) => membersAfter(h, 'remove', undefined, 'members[value eq "FIRST"]', ['FIRST', 'second']),
    expected: [1, 0],
  },
  'scim.groups-replace-members-appends': { probe: (h) => membersAfter(h, 'replace', [{ value: 'second' }]), expected: [1, 2] },
  'scim.client-string-booleans-rejected': {
    probe: async (h) => (await h.patch(`/Users/${await created(h, email())}`, [{ op: 'replace', path: 'active', value: 'False' }])).status,
    expected: [204, 400],
    variant: 'idp-minimal',
  },
  'scim.client-dotted-names-rejected': {
    probe: async (h) => (await h.patch(`/Users/${await created(h)}`, [{ op: 'replace', value: { 'name.givenName': 'D' } }])).status,
    expected: [200, 400],
  },
  'scim.client-remove-members-value-ignored': {
    probe: (h) => membersAfter(h, 'remove', [{ value: 'FIRST' }], 'members', ['FIRST', 'second']),
    expected: [1, 0],
  },
  'scim.client-add-unmatched-no-target': {
    probe: async (h) =>
      (await h.patch(`/Users/${await created(h, email())}`, [{ op: 'add', path: 'emails[type eq "work"].value', value: `${unique()}@x.example` }])).status,
    expected: [204, 400],
    variant: 'idp-minimal',
  },
  'scim.client-put-members-merged': {
    probe: async (h) => {
      const [a, b] = [await created(h), await created(h)];
      const id = await memberGroup(h, [a]);
      const res = await h.call('PUT', `/Groups/${id}`, { body: { schemas: [GROUP_URN], displayName: unique('g'), members: [{ value: b }] } });
      return (res.obj.members as unknown[]).length;
    },
    expected: [1, 2],
  },
  'scim.client-external-id-filter-refused': { probe: (h) => status(h.get(`/Users${q({ filter: 'externalId eq "x"' })}`)), expected: [200, 400] },
  'scim.client-own-id-refused': {
    probe: async (h) => {
      const id = await memberGroup(h, []);
      return (await h.patch(`/Groups/${id}`, [{ op: 'replace', value: { id, displayName: unique('renamed') } }])).status;
    },
    expected: [204, 400],
    variant: 'idp-minimal',
  },
  'scim.client-inactive-hidden': {
    probe: async (h) => status(h.get(`/Users/${await created(h, { active: false })}`)),
    expected: [200, 404],
  },
};

let reference: ScimHarness;
beforeAll(async () => {
  reference = await startScim();
});
afterAll(() => reference.close());

describe('SCIM faults', () => {
  test('every SCIM fault has a spot check, and none is in listIntapiFaults() yet', () => {
    expect(Object.keys(SPOTS).sort()).toEqual(Object.keys(SCIM_FAULTS).sort());
    expect(listIntapiFaults().filter((f) => f.startsWith('scim.'))).toEqual([]);
    expect(Object.keys(SCIM_FAULTS).every((f) => f.startsWith('scim.'))).toBe(true);
  });
  test('an unknown scim. fault throws', () => {
    expect(() => createReferenceServer({ faults: ['scim.nope'] })).toThrow(/Unknown SCIM fault/);
  });
  test.each(Object.entries(SPOTS))('%s flips its rule', async (name, spot) => {
    const variant = spot.variant === undefined ? undefined : await startScim({ families: { scim: { variant: spot.variant } } });
    try {
      expect(await spot.probe(variant ?? reference)).toEqual(spot.expected[0]);
    } finally {
      await variant?.close();
    }
    const faulty = await startScim({ faults: [name], ...(spot.variant === undefined ? {} : { families: { scim: { variant: spot.variant } } }) });
    try {
      expect(await spot.probe(faulty)).toEqual(spot.expected[1]);
    } finally {
      await faulty.close();
    }
  });
});
