/**
 * The Integration API's part of `lp-conformance init`: the records its checks read, found through the
 * API's own reads, and the choices its profile part declares, probed (docs/decisions/core/init.md "init").
 *
 * Records: the credentials' user (the current user's details); the enrollments of the first users
 * listed; among their courses, one with resources (and, preferably, course evaluations); a user not
 * enrolled in it; a learner with an address; a manager whose direct reports have reports; an active
 * template; a course of which an enrollment holds two sessions (multi-session). An enrollment of a
 * deleted course is never listed (spec#states-and-transitions), rules and mailboxes are not in the
 * API: those are left for the user, saying so. Requests are bounded whatever the target's size.
 */
import type { InitContext, InitPart, ToolAnswer } from '../family.js';
import { SetupError } from '../family.js';
import { isItem, type Item, itemsOf, mapLimit, ok, PartBuilder as Part, said } from '../init-part.js';
import { oauthClientPart } from '../init-oauth.js';
import { GROUP_FIELDS, RESOURCE_FIELDS, SUBMISSION_FIELDS, TEMPLATE_FIELDS, USER_FIELDS, DEFAULT_INTAPI_EXPECTATIONS } from './profile.js';
import type { OperationId } from '../../profile/base/routes.js';

/** Users whose enrollments are read: enough to find the records, bounded whatever the target holds. */
const USERS_READ = 40;
/** Courses whose resources are read. */
const COURSES_READ = 8;
/** Managers whose direct reports are read. */
const MANAGERS_READ = 20;

const idOf = (v: unknown): string | undefined => (isItem(v) && typeof v.id === 'string' ? v.id : undefined);
const same = (a: unknown, b: string): boolean => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

const GUID = '<guid>';

/** What the first reads found: the credentials' user, the users listed and read, their enrollments. */
interface Reads {
  readonly userId: string | undefined;
  readonly users: readonly Item[];
  /** The users whose enrollments were read, the credentials' own first. */
  readonly ids: readonly string[];
  readonly byId: ReadonlyMap<string, Item>;
  /** Each read user's enrollments, by lower-cased id. */
  readonly enrollments: ReadonlyMap<string, Item[]>;
  /** How they were read, for the reasons part.set gives. */
  readonly read: string;
}

type CourseResources = { courseId: string; count: number };

async function findRecords(ctx: InitContext, part: Part): Promise<{ userId?: string; templateId?: string }> {
  const reads = await readUsers(ctx, part);
  const { withResources, own } = await findEnrollment(ctx, part, reads);
  await findCourse(ctx, part, reads, withResources);
  const otherUserId = await findOtherUser(ctx, part, reads, own?.courseId);
  const multi = findMultiSession(part, reads);
  findLearner(part, reads, otherUserId, multi);
  await findManager(ctx, part, reads.users);
  part.lack(
    ['records', 'deletedCourseEnrollment'],
    'not found: enrollments of deleted courses are not returned (spec#states-and-transitions), so no read shows one: name a user enrolled in a course you deleted',
    { userId: GUID, courseId: GUID },
  );
  part.lack(
    ['records', 'ruleEnrollment'],
    'not found: the API has no read of automatic enrollment rules: name one of yours (the course it enrolls in, the jobTitle it matches, how long it may take)',
    { courseId: GUID, property: 'jobTitle', value: '<the job title it matches>', withinMs: 600000 },
  );
  const templateId = await findTemplate(ctx, part);
  const { userId } = reads;
  return { ...(userId ? { userId } : {}), ...(templateId ? { templateId } : {}) };
}

/** The credentials' user, the first users listed, and the enrollments of at most USERS_READ of them. */
async function readUsers(ctx: InitContext, part: Part): Promise<Reads> {
  const me = await ctx.send({ op: 'users.myDetails' });
  const userId = idOf(me.json);
  if (ok(me) && userId) part.set(['records', 'userId'], userId, `the credentials' own user (${me.request})`);
  else part.lack(['records', 'userId'], `not found: ${said(me)} with no user id`, GUID);

  const listed = await ctx.send({ op: 'users.list', query: { _limit: 100 } });
  const users = itemsOf(listed, 'users');
  const ids = [...new Set([...(userId ? [userId] : []), ...users.map(idOf).filter((id): id is string => id !== undefined)])].slice(0, USERS_READ);
  const byId = new Map(users.map((u) => [String(u.id).toLowerCase(), u]));
  const enrollments = new Map<string, Item[]>(
    await mapLimit(
      ids,
      4,
      async (id) =>
        [id.toLowerCase(), itemsOf(await ctx.send({ op: 'enrollments.list', params: { userId: id }, query: { _limit: 1000 } }), 'enrollments')] as const,
    ),
  );
  const read = `the enrollments of the ${ids.length} users read (${users.length} listed by GET /users?_limit=100)`;
  return { userId, users, ids, byId, enrollments, read };
}

/** Courses with resources among the read enrollments' (the credentials' own first), and an enrollment
 * of the credentials' user in one of them. */
async function findEnrollment(ctx: InitContext, part: Part, reads: Reads): Promise<{ withResources: CourseResources[]; own: CourseResources | undefined }> {
  const { userId, enrollments } = reads;
  const courses = [
    ...new Set(
      [...enrollments.values()]
        .flat()
        .map((e) => (typeof e.courseId === 'string' ? e.courseId : ''))
        .filter(Boolean),
    ),
  ];
  const mine = new Set((userId ? (enrollments.get(userId.toLowerCase()) ?? []) : []).map((e) => String(e.courseId).toLowerCase()));
  const candidates = [...courses.filter((c) => mine.has(c.toLowerCase())), ...courses.filter((c) => !mine.has(c.toLowerCase()))].slice(0, COURSES_READ);
  const resources = await mapLimit(candidates, 4, async (courseId) => ({
    courseId,
    count: itemsOf(await ctx.send({ op: 'resources.listForCourse', params: { courseId } }), 'resources').length,
  }));
  const withResources = resources.filter((r) => r.count > 0);
  const own = withResources.find((r) => mine.has(r.courseId.toLowerCase()));
  if (own && userId) {
    part.set(
      ['records', 'enrollment'],
      { userId, courseId: own.courseId },
      `the credentials' user is enrolled in this course, which has ${own.count} resources`,
    );
  } else {
    part.lack(
      ['records', 'enrollment'],
      `not found: no enrollment of the credentials' user is in a course with resources (the checks of the current user's course resources need one)`,
      { userId: GUID, courseId: GUID },
    );
  }
  return { withResources, own };
}

/** records.courseId: a course with resources, preferably one with course evaluations (read of it). */
async function findCourse(ctx: InitContext, part: Part, reads: Reads, withResources: readonly CourseResources[]): Promise<void> {
  let course: (CourseResources & { evaluations: boolean }) | undefined;
  for (const r of withResources.slice(0, 5)) {
    const [questions, answers] = await Promise.all([
      ctx.send({ op: 'evaluationQuestions.list', params: { courseId: r.courseId } }),
      ctx.send({ op: 'evaluationAnswers.list', params: { courseId: r.courseId } }),
    ]);
    const evaluations = itemsOf(questions, 'evaluationQuestions').length > 0 && itemsOf(answers, 'evaluationAnswers').length > 0;
    if (evaluations || !course) course = { ...r, evaluations };
    if (evaluations) break;
  }
  if (course) {
    const evaluations = course.evaluations
      ? ' and course evaluations (questions and answers)'
      : '; no course read has course evaluations, so their checks are skipped';
    part.set(['records', 'courseId'], course.courseId, `a course of ${reads.read} with ${course.count} resources${evaluations}`);
  } else part.lack(['records', 'courseId'], `not found: no course of ${reads.read} has resources`, GUID);
}

/** Another user, not enrolled in the enrollment's course (its resources answer 404 for them). */
async function findOtherUser(ctx: InitContext, part: Part, reads: Reads, enrolledCourse: string | undefined): Promise<string | undefined> {
  const { userId, ids, enrollments } = reads;
  for (const id of ids) {
    if (!enrolledCourse || (userId && same(id, userId))) continue;
    if ((enrollments.get(id.toLowerCase()) ?? []).some((e) => same(e.courseId, enrolledCourse))) continue;
    const res = await ctx.send({ op: 'resources.listForEnrollment', params: { userId: id, courseId: enrolledCourse } });
    if (res.status === 404) {
      part.set(['records', 'otherUserId'], id, `a user not enrolled in records.enrollment.courseId: the resources of their enrollment in it answered 404`);
      return id;
    }
  }
  part.lack(['records', 'otherUserId'], `not found: no user of the ${ids.length} read is outside records.enrollment.courseId`, GUID);
  return undefined;
}

type MultiSession = { courseId: string; sessionIds: [string, string]; userId: string };

/** A multi-session course: an enrollment that holds two of its sessions. */
function findMultiSession(part: Part, reads: Reads): MultiSession | undefined {
  let multi: MultiSession | undefined;
  for (const [id, list] of reads.enrollments) {
    const e = list.find((x) => Array.isArray(x.sessionIds) && x.sessionIds.length >= 2 && typeof x.courseId === 'string');
    if (e && Array.isArray(e.sessionIds)) {
      multi = { courseId: String(e.courseId), sessionIds: [String(e.sessionIds[0]), String(e.sessionIds[1])], userId: id };
      break;
    }
  }
  if (multi) {
    part.set(
      ['records', 'multiSessionCourse'],
      { courseId: multi.courseId, sessionIds: multi.sessionIds },
      `user ${multi.userId}'s enrollment holds these two sessions of the course at once`,
    );
  } else {
    part.lack(
      ['records', 'multiSessionCourse'],
      `not found: no enrollment among ${reads.read} holds two sessions of a course (the API lists no sessions): name a multi-session course and two of its sessions`,
      { courseId: GUID, sessionIds: [GUID, GUID] },
    );
  }
  return multi;
}

/** The learner the enrollment checks enroll: a user with an address, not in the multi-session course
 * (the checks enroll them in its sessions), preferably with enrollments already. */
function findLearner(part: Part, reads: Reads, otherUserId: string | undefined, multi: MultiSession | undefined): void {
  const { userId, ids, byId, enrollments } = reads;
  const learners = ids
    .filter((id) => !(userId && same(id, userId)) && !(otherUserId && same(id, otherUserId)))
    .map((id) => ({ id, user: byId.get(id.toLowerCase()), list: enrollments.get(id.toLowerCase()) ?? [] }))
    .filter((l) => typeof l.user?.email === 'string' && l.user.email.includes('@') && !(multi && l.list.some((e) => same(e.courseId, multi.courseId))));
  const learner = learners.find((l) => l.list.length > 0) ?? learners[0];
  if (learner) {
    part.set(
      ['records', 'learner'],
      { userId: learner.id, email: String(learner.user?.email) },
      `a user with an email address and ${learner.list.length} enrollments, whom the enrollment checks enroll`,
    );
  } else part.lack(['records', 'learner'], `not found: no user of the ${ids.length} read has an email address`, { userId: GUID, email: '<their address>' });
}

/** A user whose direct reports include managers: the one with the most direct reports. */
async function findManager(ctx: InitContext, part: Part, users: readonly Item[]): Promise<void> {
  const managers = users.filter((u) => u.IsManager === true && typeof u.id === 'string').slice(0, MANAGERS_READ);
  const read = await mapLimit(managers, 4, async (u) => {
    const res = await ctx.send({ op: 'managers.listDirectReports', params: { managerId: String(u.id) }, query: { _limit: 100 } });
    const reports = itemsOf(res, 'directReports');
    const total = isItem(res.json) && typeof res.json.totalItems === 'number' ? res.json.totalItems : reports.length;
    return { id: String(u.id), total, managers: reports.filter((r) => r.isManager === true || r.IsManager === true).length };
  });
  const best = read.filter((m) => m.managers > 0).sort((a, b) => b.total - a.total)[0];
  if (best) {
    part.set(
      ['records', 'managerId'],
      best.id,
      `IsManager true, with ${best.total} direct reports, of whom ${best.managers} ${best.managers === 1 ? 'is a manager' : 'are managers'} too`,
    );
  } else {
    part.lack(
      ['records', 'managerId'],
      `not found: none of the ${managers.length} managers (IsManager) among the users read has a direct report who is a manager`,
      GUID,
    );
  }
}

async function findTemplate(ctx: InitContext, part: Part): Promise<string | undefined> {
  for (let offset = 0; offset < 3; offset++) {
    const page = itemsOf(await ctx.send({ op: 'templates.list', query: { _limit: 100, _offset: offset } }), 'templates');
    const active = page.find((t) => t.isActive === true && typeof t.id === 'string');
    if (active) {
      const id = String(active.id);
      const res = await ctx.send({ op: 'templates.get', params: { id } });
      if (ok(res)) {
        part.set(['records', 'templateId'], id, `an active template (isActive true; ${said(res)})`);
        return id;
      }
    }
    if (page.length < 100) break;
  }
  part.lack(['records', 'templateId'], 'not found: no active template among the first 300 templates listed', GUID);
  return undefined;
}

/** The largest value of a list parameter accepted (2xx), from `guess` (public-facts) or by bisection. */
async function largestAccepted(ctx: InitContext, param: '_limit' | '_offset', guess: number): Promise<{ value?: number; how: string }> {
  const accepts = async (n: number): Promise<boolean> => ok(await ctx.send({ op: 'resources.list', query: { [param]: n } }));
  if (await accepts(guess)) {
    if (!(await accepts(guess + 1))) return { value: guess, how: `${param}=${guess} answered 2xx, ${param}=${guess + 1} was refused` };
    return { how: `${param}=${guess + 1} was accepted: no maximum found` };
  }
  let [lo, hi] = [param === '_limit' ? 1 : 0, guess];
  if (!(await accepts(lo))) return { how: `${param}=${lo} was refused` };
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (await accepts(mid)) lo = mid;
    else hi = mid;
  }
  return { value: lo, how: `${param}=${lo} answered 2xx, ${param}=${lo + 1} was refused` };
}

const COLLECTIONS: readonly { key: 'resources' | 'templates' | 'submissions' | 'users' | 'groups'; op: OperationId; fields: readonly string[] }[] = [
  { key: 'resources', op: 'resources.list', fields: RESOURCE_FIELDS },
  { key: 'templates', op: 'templates.list', fields: TEMPLATE_FIELDS },
  { key: 'submissions', op: 'submissions.list', fields: SUBMISSION_FIELDS },
  { key: 'users', op: 'users.list', fields: USER_FIELDS },
  { key: 'groups', op: 'groups.list', fields: GROUP_FIELDS },
];

/** The choices of the profile a read shows: versions, path ids, list parameters and fields. */
async function probeReads(ctx: InitContext, part: Part): Promise<void> {
  await probeVersions(ctx, part);
  await probeListBounds(ctx, part);
  await probeFields(ctx, part);
  keepUnprobed(ctx, part);
}

/** The version a request without x-api-version gets, and the statuses of a wrong version and path id. */
async function probeVersions(ctx: InitContext, part: Part): Promise<void> {
  const bare = await ctx.send({ op: 'resources.list', version: null });
  if (ok(bare) && (Array.isArray(bare.json) || isItem(bare.json))) {
    const version = Array.isArray(bare.json) ? 1 : 2;
    part.set(
      ['expectations', 'versioning', 'missingHeader'],
      version,
      `${bare.request} without x-api-version answered ${version === 1 ? 'a bare array' : 'the paged envelope'}: version ${version}`,
    );
  } else part.keep(['expectations', 'versioning', 'missingHeader'], `not found: ${said(bare)} without x-api-version`);
  const statusOf = async (path: readonly string[], what: string, req: Parameters<InitContext['send']>[0]): Promise<void> => {
    const res = await ctx.send(req);
    if (res.status >= 100) part.set(path, res.status, `${what}: ${said(res)}`);
    else part.keep(path, `not found: ${what}: ${said(res)}`);
  };
  await statusOf(['expectations', 'versioning', 'unsupportedStatus'], 'x-api-version: 3', { op: 'resources.list', version: '3' });
  await statusOf(['expectations', 'versioning', 'v2OnlyWithV1Status'], 'a version-2-only list with x-api-version: 1', { op: 'submissions.list', version: '1' });
  await statusOf(['expectations', 'pathIdNotGuidStatus'], 'a path id that is not a GUID', { op: 'resources.get', params: { resourceId: 'not-a-guid' } });
}

/** The lists' default limit and the largest _limit and _offset accepted. */
async function probeListBounds(ctx: InitContext, part: Part): Promise<void> {
  const page = await ctx.send({ op: 'resources.list' });
  const limit = isItem(page.json) ? page.json.limit : undefined;
  if (ok(page) && typeof limit === 'number' && Number.isInteger(limit) && limit > 0) {
    part.set(['expectations', 'lists', 'defaultLimit'], limit, `${page.request} without _limit answered the envelope's limit ${limit}`);
  } else part.keep(['expectations', 'lists', 'defaultLimit'], `not found: ${said(page)} without an envelope limit`);
  const max = await largestAccepted(ctx, '_limit', DEFAULT_INTAPI_EXPECTATIONS.lists.maxLimit);
  if (max.value !== undefined) part.set(['expectations', 'lists', 'maxLimit'], max.value, `GET /resources: ${max.how}`);
  else part.keep(['expectations', 'lists', 'maxLimit'], `not found: GET /resources: ${max.how}; give yours`);
  const offset = await largestAccepted(ctx, '_offset', DEFAULT_INTAPI_EXPECTATIONS.lists.maxOffset);
  if (offset.value !== undefined) part.set(['expectations', 'lists', 'maxOffset'], offset.value, `GET /resources: ${offset.how}`);
  else part.keep(['expectations', 'lists', 'maxOffset'], `not found: GET /resources: ${offset.how}; give yours`);
}

/** The fields each collection accepts in _filter and _sort. */
async function probeFields(ctx: InitContext, part: Part): Promise<void> {
  for (const c of COLLECTIONS) {
    const probe = async (param: '_filter' | '_sort', field: string) => ({
      field,
      answer: await ctx.send({ op: c.op, query: { [param]: param === '_filter' ? `${field} ne null` : field, _limit: 1 } }),
    });
    for (const [param, kind, form] of [
      ['_filter', 'filterable', 'ne null'],
      ['_sort', 'sortable', ''],
    ] as const) {
      const answers = await mapLimit(c.fields, 4, (f) => probe(param, f));
      const path = ['expectations', 'lists', c.key, kind];
      if (answers.some((a) => a.answer.status === 0 || a.answer.status >= 500 || a.answer.status === 404)) {
        const bad = answers.find((a) => a.answer.status === 0 || a.answer.status >= 500 || a.answer.status === 404);
        part.keep(path, `not found: ${bad ? said(bad.answer) : ''}`);
        continue;
      }
      const accepted = answers.filter((a) => ok(a.answer)).map((a) => a.field);
      const refused = answers.filter((a) => !ok(a.answer)).map((a) => a.field);
      part.set(
        path,
        accepted,
        `${param}=<field>${form ? ` ${form}` : ''} on ${c.op.split('.')[0]} answered 2xx for these${refused.length > 0 ? `, 4xx for ${refused.join(', ')}` : ''}`,
      );
    }
  }
}

/** The choices only a write shows: kept as the profile has them, saying why. */
function keepUnprobed(ctx: InitContext, part: Part): void {
  const writes = 'not probed: only a write shows it (lp-conformance init --probe-writes probes it)';
  for (const path of [
    ['expectations', 'submissions', 'createStatus'],
    ['expectations', 'submissions', 'updateStatus'],
    ['expectations', 'submissions', 'unknownReferenceStatus'],
    ['expectations', 'notJsonStatus'],
    ['expectations', 'bodies', 'unsupportedMediaTypeStatus'],
    ['expectations', 'bodies', 'unknownFieldStatus'],
    ['expectations', 'groups', 'createStatus'],
  ])
    if (!ctx.probeWrites) part.keep(path, writes);
  const unprobed = 'not probed: only writes show it';
  part.keep(['expectations', 'bodies', 'limitBytes'], `${unprobed} (a body over the limit)`);
  part.keep(['expectations', 'bodies', 'tooLargeStatus'], `${unprobed} (a body over the limit)`);
  part.keep(['expectations', 'questionTypes'], `${unprobed} (the integer a created question's type is answered with)`);
  part.keep(['expectations', 'groups', 'automaticAssignStatus'], `${unprobed} (an assignment to an automatic group)`);
  part.keep(['expectations', 'enrollments', 'createStatus'], `${unprobed} (an enrollment of a user)`);
  part.keep(['expectations', 'oauth'], 'not probed: the OAuth client and its registered redirect URI are yours to give');
}

/** With --probe-writes: what only a write shows, on records named with init's marker. */
async function probeWrites(ctx: InitContext, part: Part, records: { userId?: string; templateId?: string }): Promise<void> {
  const title = `${ctx.marker}init submission`;
  const body =
    records.userId && records.templateId
      ? { userId: records.userId, templateId: records.templateId, title, completionDate: '2024-05-01T10:00:00.000Z' }
      : undefined;
  const createdId = (res: ToolAnswer, what: string): string | undefined => {
    const id = idOf(res.json);
    if (ok(res)) ctx.created(`${what} ${id ?? '(no id answered)'} "${title}" (the Integration API deletes no submission)`);
    return id;
  };
  const refused = async (path: readonly string[], what: string, req: Parameters<InitContext['send']>[0]): Promise<void> => {
    const res = await ctx.send(req);
    if (res.status >= 400 && res.status < 500) part.set(path, res.status, `${what}: ${said(res)}`);
    else {
      createdId(res, 'submission');
      part.keep(path, `not found: ${what}: ${said(res)}, not a refusal`);
    }
  };
  if (body) {
    const created = await ctx.send({ op: 'submissions.create', json: body });
    const id = createdId(created, 'submission');
    if (ok(created)) part.set(['expectations', 'submissions', 'createStatus'], created.status, `a submission created: ${said(created)}`);
    else part.keep(['expectations', 'submissions', 'createStatus'], `not found: a submission create ${said(created)}`);
    if (id) {
      const updated = await ctx.send({ op: 'submissions.update', params: { id }, json: { title, completionDate: body.completionDate } });
      if (ok(updated)) part.set(['expectations', 'submissions', 'updateStatus'], updated.status, `that submission updated: ${said(updated)}`);
      else part.keep(['expectations', 'submissions', 'updateStatus'], `not found: updating that submission ${said(updated)}`);
    } else part.keep(['expectations', 'submissions', 'updateStatus'], 'not probed: no submission was created');
    await refused(['expectations', 'submissions', 'unknownReferenceStatus'], 'a submission of a template that does not exist', {
      op: 'submissions.create',
      json: { ...body, templateId: '0f0f0f0f-1c1c-4e4e-8a8a-0123456789ab' },
    });
    await refused(['expectations', 'bodies', 'unknownFieldStatus'], 'a submission with a field its table does not have', {
      op: 'submissions.create',
      json: { ...body, lpcUnknownField: 1 },
    });
  } else {
    const why = 'not probed: a submission needs records.userId and records.templateId';
    for (const f of ['createStatus', 'updateStatus', 'unknownReferenceStatus']) part.keep(['expectations', 'submissions', f], why);
    part.keep(['expectations', 'bodies', 'unknownFieldStatus'], why);
  }
  await refused(['expectations', 'notJsonStatus'], 'a create whose body is not JSON', {
    op: 'submissions.create',
    rawBody: '{"title": ',
    contentType: 'application/json',
  });
  await refused(['expectations', 'bodies', 'unsupportedMediaTypeStatus'], 'a create sent as text/plain', {
    op: 'submissions.create',
    rawBody: 'title=x',
    contentType: 'text/plain',
  });
  const group = await ctx.send({ op: 'groups.create', json: { name: `${ctx.marker}init group`, groupType: 'Manual' } });
  if (ok(group)) {
    ctx.created(`group ${idOf(group.json) ?? '(no id answered)'} "${ctx.marker}init group" (the Integration API deletes no group)`);
    part.set(['expectations', 'groups', 'createStatus'], group.status, `a manual group created: ${said(group)}`);
  } else part.keep(['expectations', 'groups', 'createStatus'], `not found: a group create ${said(group)}`);
}

export async function intapiInit(ctx: InitContext): Promise<InitPart> {
  const problem = await ctx.sessionProblem();
  if (problem !== undefined) throw new SetupError(`the Integration API at ${ctx.profile.families.intapi.baseUrl}: no session (${problem})`);
  const part = new Part(DEFAULT_INTAPI_EXPECTATIONS);
  const c = ctx.profile.credentials;
  part.set(['credentials', 'apiKey'], { env: c.apiKey.env }, "the variables init authenticated with (the Integration API's)");
  if (c.token) part.set(['credentials', 'token'], { env: c.token.env }, '');
  else
    for (const [k, ref] of [
      ['username', c.username],
      ['password', c.password],
      ['privateKey', c.privateKey],
    ] as const)
      part.set(['credentials', k], { env: ref.env }, '');
  const client = oauthClientPart(ctx, ctx.profile.oauthCredentials);
  part.set(['credentials', 'oauth'], client.value, client.note);
  const records = await findRecords(ctx, part);
  part.lack(
    ['mailbox'],
    "not found: where the target's mail can be read is not in its API: name a Mailpit-style API (GET <api>/api/v1/messages) to run the mail check",
    {
      api: 'http://mail.example.test:8025',
    },
  );
  await probeReads(ctx, part);
  if (ctx.probeWrites) await probeWrites(ctx, part, records);
  return part.part({ where: 'the target URL (--target), where the token exchange gave a session' });
}
