// Authentication of the Integration API (spec#integration-api under Authentication;
// public-facts#authentication-integration-api: the key is mandatory, tokens come from POST /authenticate).
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import type { ApiRequest } from '../_harness/http.js';
import { unknownId } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { marked } from '../_harness/marker.js';
import { validQuestion, validQuestionBank, validUser } from '../_harness/intapi/records.js';

const FACTS = 'public-facts#authentication-integration-api';
/** Asks for a new token, which revokes the session's: no other check may be in flight (scheduler.ts). */
const ROTATES = { rotatesSession: true };
/** One read per family of operations, so that a key check missing on one of them shows. Each probe
 * is its own check (`intapi.auth.missing-key-401.<probe>`): one verdict per request that can fail. */
const PROBES: readonly { name: string; label: string; request: ApiRequest }[] = [
  { name: 'resources-v1', label: 'list resources, v1', request: { op: 'resources.list', version: '1' } },
  { name: 'resources-v2', label: 'list resources, v2', request: { op: 'resources.list' } },
  { name: 'submissions', label: 'list submissions', request: { op: 'submissions.list' } },
  { name: 'templates', label: 'list templates', request: { op: 'templates.list' } },
  { name: 'question-banks', label: 'list question banks', request: { op: 'questionBanks.list' } },
];

for (const { name, label, request } of PROBES) {
  requirement(
    { id: `intapi.auth.missing-key-401.${name}`, level: 'PROFILE', spec: FACTS, title: `A request without x-api-key answers 401 (${label})` },
    async (t) => {
      expectStatus(await t.http.send({ ...request, apiKey: 'none' }), 401, 'without x-api-key');
    },
  );

  requirement(
    { id: `intapi.auth.wrong-key-401.${name}`, level: 'PROFILE', spec: FACTS, title: `A request with a wrong x-api-key answers 401 (${label})` },
    async (t) => {
      expectStatus(await t.http.send({ ...request, apiKey: 'lpc-wrong-key-0000' }), 401, 'with a wrong x-api-key');
    },
  );

  requirement(
    { id: `intapi.auth.missing-token-401.${name}`, level: 'PROFILE', spec: FACTS, title: `A request with a key but no bearer token answers 401 (${label})` },
    async (t) => {
      expectStatus(await t.http.send({ ...request, token: 'none' }), 401, 'without Authorization');
    },
  );
}

requirement(
  {
    id: 'intapi.auth.authenticate-token',
    level: 'PROFILE',
    spec: FACTS,
    title: 'POST /authenticate with valid credentials answers 200 with a token string that works',
  },
  async (t) => {
    const res = await t.http.send({ op: 'auth.authenticate', json: credentialsBody(t, {}) });
    const token = typeof res.json === 'string' ? res.json : '';
    t.secrets.remember('LPC_NEW_TOKEN', token);
    try {
      expectStatus(res, 200);
      if (token.length === 0) fail('a bare JSON string: the token', describeResponse(res), res);
      expectStatus(await t.http.send({ op: 'templates.list', token: { env: 'LPC_NEW_TOKEN', value: token } }), 200, 'with the new token');
    } finally {
      // The new token revoked the session's (public-facts): the session takes a fresh one. A target
      // that cannot issue one fails the checks that need it; this check's verdict stands.
      await t.secrets.authenticate('intapi').catch(() => undefined);
    }
  },
  ROTATES,
);

requirement(
  { id: 'intapi.auth.raw-token-accepted', level: 'PROFILE', spec: FACTS, title: 'A token sent without the Bearer prefix is accepted too' },
  async (t) => {
    expectStatus(await t.http.send({ op: 'templates.list', token: 'raw' }), 200, 'with a raw token');
  },
);

requirement(
  { id: 'intapi.auth.reissue-revokes-previous', level: 'PROFILE', spec: FACTS, title: "A new token for a user invalidates the user's previous token" },
  async (t) => {
    if (t.profile.credentials.token) t.skip('the profile gives a token, not credentials to obtain one');
    const previous = await t.secrets.token('intapi');
    await t.secrets.authenticate('intapi');
    const res = await t.http.send({ op: 'templates.list', token: { env: 'LPC_PREVIOUS_TOKEN', value: previous.value } });
    expectStatus(res, 401, 'with the previous token');
  },
  ROTATES,
);

/** Every other operation of the profile, one probe each (the specification lists x-api-key on every
 * operation; public-facts: a missing or invalid key gets 401). Version 2 (the learning-resource
 * operations' v1 surface is the same operation). Path ids are fresh GUIDs and bodies valid ones: a
 * target that served the request without checking the key would answer 2xx or 404, never 401.
 * Names lead with the verb, so that no name is a prefix of another (ids are matched by prefix). */
const KEY_PROBES: readonly { name: string; label: string; request: (t: CheckContext) => ApiRequest; writes?: string }[] = [
  { name: 'get-resource', label: 'get resource', request: (t) => ({ op: 'resources.get', params: { resourceId: unknownId(t) } }) },
  { name: 'list-user-resources', label: 'list resources of a user', request: (t) => ({ op: 'resources.listForUser', params: { userId: unknownId(t) } }) },
  { name: 'list-my-resources', label: 'list resources of the current user', request: () => ({ op: 'resources.listMine' }) },
  {
    name: 'list-course-resources',
    label: 'list resources of a course',
    request: (t) => ({ op: 'resources.listForCourse', params: { courseId: unknownId(t) } }),
  },
  {
    name: 'get-course-resource',
    label: 'get resource of a course',
    request: (t) => ({ op: 'resources.getForCourse', params: { courseId: unknownId(t), resourceId: unknownId(t) } }),
  },
  {
    name: 'list-enrollment-resources',
    label: "list resources of a user's enrollment",
    request: (t) => ({ op: 'resources.listForEnrollment', params: { userId: unknownId(t), courseId: unknownId(t) } }),
  },
  {
    name: 'list-my-course-resources',
    label: 'list resources of a course for the current user',
    request: (t) => ({ op: 'resources.listMineForCourse', params: { courseId: unknownId(t) } }),
  },
  { name: 'create-submission', label: 'create submission', request: (t) => ({ op: 'submissions.create', json: anySubmission(t) }), writes: 'submissions' },
  { name: 'get-submission', label: 'get submission', request: (t) => ({ op: 'submissions.get', params: { id: unknownId(t) } }) },
  {
    name: 'update-submission',
    label: 'update submission',
    request: (t) => ({
      op: 'submissions.update',
      params: { id: unknownId(t) },
      json: { title: marked(t, 'lp-conformance'), completionDate: '2024-05-01T10:00:00.000Z' },
    }),
    writes: 'submissions',
  },
  { name: 'get-template', label: 'get template', request: (t) => ({ op: 'templates.get', params: { id: unknownId(t) } }) },
  {
    name: 'create-question-bank',
    label: 'create question bank',
    request: (t) => ({ op: 'questionBanks.create', json: validQuestionBank(t) }),
    writes: 'questionBanks',
  },
  { name: 'get-question-bank', label: 'get question bank', request: (t) => ({ op: 'questionBanks.get', params: { questionBankId: unknownId(t) } }) },
  {
    name: 'update-question-bank',
    label: 'update question bank',
    request: (t) => ({ op: 'questionBanks.update', params: { questionBankId: unknownId(t) }, json: validQuestionBank(t) }),
    writes: 'questionBanks',
  },
  { name: 'list-bank-questions', label: 'list questions', request: (t) => ({ op: 'questions.list', params: { questionBankId: unknownId(t) } }) },
  {
    name: 'create-bank-question',
    label: 'create question',
    request: (t) => ({ op: 'questions.create', params: { questionBankId: unknownId(t) }, json: validQuestion(t) }),
    writes: 'questions',
  },
  {
    name: 'get-bank-question',
    label: 'get question',
    request: (t) => ({ op: 'questions.get', params: { questionBankId: unknownId(t), questionId: unknownId(t) } }),
  },
  {
    name: 'update-bank-question',
    label: 'update question',
    request: (t) => ({ op: 'questions.update', params: { questionBankId: unknownId(t), questionId: unknownId(t) }, json: validQuestion(t) }),
    writes: 'questions',
  },
  { name: 'list-users', label: 'list users', request: () => ({ op: 'users.list' }) },
  { name: 'get-user', label: 'get user', request: (t) => ({ op: 'users.get', params: { userId: unknownId(t) } }) },
  { name: 'get-my-details', label: "the current user's details", request: () => ({ op: 'users.myDetails' }) },
  {
    name: 'update-user',
    label: 'update user',
    request: (t) => ({ op: 'users.update', params: { userId: unknownId(t) }, json: validUser(t, 'key-probe') }),
    writes: 'users',
  },
  { name: 'upsert-user', label: 'upsert user', request: (t) => ({ op: 'users.upsert', json: validUser(t, 'key-probe') }), writes: 'users' },
  {
    name: 'list-direct-reports',
    label: 'list direct reports',
    request: (t) => ({ op: 'managers.listDirectReports', params: { managerId: unknownId(t) } }),
  },
  {
    name: 'update-direct-reports',
    label: 'update direct reports',
    request: (t) => ({ op: 'managers.updateDirectReports', params: { managerId: unknownId(t) }, json: { userIds: [] } }),
    writes: 'managers',
  },
  {
    name: 'list-evaluation-questions',
    label: 'list evaluation questions',
    request: (t) => ({ op: 'evaluationQuestions.list', params: { courseId: unknownId(t) } }),
  },
  {
    name: 'get-evaluation-question',
    label: 'get evaluation question',
    request: (t) => ({ op: 'evaluationQuestions.get', params: { courseId: unknownId(t), questionId: unknownId(t) } }),
  },
  {
    name: 'list-evaluation-answers',
    label: 'list evaluation answers',
    request: (t) => ({ op: 'evaluationAnswers.list', params: { courseId: unknownId(t) } }),
  },
  { name: 'list-countries', label: 'list countries', request: () => ({ op: 'countries.list' }) },
  { name: 'list-provinces', label: 'list provinces', request: (t) => ({ op: 'provinces.list', query: { countryId: unknownId(t) } }) },
  { name: 'get-province', label: 'get province', request: (t) => ({ op: 'provinces.get', params: { id: unknownId(t) } }) },
  { name: 'list-groups', label: 'list groups', request: () => ({ op: 'groups.list' }) },
  { name: 'get-group', label: 'get group', request: (t) => ({ op: 'groups.get', params: { groupId: unknownId(t) } }) },
  {
    name: 'create-group',
    label: 'create group',
    request: (t) => ({ op: 'groups.create', json: { name: marked(t, 'lp-conformance group'), groupType: 'Manual' } }),
    writes: 'groups',
  },
  {
    name: 'update-group',
    label: 'update group',
    request: (t) => ({ op: 'groups.update', params: { groupId: unknownId(t) }, json: { name: marked(t, 'lp-conformance group') } }),
    writes: 'groups',
  },
  {
    name: 'assign-group-users',
    label: 'assign users to a group',
    request: (t) => ({ op: 'groups.assignUsers', params: { groupId: unknownId(t) }, json: { userIds: [unknownId(t)] } }),
    writes: 'groups',
  },
  {
    name: 'unassign-group-users',
    label: 'unassign users from a group',
    request: (t) => ({ op: 'groups.unassignUsers', params: { groupId: unknownId(t) }, json: { userIds: [unknownId(t)] } }),
    writes: 'groups',
  },
  { name: 'list-group-users', label: "list a group's users", request: (t) => ({ op: 'groups.listUsers', params: { groupId: unknownId(t) } }) },
  { name: 'list-enrollments', label: "list a user's enrollments", request: (t) => ({ op: 'enrollments.list', params: { userId: unknownId(t) } }) },
  {
    name: 'create-enrollment',
    label: 'create enrollment',
    request: (t) => ({ op: 'enrollments.create', params: { userId: unknownId(t) }, json: { courseId: unknownId(t) } }),
    writes: 'enrollments',
  },
  {
    name: 'enroll-session',
    label: 'enroll in a session',
    request: (t) => ({ op: 'enrollments.enrollSession', params: { userId: unknownId(t), courseId: unknownId(t), sessionId: unknownId(t) } }),
    writes: 'enrollments',
  },
];

/** A submission body that is valid where the profile names its records (a request the key check must refuse first). */
const anySubmission = (t: CheckContext) => ({
  userId: t.profile.records.userId ?? unknownId(t),
  templateId: t.profile.records.templateId ?? unknownId(t),
  title: marked(t, 'lp-conformance submission'),
  completionDate: '2024-05-01T10:00:00.000Z',
});

for (const { name, label, request, writes } of KEY_PROBES) {
  // A target that does not check the key creates a record: the write is declared (scheduler.ts).
  const uses = writes ? { write: [writes] } : undefined;
  requirement(
    { id: `intapi.auth.missing-key-401.${name}`, level: 'PROFILE', spec: FACTS, title: `A request without x-api-key answers 401 (${label})` },
    async (t) => {
      expectStatus(await t.http.send({ ...request(t), apiKey: 'none' }), 401, 'without x-api-key');
    },
    uses,
  );
  requirement(
    { id: `intapi.auth.wrong-key-401.${name}`, level: 'PROFILE', spec: FACTS, title: `A request with a wrong x-api-key answers 401 (${label})` },
    async (t) => {
      expectStatus(await t.http.send({ ...request(t), apiKey: 'lpc-wrong-key-0000' }), 401, 'with a wrong x-api-key');
    },
    uses,
  );
}

// POST /authenticate with valid credentials: a target that ignores the key issues a token, which revokes the session's.
for (const [kind, apiKey, what] of [
  ['missing-key-401', 'none', 'without x-api-key'],
  ['wrong-key-401', 'lpc-wrong-key-0000', 'with a wrong x-api-key'],
] as const) {
  requirement(
    { id: `intapi.auth.${kind}.authenticate`, level: 'PROFILE', spec: FACTS, title: `POST /authenticate ${what} answers 401, even with valid credentials` },
    async (t) => {
      const res = await t.http.send({ op: 'auth.authenticate', json: credentialsBody(t, {}), apiKey });
      if (typeof res.json === 'string') t.secrets.remember('LPC_NEW_TOKEN', res.json);
      if (res.status >= 200 && res.status < 300) await t.secrets.authenticate('intapi');
      expectStatus(res, 401, what);
    },
    ROTATES,
  );
}

/** The POST /authenticate body from the profile's credentials, with `change` applied. */
function credentialsBody(t: CheckContext, change: Record<string, string | undefined>): Record<string, string> {
  const c = t.profile.credentials;
  if (!c.username || !c.password || !c.privateKey) t.skip('the profile gives a token, not credentials to obtain one');
  const env = (ref: { env: string }) => process.env[ref.env] ?? '';
  const body: Record<string, string | undefined> = { username: env(c.username), password: env(c.password), privateKey: env(c.privateKey), ...change };
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Sends POST /authenticate with a body that must be refused. A target that issues a token anyway
 * has revoked the session's (a new token invalidates the previous one): the session authenticates
 * again so that only this check fails. */
async function expectRefused(t: CheckContext, body: Record<string, string>, status: number): Promise<void> {
  const res = await t.http.send({ op: 'auth.authenticate', json: body });
  if (typeof res.json === 'string') t.secrets.remember('LPC_NEW_TOKEN', res.json);
  if (res.status >= 200 && res.status < 300) await t.secrets.authenticate('intapi');
  expectStatus(res, status);
}

requirement(
  { id: 'intapi.auth.authenticate-missing-field-400', level: 'PROFILE', spec: FACTS, title: 'POST /authenticate without the private key answers 400' },
  async (t) => {
    await expectRefused(t, credentialsBody(t, { privateKey: undefined }), 400);
  },
  ROTATES,
);

requirement(
  {
    id: 'intapi.auth.authenticate-wrong-credentials-401',
    // public-facts gives 401 for a missing or invalid key and 400 for missing body fields; the status
    // of wrong credentials is stated nowhere: the reference server's choice (docs/decisions/intapi/reference-choices.md "Authentication").
    level: 'PROFILE',
    spec: FACTS,
    title: "POST /authenticate with a wrong password answers 401 (the reference server's choice)",
  },
  async (t) => {
    await expectRefused(t, credentialsBody(t, { password: 'lpc-wrong-password-0000' }), 401);
  },
  ROTATES,
);
