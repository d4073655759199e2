// Enrollments and sessions (spec#integration-api-operations-named-by-release-notes, public-facts
// paths and enumerations) and their lifecycle rules (spec#states-and-transitions): statuses,
// multi-session enrollment, cancelSession, timeSpentTicks refused, enrollments of deleted courses
// hidden, negative credits not applied, one course enrollment email per re-enrollment; and
// rule-based enrollment within the dynamic-rule delay (spec#what-the-service-does 5).
// The enrollment's shape is the reference server's choice (PROFILE):
// `{id, userId, courseId, sessionIds, status, credits, enrollmentDate}`.
import { expectRejected, expectStatus, fail } from '../_harness/failure.js';
import type { ApiRequest, ApiResponse } from '../_harness/http.js';
import { messagesTo, mailboxOf, newMessagesTo } from '../_harness/intapi/mailbox.js';
import { marked } from '../_harness/marker.js';
import { pollUntil } from '../_harness/poll.js';
import { bodyOf, unknownId, type Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { statusChecks } from '../_harness/statuses.js';
import { createUser, profileRecord, validUser } from '../_harness/intapi/records.js';
import { readAll } from '../_harness/intapi/lists.js';

const OPS = 'spec#integration-api-operations-named-by-release-notes';
const PATHS = 'public-facts#integration-api-paths-seen-in-public-clients-the-v1-surface-which-v2-keeps';
const LIFECYCLE = 'spec#states-and-transitions';
/** Checks that enroll (scheduler.ts). */
const WRITES = { write: ['enrollments'] };
/** Checks that change an enrollment and judge what it became: alone among the enrollment writers. */
const ALONE = { write: ['enrollments'], observe: ['enrollments'] };

function learner(t: CheckContext): { userId: string; email: string } {
  const l = t.profile.records.learner;
  if (!l) t.skip('the profile names no records.learner');
  return l;
}

function multiSession(t: CheckContext): { courseId: string; sessionIds: readonly [string, string] } {
  const m = t.profile.records.multiSessionCourse;
  if (!m) t.skip('the profile names no records.multiSessionCourse');
  return m;
}

/** POST …/enrollments/{courseId}/session/{sessionId} for the learner, with the query flags given. */
function sessionRequest(t: CheckContext, sessionIndex: 0 | 1, query: ApiRequest['query'] = {}, version = '2'): ApiRequest {
  const { courseId, sessionIds } = multiSession(t);
  return { op: 'enrollments.enrollSession', version, params: { userId: learner(t).userId, courseId, sessionId: sessionIds[sessionIndex] }, query };
}

async function enrollInSession(t: CheckContext, sessionIndex: 0 | 1, query: ApiRequest['query'] = {}): Promise<Json> {
  const res = await t.http.send(sessionRequest(t, sessionIndex, query));
  expectStatus(res, 200, `enrolling in session ${sessionIndex + 1}${query && Object.keys(query).length > 0 ? ` with ${JSON.stringify(query)}` : ''}`);
  return bodyOf(res);
}

/** The user's enrollments (every page, within the profile's maxLimit), as listed, and the answer of the last page. */
async function listEnrollments(t: CheckContext, userId: string, version: '1' | '2' = '2'): Promise<{ items: Json[]; res: ApiResponse }> {
  const source = {
    label: `the enrollments of user ${userId}`,
    op: 'enrollments.list',
    version,
    params: () => Promise.resolve({ userId }),
    key: 'enrollments',
  } as const;
  const { items, last } = await readAll(t, source);
  return { items: items as Json[], res: last.res };
}

async function enrollmentsOf(t: CheckContext, userId: string, version: '1' | '2' = '2'): Promise<Json[]> {
  return (await listEnrollments(t, userId, version)).items;
}

function deletedCourseEnrollment(t: CheckContext): { userId: string; courseId: string } {
  const e = t.profile.records.deletedCourseEnrollment;
  if (!e) t.skip('the profile names no records.deletedCourseEnrollment');
  return e;
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
const sessionsOf = (e: Json | undefined): string[] => (Array.isArray(e?.sessionIds) ? e.sessionIds.map((s) => String(s).toLowerCase()) : []);

async function enrollmentIn(t: CheckContext, userId: string, courseId: string): Promise<Json | undefined> {
  return (await enrollmentsOf(t, userId)).find((e) => same(e.courseId, courseId));
}

statusChecks(
  [
    ...(['1', '2'] as const).map((version) => ({
      id: `intapi.v${version}.enrollments.list.status-200`,
      level: 'PROFILE' as const,
      spec: PATHS,
      title: `List a user's enrollments (v${version}) answers 200`,
      status: 200,
      request: (t: CheckContext): ApiRequest => ({ op: 'enrollments.list', version, params: { userId: learner(t).userId } }),
    })),
    {
      id: 'intapi.v2.enrollments.list.unknown-user-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'List the enrollments of an unknown user answers 404',
      status: 404,
      request: (t) => ({ op: 'enrollments.list', params: { userId: unknownId(t) } }),
    },
    {
      id: 'intapi.v2.enrollments.create.unknown-user-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Create an enrollment for an unknown user answers 404',
      status: 404,
      request: (t) => ({ op: 'enrollments.create', params: { userId: unknownId(t) }, json: { courseId: profileRecord(t, 'courseId') } }),
    },
    {
      id: 'intapi.v2.enrollments.session.status-200',
      level: 'PROFILE',
      spec: PATHS,
      title: 'Enroll a user in a session of a course answers 200 with the enrollment',
      status: 200,
      request: (t) => sessionRequest(t, 0),
    },
    {
      id: 'intapi.v2.enrollments.session.unknown-user-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Enroll an unknown user in a session answers 404',
      status: 404,
      request: (t) => ({ ...sessionRequest(t, 0), params: { ...sessionRequest(t, 0).params, userId: unknownId(t) } }),
    },
    {
      id: 'intapi.v2.enrollments.session.unknown-course-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Enroll in a session of an unknown course answers 404',
      status: 404,
      request: (t) => ({ ...sessionRequest(t, 0), params: { ...sessionRequest(t, 0).params, courseId: unknownId(t) } }),
    },
    {
      id: 'intapi.v2.enrollments.session.unknown-session-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Enroll in an unknown session of a course answers 404',
      status: 404,
      request: (t) => ({ ...sessionRequest(t, 0), params: { ...sessionRequest(t, 0).params, sessionId: unknownId(t) } }),
    },
  ],
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.enrollments.create.status',
    level: 'PROFILE',
    spec: PATHS,
    title: "Create an enrollment answers the profile's status when new, 200 when the user was enrolled",
  },
  async (t) => {
    const { userId } = learner(t);
    const courseId = profileRecord(t, 'courseId');
    const before = await enrollmentIn(t, userId, courseId);
    const res = await t.http.send({ op: 'enrollments.create', params: { userId }, json: { courseId, status: 1 } });
    expectStatus(res, before === undefined ? t.profile.expectations.enrollments.createStatus : 200);
  },
  ALONE,
);

requirement(
  {
    id: 'intapi.v2.enrollments.create.timeSpentTicks.not-accepted',
    level: 'PROFILE',
    spec: OPS,
    title: 'Create an enrollment with timeSpentTicks answers the unknown-field status naming it',
  },
  async (t) => {
    const res = await t.http.send({
      op: 'enrollments.create',
      params: { userId: learner(t).userId },
      json: { courseId: profileRecord(t, 'courseId'), timeSpentTicks: 36_000_000_000 },
    });
    expectRejected(res, 'timeSpentTicks', t.profile.expectations.bodies.unknownFieldStatus);
  },
  // A refused create changes nothing; it may meet a faulty target that stores it, so it is declared.
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.enrollments.list.status-enum',
    level: 'PROFILE',
    spec: 'public-facts#enumerations-known',
    title: "Every listed enrollment's status is an integer of the enrollment status enum 0..12",
  },
  async (t) => {
    const ids = [learner(t).userId, profileRecord(t, 'userId')];
    for (const userId of ids) {
      const items = await enrollmentsOf(t, userId);
      t.requireData(items.length > 0, `user ${userId} has no enrollment to judge`);
      const wrong = items.find((e) => !Number.isInteger(e.status) || (e.status as number) < 0 || (e.status as number) > 12);
      if (wrong)
        fail('status an integer from 0 to 12 (public-facts enrollment status)', `enrollment ${String(wrong.id)} status ${JSON.stringify(wrong.status)}`);
    }
  },
);

requirement(
  {
    id: 'intapi.v2.enrollments.session.multi-session-keeps-both',
    level: 'MUST',
    spec: OPS,
    title: 'A user enrolled in two sessions of a multi-session course keeps both sessions',
  },
  async (t) => {
    const { userId } = learner(t);
    const { courseId, sessionIds } = multiSession(t);
    await enrollInSession(t, 0);
    await enrollInSession(t, 1);
    const held = sessionsOf(await enrollmentIn(t, userId, courseId));
    const missing = sessionIds.filter((s) => !held.includes(s.toLowerCase()));
    if (missing.length > 0) fail(`the enrollment holding sessions ${sessionIds.join(' and ')}`, `sessionIds ${JSON.stringify(held)}`);
  },
  ALONE,
);

requirement(
  {
    id: 'intapi.v2.enrollments.session.cancel-session-leaves',
    level: 'PROFILE',
    spec: PATHS,
    title: 'Enroll in a session with cancelSession=true removes the session from the enrollment',
  },
  async (t) => {
    const { userId } = learner(t);
    const { courseId, sessionIds } = multiSession(t);
    await enrollInSession(t, 1);
    await enrollInSession(t, 1, { cancelSession: true });
    const held = sessionsOf(await enrollmentIn(t, userId, courseId));
    if (held.includes(sessionIds[1].toLowerCase())) fail(`the enrollment without session ${sessionIds[1]}`, `sessionIds ${JSON.stringify(held)}`);
  },
  ALONE,
);

for (const version of ['1', '2'] as const) {
  requirement(
    {
      id: `intapi.v${version}.lifecycle.deleted-course-enrollments-hidden`,
      level: 'MUST',
      spec: LIFECYCLE,
      title: `A user's enrollments (v${version}) do not include an enrollment of a deleted course`,
    },
    async (t) => {
      const e = deletedCourseEnrollment(t);
      const listed = (await enrollmentsOf(t, e.userId, version)).filter((item) => same(item.courseId, e.courseId));
      if (listed.length > 0) fail(`no enrollment in the deleted course ${e.courseId}`, `enrollment ${JSON.stringify(listed[0])}`);
    },
  );
}

requirement(
  {
    id: 'intapi.v2.lifecycle.negative-credits-not-applied',
    level: 'MUST',
    spec: LIFECYCLE,
    title: 'Negative credits sent with an enrollment are not applied: its credits stay as they were',
  },
  async (t) => {
    const { userId } = learner(t);
    const courseId = profileRecord(t, 'courseId');
    const first = await t.http.send({ op: 'enrollments.create', params: { userId }, json: { courseId, credits: 5 } });
    expectStatus(first, [t.profile.expectations.enrollments.createStatus, 200], 'giving the enrollment 5 credits');
    const before = (await enrollmentIn(t, userId, courseId))?.credits;
    const res = await t.http.send({ op: 'enrollments.create', params: { userId }, json: { courseId, credits: -3 } });
    // Refusing the negative credits applies none either.
    if (res.status >= 500) fail('an answer that applies no negative credits', `${res.status}`, res);
    const after = (await enrollmentIn(t, userId, courseId))?.credits;
    if (typeof after === 'number' && after < 0) fail('credits not negative', `credits ${after}`, res);
    if (after !== before) fail(`credits unchanged (${JSON.stringify(before)})`, `credits ${JSON.stringify(after)}`, res);
  },
  ALONE,
);

requirement(
  {
    id: 'intapi.v2.lifecycle.re-enroll-sends-one-email',
    level: 'MUST',
    spec: LIFECYCLE,
    title: "A re-enrollment sends exactly one course enrollment email to the learner's address",
  },
  async (t) => {
    mailboxOf(t);
    const { email } = learner(t);
    // Enrolled first, so that the second call is a re-enrollment.
    await enrollInSession(t, 0);
    const before = await messagesTo(t, email);
    await enrollInSession(t, 0, { reEnroll: true });
    const fresh = await newMessagesTo(t, email, before);
    if (fresh.length !== 1)
      fail(`exactly one new email to ${email}`, `${fresh.length}${fresh.length > 0 ? `: ${fresh.map((m) => JSON.stringify(m.subject)).join(', ')}` : ''}`);
  },
  ALONE,
);

// ---------------------------------------------------------------------------------------------
// Rule-based enrollment (spec#what-the-service-does 5; spec#limits, "Dynamic-rule processing delay:
// up to 10 minutes"). The API cannot create a rule: the profile names one of the target's
// (records.ruleEnrollment) and the time its effect may take (withinMs, at most the 10 minutes). The
// checks change users and poll their enrollments. They never require the effect to wait ("not
// necessarily enrolled at once" allows a target that applies a change at once), only to come within
// the bound; with a bound over a minute they run only with --include-slow.

const RULES = 'spec#what-the-service-does';
/** The rule checks create and change users, and the rule enrolls them. */
const RULE_WRITES = { write: ['users', 'enrollments'] };

type EnrollmentRule = NonNullable<CheckContext['profile']['records']['ruleEnrollment']>;

function enrollmentRule(t: CheckContext): EnrollmentRule {
  const rule = t.profile.records.ruleEnrollment;
  if (!rule) t.skip('the profile names no records.ruleEnrollment (an automatic enrollment rule of the target)');
  return rule;
}

/** A user body (the upsert's) whose rule property is `value`. */
const userWith = (t: CheckContext, tag: string, rule: EnrollmentRule, value: string): Json => ({ ...validUser(t, tag), [rule.property]: value });

/** Polls the user's enrollments until the rule's course is listed (`enrolled`) or is not, for at
 * most the rule's bound from `since`. */
const untilInRuleCourse = (t: CheckContext, rule: EnrollmentRule, userId: string, since: number, enrolled: boolean) =>
  pollUntil(
    t,
    since,
    rule.withinMs,
    () => listEnrollments(t, userId),
    ({ items }) => items.some((e) => same(e.courseId, rule.courseId)) === enrolled,
  );

const coursesOf = (items: readonly Json[]): string => JSON.stringify(items.map((e) => e.courseId));

requirement(
  {
    id: 'intapi.v2.lifecycle.rule-enrollment-within-delay',
    level: 'MUST',
    spec: RULES,
    title: 'A user changed to match an enrollment rule is enrolled in its course within the delay, no one else',
    slow: true,
  },
  async (t) => {
    const rule = enrollmentRule(t);
    t.waitsUpTo(rule.withinMs, 'records.ruleEnrollment.withinMs');
    const what = `${rule.property} ${JSON.stringify(rule.value)}`;
    // The user who does not match changes first: a batch that applied the matching user's change
    // applied this one too, so by then a rule that enrolls too much has enrolled it.
    const other = await createUser(t, 'rule-other', userWith(t, 'rule-other', rule, marked(t, 'another job title')));
    const matching = await createUser(t, 'rule-match', userWith(t, 'rule-match', rule, rule.value));
    const enrolled = await untilInRuleCourse(t, rule, matching, performance.now(), true);
    if (!enrolled.held)
      fail(
        `user ${matching} (${what}) enrolled in course ${rule.courseId} within ${rule.withinMs} ms (records.ruleEnrollment.withinMs)`,
        `not enrolled after ${enrolled.elapsedMs} ms (${enrolled.polls} polls); enrolled in ${coursesOf(enrolled.value.items)}`,
        enrolled.value.res,
      );
    const { items, res } = await listEnrollments(t, other);
    const wrong = items.find((e) => same(e.courseId, rule.courseId));
    if (wrong)
      fail(
        `user ${other}, whose ${rule.property} is not ${JSON.stringify(rule.value)}, not enrolled in course ${rule.courseId}`,
        `enrollment ${JSON.stringify(wrong)}`,
        res,
      );
  },
  RULE_WRITES,
);

requirement(
  {
    id: 'intapi.v2.lifecycle.rule-unenrollment-within-delay',
    level: 'PROFILE',
    spec: RULES,
    title: "A user changed to stop matching an enrollment rule leaves the rule's course within the delay",
    slow: true,
  },
  async (t) => {
    const rule = enrollmentRule(t);
    if (!rule.unenrolls) t.skip('the profile says the rule keeps the enrollments it made (records.ruleEnrollment.unenrolls: false)');
    // Enrolled first, then changed away: two waits of the bound at most.
    t.waitsUpTo(2 * rule.withinMs, 'twice records.ruleEnrollment.withinMs');
    const body = userWith(t, 'rule-leave', rule, rule.value);
    const userId = await createUser(t, 'rule-leave', body);
    const enrolled = await untilInRuleCourse(t, rule, userId, performance.now(), true);
    if (!enrolled.held)
      t.skip(`not exercised: the rule did not enroll the user within ${rule.withinMs} ms (intapi.v2.lifecycle.rule-enrollment-within-delay judges that)`);
    const res = await t.http.send({ op: 'users.update', params: { userId }, json: { ...body, [rule.property]: marked(t, 'another job title') } });
    expectStatus(res, 200, `changing the user's ${rule.property}`);
    const left = await untilInRuleCourse(t, rule, userId, performance.now(), false);
    if (!left.held)
      fail(
        `user ${userId} (${rule.property} no longer ${JSON.stringify(rule.value)}) not enrolled in course ${rule.courseId} within ${rule.withinMs} ms (records.ruleEnrollment.withinMs)`,
        `still enrolled after ${left.elapsedMs} ms (${left.polls} polls)`,
        left.value.res,
      );
  },
  RULE_WRITES,
);
