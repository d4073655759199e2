// Instructor-led sessions of the learner API (spec#learner-facing-api: the catalog calendar, the
// course calendar, session lists and get-by-id, each with `includeCompletedSessions`). Completed =
// ended before the request; absent leaves them out (docs/decisions/learner/reference-server-and-player.md, the reference server's choice).
import { ids, instructorLedCourses, type Item, missingFrom, sessionsOf, showIds, walk } from '../_harness/learner/api.js';
import { describeResponse, expectRejected, expectStatus, fail } from '../_harness/failure.js';
import { unknownId } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';

const SPEC = 'spec#learner-facing-api';

const endOf = (s: Item): number => Date.parse(String(s.end));

/** Per instructor-led course, its sessions without the flag and with `includeCompletedSessions=true`. */
async function allSessions(t: CheckContext): Promise<{ courseId: string; absent: Item[]; all: Item[] }[]> {
  const courses = await instructorLedCourses(t);
  t.requireData(courses.length > 0, 'the catalog has no instructor-led course');
  const out = [];
  for (const courseId of courses) out.push({ courseId, absent: await sessionsOf(t, courseId), all: await sessionsOf(t, courseId, true) });
  return out;
}

/**
 * The rule of includeCompletedSessions=true on session lists: every session listed without the flag
 * is listed with it, and (the profile saying its learner has completed sessions) the lists with it
 * show some session that ended before the reading began (`started`). Whether the lists without the
 * flag leave those out is learner.sessions.absent-no-completed's rule. A target whose lists show no
 * completed session leaves the rule unexercised: not a pass. Whether that is the server ignoring the
 * flag or a learner with nothing completed, only the profile says.
 */
function expectIncludesCompleted(t: CheckContext, started: number, lists: readonly { what: string; absent: readonly Item[]; all: readonly Item[] }[]): void {
  let completedSeen = 0;
  for (const { what, absent, all } of lists) {
    const lost = missingFrom(ids(absent), ids(all));
    if (lost.length > 0) fail(`${what}: includeCompletedSessions=true to list every session listed without it`, `missing ${showIds(lost)}`);
    completedSeen += all.filter((s) => endOf(s) < started).length;
  }
  if (completedSeen > 0) return;
  const expected = t.profile.expectations.learner.completedSessions;
  if (expected !== 'present') t.skip(`not exercised: no list shows a completed session, and expectations.learner.completedSessions is ${expected}`);
  fail(
    `${lists.length === 1 ? `${lists[0]?.what ?? ''}: ` : ''}includeCompletedSessions=true to list the completed sessions (the rule exercised; expectations.learner.completedSessions: present)`,
    `${lists.length === 1 ? 'it lists no' : 'no list lists a'} session that ended before ${new Date(started).toISOString()}`,
  );
}

requirement(
  {
    id: 'learner.sessions.include-completed-superset',
    level: 'MUST',
    spec: SPEC,
    title: "A course's session list with includeCompletedSessions=true adds the completed sessions, drops none",
  },
  async (t) => {
    const started = Date.now();
    const lists = (await allSessions(t)).map((c) => ({ what: `course ${c.courseId}`, absent: c.absent, all: c.all }));
    expectIncludesCompleted(t, started, lists);
  },
);

requirement(
  {
    id: 'learner.sessions.catalog-include-completed',
    level: 'MUST',
    spec: SPEC,
    title: 'GET /my-catalog-calendar/sessions with includeCompletedSessions=true lists completed sessions too',
  },
  async (t) => {
    // Release 5.127.0 added the flag to the catalog calendar operations: its own rule, apart from the course lists'.
    const started = Date.now();
    const [absent, all] = await Promise.all([walk(t, 'learner.calendar.sessions'), walk(t, 'learner.calendar.sessions', { includeCompletedSessions: true })]);
    expectIncludesCompleted(t, started, [{ what: 'GET /my-catalog-calendar/sessions', absent: absent.items, all: all.items }]);
  },
);

requirement(
  {
    id: 'learner.sessions.absent-no-completed',
    level: 'MUST',
    spec: SPEC,
    title: 'Without includeCompletedSessions no session list shows a session that ended before the request',
  },
  async (t) => {
    const started = Date.now();
    const lists: [string, Item[]][] = [['GET /my-catalog-calendar/sessions', (await walk(t, 'learner.calendar.sessions')).items]];
    for (const courseId of await instructorLedCourses(t)) lists.push([`course ${courseId}`, await sessionsOf(t, courseId)]);
    const falseFlag = await walk(t, 'learner.calendar.sessions', { includeCompletedSessions: false });
    lists.push(['GET /my-catalog-calendar/sessions?includeCompletedSessions=false', falseFlag.items]);
    for (const [what, sessions] of lists) {
      const ended = sessions.filter((s) => endOf(s) < started);
      if (ended.length > 0) {
        fail(
          `${what}: no session that ended before the request (${new Date(started).toISOString()})`,
          `${ended.length} completed, e.g. ${String(ended[0]?.id)} ended ${String(ended[0]?.end)}`,
        );
      }
    }
  },
);

requirement(
  {
    id: 'learner.sessions.calendar-counts-agree',
    level: 'MUST',
    spec: SPEC,
    title: "The calendars' session counts equal the course's session list with the same flag",
  },
  async (t) => {
    const sessions = await allSessions(t);
    for (const include of [undefined, true]) {
      const q = include === undefined ? {} : { includeCompletedSessions: include };
      const counts = new Map((await walk(t, 'learner.calendar.list', q)).items.map((i) => [String(i.courseId).toLowerCase(), i.sessionCount]));
      for (const c of sessions) {
        const listed = (include ? c.all : c.absent).length;
        const flag = include ? '?includeCompletedSessions=true' : '';
        if (counts.get(c.courseId) !== listed) {
          fail(
            `GET /my-catalog-calendar${flag}: sessionCount ${listed} for ${c.courseId}, as its session list`,
            `sessionCount ${String(counts.get(c.courseId))}`,
          );
        }
        const res = await t.http.send({ op: 'learner.courses.calendar', params: { courseId: c.courseId }, query: q });
        expectStatus(res, 200);
        const count = (res.json as { sessionCount?: unknown }).sessionCount;
        if (count !== listed) fail(`the course calendar's sessionCount ${listed}, as the course's session list${flag}`, describeResponse(res), res);
      }
    }
  },
);

requirement(
  {
    id: 'learner.sessions.get-agrees-with-list',
    level: 'MUST',
    spec: SPEC,
    title: 'Get-by-id answers each listed session as listed, and 404 for one the list leaves out',
  },
  async (t) => {
    let judged = 0;
    for (const c of await allSessions(t)) {
      for (const include of [undefined, true]) {
        const q = include === undefined ? {} : { includeCompletedSessions: include };
        for (const s of include ? c.all : c.absent) {
          const res = await t.http.send({ op: 'learner.sessions.get', params: { courseId: c.courseId, sessionId: String(s.id) }, query: q });
          expectStatus(res, 200, `for session ${String(s.id)}, listed${include ? ' with includeCompletedSessions=true' : ''}`);
          if (JSON.stringify(res.json) !== JSON.stringify(s)) fail(`the session as its list shows it: ${JSON.stringify(s)}`, describeResponse(res), res);
          judged++;
        }
      }
      const absent = new Set(ids(c.absent));
      for (const s of c.all.filter((x) => !absent.has(String(x.id).toLowerCase()))) {
        const res = await t.http.send({ op: 'learner.sessions.get', params: { courseId: c.courseId, sessionId: String(s.id) } });
        expectStatus(res, 404, `without includeCompletedSessions for session ${String(s.id)}, which the list leaves out`);
      }
    }
    t.requireData(judged > 0, 'no instructor-led course has a session');
  },
);

requirement(
  {
    id: 'learner.sessions.absent-lists-unended',
    level: 'MUST',
    spec: SPEC,
    title: 'Without includeCompletedSessions a session list still shows every session that has not ended',
  },
  async (t) => {
    // The flag adds the completed sessions; a session that has not ended is not completed, so the
    // list without the flag shows it (a running session included).
    let judged = 0;
    for (const c of await allSessions(t)) {
      const after = Date.now();
      const absent = new Set(ids(c.absent));
      const unended = c.all.filter((s) => endOf(s) > after);
      judged += unended.length;
      const lost = unended.filter((s) => !absent.has(String(s.id).toLowerCase()));
      if (lost.length > 0) {
        fail(
          `course ${c.courseId}: without includeCompletedSessions, every session that ends after ${new Date(after).toISOString()}`,
          `missing ${showIds(ids(lost))}`,
        );
      }
    }
    t.requireData(judged > 0, 'no instructor-led course has a session that has not ended');
  },
);

requirement(
  {
    id: 'learner.sessions.calendar-every-instructor-led',
    level: 'MUST',
    spec: SPEC,
    title: 'GET /my-catalog-calendar has an entry for every instructor-led catalog course, and only for those',
  },
  async (t) => {
    // "session counts for catalog instructor-led courses": a course without sessions has a count too (0).
    const [{ items: courses }, { items: calendar }] = await Promise.all([walk(t, 'learner.catalog.list'), walk(t, 'learner.calendar.list')]);
    const expected = ids(courses.filter((c) => c.courseType === 'InstructorLedCourse'));
    t.requireData(expected.length > 0, 'the catalog has no instructor-led course');
    const got = calendar.map((i) => String(i.courseId).toLowerCase());
    const missing = missingFrom(expected, got);
    const extra = missingFrom(got, expected);
    if (missing.length > 0 || extra.length > 0) {
      fail(
        `one calendar entry for each of the ${expected.length} instructor-led catalog courses`,
        `missing ${showIds(missing)}, not expected ${showIds(extra)}`,
      );
    }
  },
);

requirement(
  {
    id: 'learner.sessions.calendar-overview-bounds',
    level: 'PROFILE',
    spec: SPEC,
    title: "A course's calendar overview: the first start and last end of its session list with the same flag",
  },
  async (t) => {
    let judged = 0;
    for (const c of await allSessions(t)) {
      for (const include of [undefined, true]) {
        const listed = include ? c.all : c.absent;
        const q = include === undefined ? {} : { includeCompletedSessions: include };
        const res = await t.http.send({ op: 'learner.courses.calendar', params: { courseId: c.courseId }, query: q });
        expectStatus(res, 200);
        const body = res.json as { firstSessionStart?: unknown; lastSessionEnd?: unknown };
        const first = listed.length === 0 ? null : Math.min(...listed.map((s) => Date.parse(String(s.start))));
        const last = listed.length === 0 ? null : Math.max(...listed.map(endOf));
        const read = (v: unknown): number | null => (typeof v === 'string' ? Date.parse(v) : null);
        if (read(body.firstSessionStart) !== first || read(body.lastSessionEnd) !== last) {
          const show = (ms: number | null): string => (ms === null ? 'null' : new Date(ms).toISOString());
          fail(
            `course ${c.courseId}${include ? ' with includeCompletedSessions=true' : ''}: firstSessionStart ${show(first)} and lastSessionEnd ${show(last)}, of its ${listed.length} listed sessions`,
            describeResponse(res),
            res,
          );
        }
        judged += listed.length;
      }
    }
    t.requireData(judged > 0, 'no instructor-led course has a session');
  },
);

requirement(
  {
    id: 'learner.sessions.other-course-404',
    level: 'PROFILE',
    spec: SPEC,
    title: "A session asked for under another instructor-led course's path answers 404",
  },
  async (t) => {
    const courses = await allSessions(t);
    const withSession = courses.find((c) => c.all.length > 0);
    const other = courses.find((c) => c !== withSession);
    if (withSession === undefined || other === undefined) return t.requireData(false, 'fewer than two instructor-led courses, or none with a session');
    const session = String(withSession.all[0]?.id);
    const res = await t.http.send({
      op: 'learner.sessions.get',
      params: { courseId: other.courseId, sessionId: session },
      query: { includeCompletedSessions: true },
    });
    expectStatus(res, 404, `for session ${session} (of course ${withSession.courseId}) under course ${other.courseId}`);
  },
);

requirement({ id: 'learner.sessions.unknown-id-404', level: 'PROFILE', spec: SPEC, title: 'An unknown session or course id answers 404' }, async (t) => {
  const courses = await instructorLedCourses(t);
  t.requireData(courses.length > 0, 'the catalog has no instructor-led course');
  const courseId = courses[0] as string;
  for (const include of [undefined, true]) {
    const q = include === undefined ? {} : { includeCompletedSessions: include };
    expectStatus(await t.http.send({ op: 'learner.sessions.get', params: { courseId, sessionId: unknownId(t) }, query: q }), 404, 'for an unknown session');
  }
  expectStatus(await t.http.send({ op: 'learner.sessions.list', params: { courseId: unknownId(t) } }), 404, 'for the sessions of an unknown course');
  expectStatus(await t.http.send({ op: 'learner.courses.calendar', params: { courseId: unknownId(t) } }), 404, 'for the calendar of an unknown course');
});

requirement(
  {
    id: 'learner.sessions.flag-malformed-422',
    level: 'PROFILE',
    spec: SPEC,
    title: 'includeCompletedSessions other than true or false answers 422 naming it',
  },
  async (t) => {
    expectRejected(await t.http.send({ op: 'learner.calendar.sessions', query: { includeCompletedSessions: 'yes' } }), 'includeCompletedSessions');
    expectRejected(await t.http.send({ op: 'learner.calendar.list', query: { includeCompletedSessions: '1' } }), 'includeCompletedSessions');
  },
);
