// The reference server at scale: generated seed records, and lists through the indexes (indexed.ts)
// against the plain evaluation (full scan, then stable sort) over the same table, including after
// writes the indexes must follow. No timing here: speed is measured by bench/scale.js.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { intapiBehaviourWithFaults } from '../../../reference-impl/intapi/faults.js';
import { createSeededStore, MAX_SCALE, type Store } from '../../../reference-impl/index.js';
import { RESOURCE_FIELDS } from '../../../reference-impl/intapi/resources/fields.js';
import { SUBMISSION_SCHEMA } from '../../../reference-impl/intapi/submissions/fields.js';
import { TEMPLATE_SCHEMA } from '../../../reference-impl/intapi/templates/operations.js';
import { INDEXED_TUNING } from '../../../reference-impl/intapi/lists/indexed.js';
import { runList } from '../../../reference-impl/intapi/lists/run.js';
import type { JsonValue } from '../../../reference-impl/rules/json.js';
import type { FieldSchema } from '../../../reference-impl/rules/fields.js';
import type { Table } from '../../../reference-impl/store/table.js';
import { runCli } from '../../support/cli.js';
import { type Harness, idsOf, itemsOf, startServer } from './_support.js';

function fingerprint(store: Store): string {
  const dump = {
    users: store.users.values(),
    courses: store.courses.values(),
    resources: store.resources.values(),
    templates: store.templates.values(),
    submissions: store.submissions.values(),
    banks: store.questionBanks.values().map((bank) => ({ ...bank, questions: store.questionsOf(bank.id)?.values() ?? [] })),
  };
  return createHash('sha256').update(JSON.stringify(dump)).digest('hex');
}

// The users' managers and 28 staff were added, and the deleted course 9 ("Retired Course"), after
// every other record: the seeded ids are unchanged. The rule-based enrollment added the users' job
// titles (by number, drawing nothing): every other value is unchanged.
const DEFAULT_SEED = 'f2a003940de806c1f89550ebc8c6f106f6aaf163a1a1f37806a1867583deb366';

describe('seed data', () => {
  test('the default seed is exactly the one the suite was written against', () => {
    expect(fingerprint(createSeededStore())).toBe(DEFAULT_SEED);
    expect(fingerprint(createSeededStore({ scale: 0 }))).toBe(DEFAULT_SEED);
    // Below the default sizes nothing is added.
    expect(fingerprint(createSeededStore({ scale: 5 }))).toBe(DEFAULT_SEED);
  });

  test('scale N: the default seed first, then generated records up to N users, resources and submissions', () => {
    const base = createSeededStore();
    const store = createSeededStore({ scale: 2000 });
    expect([store.users.size, store.resources.size, store.submissions.size]).toEqual([2000, 2000, 2000]);
    expect([store.courses.size, store.templates.size, store.questionBanks.size]).toEqual([base.courses.size, base.templates.size, base.questionBanks.size]);
    expect(store.users.values().slice(0, base.users.size)).toEqual(base.users.values());
    expect(store.resources.values().slice(0, base.resources.size)).toEqual(base.resources.values());
    expect(store.submissions.values().slice(0, base.submissions.size)).toEqual(base.submissions.values());
    expect(fingerprint(createSeededStore({ scale: 2000 }))).toBe(fingerprint(store));
  });

  test('generated records are valid and varied', () => {
    const store = createSeededStore({ scale: 2000 });
    const submissions = store.submissions.values();
    for (const s of submissions) {
      expect(store.users.has(String(s.userId))).toBe(true);
      expect(store.templates.has(String(s.templateId))).toBe(true);
      expect(typeof s.title === 'string' && s.title.length >= 1 && s.title.length <= 255).toBe(true);
      expect(new Date(String(s.completionDate)).toISOString()).toBe(s.completionDate);
      if (s.score !== null) expect(s.score).toBeGreaterThanOrEqual(0);
      if (s.score !== null) expect(s.score).toBeLessThanOrEqual(100);
    }
    for (const r of store.resources.values()) expect(store.courses.has(r.courseId)).toBe(true);
    const distinct = (values: readonly JsonValue[]) => new Set(values).size;
    expect(distinct(submissions.map((s) => s.vendor))).toBeGreaterThan(5);
    expect(submissions.some((s) => s.vendor === null) && submissions.some((s) => s.score === null)).toBe(true);
    expect(distinct(submissions.map((s) => s.completionDate))).toBeGreaterThan(1900);
    expect(distinct(store.resources.values().map((r) => r.name))).toBeGreaterThan(500);
    expect(store.resources.values().some((r) => /[^\u0000-\u007f]/.test(r.name))).toBe(true);
    expect(store.users.values().some((u) => /[^\u0000-\u007f]/.test(u.firstName))).toBe(true);
    expect(() => createSeededStore({ scale: MAX_SCALE + 1 })).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Generated `_filter` and `_sort` over a table's fields, with literals drawn from its values.

type FieldType = 'string' | 'guid' | 'datetime' | 'number' | 'boolean';
interface Field {
  readonly name: string;
  readonly type: FieldType;
}

const SUBMISSION_FIELD_LIST: readonly Field[] = [
  { name: 'id', type: 'guid' },
  { name: 'userId', type: 'guid' },
  { name: 'templateId', type: 'guid' },
  { name: 'title', type: 'string' },
  { name: 'completionDate', type: 'datetime' },
  { name: 'status', type: 'number' },
  { name: 'cost', type: 'string' },
  { name: 'credits', type: 'number' },
  { name: 'description', type: 'string' },
  { name: 'expiryDate', type: 'datetime' },
  { name: 'startDate', type: 'datetime' },
  { name: 'score', type: 'number' },
  { name: 'grade', type: 'string' },
  { name: 'totalTimeSpent', type: 'number' },
  { name: 'vendor', type: 'string' },
  { name: 'vendorAddress', type: 'string' },
];
const RESOURCE_FIELD_LIST: readonly Field[] = [
  { name: 'id', type: 'guid' },
  { name: 'name', type: 'string' },
  { name: 'description', type: 'string' },
  { name: 'file', type: 'string' },
];
const TEMPLATE_FIELD_LIST: readonly Field[] = [
  { name: 'id', type: 'guid' },
  { name: 'name', type: 'string' },
  { name: 'isActive', type: 'boolean' },
];

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** Field names match case-insensitively: sometimes send them in another case. */
const spelled = (name: string) => fc.constantFrom(name, name.toLowerCase(), name.toUpperCase());

function literalArb(field: Field, values: () => readonly JsonValue[]): fc.Arbitrary<string> {
  const existing = fc.nat().map((i) => {
    const all = values();
    return all.length === 0 ? null : (all[i % all.length] ?? null);
  });
  switch (field.type) {
    case 'string':
      return fc.oneof(
        existing.map((v) => (typeof v === 'string' ? quote(v) : 'null')),
        existing.chain((v) => (typeof v === 'string' ? fc.nat(v.length).map((n) => quote(v.slice(0, n))) : fc.constant("'A'"))),
        fc.string({ maxLength: 4, unit: 'grapheme' }).map(quote),
        fc.constant('null'),
      );
    case 'guid':
      return fc.oneof(
        existing.map((v) => (typeof v === 'string' ? `guid'${v}'` : 'null')),
        existing.map((v) => (typeof v === 'string' ? quote(v.toUpperCase()) : 'null')),
        fc.uuid().map((u) => `guid'${u}'`),
        fc.constant('null'),
      );
    case 'datetime':
      return fc.oneof(
        existing.map((v) => (typeof v === 'string' ? `datetime'${v}'` : 'null')),
        fc
          .date({ min: new Date('2014-01-01T00:00:00Z'), max: new Date('2028-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => `datetime'${d.toISOString()}'`),
        fc.constant('null'),
      );
    case 'number':
      return fc.oneof(
        existing.map((v) => (typeof v === 'number' ? String(v) : 'null')),
        fc.integer({ min: -5, max: 105 }).map(String),
        fc.double({ min: -1, max: 101, noNaN: true, noDefaultInfinity: true }).map((d) => String(Math.round(d * 100) / 100)),
        fc.constant('null'),
      );
    case 'boolean':
      return fc.constantFrom('true', 'false', 'null');
  }
}

function atomArb(fields: readonly Field[], valuesOf: (name: string) => readonly JsonValue[]): fc.Arbitrary<string> {
  return fc.constantFrom(...fields).chain((field) => {
    const values = () => valuesOf(field.name);
    const ops = field.type === 'boolean' ? ['eq', 'ne'] : ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
    const comparison = fc.tuple(spelled(field.name), fc.constantFrom(...ops), literalArb(field, values)).map(([f, op, lit]) => `${f} ${op} ${lit}`);
    if (field.type !== 'string' && field.type !== 'guid') return comparison;
    const needle = fc.oneof(
      fc.nat().chain((i) => {
        const all = values();
        const v = all.length === 0 ? null : all[i % all.length];
        return typeof v === 'string' ? fc.nat(Math.min(4, v.length)).map((n) => v.slice(0, n)) : fc.constant('a');
      }),
      fc.string({ maxLength: 3 }),
    );
    return fc.oneof(
      { weight: 3, arbitrary: comparison },
      { weight: 2, arbitrary: fc.tuple(spelled(field.name), needle).map(([f, n]) => `startswith(${f}, ${quote(n)})`) },
      fc.tuple(spelled(field.name), needle).map(([f, n]) => `endswith(${f}, ${quote(n)})`),
      fc.tuple(spelled(field.name), needle).map(([f, n]) => `substringof(${quote(n)}, ${f})`),
      fc
        .tuple(fc.constantFrom('tolower', 'toupper'), spelled(field.name), fc.constantFrom('eq', 'ne', 'gt', 'lt'), literalArb(field, values))
        .map(([t, f, op, lit]) => `${t}(${f}) ${op} ${lit.startsWith('guid') ? lit.slice(4) : lit}`),
    );
  });
}

function filterArb(fields: readonly Field[], valuesOf: (name: string) => readonly JsonValue[]): fc.Arbitrary<string> {
  const atom = atomArb(fields, valuesOf);
  const { expr } = fc.letrec<{ expr: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: atom },
      { weight: 3, arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `${a} and ${b}`) },
      { weight: 1, arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a} or ${b})`) },
      { weight: 1, arbitrary: tie('expr').map((a) => `not (${a})`) },
    ),
  }));
  return expr;
}

function sortArb(fields: readonly Field[]): fc.Arbitrary<string | undefined> {
  const key = fc.tuple(fc.boolean(), fc.constantFrom(...fields)).chain(([desc, f]) => spelled(f.name).map((n) => `${desc ? '-' : ''}${n}`));
  return fc.option(
    fc.array(key, { minLength: 1, maxLength: 3 }).map((keys) => keys.join(',')),
    { freq: 5 },
  );
}

const LISTS = intapiBehaviourWithFaults([]).lists;

interface Case {
  filter: string | undefined;
  sort: string | undefined;
  limit: number;
  page: number;
}

function caseArb(fields: readonly Field[], valuesOf: (name: string) => readonly JsonValue[]): fc.Arbitrary<Case> {
  return fc.record({
    filter: fc.option(filterArb(fields, valuesOf), { freq: 6 }),
    sort: sortArb(fields),
    limit: fc.oneof(fc.integer({ min: 1, max: 25 }), fc.constantFrom(100, 1000)),
    page: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2100 })),
  });
}

/** The list through the indexes (a Table) and through the plain evaluation (an array copy) agree. */
function expectSameList<R extends { readonly id: string }>(table: Table<R>, schema: FieldSchema<R>, c: Case): void {
  const params = { filter: c.filter, sort: c.sort, limit: c.limit, offset: c.page };
  const indexed = runList(table, params, schema, LISTS);
  const plain = runList([...table.values()], params, schema, LISTS);
  expect(indexed.total).toBe(plain.total);
  expect(indexed.page.map((r) => r.id)).toEqual(plain.page.map((r) => r.id));
}

/** Runs a case; a filter the server refuses (422) must be refused by both evaluations alike. */
function check<R extends { readonly id: string }>(table: Table<R>, schema: FieldSchema<R>, c: Case): void {
  let refused: unknown;
  try {
    runList([...table.values()], { filter: c.filter, sort: c.sort, limit: c.limit, offset: c.page }, schema, LISTS);
  } catch (error) {
    refused = error;
  }
  if (refused !== undefined) {
    expect(() => runList(table, { filter: c.filter, sort: c.sort, limit: c.limit, offset: c.page }, schema, LISTS)).toThrow();
    return;
  }
  expectSameList(table, schema, c);
}

describe.each([
  ['selections sorted outright (default tuning)', 4096],
  ['selections over 31 records walked along the indexes', 0],
])('lists at scale agree with the plain evaluation (full scan, stable sort): %s', (_, outrightSortMax) => {
  const store = createSeededStore({ scale: 2000 });
  const saved = INDEXED_TUNING.outrightSortMax;
  beforeAll(() => {
    INDEXED_TUNING.outrightSortMax = outrightSortMax;
  });
  afterAll(() => {
    INDEXED_TUNING.outrightSortMax = saved;
  });
  const valuesOf =
    <R>(table: Table<R & { readonly id: string }>) =>
    (name: string): readonly JsonValue[] =>
      table.values().map((record) => (record as Record<string, JsonValue>)[name] ?? null);

  test('submissions: generated filters and sorts', () => {
    fc.assert(
      fc.property(caseArb(SUBMISSION_FIELD_LIST, valuesOf(store.submissions)), (c) => check(store.submissions, SUBMISSION_SCHEMA, c)),
      { numRuns: 400 },
    );
  });

  test('resources: generated filters and sorts', () => {
    fc.assert(
      fc.property(caseArb(RESOURCE_FIELD_LIST, valuesOf(store.resources)), (c) => check(store.resources, RESOURCE_FIELDS, c)),
      { numRuns: 300 },
    );
  });

  test('templates: generated filters and sorts', () => {
    fc.assert(
      fc.property(caseArb(TEMPLATE_FIELD_LIST, valuesOf(store.templates)), (c) => check(store.templates, TEMPLATE_SCHEMA, c)),
      { numRuns: 150 },
    );
  });

  test('the indexes follow inserts and updates (sort keys changed, set to null or to another type, ties made)', () => {
    const submissions = store.submissions;
    const write = fc.record({
      insert: fc.boolean(),
      at: fc.nat(),
      field: fc.constantFrom('title', 'score', 'status', 'completionDate', 'vendor', 'credits', 'userId'),
      value: fc.nat(),
    });
    let fresh = 0;
    fc.assert(
      fc.property(fc.array(write, { maxLength: 6 }), caseArb(SUBMISSION_FIELD_LIST, valuesOf(submissions)), (writes, c) => {
        for (const w of writes) {
          const all = submissions.values();
          const base = all[w.at % all.length];
          if (base === undefined) continue;
          // A value taken from another record (so ties form), null, or (as a fault may let in) a value of another type.
          const donor = all[w.value % all.length];
          const foreign: JsonValue[] = ['x', 'Y', 5, 0.5, true, false, [1], { a: 1 }];
          const value =
            w.value % 5 === 0 || donor === undefined
              ? null
              : w.value % 7 === 0
                ? (foreign[w.value % foreign.length] ?? null)
                : donor[w.field as keyof typeof donor];
          const changed = { ...base, [w.field]: w.field === 'title' && value === null ? 'Title' : value };
          if (w.insert) submissions.insert({ ...changed, id: `5ca1e000-0000-4000-8000-${String(++fresh).padStart(12, '0')}` });
          else submissions.update(changed);
        }
        check(submissions, SUBMISSION_SCHEMA, c);
      }),
      { numRuns: 250 },
    );
  });

  test('hand-picked shapes: ranges on one field, deep pages, ties in low-cardinality keys', () => {
    const cases: Case[] = [
      { filter: 'score ge 10 and score lt 20', sort: '-score', limit: 7, page: 3 },
      { filter: 'score ge 10 and score lt 20 and SCORE ne 15', sort: 'status,-credits', limit: 50, page: 1 },
      { filter: 'status eq 1', sort: 'vendor,grade', limit: 20, page: 10 },
      { filter: 'status eq null', sort: '-status,title', limit: 1000, page: 0 },
      { filter: "startswith(title, 'A')", sort: 'title', limit: 10, page: 5 },
      { filter: "startswith(title, '')", sort: '-title', limit: 10, page: 2 },
      { filter: undefined, sort: 'status', limit: 100, page: 7 },
      { filter: undefined, sort: '-status', limit: 100, page: 7 },
      { filter: undefined, sort: 'vendor,-status,cost', limit: 1, page: 1234 },
      { filter: undefined, sort: undefined, limit: 10, page: 150 },
      { filter: 'credits gt 5', sort: undefined, limit: 10, page: 40 },
      {
        filter: "completionDate ge datetime'2020-01-01T00:00:00Z' and completionDate lt datetime'2021-01-01T00:00:00+01:00'",
        sort: 'completionDate',
        limit: 25,
        page: 2,
      },
      { filter: "vendor eq 'Udemy' or vendor eq null", sort: '-vendor,-id', limit: 30, page: 4 },
    ];
    for (const c of cases) check(store.submissions, SUBMISSION_SCHEMA, c);
  });
});

describe('over HTTP at scale', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ scale: 3000 });
  });
  afterAll(() => h.close());

  test('the lists hold the scaled collections; pages of a filtered, sorted list walk it exactly once', async () => {
    expect((await h.get('/resources?_limit=1')).obj).toMatchObject({ totalItems: 3000 });
    expect((await h.get('/submissions?_limit=1')).obj).toMatchObject({ totalItems: 3000 });
    const query = `_filter=${encodeURIComponent('score ge 20 and score lt 80')}&_sort=${encodeURIComponent('vendor,-score')}`;
    const all = itemsOf(await h.get(`/submissions?${query}&_limit=1000&_offset=0`), 'submissions');
    const walked: string[] = [];
    for (let page = 0; ; page++) {
      const items = itemsOf(await h.get(`/submissions?${query}&_limit=97&_offset=${page}`), 'submissions');
      if (items.length === 0) break;
      walked.push(...idsOf(items));
    }
    expect(walked.length).toBeGreaterThan(500);
    expect(walked.slice(0, all.length)).toEqual(idsOf(all));
    expect(new Set(walked).size).toBe(walked.length);
  });

  test('a created submission shows up in the indexed list at once', async () => {
    const created = await h.call('POST', '/submissions', {
      body: {
        userId: '00000000-0000-4000-8000-000000000001',
        templateId: '00000000-0000-4000-8000-000000000201',
        title: '\u0000 first',
        completionDate: '2030-01-01T00:00:00Z',
        score: 100,
      },
    });
    expect(created.status).toBe(201);
    const first = itemsOf(await h.get(`/submissions?_sort=title&_filter=${encodeURIComponent('score eq 100')}`), 'submissions');
    expect(first[0]?.id).toBe(created.obj.id);
  });
});

describe('--scale on the command line', () => {
  test.each([
    [['run', '--scale=-1'], /--scale must be from 0 to 2000000/],
    [['run', '--scale', '2000001'], /--scale must be from 0 to 2000000/],
    [['run', '--scale', '1e5'], /--scale must be an integer/],
    [['run', '--scale', 'many'], /--scale must be an integer/],
    [['run', '--scale', '10', '--target', 'http://127.0.0.1:9'], /--scale applies to the bundled reference server only/],
    [['serve', '--scale', '3.5'], /--scale must be an integer/],
    [['serve', '--scale', '99999999'], /--scale must be from 0 to 2000000/],
  ])('%j exits 2 with one line', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
