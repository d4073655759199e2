import { notFound } from '../http/errors.js';
import type { QueryValue } from '../http/route.js';
import type { JsonObject } from '../rules/json.js';
import { LEARNER_PREFIX, type LearnerDeps, type LearnerOperation } from './context.js';
import { halPage, type PageRequest, pathGuid, QueryReader } from './query.js';
import type { Course, Session } from './seed.js';

/**
 * Sessions of instructor-led courses (spec#learner-facing-api): the catalog calendar (session
 * counts), every session, and per course its calendar overview, sessions and one session; each
 * with `includeCompletedSessions`. A session is completed when its end is before now (the injected
 * clock); without `includeCompletedSessions=true` completed sessions are left out of lists and
 * counts, and get-by-id of one answers 404.
 */
const iso = (ms: number): string => new Date(ms).toISOString();

function sessionItem(session: Session): JsonObject {
  return {
    id: session.id,
    courseId: session.courseId,
    name: session.name,
    start: iso(session.start),
    end: iso(session.end),
    location: session.location,
    instructor: session.instructor,
  };
}

export function sessionOperations(deps: LearnerDeps): LearnerOperation[] {
  const { store, behaviour: b, clock } = deps;
  const rules = b.sessions;

  /** Whether a list shows the session, given `includeCompletedSessions`. */
  const listed = (session: Session, includeCompleted: boolean, now: number): boolean => {
    const completed = (rules.completedFrom === 'start' ? session.start : session.end) < now;
    if (rules.completed === 'always') return true;
    return !completed || (includeCompleted && rules.completed !== 'never');
  };
  const counted = (sessions: readonly Session[], includeCompleted: boolean, now: number): Session[] =>
    rules.counts === 'all' ? [...sessions] : sessions.filter((s) => listed(s, includeCompleted, now));

  /** The flag and the page of a list, or 422 naming what is wrong. */
  const listQuery = (query: Readonly<Record<string, QueryValue>>): { includeCompleted: boolean; page: PageRequest } => {
    const q = new QueryReader(query);
    const includeCompleted = q.flag('includeCompletedSessions', rules.malformedFlag) === true;
    const page = q.page(b.paging);
    q.check();
    return { includeCompleted, page };
  };
  const flagOnly = (query: Readonly<Record<string, QueryValue>>): boolean => {
    const q = new QueryReader(query);
    const includeCompleted = q.flag('includeCompletedSessions', rules.malformedFlag) === true;
    q.check();
    return includeCompleted;
  };

  /** An instructor-led catalog course by its (GUID) id: 404 unknown or not instructor-led. */
  const instructorLed = (id: string): Course => {
    const course = store.course(id);
    if (course?.courseType !== 'InstructorLedCourse') throw notFound(`No instructor-led course ${id}.`);
    return course;
  };

  return [
    {
      id: 'learner.calendar.list',
      method: 'GET',
      path: '/my-catalog-calendar',
      auth: 'token',
      handle: ({ query }) => {
        const { includeCompleted, page } = listQuery(query);
        const now = clock().getTime();
        const items = store.seed.courses
          .filter((c) => c.courseType === 'InstructorLedCourse' && (rules.calendarCourses === 'instructor-led' || store.sessionsOf(c.id).length > 0))
          .map((c) => ({ courseId: c.id, sessionCount: counted(store.sessionsOf(c.id), includeCompleted, now).length }));
        return { status: 200, body: halPage(items, page, b.paging, { key: 'calendar', path: `${LEARNER_PREFIX}/my-catalog-calendar`, query }) };
      },
    },
    {
      id: 'learner.calendar.sessions',
      method: 'GET',
      path: '/my-catalog-calendar/sessions',
      auth: 'token',
      handle: ({ query }) => {
        const { includeCompleted, page } = listQuery(query);
        const now = clock().getTime();
        const flag = includeCompleted && rules.catalogFlag === 'read';
        const items = store.seed.sessions.filter((s) => listed(s, flag, now)).map(sessionItem);
        return { status: 200, body: halPage(items, page, b.paging, { key: 'sessions', path: `${LEARNER_PREFIX}/my-catalog-calendar/sessions`, query }) };
      },
    },
    {
      id: 'learner.course.calendar',
      method: 'GET',
      path: '/instructor-led-courses/:courseId/calendar',
      auth: 'token',
      handle: ({ params, query }) => {
        const course = instructorLed(pathGuid('courseId', params.courseId, b.errors));
        const includeCompleted = flagOnly(query);
        const now = clock().getTime();
        const sessions = counted(store.sessionsOf(course.id), includeCompleted, now);
        // The bounds are those of the sessions the flag lists, whatever the count says: a fault of the
        // counts leaves them alone.
        const all = store.sessionsOf(course.id);
        const bounded = rules.bounds === 'all' ? all : all.filter((s) => listed(s, includeCompleted, now));
        const first = bounded.length === 0 ? null : iso(Math.min(...bounded.map((s) => s.start)));
        const last = bounded.length === 0 ? null : iso(Math.max(...bounded.map((s) => s.end)));
        return { status: 200, body: { courseId: course.id, sessionCount: sessions.length, firstSessionStart: first, lastSessionEnd: last } };
      },
    },
    {
      id: 'learner.course.sessions',
      method: 'GET',
      path: '/instructor-led-courses/:courseId/sessions',
      auth: 'token',
      handle: ({ params, query }) => {
        const course = instructorLed(pathGuid('courseId', params.courseId, b.errors));
        const { includeCompleted, page } = listQuery(query);
        const now = clock().getTime();
        const items = store
          .sessionsOf(course.id)
          .filter((s) => listed(s, includeCompleted, now))
          .map(sessionItem);
        const path = `${LEARNER_PREFIX}/instructor-led-courses/${params.courseId ?? ''}/sessions`;
        return { status: 200, body: halPage(items, page, b.paging, { key: 'sessions', path, query }) };
      },
    },
    {
      id: 'learner.course.session',
      method: 'GET',
      path: '/instructor-led-courses/:courseId/sessions/:sessionId',
      auth: 'token',
      handle: ({ params, query }) => {
        const courseId = pathGuid('courseId', params.courseId, b.errors);
        const sessionId = pathGuid('sessionId', params.sessionId, b.errors);
        const course = instructorLed(courseId);
        const includeCompleted = flagOnly(query);
        const now = clock().getTime();
        const session = store.session(sessionId);
        if (session === undefined || (session.courseId !== course.id && rules.otherCourse === 404)) {
          if (rules.unknownSession === 200) {
            return { status: 200, body: { id: sessionId, courseId: course.id, name: '', start: iso(now), end: iso(now), location: null, instructor: null } };
          }
          throw notFound(`No session ${sessionId} in course ${course.id}.`);
        }
        if (rules.getCompleted === 'flag' && !listed(session, includeCompleted, now)) {
          throw notFound(`Session ${session.id} is completed: it is answered with includeCompletedSessions=true.`);
        }
        return { status: 200, body: sessionItem(session) };
      },
    },
  ];
}
