// The generated fault families intapi.unrouted:<operationId>, intapi.unknown-id-ok:<operationId> and
// intapi.lossy-store:<operation>.<field>: the exact names, and for every name a before/after check over
// real HTTP that the fault changes that behaviour and nothing next to it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createReferenceServer,
  createSeededStore,
  INTAPI_FAULTS,
  listIntapiFaults,
  SANDBOX_CREDENTIALS,
  SEED_IDS,
  type Store,
} from '../../../reference-impl/index.js';
import { INTAPI_OPERATIONS } from '../../../reference-impl/intapi/catalogue.js';
import { createIntapiFamily } from '../../../reference-impl/intapi/index.js';
import { intapiBehaviourWithFaults } from '../../../reference-impl/intapi/faults.js';
import { alteredValue } from '../../../reference-impl/rules/lossy.js';
import {
  type Answer,
  COURSE1,
  COURSE4,
  CREDENTIALS_BODY,
  expectErrorBody,
  type Harness,
  type JsonRecord,
  send,
  startServer,
  SUBMISSION_FIELDS,
  TEMPLATE,
  UNKNOWN,
  VALID_SUBMISSION,
} from './_support.js';

const ADMIN = SEED_IDS.adminUser;
/** The first evaluation question of course 1 and two geography ids (reference-impl/intapi/evaluations/seed.ts, provinces/data.ts). */
const EVALUATION_QUESTION = '00000000-0000-4000-8000-0000e0010001';
const COUNTRY_CA = '00000000-0000-4000-8000-c00000004341';
const PROVINCE_CA_ON = '00000000-0000-4000-8000-b043414f4e00';
const blankEvaluationQuestion = (id: string) => ({ id, courseId: NIL, text: '', questionType: 'Text', order: 0, isRequired: false });
const emptyEnvelope = (key: string) => ({ totalItems: 0, returnedItems: 0, limit: 20, offset: 0, [key]: [] });
const NIL = '00000000-0000-0000-0000-000000000000';

const OPERATION_IDS = [
  'resources.get',
  'resources.list',
  'resources.listForUser',
  'resources.listMine',
  'resources.listForCourse',
  'resources.getForCourse',
  'resources.listForEnrollment',
  'resources.listMineForCourse',
  'submissions.list',
  'submissions.create',
  'submissions.get',
  'submissions.update',
  'templates.list',
  'templates.get',
  'questionBanks.list',
  'questionBanks.create',
  'questionBanks.get',
  'questionBanks.update',
  'questions.list',
  'questions.create',
  'questions.get',
  'questions.update',
  'users.list',
  'users.myDetails',
  'users.get',
  'users.update',
  'users.upsert',
  'managers.listDirectReports',
  'managers.updateDirectReports',
  'evaluationQuestions.list',
  'evaluationQuestions.get',
  'evaluationAnswers.list',
  'countries.list',
  'provinces.list',
  'provinces.get',
  'groups.list',
  'groups.get',
  'groups.create',
  'groups.update',
  'groups.assignUsers',
  'groups.unassignUsers',
  'groups.listUsers',
  'enrollments.list',
  'enrollments.create',
  'enrollments.enrollSession',
  'auth.authenticate',
];

const PATH_ID_OPERATIONS = [
  'resources.get',
  'resources.listForUser',
  'resources.listForCourse',
  'resources.getForCourse',
  'resources.listForEnrollment',
  'resources.listMineForCourse',
  'submissions.get',
  'submissions.update',
  'templates.get',
  'questionBanks.get',
  'questionBanks.update',
  'questions.list',
  'questions.create',
  'questions.get',
  'questions.update',
  'users.get',
  'users.update',
  'managers.listDirectReports',
  'managers.updateDirectReports',
  'evaluationQuestions.list',
  'evaluationQuestions.get',
  'evaluationAnswers.list',
  'provinces.get',
  'groups.get',
  'groups.update',
  'groups.assignUsers',
  'groups.unassignUsers',
  'groups.listUsers',
  'enrollments.list',
  'enrollments.create',
  'enrollments.enrollSession',
];

const QUESTION_LOSSY = ['questionType', 'name', 'correctReply', 'incorrectReply', 'attachment'];
const LOSSY_FIELDS = [
  ...SUBMISSION_FIELDS.map((f) => `submissions.create.${f}`),
  ...SUBMISSION_FIELDS.map((f) => `submissions.update.${f}`),
  'questionBanks.create.id',
  'questionBanks.create.name',
  'questionBanks.update.name',
  'questions.create.id',
  ...QUESTION_LOSSY.map((f) => `questions.create.${f}`),
  ...QUESTION_LOSSY.map((f) => `questions.update.${f}`),
];

const family = (prefix: string) => listIntapiFaults().filter((name) => name.startsWith(prefix));

describe('the generated names', () => {
  test('unrouted: one per operation the server serves', () => {
    expect(family('intapi.unrouted:')).toEqual(OPERATION_IDS.map((id) => `intapi.unrouted:${id}`));
  });

  test('unknown-id-ok: one per operation with a path identifier', () => {
    expect(family('intapi.unknown-id-ok:')).toEqual(PATH_ID_OPERATIONS.map((id) => `intapi.unknown-id-ok:${id}`));
  });

  test('lossy-store: one per bounded, enum, date-time or client-id field of a create/update body', () => {
    expect(family('intapi.lossy-store:')).toEqual(LOSSY_FIELDS.map((field) => `intapi.lossy-store:${field}`));
  });

  test('each has a description and the catalogue matches the routes the server registers', () => {
    for (const name of [...family('intapi.unrouted:'), ...family('intapi.unknown-id-ok:'), ...family('intapi.lossy-store:')])
      expect(INTAPI_FAULTS[name]?.description.length).toBeGreaterThan(20);
    const routes = createIntapiFamily({
      store: createSeededStore(),
      behaviour: intapiBehaviourWithFaults([]),
      credentials: SANDBOX_CREDENTIALS,
      clock: () => new Date(),
      ids: () => NIL,
      ruleBatchMs: 1000,
    }).operations.map((o) => ({ id: o.id, method: o.method, path: o.path, v2Only: !o.versions.includes(1) }));
    expect(routes).toEqual(expect.arrayContaining(INTAPI_OPERATIONS.map(({ id, method, path, v2Only }) => ({ id, method, path, v2Only }))));
    expect(routes).toHaveLength(INTAPI_OPERATIONS.length);
  });

  test('an unknown name of a family throws, naming the families', () => {
    expect(() => intapiBehaviourWithFaults(['intapi.unrouted:resources.delete'])).toThrow(
      /Unknown fault: intapi.unrouted:resources\.delete\..*intapi\.unrouted:<operationId> \(46\), intapi.unknown-id-ok:<operationId> \(31\), intapi.lossy-store:<operation>\.<field> \(40\), intapi.key-unchecked:<operationId> \(46\) and intapi.v1-served:<operationId> \(24\)/,
    );
    expect(() => intapiBehaviourWithFaults(['intapi.unknown-id-ok:resources.list'])).toThrow(/Unknown fault/);
    expect(() => intapiBehaviourWithFaults(['intapi.lossy-store:questions.create.questionOptions'])).toThrow(/Unknown fault/);
    expect(() => intapiBehaviourWithFaults(['intapi.lossy-store:submissions.create.userId'])).toThrow(/Unknown fault/);
  });
});

// ---------------------------------------------------------------------------------------------
// A server on a store the test holds, with a planted token (so that even intapi.unrouted:auth.authenticate
// can be probed), and the seed records the requests name.

const TOKEN = 'planted-token';
const seed = createSeededStore();
const firstId = (values: readonly { id: string }[]): string => values[0]?.id ?? '';
const RESOURCE1 = firstId(seed.resourcesOfCourse(COURSE1));
const RESOURCE4 = firstId(seed.resourcesOfCourse(COURSE4));
const SUBMISSION = firstId(seed.submissions.values());
const BANK = seed.questionBanks.values().find((bank) => (seed.questionsOf(bank.id)?.size ?? 0) > 0)?.id ?? '';
const QUESTION = firstId(seed.questionsOf(BANK)?.values() ?? []);
const QUESTION_BODY = { questionType: 'Text', name: 'q', questionOptions: [] };
const USER5 = '00000000-0000-4000-8000-000000000005';
/** User 5 as seeded (an update and an upsert by its username that change nothing). */
const USER5_BODY = {
  username: 'donny.kerabatsos',
  firstName: 'Donny',
  lastName: 'Kerabatsos',
  email: 'donny@example.com',
  managerId: '00000000-0000-4000-8000-000000000004',
};
const LEAD = '00000000-0000-4000-8000-000000000302';
const LEAD_REPORTS = { userIds: ['00000000-0000-4000-8000-000000000304', '00000000-0000-4000-8000-000000000305'] };
const GROUP = firstId(seed.groups.values());
const SESSION = firstId(seed.enrollments.sessions.values());

interface Raw {
  readonly store: Store;
  call(method: string, path: string, options?: { body?: unknown; version?: string | null; key?: boolean; token?: boolean; query?: string }): Promise<Answer>;
  close(): Promise<void>;
}

async function rawServer(faults: readonly string[] = []): Promise<Raw> {
  const store = createSeededStore();
  store.sessions.put({ token: TOKEN, userId: ADMIN, expiresAt: Date.now() + 3_600_000 });
  const server = createReferenceServer({ faults, families: { intapi: { store } } });
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    store,
    call: (method, path, { body, version = '2', key = true, token = true } = {}) => {
      const headers: Record<string, string> = {};
      if (key) headers['x-api-key'] = SANDBOX_CREDENTIALS.apiKey;
      if (token) headers.authorization = `Bearer ${TOKEN}`;
      if (version !== null) headers['x-api-version'] = version;
      return send(base, method, path, body, headers);
    },
    close: () => server.close(),
  };
}

/** One well-formed request per operation, naming existing records. authenticate last: it revokes the planted token. */
interface Probe {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly v1: boolean;
}
const PROBES: Readonly<Record<string, Probe>> = {
  'resources.get': { method: 'GET', path: `/resources/${RESOURCE1}`, v1: true },
  'resources.list': { method: 'GET', path: '/resources', v1: true },
  'resources.listForUser': { method: 'GET', path: `/users/${ADMIN}/resources`, v1: true },
  'resources.listMine': { method: 'GET', path: '/enrollments/myresources', v1: true },
  'resources.listForCourse': { method: 'GET', path: `/courses/${COURSE1}/resources`, v1: true },
  'resources.getForCourse': { method: 'GET', path: `/courses/${COURSE1}/resources/${RESOURCE1}`, v1: true },
  'resources.listForEnrollment': { method: 'GET', path: `/users/${ADMIN}/enrollments/${COURSE1}/resources`, v1: true },
  'resources.listMineForCourse': { method: 'GET', path: `/enrollments/${COURSE1}/myresources`, v1: true },
  'submissions.list': { method: 'GET', path: '/submissions', v1: false },
  'submissions.create': { method: 'POST', path: '/submissions', body: VALID_SUBMISSION, v1: false },
  'submissions.get': { method: 'GET', path: `/submissions/${SUBMISSION}`, v1: false },
  'submissions.update': { method: 'PUT', path: `/submissions/${SUBMISSION}`, body: { title: 't', completionDate: '2024-01-01T00:00:00Z' }, v1: false },
  'templates.list': { method: 'GET', path: '/templates', v1: false },
  'templates.get': { method: 'GET', path: `/templates/${TEMPLATE}`, v1: false },
  'questionBanks.list': { method: 'GET', path: '/question-banks', v1: false },
  'questionBanks.create': { method: 'POST', path: '/question-banks', body: { name: 'n' }, v1: false },
  'questionBanks.get': { method: 'GET', path: `/question-banks/${BANK}`, v1: false },
  'questionBanks.update': { method: 'PUT', path: `/question-banks/${BANK}`, body: { name: 'm' }, v1: false },
  'questions.list': { method: 'GET', path: `/question-banks/${BANK}/questions`, v1: false },
  'questions.create': { method: 'POST', path: `/question-banks/${BANK}/questions`, body: QUESTION_BODY, v1: false },
  'questions.get': { method: 'GET', path: `/question-banks/${BANK}/questions/${QUESTION}`, v1: false },
  'questions.update': { method: 'PUT', path: `/question-banks/${BANK}/questions/${QUESTION}`, body: QUESTION_BODY, v1: false },
  'users.list': { method: 'GET', path: '/users', v1: true },
  // public-facts' path of the operation: unrouted, the specification's /users/my-details would reach get user (422).
  'users.myDetails': { method: 'GET', path: '/my-details', v1: true },
  'users.get': { method: 'GET', path: `/users/${USER5}`, v1: true },
  'users.update': { method: 'PUT', path: `/users/${USER5}`, body: USER5_BODY, v1: true },
  'users.upsert': { method: 'POST', path: '/users', body: USER5_BODY, v1: true },
  'managers.listDirectReports': { method: 'GET', path: `/managers/${LEAD}/direct-reports`, v1: false },
  'managers.updateDirectReports': { method: 'POST', path: `/managers/${LEAD}/direct-reports`, body: LEAD_REPORTS, v1: false },
  'evaluationQuestions.list': { method: 'GET', path: `/courses/${COURSE1}/evaluation-questions`, v1: false },
  'evaluationQuestions.get': { method: 'GET', path: `/courses/${COURSE1}/evaluation-questions/${EVALUATION_QUESTION}`, v1: false },
  'evaluationAnswers.list': { method: 'GET', path: `/courses/${COURSE1}/evaluation-answers`, v1: false },
  'countries.list': { method: 'GET', path: '/countries', v1: true },
  'provinces.list': { method: 'GET', path: `/provinces?countryId=${COUNTRY_CA}`, v1: true },
  'provinces.get': { method: 'GET', path: `/provinces/${PROVINCE_CA_ON}`, v1: true },
  'groups.list': { method: 'GET', path: '/groups', v1: true },
  'groups.get': { method: 'GET', path: `/groups/${GROUP}`, v1: true },
  'groups.create': { method: 'POST', path: '/groups', body: { name: 'g', groupType: 'Manual' }, v1: false },
  'groups.update': { method: 'PUT', path: `/groups/${GROUP}`, body: { name: 'h' }, v1: false },
  'groups.assignUsers': { method: 'POST', path: `/groups/${GROUP}/users/assign`, body: { userIds: [ADMIN] }, v1: false },
  'groups.unassignUsers': { method: 'POST', path: `/groups/${GROUP}/users/unassign`, body: { userIds: [ADMIN] }, v1: false },
  'groups.listUsers': { method: 'GET', path: `/groups/${GROUP}/users`, v1: false },
  'enrollments.list': { method: 'GET', path: `/users/${ADMIN}/enrollments`, v1: true },
  'enrollments.create': { method: 'POST', path: `/users/${ADMIN}/enrollments`, body: { courseId: COURSE1 }, v1: true },
  'enrollments.enrollSession': { method: 'POST', path: `/users/${ADMIN}/enrollments/${COURSE4}/session/${SESSION}`, v1: true },
  'auth.authenticate': { method: 'POST', path: '/authenticate', body: CREDENTIALS_BODY, v1: true },
};

/** The status of every probe, in versions 1 and 2 (a v2-only operation answers 404 in version 1). */
async function statuses(raw: Raw): Promise<Record<string, [number, number]>> {
  const out: Record<string, [number, number]> = {};
  for (const id of OPERATION_IDS) {
    const p = PROBES[id];
    if (p === undefined) throw new Error(`no probe for ${id}`);
    const v2 = (await raw.call(p.method, p.path, { body: p.body, version: '2' })).status;
    const v1 = (await raw.call(p.method, p.path, { body: p.body, version: '1' })).status;
    out[id] = [v1, v2];
  }
  return out;
}

describe('intapi.unrouted:<operationId>', () => {
  let baseline: Record<string, [number, number]>;
  beforeAll(async () => {
    const raw = await rawServer();
    try {
      baseline = await statuses(raw);
    } finally {
      await raw.close();
    }
    expect(Object.keys(PROBES)).toEqual(OPERATION_IDS);
    for (const [id, [v1, v2]] of Object.entries(baseline)) {
      expect(v2, id).toBeLessThan(300);
      expect(v1, id).toBe(PROBES[id]?.v1 === true ? v2 : 404);
    }
  });

  test.each(OPERATION_IDS)('intapi.unrouted:%s answers that operation as an unknown route, and only it', async (operation) => {
    const raw = await rawServer([`intapi.unrouted:${operation}`]);
    try {
      const p = PROBES[operation];
      if (p === undefined) throw new Error(operation);
      // In every version, with or without credentials: the route does not exist.
      for (const version of ['1', '2', null, '3']) {
        expectErrorBody(await raw.call(p.method, p.path, { body: p.body, version }), 404, 'NotFound');
      }
      expectErrorBody(await raw.call(p.method, p.path, { body: p.body, key: false, token: false }), 404, 'NotFound');
      const routed = await statuses(raw);
      expect(routed).toEqual({ ...baseline, [operation]: [404, 404] });
    } finally {
      await raw.close();
    }
  });
});

describe('intapi.key-unchecked:<operationId>', () => {
  test('one per operation, each with a description', () => {
    expect(family('intapi.key-unchecked:')).toEqual(OPERATION_IDS.map((id) => `intapi.key-unchecked:${id}`));
    for (const name of family('intapi.key-unchecked:')) expect(INTAPI_FAULTS[name]?.description.length).toBeGreaterThan(20);
  });

  test.each(OPERATION_IDS)('intapi.key-unchecked:%s serves that operation without x-api-key or with a wrong one, and only it', async (operation) => {
    const raw = await rawServer([`intapi.key-unchecked:${operation}`]);
    try {
      const p = PROBES[operation];
      if (p === undefined) throw new Error(operation);
      const other = operation === 'templates.list' ? 'resources.list' : 'templates.list';
      expectErrorBody(await raw.call('GET', other === 'templates.list' ? '/templates' : '/resources', { key: false }), 401, 'Unauthorized');
      expect((await raw.call(p.method, p.path, { body: p.body, key: false })).status).toBeLessThan(300);
    } finally {
      await raw.close();
    }
  });
});

describe('intapi.v1-served:<operationId>', () => {
  const V2_ONLY = OPERATION_IDS.filter((id) => PROBES[id]?.v1 === false);
  test('one per version-2-only operation, each with a description', () => {
    expect(family('intapi.v1-served:')).toEqual(V2_ONLY.map((id) => `intapi.v1-served:${id}`));
    for (const name of family('intapi.v1-served:')) expect(INTAPI_FAULTS[name]?.description.length).toBeGreaterThan(20);
  });

  test.each(V2_ONLY)('intapi.v1-served:%s serves that operation with version 1, and only it', async (operation) => {
    const raw = await rawServer([`intapi.v1-served:${operation}`]);
    try {
      const served = await statuses(raw);
      for (const [id, [v1, v2]] of Object.entries(served)) expect(v1, id).toBe(id === operation || PROBES[id]?.v1 === true ? v2 : 404);
    } finally {
      await raw.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------

/** Every case of an unknown (well-formed) path id: the operation, the request, and the blank answer. */
interface UnknownCase {
  readonly operation: string;
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly blank: unknown;
}

const blankResource = (id: string) => ({ id, name: '', description: '', file: null });
const blankSubmission = (id: string) => ({
  id,
  userId: NIL,
  templateId: NIL,
  title: ' ',
  completionDate: '1970-01-01T00:00:00.000Z',
  status: null,
  cost: null,
  credits: null,
  description: null,
  expiryDate: null,
  startDate: null,
  score: null,
  grade: null,
  totalTimeSpent: null,
  vendor: null,
  vendorAddress: null,
});
const blankQuestion = (id: string) => ({ id, questionType: 0, name: '', correctReply: null, incorrectReply: null, attachment: null, questionOptions: [] });
const blankUser = (id: string) => ({ id, username: '', firstName: '', lastName: '', email: '', managerId: null, jobTitle: null, IsManager: false });
const NO_REPORTS = { totalItems: 0, returnedItems: 0, limit: 20, offset: 0, directReports: [] };
const SUBMISSION_UPDATE = { title: 't', completionDate: '2024-01-01T00:00:00Z' };
const blankGroup = (id: string) => ({ id, name: ' ', description: null, groupType: 'Manual', userIds: [] });
const blankEnrollment = (userId: string, courseId: string, sessionIds: string[]) => ({
  id: NIL,
  userId,
  courseId,
  sessionIds,
  status: 0,
  credits: null,
  enrollmentDate: '1970-01-01T00:00:00.000Z',
});
const sessionPath = (user: string, course: string, session: string) => `/users/${user}/enrollments/${course}/session/${session}`;

const UNKNOWN_CASES: readonly UnknownCase[] = [
  { operation: 'resources.get', label: 'resource', method: 'GET', path: `/resources/${UNKNOWN}`, blank: blankResource(UNKNOWN) },
  { operation: 'resources.listForUser', label: 'user', method: 'GET', path: `/users/${UNKNOWN}/resources`, blank: [] },
  { operation: 'resources.listForCourse', label: 'course', method: 'GET', path: `/courses/${UNKNOWN}/resources`, blank: [] },
  { operation: 'resources.getForCourse', label: 'course', method: 'GET', path: `/courses/${UNKNOWN}/resources/${RESOURCE1}`, blank: blankResource(RESOURCE1) },
  { operation: 'resources.getForCourse', label: 'resource', method: 'GET', path: `/courses/${COURSE1}/resources/${UNKNOWN}`, blank: blankResource(UNKNOWN) },
  { operation: 'resources.listForEnrollment', label: 'user', method: 'GET', path: `/users/${UNKNOWN}/enrollments/${COURSE1}/resources`, blank: [] },
  { operation: 'resources.listForEnrollment', label: 'course', method: 'GET', path: `/users/${ADMIN}/enrollments/${UNKNOWN}/resources`, blank: [] },
  { operation: 'resources.listMineForCourse', label: 'course', method: 'GET', path: `/enrollments/${UNKNOWN}/myresources`, blank: [] },
  { operation: 'submissions.get', label: 'submission', method: 'GET', path: `/submissions/${UNKNOWN}`, blank: blankSubmission(UNKNOWN) },
  {
    operation: 'submissions.update',
    label: 'submission',
    method: 'PUT',
    path: `/submissions/${UNKNOWN}`,
    body: SUBMISSION_UPDATE,
    blank: blankSubmission(UNKNOWN),
  },
  { operation: 'templates.get', label: 'template', method: 'GET', path: `/templates/${UNKNOWN}`, blank: { id: UNKNOWN, name: '', isActive: false } },
  { operation: 'questionBanks.get', label: 'bank', method: 'GET', path: `/question-banks/${UNKNOWN}`, blank: { id: UNKNOWN, name: '' } },
  {
    operation: 'questionBanks.update',
    label: 'bank',
    method: 'PUT',
    path: `/question-banks/${UNKNOWN}`,
    body: { name: 'm' },
    blank: { id: UNKNOWN, name: '' },
  },
  {
    operation: 'questions.list',
    label: 'bank',
    method: 'GET',
    path: `/question-banks/${UNKNOWN}/questions`,
    blank: { totalItems: 0, returnedItems: 0, limit: 20, offset: 0, questionBanks: [] },
  },
  {
    operation: 'questions.create',
    label: 'bank',
    method: 'POST',
    path: `/question-banks/${UNKNOWN}/questions`,
    body: QUESTION_BODY,
    blank: blankQuestion(NIL),
  },
  { operation: 'questions.get', label: 'bank', method: 'GET', path: `/question-banks/${UNKNOWN}/questions/${QUESTION}`, blank: blankQuestion(QUESTION) },
  { operation: 'questions.get', label: 'question', method: 'GET', path: `/question-banks/${BANK}/questions/${UNKNOWN}`, blank: blankQuestion(UNKNOWN) },
  {
    operation: 'questions.update',
    label: 'bank',
    method: 'PUT',
    path: `/question-banks/${UNKNOWN}/questions/${QUESTION}`,
    body: QUESTION_BODY,
    blank: blankQuestion(QUESTION),
  },
  {
    operation: 'questions.update',
    label: 'question',
    method: 'PUT',
    path: `/question-banks/${BANK}/questions/${UNKNOWN}`,
    body: QUESTION_BODY,
    blank: blankQuestion(UNKNOWN),
  },
  { operation: 'users.get', label: 'user', method: 'GET', path: `/users/${UNKNOWN}`, blank: blankUser(UNKNOWN) },
  { operation: 'users.update', label: 'user', method: 'PUT', path: `/users/${UNKNOWN}`, body: USER5_BODY, blank: blankUser(UNKNOWN) },
  { operation: 'managers.listDirectReports', label: 'manager', method: 'GET', path: `/managers/${UNKNOWN}/direct-reports`, blank: NO_REPORTS },
  {
    operation: 'managers.updateDirectReports',
    label: 'manager',
    method: 'POST',
    path: `/managers/${UNKNOWN}/direct-reports`,
    body: LEAD_REPORTS,
    blank: NO_REPORTS,
  },
  {
    operation: 'evaluationQuestions.list',
    label: 'course',
    method: 'GET',
    path: `/courses/${UNKNOWN}/evaluation-questions`,
    blank: emptyEnvelope('evaluationQuestions'),
  },
  {
    operation: 'evaluationQuestions.get',
    label: 'course',
    method: 'GET',
    path: `/courses/${UNKNOWN}/evaluation-questions/${EVALUATION_QUESTION}`,
    blank: blankEvaluationQuestion(EVALUATION_QUESTION),
  },
  {
    operation: 'evaluationQuestions.get',
    label: 'question',
    method: 'GET',
    path: `/courses/${COURSE1}/evaluation-questions/${UNKNOWN}`,
    blank: blankEvaluationQuestion(UNKNOWN),
  },
  {
    operation: 'evaluationAnswers.list',
    label: 'course',
    method: 'GET',
    path: `/courses/${UNKNOWN}/evaluation-answers`,
    blank: emptyEnvelope('evaluationAnswers'),
  },
  { operation: 'provinces.get', label: 'province', method: 'GET', path: `/provinces/${UNKNOWN}`, blank: { id: UNKNOWN, countryId: NIL, code: '', name: '' } },
  { operation: 'groups.get', label: 'group', method: 'GET', path: `/groups/${UNKNOWN}`, blank: blankGroup(UNKNOWN) },
  { operation: 'groups.update', label: 'group', method: 'PUT', path: `/groups/${UNKNOWN}`, body: { name: 'h' }, blank: blankGroup(UNKNOWN) },
  {
    operation: 'groups.assignUsers',
    label: 'group',
    method: 'POST',
    path: `/groups/${UNKNOWN}/users/assign`,
    body: { userIds: [ADMIN] },
    blank: blankGroup(UNKNOWN),
  },
  {
    operation: 'groups.unassignUsers',
    label: 'group',
    method: 'POST',
    path: `/groups/${UNKNOWN}/users/unassign`,
    body: { userIds: [ADMIN] },
    blank: blankGroup(UNKNOWN),
  },
  { operation: 'groups.listUsers', label: 'group', method: 'GET', path: `/groups/${UNKNOWN}/users`, blank: emptyEnvelope('users') },
  { operation: 'enrollments.list', label: 'user', method: 'GET', path: `/users/${UNKNOWN}/enrollments`, blank: emptyEnvelope('enrollments') },
  {
    operation: 'enrollments.create',
    label: 'user',
    method: 'POST',
    path: `/users/${UNKNOWN}/enrollments`,
    body: { courseId: COURSE1 },
    blank: blankEnrollment(UNKNOWN, NIL, []),
  },
  {
    operation: 'enrollments.enrollSession',
    label: 'user',
    method: 'POST',
    path: sessionPath(UNKNOWN, COURSE4, SESSION),
    blank: blankEnrollment(UNKNOWN, COURSE4, [SESSION]),
  },
  {
    operation: 'enrollments.enrollSession',
    label: 'course',
    method: 'POST',
    path: sessionPath(ADMIN, UNKNOWN, SESSION),
    blank: blankEnrollment(ADMIN, UNKNOWN, [SESSION]),
  },
  {
    operation: 'enrollments.enrollSession',
    label: 'session',
    method: 'POST',
    path: sessionPath(ADMIN, COURSE4, UNKNOWN),
    blank: blankEnrollment(ADMIN, COURSE4, [UNKNOWN]),
  },
];

/** Row counts of every writable table: an unknown id must store nothing. */
function counts(store: Store): number[] {
  const questions = store.questionBanks.values().reduce((n, bank) => n + (store.questionsOf(bank.id)?.size ?? 0), 0);
  return [store.submissions.size, store.questionBanks.size, questions, store.submissions.values().filter((s) => s.title === 't').length];
}

describe('intapi.unknown-id-ok:<operationId>', () => {
  test('every operation with a path id has its cases, and without the fault each case is 404', async () => {
    expect([...new Set(UNKNOWN_CASES.map((c) => c.operation))]).toEqual(PATH_ID_OPERATIONS);
    const raw = await rawServer();
    try {
      for (const c of UNKNOWN_CASES) expectErrorBody(await raw.call(c.method, c.path, { body: c.body }), 404, 'NotFound');
    } finally {
      await raw.close();
    }
  });

  test.each(PATH_ID_OPERATIONS)(
    'intapi.unknown-id-ok:%s answers 200 and the blank answer for each unknown id, storing nothing; nothing else changes',
    async (operation) => {
      const raw = await rawServer([`intapi.unknown-id-ok:${operation}`]);
      try {
        const before = counts(raw.store);
        for (const c of UNKNOWN_CASES) {
          const res = await raw.call(c.method, c.path, { body: c.body });
          if (c.operation === operation) {
            expect([c.label, res.status, res.contentType.split(';')[0]]).toEqual([c.label, 200, 'application/json']);
            expect(res.json, c.label).toEqual(c.blank);
          } else {
            expectErrorBody(res, 404, 'NotFound');
          }
        }
        expect(counts(raw.store)).toEqual(before);
        expect(raw.store.submissions.get(UNKNOWN)).toBeUndefined();
        expect(raw.store.questionsOf(UNKNOWN)).toBeUndefined();
        // Known records answer as before, and a path id that is not a GUID is still 422.
        const p = PROBES[operation];
        if (p === undefined) throw new Error(operation);
        expect((await raw.call(p.method, p.path, { body: p.body })).status).toBeLessThan(300);
        for (const c of UNKNOWN_CASES.filter((u) => u.operation === operation)) {
          expectErrorBody(await raw.call(c.method, c.path.replace(UNKNOWN, 'not-a-guid'), { body: c.body }), 422, 'ValidationFailed');
        }
      } finally {
        await raw.close();
      }
    },
  );

  test('the blank answers follow the other behaviour entries and never give a 5xx', async () => {
    const raw = await rawServer([...PATH_ID_OPERATIONS.map((o) => `intapi.unknown-id-ok:${o}`), 'intapi.null-fields-omitted', 'intapi.default-limit-10']);
    try {
      // The question list of an unknown bank echoes the list parameters in force, and still refuses bad ones.
      expect((await raw.call('GET', `/question-banks/${UNKNOWN}/questions?_limit=5&_offset=3`)).json).toEqual({
        totalItems: 0,
        returnedItems: 0,
        limit: 5,
        offset: 3,
        questionBanks: [],
      });
      expect((await raw.call('GET', `/question-banks/${UNKNOWN}/questions`)).obj.limit).toBe(10);
      expectErrorBody(await raw.call('GET', `/question-banks/${UNKNOWN}/questions?_limit=0`), 422);
      // Unset fields are left out under intapi.null-fields-omitted.
      expect((await raw.call('GET', `/resources/${UNKNOWN}`)).json).toEqual({ id: UNKNOWN, name: '', description: '' });
      // A question created under an unknown bank takes the id the body asks for.
      expect((await raw.call('POST', `/question-banks/${UNKNOWN}/questions`, { body: { ...QUESTION_BODY, id: UNKNOWN } })).obj.id).toBe(UNKNOWN);
      // A resource of another course is not an unknown id; an unenrolled course neither.
      expectErrorBody(await raw.call('GET', `/courses/${COURSE1}/resources/${RESOURCE4}`), 404);
      expectErrorBody(await raw.call('GET', `/enrollments/${COURSE4}/myresources`), 404);
      expectErrorBody(await raw.call('GET', `/users/${ADMIN}/enrollments/${COURSE4}/resources`), 404);
      // Version 1 and the auth checks come first.
      expectErrorBody(await raw.call('GET', `/submissions/${UNKNOWN}`, { version: '1' }), 404);
      expectErrorBody(await raw.call('GET', `/resources/${UNKNOWN}`, { token: false }), 401);
      for (const c of UNKNOWN_CASES) {
        const bodies = c.method === 'GET' ? [undefined] : [undefined, '{', { junk: true }, []];
        for (const body of bodies) expect((await raw.call(c.method, c.path, { body })).status).toBeLessThan(500);
      }
    } finally {
      await raw.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('alteredValue (rules/lossy.ts)', () => {
  const fresh = () => NIL;
  test.each([
    [{ name: 'd', type: 'string', format: 'date-time' } as const, '2024-03-01T10:00:00+02:00', '2024-03-02T08:00:00.000Z'],
    [{ name: 'd', type: 'string', format: 'date-time' } as const, '9999-12-31T12:00:00Z', '9999-12-30T12:00:00.000Z'],
    [{ name: 'status', type: 'integer', enum: [0, 1, 2] } as const, 2, 0],
    [{ name: 'status', type: 'integer', enum: [0, 1, 2] } as const, 0, 1],
    [{ name: 'questionType', type: 'string', enum: ['SingleAnswer', 'MultipleAnswer', 'Text'] } as const, 'Text', 'SingleAnswer'],
    [{ name: 't', type: 'string', minLength: 1, maxLength: 255 } as const, 'abc', 'ab'],
    [{ name: 't', type: 'string', minLength: 1, maxLength: 255 } as const, 'a', 'x'],
    [{ name: 't', type: 'string', minLength: 1, maxLength: 255 } as const, 'x', 'y'],
    [{ name: 't', type: 'string', minLength: 0, maxLength: 255 } as const, '', 'x'],
    [{ name: 't', type: 'string', minLength: 0, maxLength: 255 } as const, 'ab🚀', 'ab'],
    [{ name: 't', type: 'string', minLength: 3, maxLength: 5 } as const, 'abc', 'abx'],
    [{ name: 't', type: 'string', maxLength: 3 } as const, 'abc', 'ab'],
    [{ name: 'n', type: 'number', minimum: 0, maximum: 100 } as const, 99.5, 98.5],
    [{ name: 'n', type: 'number', minimum: 0, maximum: 100 } as const, 0, 1],
    [{ name: 'n', type: 'number', minimum: 0, maximum: 100 } as const, 100, 99],
    [{ name: 'id', type: 'string', format: 'guid' } as const, UNKNOWN, NIL],
  ])('%o: %o becomes %o', (field, value, expected) => {
    expect(alteredValue(field, value, fresh)).toEqual(expected);
  });
});

type Op = 'submissions.create' | 'submissions.update' | 'questionBanks.create' | 'questionBanks.update' | 'questions.create' | 'questions.update';

const FULL_SUBMISSION = {
  ...VALID_SUBMISSION,
  status: 2,
  cost: '$10',
  credits: 1.5,
  description: 'd',
  expiryDate: '2025-03-01T00:00:00Z',
  startDate: '2024-02-01T00:00:00+01:00',
  score: 99.5,
  grade: 'A',
  totalTimeSpent: 1_000_000,
  vendor: 'Acme',
  vendorAddress: 'Road 1',
};
const { userId: _user, templateId: _template, ...SUBMISSION_PUT } = FULL_SUBMISSION;
let clientIds = 0;
/** A fresh client-chosen id per write (the normal server is shared). */
const clientId = () => `1d1d1d1d-0000-4000-8000-${String(++clientIds).padStart(12, '0')}`;
const FULL_QUESTION = {
  questionType: 'MultipleAnswer',
  name: 'Which?',
  correctReply: 'yes',
  incorrectReply: '',
  attachment: 'a.png',
  questionOptions: [{ name: 'A' }],
};

/** What each lossy field is sent as, and what the faulty server keeps instead. */
const ALTERED: Readonly<Record<string, readonly [unknown, unknown]>> = {
  title: ['External course', 'External cours'],
  completionDate: ['2024-03-01T10:00:00.000Z', '2024-03-02T10:00:00.000Z'],
  status: [2, 0],
  cost: ['$10', '$1'],
  credits: [1.5, 2.5],
  description: ['d', 'x'],
  expiryDate: ['2025-03-01T00:00:00.000Z', '2025-03-02T00:00:00.000Z'],
  startDate: ['2024-01-31T23:00:00.000Z', '2024-02-01T23:00:00.000Z'],
  score: [99.5, 98.5],
  grade: ['A', 'x'],
  totalTimeSpent: [1_000_000, 999_999],
  vendor: ['Acme', 'Acm'],
  vendorAddress: ['Road 1', 'Road '],
};
const ALTERED_BANK: Readonly<Record<string, readonly [unknown, unknown]>> = { name: ['Bank', 'Ban'], id: ['client', 'generated'] };
const ALTERED_QUESTION: Readonly<Record<string, readonly [unknown, unknown]>> = {
  questionType: [1, 2],
  name: ['Which?', 'Which'],
  correctReply: ['yes', 'ye'],
  incorrectReply: ['', 'x'],
  attachment: ['a.png', 'a.pn'],
  id: ['client', 'generated'],
};

/** Sends the operation's full body; the answer, the record read back and the client id sent (create of banks and questions). */
async function write(h: Harness, op: Op): Promise<[Answer, JsonRecord, string | undefined]> {
  const id = clientId();
  const bankId = async () => String((await h.call('POST', '/question-banks', { body: { name: 'b' } })).obj.id);
  switch (op) {
    case 'submissions.create':
    case 'submissions.update': {
      let res = await h.call('POST', '/submissions', { body: FULL_SUBMISSION });
      if (op === 'submissions.update') {
        const created = await h.call('POST', '/submissions', { body: VALID_SUBMISSION });
        res = await h.call('PUT', `/submissions/${String(created.obj.id)}`, { body: SUBMISSION_PUT });
      }
      return [res, (await h.get(`/submissions/${String(res.obj.id)}`)).obj, undefined];
    }
    case 'questionBanks.create':
    case 'questionBanks.update': {
      const res =
        op === 'questionBanks.create'
          ? await h.call('POST', '/question-banks', { body: { id, name: 'Bank' } })
          : await h.call('PUT', `/question-banks/${await bankId()}`, { body: { name: 'Bank' } });
      return [res, (await h.get(`/question-banks/${String(res.obj.id)}`)).obj, op === 'questionBanks.create' ? id : undefined];
    }
    case 'questions.create':
    case 'questions.update': {
      const bank = await bankId();
      const res =
        op === 'questions.create'
          ? await h.call('POST', `/question-banks/${bank}/questions`, { body: { ...FULL_QUESTION, id } })
          : await h.call(
              'PUT',
              `/question-banks/${bank}/questions/${String((await h.call('POST', `/question-banks/${bank}/questions`, { body: QUESTION_BODY })).obj.id)}`,
              {
                body: FULL_QUESTION,
              },
            );
      return [res, (await h.get(`/question-banks/${bank}/questions/${String(res.obj.id)}`)).obj, op === 'questions.create' ? id : undefined];
    }
  }
}

describe('intapi.lossy-store:<operation>.<field>', () => {
  let normal: Harness;
  beforeAll(async () => {
    normal = await startServer();
  });
  afterAll(() => normal.close());

  test.each(LOSSY_FIELDS)('intapi.lossy-store:%s stores and answers another valid value for that field only', async (name) => {
    const [op, field] = [name.slice(0, name.lastIndexOf('.')) as Op, name.slice(name.lastIndexOf('.') + 1)];
    const table = op.startsWith('submissions') ? ALTERED : op.startsWith('questionBanks') ? ALTERED_BANK : ALTERED_QUESTION;
    const [sent, kept] = table[field] ?? [];
    const faulty = await startServer({ faults: [`intapi.lossy-store:${name}`] });
    try {
      const [okAnswer, okRead, okId] = await write(normal, op);
      const [badAnswer, badRead, badId] = await write(faulty, op);
      expect(okAnswer.status).toBeLessThan(300);
      expect(badAnswer.status).toBe(okAnswer.status);
      // Without the fault: stored and answered as sent (date-times canonical, questionType as its integer).
      expect(okAnswer.obj[field]).toEqual(sent === 'client' ? okId : sent);
      expect(okRead).toEqual(okAnswer.obj);
      // With it: stored as answered, the field altered.
      expect(badRead).toEqual(badAnswer.obj);
      if (kept === 'generated') {
        expect(badAnswer.obj.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(badAnswer.obj.id).not.toBe(badId);
      } else {
        expect(badAnswer.obj[field]).toEqual(kept);
        // A client-chosen id is kept when the fault is about another field.
        if (badId !== undefined) expect(badAnswer.obj.id).toBe(badId);
      }
      // Every other field as without the fault (ids and generated option ids aside).
      const rest = (record: JsonRecord) =>
        Object.fromEntries(Object.entries(record).filter(([key]) => key !== field && key !== 'id' && key !== 'questionOptions'));
      expect(rest(badAnswer.obj)).toEqual(rest(okAnswer.obj));
      if ('questionOptions' in okAnswer.obj)
        expect(badAnswer.obj.questionOptions).toEqual([expect.objectContaining({ name: 'A', isCorrect: false, order: 0 })]);
    } finally {
      await faulty.close();
    }
  });

  test('a lossy client id still refuses a duplicate of the id sent (409), and the bank is stored under the generated id', async () => {
    const h = await startServer({ faults: ['intapi.lossy-store:questionBanks.create.id', 'intapi.lossy-store:questions.create.id'] });
    try {
      const bank = await h.call('POST', '/question-banks', { body: { id: TEMPLATE, name: 'b' } });
      expect(bank.status).toBe(201);
      expect(bank.obj.id).not.toBe(TEMPLATE);
      expect((await h.get(`/question-banks/${String(bank.obj.id)}`)).obj).toEqual(bank.obj);
      expectErrorBody(await h.get(`/question-banks/${TEMPLATE}`), 404);
      const existing = String(bank.obj.id);
      expectErrorBody(await h.call('POST', '/question-banks', { body: { id: existing, name: 'again' } }), 409, 'Conflict');
      const question = await h.call('POST', `/question-banks/${existing}/questions`, { body: { ...QUESTION_BODY, id: UNKNOWN } });
      expect(question.obj.id).not.toBe(UNKNOWN);
      const questionId = String(question.obj.id);
      expectErrorBody(await h.call('POST', `/question-banks/${existing}/questions`, { body: { ...QUESTION_BODY, id: questionId } }), 409, 'Conflict');
    } finally {
      await h.close();
    }
  });

  test('with every lossy fault on, absent and null optional fields stay null and bounds hold', async () => {
    const h = await startServer({ faults: family('intapi.lossy-store:') });
    try {
      const res = await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, title: 't'.repeat(255), cost: null } });
      expect(res.status).toBe(201);
      expect(res.obj).toMatchObject({ title: 't'.repeat(254), cost: null, status: null, score: null, completionDate: '2024-03-02T10:00:00.000Z' });
      const edge = await h.call('POST', '/submissions', {
        body: { ...VALID_SUBMISSION, title: 'x', score: 100, credits: 0, completionDate: '9999-12-31T23:59:59.999Z' },
      });
      expect(edge.obj).toMatchObject({ title: 'y', score: 99, credits: 1, completionDate: '9999-12-30T23:59:59.999Z' });
      const bank = await h.call('POST', '/question-banks', { body: { name: '' } });
      expect(bank.obj.name).toBe('x');
    } finally {
      await h.close();
    }
  });
});
