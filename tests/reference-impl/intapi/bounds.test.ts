// The bounds rule table: every rule enforces its bound, and every `intapi.skip-rule:` / `intapi.exclusive-bound:`
// fault changes exactly the outcome it names. Plus HTTP spot checks of the field tables.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BodySpec, compileBody, type FieldSpec, listBoundedFields, listRules, type RuleRef } from '../../../reference-impl/rules/bounds.js';
import { INTAPI_BODIES, type IntapiBodyOperation } from '../../../reference-impl/intapi/bounds.js';
import { type Harness, names, startServer, VALID_SUBMISSION } from './_support.js';

type Body = Record<string, unknown>;
const OPTION = { name: 'o' };
const VALID: Record<IntapiBodyOperation, Body> = {
  'submissions.create': VALID_SUBMISSION,
  'submissions.update': { title: 't', completionDate: '2024-01-01T00:00:00Z' },
  'questionBanks.create': { name: 'bank' },
  'questionBanks.update': { name: 'bank' },
  'questions.create': { questionType: 'Text', name: 'q', questionOptions: [OPTION] },
  'questions.update': { questionType: 'Text', name: 'q', questionOptions: [OPTION] },
};
const NONE = { skip: new Set<string>(), exclusive: new Set<string>(), unknownFields: 'reject', nullOptional: 'absent', notObjectReason: 'given' } as const;

/** The field spec a rule path names (`questionOptions[].name` → the option's name). */
function fieldOf(spec: BodySpec, path: string): FieldSpec {
  const [head, tail] = path.split('[].');
  const top = spec.fields.find((f) => f.name === head?.replace('[]', ''));
  const field = tail === undefined ? top : top?.items?.find((f) => f.name === tail);
  if (field === undefined) throw new Error(`no field ${path}`);
  return field;
}

/** A value breaking exactly the rule (undefined = leave the field out). */
function breaking(rule: RuleRef, field: FieldSpec): unknown {
  switch (rule.kind) {
    case 'required':
      return undefined;
    case 'type':
      if (rule.field.endsWith('[]')) return 5;
      return field.type === 'string' ? 42 : 'text';
    case 'minLength':
      return 'x'.repeat((field.minLength ?? 1) - 1);
    case 'maxLength':
      return 'x'.repeat((field.maxLength ?? 0) + 1);
    case 'minimum':
      return (field.minimum ?? 0) - 0.5;
    case 'maximum':
      return (field.maximum ?? 0) + 0.5;
    case 'enum':
      return field.type === 'string' ? 'Other' : 7;
    case 'format':
      return 'not-a-format';
    case 'notAccepted':
      return '00000000-0000-4000-8000-000000000001';
  }
}

/** The valid body with `path` set to `value` (an option field sets the first option's). */
function withValue(base: Body, path: string, value: unknown): Body {
  const set = (object: Body, key: string): Body => {
    const copy = { ...object };
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return copy;
  };
  if (path === 'questionOptions[]') return { ...base, questionOptions: [value] };
  const [head, tail] = path.split('[].');
  if (tail === undefined) return set(base, path);
  return { ...base, [head ?? '']: [set(OPTION, tail)] };
}

const SPECS = Object.values(INTAPI_BODIES);
const RULES = SPECS.flatMap((spec) => listRules(spec).map((rule) => ({ spec, rule })));

test('the table yields a rule per operation, field and kind', () => {
  expect(RULES.length).toBeGreaterThan(100);
  expect(new Set(RULES.map(({ rule }) => rule.id)).size).toBe(RULES.length);
  expect(RULES.map(({ rule }) => rule.id)).toEqual(
    expect.arrayContaining([
      'submissions.create.title.maxLength',
      'submissions.create.title.minLength',
      'submissions.update.userId.notAccepted',
      'submissions.create.completionDate.format',
      'questionBanks.create.id.format',
      'questions.create.questionOptions[].name.required',
      'questions.update.id.notAccepted',
    ]),
  );
  expect(RULES.map(({ rule }) => rule.id)).not.toContain('questionBanks.create.name.minLength'); // 0: can never fail
});

describe.each(RULES.map(({ spec, rule }) => [rule.id, spec, rule] as const))('%s', (_id, spec, rule) => {
  const op = spec.operation as IntapiBodyOperation;
  const body = withValue(VALID[op], rule.field, breaking(rule, fieldOf(spec, rule.field.replace(/\[\]$/, ''))));
  const path = rule.field.replace('[].', '[0].').replace(/\[\]$/, '[0]');

  test('the valid body passes', () => {
    expect(compileBody(spec, NONE)(VALID[op])).toEqual([]);
  });
  test('a value breaking the rule fails, naming the field', () => {
    const failures = compileBody(spec, NONE)(body);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(new RegExp(`^${path.replace(/[[\].]/g, '\\$&')}: `));
  });
  test('skipping the rule lets the value through', () => {
    expect(compileBody(spec, { ...NONE, skip: new Set([rule.id]) })(body)).toEqual([]);
  });
});

const BOUNDED = SPECS.flatMap((spec) => listBoundedFields(spec).map((id) => ({ spec, id, field: fieldOf(spec, id.slice(spec.operation.length + 1)) })));

describe.each(BOUNDED.map((b) => [b.id, b] as const))('intapi.exclusive-bound:%s', (id, { spec, field }) => {
  const op = spec.operation as IntapiBodyOperation;
  const atBounds: unknown[] = [
    ...(field.minLength !== undefined ? ['x'.repeat(field.minLength)] : []),
    ...(field.maxLength !== undefined ? ['x'.repeat(field.maxLength)] : []),
    ...(field.minimum !== undefined ? [field.minimum] : []),
    ...(field.maximum !== undefined ? [field.maximum] : []),
  ];
  test.each(atBounds.map((v) => [typeof v === 'string' ? `${v.length} characters` : v, v]))(
    'a value at the bound (%s) is accepted, refused when exclusive',
    (_shown, value) => {
      const body = withValue(VALID[op], field.name, value);
      expect(compileBody(spec, NONE)(body)).toEqual([]);
      expect(compileBody(spec, { ...NONE, exclusive: new Set([id]) })(body)).toHaveLength(1);
    },
  );
});

test('lengths count code points, not UTF-16 units', () => {
  const validate = compileBody(INTAPI_BODIES['submissions.create'], NONE);
  expect(validate({ ...VALID_SUBMISSION, title: '🚀'.repeat(255) })).toEqual([]);
  expect(validate({ ...VALID_SUBMISSION, title: '🚀'.repeat(256) })).toEqual(['title: must be at most 255 characters']);
});

describe('over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(() => h.close());
  const create = (patch: Body) => h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, ...patch } });

  test.each([
    ['title', 'x'.repeat(255), 'x'.repeat(256)],
    ['title', 'x', ''],
    ['cost', 'c'.repeat(255), 'c'.repeat(256)],
    ['description', 'd'.repeat(10_000), 'd'.repeat(10_001)],
    ['grade', 'g'.repeat(255), 'g'.repeat(256)],
    ['vendor', 'v'.repeat(255), 'v'.repeat(256)],
    ['vendorAddress', 'a'.repeat(255), 'a'.repeat(256)],
    ['credits', 0, -0.01],
    ['credits', 1_000_000, 1_000_000.01],
    ['score', 100, 100.5],
    ['score', 0, -1],
    ['totalTimeSpent', 1_000_000, 1_000_001],
    ['status', 2, 3],
    ['status', 0, 1.5],
    ['completionDate', '2016-12-31T23:59:60Z', '2024-02-30T00:00:00Z'],
    ['completionDate', '2024-02-29T00:00:00-23:59', '2024-01-01'],
    ['startDate', '2024-01-01T00:00:00.5Z', '2024-01-01 00:00:00Z'],
    ['expiryDate', '0001-01-01T00:00:00Z', '2024-01-01T24:00:00Z'],
  ])('%s: %j is accepted, %j answers 422 naming it', async (field, ok, bad) => {
    expect((await create({ [field]: ok })).status).toBe(201);
    const res = await create({ [field]: bad });
    expect(res.status).toBe(422);
    expect(names(res, field)).toBe(true);
  });

  test('a leap second is stored as the next instant', async () => {
    expect((await create({ completionDate: '2016-12-31T23:59:60Z' })).obj.completionDate).toBe('2017-01-01T00:00:00.000Z');
  });
});
