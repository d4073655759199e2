// `serve --id-seed N` (createReferenceServer({ idSeed })): every seeded id of every family derived
// from N, so that a client must find the records through the API (lp-conformance init proves it
// can). Without an id seed the fixed ids stay, which the bundled reference profile names.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSeededStore, SANDBOX, sandboxOptions, seededIds, type Store } from '../../reference-impl/index.js';
import { cloneJson, type JsonObject } from '../../reference-impl/rules/json.js';
import { seedEvaluations } from '../../reference-impl/intapi/evaluations/seed.js';
import { ADMIN, type Harness, type Json, send, startServer } from './intapi/_support.js';

/** Every GUID in the store's records (every table, enrollments, sessions, rules, groups, evaluations). */
function guidsOf(store: Store): Set<string> {
  const dump = [
    store.principalUserId,
    store.users.values(),
    store.courses.values(),
    store.resources.values(),
    store.templates.values(),
    store.submissions.values(),
    store.questionBanks.values().map((bank) => ({ ...bank, questions: store.questionsOf(bank.id)?.values() ?? [] })),
    store.groups.values(),
    store.enrollments.records.values(),
    store.enrollments.sessions.values(),
    store.enrollments.rules.values(),
    seedEvaluations(store),
  ];
  return new Set(JSON.stringify(dump).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? []);
}

describe('the seeded store', () => {
  const fixed = guidsOf(createSeededStore());
  const seven = guidsOf(createSeededStore({ idSeed: 7 }));

  test('with an id seed, no id of the fixed seed is left, and every id is a version-4 GUID', () => {
    expect(fixed.size).toBeGreaterThan(300);
    expect(seven.size).toBe(fixed.size);
    expect([...seven].filter((id) => fixed.has(id))).toEqual([]);
    expect([...seven].filter((id) => !/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toEqual([]);
  });

  test('the same id seed gives the same ids, another seed others', () => {
    expect([...guidsOf(createSeededStore({ idSeed: 7 }))]).toEqual([...seven]);
    const eight = guidsOf(createSeededStore({ idSeed: 8 }));
    expect([...eight].filter((id) => seven.has(id))).toEqual([]);
  });

  test('at scale, the generated records take ids of the id seed too', () => {
    const plain = createSeededStore({ scale: 200 });
    const salted = createSeededStore({ scale: 200, idSeed: 7 });
    const ids = (s: Store) => new Set(s.users.values().map((u) => u.id));
    expect(salted.users.size).toBe(200);
    expect([...ids(salted)].filter((id) => ids(plain).has(id))).toEqual([]);
  });
});

describe('seeded ids', () => {
  // A replay (`--seed N --path …`) and a report's ids from an earlier version must meet the same ids:
  // these are the values the generator has always given.
  test('a seed gives the ids it always gave, plainly and for a check and case', () => {
    const plain = seededIds();
    expect([plain(), plain()]).toEqual(['b4f16a54-85f7-4a64-adc2-355040584f0b', '1beb93dc-2139-49a9-af12-6fa1a614c75e']);
    const eleven = seededIds(11);
    expect(eleven.within({ check: 'intapi.v2.templates.list', case: '0:1' }, () => eleven())).toBe('1c2a71e1-89aa-4c0b-b584-161f77789c8c');
  });
});

describe('cloneJson (the copy of the SCIM seed each server takes)', () => {
  test('copies every level, and keeps an own __proto__ key an own key', () => {
    const original = JSON.parse('{"__proto__":{"a":1},"list":[1,"x",null,{"deep":[true]}],"n":{"m":{}}}') as JsonObject;
    const copy = cloneJson(original);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(original));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'list', 'n']);
    expect(copy.list).not.toBe(original.list);
    expect((copy.list as JsonObject[])[3]).not.toBe((original.list as JsonObject[])[3]);
    expect((copy.n as JsonObject).m).not.toBe((original.n as JsonObject).m);
  });
});

describe('a server with an id seed', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ ...sandboxOptions(SANDBOX), idSeed: 7 });
  });
  afterAll(() => h.close());

  const idsIn = (value: Json | undefined): string[] => JSON.stringify(value ?? null).match(/"id":"([^"]+)"/g) ?? [];

  test("the Integration API's records, the course evaluations, countries and provinces have derived ids", async () => {
    const me = (await h.get('/users/my-details')).obj;
    expect(me.id).not.toBe(ADMIN);
    expect((await h.get(`/users/${ADMIN}`)).status).toBe(404);
    const countries = await h.get('/countries');
    expect(idsIn(countries.json).some((id) => id.includes('00000000-0000-4000-8000'))).toBe(false);
    const enrollments = (await h.get(`/users/${String(me.id)}/enrollments`)).obj.enrollments as { courseId: string }[];
    const course = enrollments[0]?.courseId ?? '';
    const questions = await h.get(`/courses/${course}/evaluation-questions`);
    expect(idsIn(questions.json).length).toBeGreaterThan(0);
    expect(idsIn(questions.json).some((id) => id.includes('00000000-0000-4000-8000'))).toBe(false);
  });

  test("SCIM's users and groups, and the learner API's catalog, have derived ids", async () => {
    const scim = await send(h.base, 'GET', '/scim/v2/Groups?count=3', undefined, { authorization: `Bearer ${SANDBOX.scim.token}` });
    const groups = (scim.obj.Resources ?? []) as { id: string; members?: { value: string }[] }[];
    expect(groups.length).toBe(3);
    for (const g of groups) {
      expect(g.id.startsWith('5c200000')).toBe(false);
      for (const m of g.members ?? []) expect(m.value.startsWith('5c100000')).toBe(false);
    }
    // A member of a group is a user of the same server.
    const member = groups.flatMap((g) => g.members ?? [])[0]?.value ?? '';
    expect((await send(h.base, 'GET', `/scim/v2/Users/${member}`, undefined, { authorization: `Bearer ${SANDBOX.scim.token}` })).status).toBe(200);
    const token = await send(h.base, 'POST', '/api/rest/v2/token', SANDBOX.learner, { 'x-api-key': SANDBOX.intapi.apiKey });
    const catalog = await send(h.base, 'GET', '/api/rest/v2/my-catalog?_limit=5', undefined, {
      'x-api-key': SANDBOX.intapi.apiKey,
      authorization: `Bearer ${String(token.obj.access_token)}`,
    });
    const courses = idsIn(catalog.json);
    expect(courses.length).toBeGreaterThan(0);
    expect(courses.some((id) => /c0a50000|1ca70000/.test(id))).toBe(false);
  });
});
