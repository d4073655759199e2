// The URL budget (profile limits.maxUrlBytes, suites/_harness/url-budget.ts): the generators that
// draw query values from a target's data keep their expressions within what is left of it, values
// that cannot fit are not drawn from, and the client sends no request target over the budget: a
// generated value over it is a harness error, a path parameter (a target's id) a failure of the check.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../reference-impl/index.js';
import { loadProfile, parseProfile, withTarget, type Profile } from '../../src/profile/index.js';
import { createSecrets } from '../../src/target/secrets.js';
import { CheckFailure } from '../../suites/_harness/failure.js';
import { Client, exchangeOf, Recorder } from '../../suites/_harness/http.js';
import { boundaryExpression, filterExpression } from '../../suites/_harness/intapi/arbitraries.js';
import { render, type DataRecord, type FieldTypes } from '../../suites/_harness/intapi/filter.js';
import { print, SCIM_USER, scimFilterOver, type ScimResource } from '../../suites/_harness/scim/filter.js';
import { encodedLength, queryAtBudget, queryRoom } from '../../suites/_harness/url-budget.js';

const inQuery = (value: string): number => new URLSearchParams({ q: value }).toString().length - 2;

describe('encodedLength', () => {
  test('is the length URLSearchParams gives any text, astral characters, quotes and spaces included', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff - 0x800 }).map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800)), maxLength: 40 }),
        (text) => {
          expect(encodedLength(text)).toBe(inQuery(text));
        },
      ),
      { numRuns: 500 },
    );
    expect(encodedLength("a b'*-._~")).toBe(inQuery("a b'*-._~"));
  });
});

/** Values as earlier runs leave them: 10,000 astral characters, 255 of them, and short ones. */
const ASTRAL = String.fromCodePoint(0x10fffb);
const FIELDS: FieldTypes = { title: 'string', description: 'string', vendor: 'string', cost: 'number', id: 'guid', completionDate: 'datetime' };
const sample: DataRecord[] = Array.from({ length: 40 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  title: i % 4 === 0 ? ASTRAL.repeat(255) : `title ${i} O'Brien`,
  description: i % 2 === 0 ? ASTRAL.repeat(10_000) : 'x'.repeat(i * 50),
  vendor: i % 3 === 0 ? null : `vendor ${i}`,
  cost: i * 1.5,
  completionDate: new Date(Date.UTC(2020, 0, 1 + i)).toISOString(),
}));

describe('filter expressions within a budget', () => {
  test.each([7700, 3000, 1000])('every _filter drawn from long values encodes within %i bytes, and short values are still drawn', (budget) => {
    let drawnFromSample = 0;
    for (const arb of [filterExpression(FIELDS, sample, budget), boundaryExpression(FIELDS, sample, budget)]) {
      fc.assert(
        fc.property(arb, (ast) => {
          const text = render(ast);
          expect(inQuery(text)).toBeLessThanOrEqual(budget);
          if (/title \d+|vendor \d+/.test(text)) drawnFromSample++;
        }),
        { numRuns: 300, seed: budget },
      );
    }
    expect(drawnFromSample).toBeGreaterThan(50);
  });

  test('without a budget the long values are drawn from (what a run against such a server used to send)', () => {
    const lengths = fc.sample(filterExpression(FIELDS, sample), { numRuns: 300, seed: 1 }).map((ast) => inQuery(render(ast)));
    expect(Math.max(...lengths)).toBeGreaterThan(8000);
  });

  test('SCIM filters drawn from long values encode within the budget', () => {
    const users: ScimResource[] = Array.from({ length: 12 }, (_, i) => ({
      schemas: [SCIM_USER.schema],
      id: `u${i}`,
      userName: i % 3 === 0 ? ASTRAL.repeat(3000) : `lpc-user-${i}`,
      displayName: i % 2 === 0 ? 'é'.repeat(5000) : `User ${i}`,
      title: `t${i % 4}`,
      emails: [{ value: i % 4 === 0 ? `${'m'.repeat(6000)}@example.com` : `u${i}@example.com`, type: i % 2 === 0 ? 'work' : 'home' }],
    }));
    fc.assert(
      fc.property(scimFilterOver(users, SCIM_USER, undefined, 7000), (filter) => {
        expect(inQuery(print(filter))).toBeLessThanOrEqual(7000);
      }),
      { numRuns: 100, seed: 3 },
    );
  });
});

describe('the client sends no request target over the budget', () => {
  const credentials = { apiKey: 'key-url-51c2', username: 'user-url', password: 'pass-url-9e0d', privateKey: 'priv-url-44ab' };
  const env = {
    LPC_API_KEY: credentials.apiKey,
    LPC_USERNAME: credentials.username,
    LPC_PASSWORD: credentials.password,
    LPC_PRIVATE_KEY: credentials.privateKey,
  };
  let server: ReferenceServer;
  let profile: Profile;
  let seen = 0;
  beforeAll(async () => {
    server = createReferenceServer({ families: { intapi: { credentials } } });
    server.fastify.addHook('onRequest', async () => void seen++);
    const small = parseProfile('name: small\nlimits: { maxUrlBytes: 1024 }\n', 'small.yaml');
    profile = withTarget(small, await server.listen({ port: 0, host: '127.0.0.1' }));
  });
  afterAll(() => server.close());
  const client = () => new Client(profile, createSecrets(profile, 10_000, env), new Recorder('intapi.test.url'), { timeoutMs: 10_000 });

  test('a request exactly at the budget is sent (and answered)', async () => {
    const query = queryAtBudget(profile, 'templates.list', undefined, (pad) => ({ _filter: `name eq '${pad}'` }));
    const res = await client().send({ op: 'templates.list', query });
    expect(res.status).toBe(200);
    expect(new URL(res.exchange.url).search.length + new URL(res.exchange.url).pathname.length).toBe(1024);
    expect(queryRoom(profile, 'templates.list')).toBe(1024 - '/templates'.length - 320);
  });

  test('a generated query value over it: a harness error naming the parameter, and nothing sent', async () => {
    const before = seen;
    const error = await client()
      .send({ op: 'templates.list', query: { _filter: `name eq '${'é'.repeat(200)}'` } })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^harness: check intapi\.test\.url: GET \/templates would be a request target of 1\d{3} bytes, over limits\.maxUrlBytes \(1024\); its largest part, the query parameter _filter \(\d+ bytes\), was drawn by a generator/,
    );
    // Not the target's: no exchange, no error code (the runner's cause 'harness').
    expect(exchangeOf(error)).toBeUndefined();
    expect((error as { code?: unknown }).code).toBeUndefined();
    expect(seen).toBe(before);
  });

  test('a path parameter over it (an id the target gave): a failure of the check, and nothing sent', async () => {
    const before = seen;
    const error = await client()
      .send({ op: 'submissions.get', params: { id: 'x'.repeat(2000) } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckFailure);
    expect((error as CheckFailure).received).toMatch(/the path parameter id is 2000 bytes/);
    expect(seen).toBe(before);
  });

  test('the reference profile allows 8000 bytes', () => {
    expect(loadProfile().limits.maxUrlBytes).toBe(8000);
  });
});
