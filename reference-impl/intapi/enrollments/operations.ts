import { notFound, validationFailed } from '../../http/errors.js';
import type { JsonObject } from '../../rules/json.js';
import type { QueryValue } from '../../http/route.js';
import { type BodySpec, type FieldSpec, compileBody } from '../../rules/bounds.js';
import { formatInstant } from '../../rules/datetime.js';
import type { EnrollmentRecord } from '../store/enrollments.js';
import { type IntapiDeps, type IntapiOperation, V1_AND_V2 } from '../context.js';
import type { EnrollmentMail } from '../mail.js';
import { readListParams } from '../lists/params.js';
import { envelope, runList } from '../lists/run.js';
import { finishObject, freshId, guidParams, NIL_GUID, unknownId, validBody } from '../requests.js';

/**
 * Enrollments and sessions (spec#integration-api-operations-named-by-release-notes, public-facts
 * "Integration API paths", spec#states-and-transitions), versions 1 and 2. docs/decisions/intapi/groups-enrollments-sessions.md "Groups,
 * enrollments and sessions" records the choices:
 * - an enrollment is `{id, userId, courseId, sessionIds, status, credits, enrollmentDate}`, status
 *   the integer of public-facts' enum (0..12), credits a number or null;
 * - the user's list is the envelope with key `enrollments` (`_limit`, `_offset` only);
 * - create (`{courseId, status?, credits?, enrollmentDate?}`) answers 201 with a new enrollment and
 *   200 with the user's existing enrollment in the course, updated with the fields given;
 *   `timeSpentTicks` is refused naming it (release note);
 * - session enrollment: 200 with the enrollment, new or existing; a multi-session course
 *   keeps every session, another course holds one session at a time; `reEnroll=true` on an existing
 *   enrollment restarts it (status 0) and sends the course enrollment email; `cancelSession=true`
 *   leaves the session (404 when the user does not hold it);
 * - a deleted course's enrollments are never returned, and its sessions take no enrollment (404);
 * - negative credits are not applied: the enrollment keeps the credits it had (null for a new one).
 */

const STATUSES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

function createSpec(timeSpentTicks: 'reject' | 'ignore'): BodySpec {
  const ticks: FieldSpec = timeSpentTicks === 'reject' ? { name: 'timeSpentTicks', notAccepted: true } : { name: 'timeSpentTicks', type: 'number' };
  return {
    operation: 'enrollments.create',
    fields: [
      { name: 'courseId', type: 'string', required: true, format: 'guid' },
      { name: 'status', type: 'integer', enum: STATUSES },
      { name: 'credits', type: 'number', maximum: 1_000_000 },
      { name: 'enrollmentDate', type: 'string', format: 'date-time' },
      ticks,
    ],
  };
}

/** A boolean query flag: absent false, `true`/`false`, anything else 422 naming it. */
function flag(query: Readonly<Record<string, QueryValue>>, name: string): boolean {
  const value = query[name];
  if (value === undefined) return false;
  if (value === 'true' || value === 'false') return value === 'true';
  throw validationFailed([`${name}: must be true or false`]);
}

export function enrollmentOperations(deps: IntapiDeps): IntapiOperation[] {
  const { store, behaviour, ids, clock } = deps;
  const { errors, lists } = behaviour;
  const rules = behaviour.enrollments;
  const book = store.enrollments;
  const validateCreate = compileBody(createSpec(rules.timeSpentTicks), behaviour.bodies);
  const serialize = (e: EnrollmentRecord): JsonObject =>
    finishObject(
      {
        id: e.id,
        userId: e.userId,
        courseId: e.courseId,
        sessionIds: [...e.sessionIds],
        status: rules.statusShape === 'label' ? (STATUS_LABELS[e.status] ?? null) : e.status,
        credits: e.credits,
        enrollmentDate: e.enrollmentDate,
      },
      behaviour.responses.nulls,
    );
  const visible = (e: EnrollmentRecord) => rules.deletedCourses === 'listed' || !book.isDeleted(e.courseId);
  /** spec#states-and-transitions: negative credits are not applied (the enrollment keeps its credits). */
  const credited = (value: unknown, previous: number | null): number | null => {
    if (typeof value !== 'number') return previous;
    return value < 0 && rules.negativeCredits === 'not-applied' ? previous : value;
  };
  const userOf = (userId: string, blank: () => JsonObject) => {
    const user = store.users.get(userId);
    if (user === undefined) throw unknownId(`User with identifier ${userId} does not exist.`, blank);
    return user;
  };
  const liveCourse = (courseId: string, blank: () => JsonObject) => {
    const course = store.courses.get(courseId);
    if (course === undefined || book.isDeleted(courseId)) throw unknownId(`Course with identifier ${courseId} does not exist.`, blank);
    return course;
  };
  const fresh = () => freshId(ids, (candidate) => book.records.has(candidate));
  const now = () => formatInstant(clock().getTime());
  /** The blank enrollment (the answer for an unknown id under `intapi.unknown-id-ok:`): the nil GUID as its id. */
  const blankEnrollment = (userId: string, courseId: string): EnrollmentRecord => ({
    id: NIL_GUID,
    userId,
    courseId,
    sessionIds: [],
    status: 0,
    credits: null,
    enrollmentDate: formatInstant(0),
  });

  return [
    {
      id: 'enrollments.list',
      method: 'GET',
      path: '/users/:userId/enrollments',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const { userId } = guidParams(call, ['userId'], errors);
        const params = readListParams(call.query, 'paging-only', lists);
        userOf(userId, () =>
          envelope('enrollments', { total: 0, unfilteredTotal: 0, page: [], limit: params.limit, offset: params.offset }, [], behaviour.envelope),
        );
        const outcome = runList(book.ofUser(userId).filter(visible), params, undefined, lists);
        return { status: 200, body: envelope('enrollments', outcome, outcome.page.map(serialize), behaviour.envelope) };
      },
    },
    {
      id: 'enrollments.create',
      method: 'POST',
      path: '/users/:userId/enrollments',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const { userId } = guidParams(call, ['userId'], errors);
        userOf(userId, () => serialize(blankEnrollment(userId, NIL_GUID)));
        const body = validBody(validateCreate, call.body);
        const courseId = String(body.courseId);
        if (store.courses.get(courseId) === undefined || book.isDeleted(courseId)) {
          throw notFound(`Course with identifier ${courseId} does not exist.`, [`courseId: no course ${courseId}`]);
        }
        const existing = book.find(userId, courseId);
        const record: EnrollmentRecord = {
          id: existing?.id ?? fresh(),
          userId,
          courseId,
          sessionIds: existing?.sessionIds ?? [],
          status: typeof body.status === 'number' ? body.status : (existing?.status ?? 0),
          credits: credited(body.credits, existing?.credits ?? null),
          enrollmentDate: typeof body.enrollmentDate === 'string' ? formatInstant(Date.parse(body.enrollmentDate)) : (existing?.enrollmentDate ?? now()),
        };
        book.save(record);
        store.enroll(userId, courseId);
        if (existing !== undefined) return { status: 200, body: serialize(record) };
        return { status: 201, body: serialize(record) };
      },
    },
    {
      id: 'enrollments.enrollSession',
      method: 'POST',
      path: '/users/:userId/enrollments/:courseId/session/:sessionId',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const { userId, courseId, sessionId } = guidParams(call, ['userId', 'courseId', 'sessionId'], errors);
        const blank = () => serialize({ ...blankEnrollment(userId, courseId), sessionIds: [sessionId] });
        const user = userOf(userId, blank);
        const course = liveCourse(courseId, blank);
        if (book.sessionOf(courseId, sessionId) === undefined)
          throw unknownId(`Session with identifier ${sessionId} does not exist in course ${courseId}.`, blank);
        const reEnroll = flag(call.query, 'reEnroll');
        const cancel = flag(call.query, 'cancelSession');
        if (reEnroll && cancel) throw validationFailed(['cancelSession: cannot be combined with reEnroll']);
        const existing = book.find(userId, courseId);
        const holds = (e: EnrollmentRecord) => e.sessionIds.some((s) => s.toLowerCase() === sessionId.toLowerCase());
        if (cancel) {
          if (existing === undefined || !holds(existing))
            throw notFound(`User ${userId} holds no place in session ${sessionId}.`, [`sessionId: not enrolled in ${sessionId}`]);
          const left =
            rules.cancelSession === 'honour'
              ? { ...existing, sessionIds: existing.sessionIds.filter((s) => s.toLowerCase() !== sessionId.toLowerCase()) }
              : existing;
          book.save(left);
          return { status: 200, body: serialize(left) };
        }
        if (existing === undefined) {
          const record: EnrollmentRecord = { id: fresh(), userId, courseId, sessionIds: [sessionId], status: 0, credits: null, enrollmentDate: now() };
          book.save(record);
          store.enroll(userId, courseId);
          return { status: 200, body: serialize(record) };
        }
        const keepOthers = book.isMultiSession(courseId) && rules.multiSession === 'keep-both';
        const sessionIds = holds(existing) ? existing.sessionIds : keepOthers ? [...existing.sessionIds, sessionId] : [sessionId];
        const updated: EnrollmentRecord = reEnroll ? { ...existing, sessionIds, status: 0, enrollmentDate: now() } : { ...existing, sessionIds };
        book.save(updated);
        if (reEnroll) {
          const mail: EnrollmentMail = {
            to: user.email,
            subject: `Course enrollment: ${course.name}`,
            text: `Hello ${user.firstName},\n\nyou have been enrolled again in the course "${course.name}".\n`,
          };
          for (let sent = 0; sent < rules.reEnrollEmails; sent++) deps.mail?.(mail);
        }
        return { status: 200, body: serialize(updated) };
      },
    },
  ];
}

/** The labels of public-facts' enrollment statuses (answered under the `intapi.enrollment-status-as-label` fault). */
const STATUS_LABELS = [
  'NotStarted',
  'InProgress',
  'PendingApproval',
  'Complete',
  'NotComplete',
  'Failed',
  'Declined',
  'PendingEvaluationRequired',
  'OnWaitlist',
  'Absent',
  'NotApplicable',
  'PendingProctor',
  'ReadyForReview',
];
