// The learner contracts (contracts/learner.*.yaml) against the learner reference server: each is a
// valid JSON Schema 2020-12 named by its file, every constrained property carries an x-spec anchor
// that resolves, every answer of the server validates against its contract, and a fault that
// breaks a representation makes its answers fail it. (The suite's contract loader is not used:
// tests may read both sides of the wall, and this one reads the files directly.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { LEARNER_SEED_IDS, SANDBOX_LEARNERS } from '../../../reference-impl/index.js';
import { type Answer, type JsonRecord, send } from '../intapi/_support.js';
import { ROOT } from '../../support/cli.js';
import { loadAnchorTargets, resolves } from '../../support/anchors.js';
import { API, embedded, KEY, type LearnerHarness, nextHref, startLearner, UNKNOWN, walk } from './_learner.js';

const DIR = join(ROOT, 'contracts');
const FILES = readdirSync(DIR).filter((f) => f.startsWith('learner.') && f.endsWith('.yaml'));
const SCHEMAS = new Map(FILES.map((f) => [f.replace(/\.yaml$/, '').replace('.', '/'), parse(readFileSync(join(DIR, f), 'utf8')) as JsonRecord]));

const ajv = new Ajv2020({ allErrors: true, strict: true });
ajvFormats.default(ajv);
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addKeyword({ keyword: 'x-spec', schemaType: 'string' });
for (const schema of SCHEMAS.values()) ajv.addSchema(schema);
const validators = new Map<string, ValidateFunction>();
const validator = (name: string): ValidateFunction => {
  const found = validators.get(name) ?? ajv.getSchema(`lp:${name}`);
  if (found === undefined) throw new Error(`no contract ${name}`);
  validators.set(name, found);
  return found;
};
/** The contract's errors for a value ([] when valid). */
const errorsOf = (name: string, value: unknown): string[] => {
  const v = validator(name);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
};
const expectValid = (name: string, answer: Answer): void => expect(errorsOf(name, answer.json), `${name}: ${answer.text.slice(0, 300)}`).toEqual([]);

/** Every schema object in a contract, with its JSON pointer. */
function* schemaObjects(node: unknown, at = ''): Generator<[string, JsonRecord]> {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const schema = node as JsonRecord;
  yield [at, schema];
  for (const key of ['properties'] as const) {
    const props = schema[key];
    if (typeof props === 'object' && props !== null) for (const [k, v] of Object.entries(props)) yield* schemaObjects(v, `${at}/${key}/${k}`);
  }
  if (schema.items !== undefined) yield* schemaObjects(schema.items, `${at}/items`);
}

describe('the learner contracts', () => {
  test('the contracts the learner family answers with exist, each named by its file', () => {
    expect([...SCHEMAS.keys()].sort()).toEqual(
      [
        'branding',
        'calendarItem',
        'calendarOverview',
        'category',
        'course',
        'courseDetail',
        'envelope.calendar',
        'envelope.categories',
        'envelope.courses',
        'envelope.sessions',
        'error',
        'lesson',
        'lessonProgress',
        'lessonProgress.update',
        'link',
        'progress',
        'session',
        'token',
      ].map((n) => `learner/${n}`),
    );
    for (const [name, schema] of SCHEMAS) expect(schema.$id).toBe(`lp:${name}`);
  });

  test('every constrained schema carries an x-spec anchor that resolves', () => {
    const targets = loadAnchorTargets();
    const missing: string[] = [];
    for (const [name, schema] of SCHEMAS) {
      for (const [at, node] of schemaObjects(schema)) {
        if (node.$ref !== undefined) continue;
        const anchor = node['x-spec'];
        if (typeof anchor !== 'string' || !resolves(anchor, targets)) missing.push(`${name}#${at}: ${String(anchor)}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the reference server answers by the contracts', () => {
  let h: LearnerHarness;
  beforeAll(async () => {
    h = await startLearner();
  });
  afterAll(() => h.close());

  test('token and errors', async () => {
    expectValid('learner/token', await send(h.base, 'POST', `${API}/token`, SANDBOX_LEARNERS.b, { 'x-api-key': KEY }));
    for (const answer of await Promise.all([
      h.get('/my-catalog', { noKey: true }),
      h.get('/my-catalog', { token: 'x' }),
      h.get(`/courses/${UNKNOWN}`),
      h.get('/my-catalog?_limit=31&_offset=-1'),
      h.get('/nope'),
      send(h.base, 'POST', `${API}/token`, '{', { 'x-api-key': KEY, 'content-type': 'application/json' }),
      send(h.base, 'POST', `${API}/token`, 'x', { 'x-api-key': KEY, 'content-type': 'text/plain' }),
      h.raw('/learn/course-player/x'),
    ])) {
      expectValid('learner/error', answer);
    }
  });

  test('every page of every list', async () => {
    const lists: [string, string][] = [
      ['/my-catalog', 'courses'],
      [`/my-catalog?categoryId=${LEARNER_SEED_IDS.categoryWithDescendants}&includeSubcategories=true`, 'courses'],
      ['/my-catalog/categories', 'categories'],
      ['/my-catalog-calendar', 'calendar'],
      ['/my-catalog-calendar?includeCompletedSessions=true', 'calendar'],
      ['/my-catalog-calendar/sessions', 'sessions'],
      ['/my-catalog-calendar/sessions?includeCompletedSessions=true', 'sessions'],
    ];
    for (const [path, key] of lists) {
      let answer = await h.get(path);
      for (;;) {
        expectValid(`learner/envelope.${key}`, answer);
        const next = nextHref(answer);
        if (next === undefined) break;
        answer = await h.get(next.slice(API.length));
      }
    }
  });

  test('course details, calendar overviews, sessions of every course and by id', async () => {
    const courses = await walk(h, '/my-catalog', 'courses');
    for (const course of courses) {
      expectValid('learner/courseDetail', await h.get(`/courses/${String(course.id)}`));
      if (course.courseType !== 'InstructorLedCourse') continue;
      expectValid('learner/calendarOverview', await h.get(`/instructor-led-courses/${String(course.id)}/calendar`));
      const sessions = await h.get(`/instructor-led-courses/${String(course.id)}/sessions?includeCompletedSessions=true&_limit=30`);
      expectValid('learner/envelope.sessions', sessions);
      for (const s of embedded(sessions, 'sessions')) {
        expectValid('learner/session', await h.get(`/instructor-led-courses/${String(course.id)}/sessions/${String(s.id)}?includeCompletedSessions=true`));
      }
    }
  });

  test('branding of both learners, progress and its save', async () => {
    expectValid('learner/branding', await h.get('/my-branding'));
    expectValid('learner/branding', await h.get('/my-branding', { token: await h.login('b') }));
    const course = LEARNER_SEED_IDS.playerCourse;
    const lesson = String(((await h.get(`/courses/${course}`)).obj.lessons as JsonRecord[])[0]?.id);
    expectValid('learner/lessonProgress', await h.call('PUT', `/my-progress/${course}/lessons/${lesson}`, { body: { progress: 30 } }));
    expectValid('learner/progress', await h.get(`/my-progress/${course}`));
  });

  test.each([{ progress: 0 }, { progress: 100 }, { progress: 101 }, { progress: -1 }, { progress: 2.5 }, { progress: '5' }, {}])(
    'the progress update contract and the server agree on %j',
    async (body) => {
      const course = LEARNER_SEED_IDS.playerCourse;
      const lesson = String(((await h.get(`/courses/${course}`)).obj.lessons as JsonRecord[])[0]?.id);
      const answer = await h.call('PUT', `/my-progress/${course}/lessons/${lesson}`, { body });
      expect(answer.status === 200).toBe(errorsOf('learner/lessonProgress.update', body).length === 0);
    },
  );
});

describe('a fault that breaks a representation fails its contract', () => {
  test.each([
    ['learner.parent-category-id-missing', '/my-catalog', 'learner/envelope.courses'],
    ['learner.hal-envelope-wrong-key', '/my-catalog', 'learner/envelope.courses'],
    ['learner.limit-31-accepted', '/my-catalog?_limit=31', 'learner/envelope.courses'],
    ['learner.error-validations-missing', '/nope', 'learner/error'],
  ])('%s: GET %s against %s', async (fault, path, contract) => {
    const h = await startLearner({ faults: [fault] });
    try {
      expect(errorsOf(contract, (await h.get(path)).json)).not.toEqual([]);
    } finally {
      await h.close();
    }
  });
});
