/**
 * The SCIM contracts (contracts/scim.*.yaml). The RFC's own examples and the classic bugs, valid
 * and invalid, are the fixtures in fixtures/contracts/scim-*.json (run by contracts.test.ts); here:
 * what a failure of the classic bugs reports, and the bundled reference server's answers, over
 * real HTTP, against the contracts (and, with its faults on, the bugs the contracts catch).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../../reference-impl/index.js';
import { schemaOf, validate, type ContractError, type ContractName } from '../../../suites/_harness/contracts.js';
import { ENTERPRISE_URN, ERROR_URN, GROUP_URN, PATCH_URN, q, type ScimHarness, startScim, unique, USER_URN } from '../../reference-impl/scim/_scim.js';

const LIST_URN = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** A valid value has no violations; the message shows them when it has some. */
function expectValid(name: ContractName, value: unknown): void {
  const errors = validate(name, value);
  expect(errors, `${name}: ${JSON.stringify(errors, null, 1)}\n${JSON.stringify(value).slice(0, 600)}`).toEqual([]);
}

describe('the classic bugs, as a failure reports them', () => {
  const user = { schemas: [USER_URN], id: '2819c223-7f76-453a-919d-413861904646', userName: 'bjensen' };

  test('an error status as a number', () => {
    expect(validate('scim/error', { schemas: [ERROR_URN], status: 404, detail: 'Resource not found' })).toEqual<ContractError[]>([
      {
        instancePath: '/status',
        schemaPath: 'lp:scim/error#/properties/status/type',
        keyword: 'type',
        message: 'must be string',
        spec: 'rfc7644#section-3.12',
      },
    ]);
  });

  test('a password in a response', () => {
    expect(validate('scim/user', { ...user, password: 't1meMa$heen' })).toEqual<ContractError[]>([
      {
        instancePath: '/password',
        schemaPath: 'lp:scim/user#/properties/password/not',
        keyword: 'not',
        message: 'must be absent',
        spec: 'rfc7643#section-4.1.1',
      },
    ]);
  });

  test('a ListResponse without schemas', () => {
    expect(validate('scim/listResponse', { totalResults: 1, Resources: [user] })).toEqual<ContractError[]>([
      {
        instancePath: '',
        schemaPath: 'lp:scim/listResponse#/required',
        keyword: 'required',
        message: "must have required property 'schemas'",
        spec: 'rfc7644#section-3.4.2',
      },
    ]);
  });

  test('a ListResponse with results but no Resources: the then-branch speaks, not the if', () => {
    expect(validate('scim/listResponse', { schemas: [LIST_URN], totalResults: 1, resources: [user] })).toEqual<ContractError[]>([
      {
        instancePath: '',
        schemaPath: 'lp:scim/listResponse#/then/required',
        keyword: 'required',
        message: "must have required property 'Resources'",
        spec: 'rfc7644#section-3.4.2',
      },
    ]);
  });

  test('schemas without the resource URN: one error naming the URN, not one per item', () => {
    expect(validate('scim/user', { ...user, schemas: [GROUP_URN, ENTERPRISE_URN] })).toEqual<ContractError[]>([
      {
        instancePath: '/schemas',
        schemaPath: 'lp:scim/user#/properties/schemas/contains',
        keyword: 'contains',
        message: `must contain "${USER_URN}"`,
        spec: 'rfc7643#section-3',
      },
    ]);
  });

  test('an error inside scim/meta names that contract', () => {
    expect(validate('scim/user', { ...user, meta: { created: '2010-01-23' } })).toContainEqual(
      expect.objectContaining({ instancePath: '/meta/created', schemaPath: 'lp:scim/meta#/properties/created/pattern', spec: 'rfc7643#section-2.3.5' }),
    );
  });

  test("schemaOf inlines scim/meta and keeps SCIM's $ref properties", () => {
    const schema = schemaOf('scim/user');
    expect(schema.properties?.meta?.properties?.created?.['x-spec']).toBe('rfc7643#section-2.3.5');
    expect(schema.properties?.groups?.items?.properties?.$ref?.format).toBe('uri-reference');
  });
});

describe("the bundled reference server's answers are valid", () => {
  let h: ScimHarness;
  beforeAll(async () => {
    h = await startScim({ families: { scim: { token: 't' } } });
  });
  afterAll(() => h.close());

  const body = (res: { status: number; obj: unknown }, status: number): unknown => {
    expect(res.status).toBe(status);
    return res.obj;
  };

  test('the token exchange (POST /token with the sandbox username and password)', async () => {
    const res = await h.call('POST', '/token', { noToken: true, body: { username: SANDBOX_CREDENTIALS.username, password: SANDBOX_CREDENTIALS.password } });
    expectValid('scim/token', body(res, 200));
  });

  test('a created user, with multi-valued attributes, the enterprise extension and a password, and its GET', async () => {
    const created = body(
      await h.call('POST', '/Users', {
        token: 't',
        body: {
          schemas: [USER_URN, ENTERPRISE_URN],
          userName: unique('contract'),
          name: { givenName: 'Barbara', familyName: 'Jensen' },
          emails: [{ value: 'b@example.com', type: 'work', primary: true }, { value: 'b@example.org' }],
          phoneNumbers: [{ value: '555-555-5555', type: 'work' }],
          addresses: [{ locality: 'Hollywood', type: 'work', primary: true }],
          active: true,
          password: 't1meMa$heen',
          [ENTERPRISE_URN]: { employeeNumber: '701984', manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' } },
        },
      }),
      201,
    ) as { id: string };
    expectValid('scim/user', created);
    expectValid('scim/user', body(await h.get(`/Users/${created.id}`, { token: 't' }), 200));
  });

  test('a group with members, and a member user with its groups', async () => {
    const member = await h.createUser();
    const group = body(
      await h.call('POST', '/Groups', { token: 't', body: { schemas: [GROUP_URN], displayName: unique('group'), members: [{ value: member.id }] } }),
      201,
    );
    expectValid('scim/group', group);
    const read = body(await h.get(`/Users/${String(member.id)}`), 200) as { groups?: unknown[] };
    expect(read.groups).toHaveLength(1);
    expectValid('scim/user', read);
  });

  test('a PATCH request the contract accepts, and the answer', async () => {
    const user = await h.createUser();
    const patch = {
      schemas: [PATCH_URN],
      Operations: [
        { op: 'Replace', path: 'active', value: false },
        { op: 'add', path: 'nickName', value: 'Babs' },
      ],
    };
    expectValid('scim/patchOp', patch);
    expectValid('scim/user', body(await h.call('PATCH', `/Users/${String(user.id)}`, { body: patch }), 200));
  });

  test('a page of users, every one valid; and a query that finds nothing', async () => {
    const page = body(await h.get(`/Users${q({ startIndex: 1, count: 3 })}`), 200) as { Resources: unknown[] };
    expectValid('scim/listResponse', page);
    expect(page.Resources).toHaveLength(3);
    for (const user of page.Resources) expectValid('scim/user', user);
    expectValid('scim/listResponse', body(await h.get(`/Users${q({ filter: 'userName eq "no-such-user"' })}`), 200));
    expectValid('scim/listResponse', body(await h.get('/Groups'), 200));
  });

  test.each([
    ['an unknown user', 'GET', '/Users/00000000-0000-4000-8000-00000000dead', undefined, 404],
    ['a malformed filter', 'GET', `/Users${q({ filter: 'userName eq' })}`, undefined, 400],
    ['no token', 'GET', '/Users', undefined, 401],
  ])('an error: %s', async (_, method, path, payload, status) => {
    const res = await h.call(method, path, { ...(payload === undefined ? {} : { body: payload }), ...(status === 401 ? { noToken: true } : {}) });
    const error = body(res, status) as { status: unknown };
    expectValid('scim/error', error);
    expect(error.status).toBe(String(status));
  });

  test('an error with a scimType: a duplicate userName', async () => {
    const { userName } = await h.createUser();
    const res = await h.call('POST', '/Users', { body: { schemas: [USER_URN], userName, name: { givenName: 'x' } } });
    expectValid('scim/error', body(res, 409));
    expect(res.obj.scimType).toBe('uniqueness');
  });

  test('GET /Schemas and one Schema resource', async () => {
    expectValid('scim/schemas', body(await h.get('/Schemas'), 200));
    expectValid('scim/schema', body(await h.get(`/Schemas/${USER_URN}`), 200));
  });
});

describe('the contracts catch the reference server with its faults on', () => {
  let h: ScimHarness;
  beforeAll(async () => {
    h = await startScim({ faults: ['scim.error-status-integer', 'scim.error-schemas-missing', 'scim.password-returned'] });
  });
  afterAll(() => h.close());

  test('an error with a numeric status and no schemas', async () => {
    const errors = validate('scim/error', (await h.get('/Users/00000000-0000-4000-8000-00000000dead')).obj);
    expect(errors.map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual([' required', '/status type']);
  });

  test('a user with its password', async () => {
    const created = await h.createUser({ password: 'secret-1' });
    expect(validate('scim/user', created).map((e) => `${e.instancePath} ${e.message}`)).toEqual(['/password must be absent']);
  });
});
