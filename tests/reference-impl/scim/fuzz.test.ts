// Malformed input is always a 4xx SCIM error and never a 5xx: random filters, query parameters,
// bodies and PATCH operations (fast-check).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scimSeedUserId } from '../../../reference-impl/index.js';
import type { Answer } from '../intapi/_support.js';
import { ENTERPRISE_URN, ERROR_URN, GROUP_URN, PATCH_URN, q, type ScimHarness, SCIM_TYPE, startScim, USER_URN } from './_scim.js';

let h: ScimHarness;
beforeAll(async () => {
  h = await startScim();
});
afterAll(() => h.close());

const RUNS = { numRuns: 150, seed: 7 };

/** A 2xx answer, or a SCIM error whose body status is the HTTP status as a string. */
function wellFormed(res: Answer): boolean {
  if (res.status >= 500) return false;
  if (res.status === 204) return res.text === '';
  if (!res.contentType.startsWith(SCIM_TYPE)) return false;
  if (res.status < 300) return true;
  const body = res.obj;
  return (
    res.status >= 400 && Array.isArray(body.schemas) && body.schemas[0] === ERROR_URN && body.status === String(res.status) && typeof body.detail === 'string'
  );
}

const WORDS = [
  'userName',
  'USERNAME',
  'emails',
  'emails.value',
  'emails.type',
  'name',
  'name.givenName',
  'active',
  'meta.created',
  'meta.lastModified',
  'title',
  'id',
  'externalId',
  'members',
  'members.value',
  'groups.value',
  `${ENTERPRISE_URN}:department`,
  `${ENTERPRISE_URN}:manager.value`,
  'urn:x:y',
  'nope',
  'eq',
  'ne',
  'co',
  'sw',
  'ew',
  'gt',
  'ge',
  'lt',
  'le',
  'pr',
  'EQ',
  'regex',
  'and',
  'or',
  'not',
  'AND',
  '(',
  ')',
  '[',
  ']',
  '.',
  '"x"',
  '"A@B"',
  '"2020-01-01T00:00:00Z"',
  'true',
  'false',
  'null',
  '1',
  '-1.5e3',
  '"',
  '\\',
  '"\\u00e9"',
  '',
];
const tokens = fc.array(fc.constantFrom(...WORDS), { maxLength: 9 }).map((ws) => ws.join(' '));
const filterText = fc.oneof(
  tokens,
  tokens.map((t) => t.replace(/ /g, '')),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

const PATHS = [
  'title',
  'emails',
  'emails[type eq "work"]',
  'emails[type eq "work"].value',
  'emails[value co "x"].primary',
  'name',
  'name.givenName',
  'id',
  'meta',
  'userName',
  'members',
  'members[value eq "x"]',
  'active',
  `${ENTERPRISE_URN}:department`,
  'emails[',
  'emails]',
  'x[y eq 1]',
  '',
  '.',
];
const pathArb = fc.oneof(fc.constantFrom(...PATHS), filterText);
const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ value: 'a@x', type: 'work', primary: true }), fc.constant([{ value: scimSeedUserId(1) }]));
const operation = fc.record(
  {
    op: fc.oneof(fc.constantFrom('add', 'replace', 'remove', 'Add', 'REPLACE', 'Remove', 'move'), fc.jsonValue({ maxDepth: 0 })),
    path: fc.option(pathArb, { nil: undefined }),
    value: fc.option(value, { nil: undefined }),
  },
  { requiredKeys: ['op'] },
);
const patchBody = fc.oneof(
  fc.record({ schemas: fc.constant([PATCH_URN]), Operations: fc.array(operation, { maxLength: 4 }) }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ schemas: fc.jsonValue({ maxDepth: 1 }), Operations: fc.jsonValue({ maxDepth: 2 }) }),
);
const ATTRS = ['userName', 'name', 'emails', 'active', 'title', 'password', 'id', 'externalId', 'members', 'displayName', 'schemas', 'meta', ENTERPRISE_URN];
const userBody = fc.oneof(
  fc.record(
    {
      schemas: fc.oneof(fc.constant([USER_URN]), fc.constant([USER_URN, ENTERPRISE_URN]), fc.jsonValue({ maxDepth: 1 })),
      userName: fc.oneof(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 })),
      name: fc.oneof(fc.constant({ givenName: 'g' }), fc.jsonValue({ maxDepth: 2 })),
      emails: fc.jsonValue({ maxDepth: 2 }),
      active: fc.jsonValue({ maxDepth: 0 }),
      [ENTERPRISE_URN]: fc.jsonValue({ maxDepth: 2 }),
      members: fc.jsonValue({ maxDepth: 2 }),
      displayName: fc.jsonValue({ maxDepth: 0 }),
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(fc.constantFrom(...ATTRS, 'x', 'UserName'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('never a 5xx, always a SCIM error', () => {
  test('random filters', async () => {
    await fc.assert(
      fc.asyncProperty(filterText, fc.constantFrom('/Users', '/Groups'), async (filter, path) => {
        expect(wellFormed(await h.get(`${path}${q({ filter, count: 2 })}`))).toBe(true);
      }),
      RUNS,
    );
  });
  test('random query parameters', async () => {
    const param = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer().map(String),
      fc.constantFrom('userName', 'emails', 'emails.type', 'name', 'descending', '1e3', '99999999999999999999'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({ startIndex: param, count: param, sortBy: param, sortOrder: param, attributes: param, excludedAttributes: param }, { requiredKeys: [] }),
        async (params) => {
          expect(wellFormed(await h.get(`/Users${q(params as Record<string, string>)}`))).toBe(true);
        },
      ),
      RUNS,
    );
  });
  test('random bodies for POST and PUT', async () => {
    const target = String((await h.createUser()).id);
    await fc.assert(
      fc.asyncProperty(userBody, fc.constantFrom('POST /Users', 'PUT /Users', 'POST /Groups', 'PUT /Groups'), async (body, route) => {
        const [method = 'POST', path = '/Users'] = route.split(' ');
        const url = method === 'PUT' ? (path === '/Users' ? `/Users/${target}` : '/Groups/5c200000-0000-4000-8000-000000000001') : path;
        const sent = path === '/Groups' && typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, schemas: [GROUP_URN] } : body;
        expect(wellFormed(await h.call(method, url, { body: sent }))).toBe(true);
      }),
      RUNS,
    );
  });
  test('random PATCH requests; a refused one changes nothing', async () => {
    const target = String((await h.createUser({ emails: [{ value: 'w@x', type: 'work' }] })).id);
    await fc.assert(
      fc.asyncProperty(patchBody, fc.boolean(), async (body, group) => {
        const url = group ? '/Groups/5c200000-0000-4000-8000-000000000002' : `/Users/${target}`;
        const before = (await h.get(url)).text;
        const res = await h.call('PATCH', url, { body });
        expect(wellFormed(res)).toBe(true);
        if (res.status >= 400) expect((await h.get(url)).text).toBe(before);
      }),
      RUNS,
    );
  });
  test('raw bodies that are not JSON, and odd content types', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(SCIM_TYPE, 'application/json', 'text/plain', 'application/scim+json; charset=utf-8'),
        async (text, type) => {
          expect(wellFormed(await h.call('POST', '/Users', { body: text.length === 0 ? ' ' : text, type }))).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

describe('deep input stays a 4xx', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  test.each([
    ['nested parentheses', `${'('.repeat(3000)}userName pr${')'.repeat(3000)}`],
    ['nested not', `${'not ('.repeat(2000)}userName pr${')'.repeat(2000)}`],
    ['a long and-chain', Array(400).fill('id pr').join(' and ')],
  ])('filter: %s is 400 invalidFilter', async (_, filter) => {
    const res = await h.get(`/Users${q({ filter, count: 1 })}`);
    expect(res.status).toBe(400);
    expect(res.obj.scimType).toBe('invalidFilter');
  });
  test.each([
    [
      'a deep value in the legacy members remove',
      '/Groups/5c200000-0000-4000-8000-000000000003',
      `{"schemas":["${PATCH_URN}"],"Operations":[{"op":"remove","path":"members","value":[{"value":${deep(100000)}}]}]}`,
    ],
    [
      'a deep value in an add',
      `/Users/${scimSeedUserId(3)}`,
      `{"schemas":["${PATCH_URN}"],"Operations":[{"op":"add","path":"emails","value":${deep(100000)}}]}`,
    ],
    [
      'a deep value filter in a path',
      `/Users/${scimSeedUserId(3)}`,
      JSON.stringify({ schemas: [PATCH_URN], Operations: [{ op: 'remove', path: `emails[${'('.repeat(5000)}type pr${')'.repeat(5000)}]` }] }),
    ],
  ])('PATCH: %s is a 400', async (_, path, body) => {
    const res = await h.call('PATCH', path, { body });
    expect(res.status).toBe(400);
    expect(wellFormed(res)).toBe(true);
  });
});
