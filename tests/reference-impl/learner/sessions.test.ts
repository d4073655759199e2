// Sessions of instructor-led courses: the seed around the clock's time (completed, running and
// future sessions, multi-session courses, courses with none), includeCompletedSessions on every
// operation, counts that agree with the lists, get-by-id, and completion moving with the clock.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JsonRecord } from '../intapi/_support.js';
import { embedded, expectLearnerError, ids, type LearnerHarness, names, startLearner, testClock, UNKNOWN, walk } from './_learner.js';

const clock = testClock();
let h: LearnerHarness;
let all: JsonRecord[];
let ilc: string[];

beforeAll(async () => {
  // Tokens outlive the clock's moves below.
  h = await startLearner({ clock: clock.now, families: { learner: { tokenTtlSeconds: 30 * 24 * 3600 } } });
  all = await walk(h, '/my-catalog-calendar/sessions?includeCompletedSessions=true', 'sessions');
  ilc = (await walk(h, '/my-catalog', 'courses')).filter((c) => c.courseType === 'InstructorLedCourse').map((c) => String(c.id));
});
afterAll(() => h.close());

const now = (): number => clock.now().getTime();
const completed = (s: JsonRecord): boolean => Date.parse(String(s.end)) < now();
const of = (courseId: string, list = all): JsonRecord[] => list.filter((s) => s.courseId === courseId);
const FLAGS = ['', '?includeCompletedSessions=false', '?includeCompletedSessions=true'] as const;
const includes = (flag: string): boolean => flag.endsWith('true');

describe('seed', () => {
  test('completed, running and future sessions relative to the clock; multi-session courses; courses without sessions', () => {
    const t = now();
    expect(all.some(completed)).toBe(true);
    expect(all.some((s) => Date.parse(String(s.start)) <= t && Date.parse(String(s.end)) >= t)).toBe(true);
    expect(all.some((s) => Date.parse(String(s.start)) > t)).toBe(true);
    expect(ilc.some((c) => of(c).length >= 3)).toBe(true);
    expect(ilc.some((c) => of(c).length === 0)).toBe(true);
    expect(ilc.some((c) => of(c).length > 0 && of(c).every(completed))).toBe(true);
    for (const s of all) expect(Object.keys(s)).toEqual(['id', 'courseId', 'name', 'start', 'end', 'location', 'instructor']);
  });

  test('sessions are listed by start', () => {
    const starts = all.map((s) => Date.parse(String(s.start)));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });
});

describe('includeCompletedSessions', () => {
  test.each(FLAGS)('catalog sessions%s: completed ones only with true', async (flag) => {
    const listed = await walk(h, `/my-catalog-calendar/sessions${flag}`, 'sessions');
    expect(ids(listed)).toEqual(ids(all.filter((s) => includes(flag) || !completed(s))));
  });

  test.each(FLAGS)('per course: sessions, calendar overview and catalog calendar agree%s', async (flag) => {
    const calendar = await walk(h, `/my-catalog-calendar${flag}`, 'calendar');
    expect(calendar.map((c) => c.courseId)).toEqual(ilc);
    for (const courseId of ilc) {
      const expected = of(courseId).filter((s) => includes(flag) || !completed(s));
      const listed = await walk(h, `/instructor-led-courses/${courseId}/sessions${flag}`, 'sessions');
      expect(ids(listed)).toEqual(ids(expected));
      const overview = (await h.get(`/instructor-led-courses/${courseId}/calendar${flag}`)).obj;
      expect(overview).toEqual({
        courseId,
        sessionCount: expected.length,
        firstSessionStart: expected.length === 0 ? null : expected.map((s) => String(s.start)).sort()[0],
        lastSessionEnd:
          expected.length === 0
            ? null
            : expected
                .map((s) => String(s.end))
                .sort()
                .at(-1),
      });
      expect(calendar.find((c) => c.courseId === courseId)?.sessionCount).toBe(expected.length);
    }
  });

  test('get-by-id answers what the list of the same flag has; a completed session is 404 without the flag', async () => {
    for (const s of all) {
      const path = `/instructor-led-courses/${String(s.courseId)}/sessions/${String(s.id)}`;
      expect((await h.get(`${path}?includeCompletedSessions=true`)).obj).toEqual(s);
      const plain = await h.get(path);
      if (completed(s)) expectLearnerError(plain, 404);
      else expect(plain.obj).toEqual(s);
    }
  });

  test.each([
    'includeCompletedSessions=yes',
    'includeCompletedSessions=TRUE',
    'includeCompletedSessions=',
    'includeCompletedSessions=true&includeCompletedSessions=true',
  ])('%s: 422 naming includeCompletedSessions on every operation', async (query) => {
    const [courseId] = ilc;
    const session = all.find((s) => s.courseId !== undefined) as JsonRecord;
    for (const path of [
      '/my-catalog-calendar',
      '/my-catalog-calendar/sessions',
      `/instructor-led-courses/${courseId}/calendar`,
      `/instructor-led-courses/${courseId}/sessions`,
      `/instructor-led-courses/${String(session.courseId)}/sessions/${String(session.id)}`,
    ]) {
      const answer = await h.get(`${path}?${query}`);
      expectLearnerError(answer, 422);
      expect(names(answer, 'includeCompletedSessions')).toBe(true);
    }
  });
});

describe('ids', () => {
  test('unknown course, a course that is not instructor-led, unknown session, a session of another course: 404', async () => {
    const online = (await walk(h, '/my-catalog', 'courses')).find((c) => c.courseType === 'OnlineCourse');
    const [a, b] = ilc.filter((c) => of(c).length > 0);
    const sessionOfB = of(String(b))[0] as JsonRecord;
    for (const path of [
      `/instructor-led-courses/${UNKNOWN}/sessions`,
      `/instructor-led-courses/${UNKNOWN}/calendar`,
      `/instructor-led-courses/${String(online?.id)}/sessions`,
      `/instructor-led-courses/${String(a)}/sessions/${UNKNOWN}`,
      `/instructor-led-courses/${String(a)}/sessions/${String(sessionOfB.id)}?includeCompletedSessions=true`,
    ]) {
      expectLearnerError(await h.get(path), 404);
    }
  });

  test('a path id that is not a GUID: 422 naming it', async () => {
    const [courseId] = ilc;
    for (const [path, name] of [
      ['/instructor-led-courses/x/sessions', 'courseId'],
      ['/instructor-led-courses/x/calendar', 'courseId'],
      [`/instructor-led-courses/${courseId}/sessions/x`, 'sessionId'],
    ] as const) {
      const answer = await h.get(path);
      expectLearnerError(answer, 422);
      expect(names(answer, name)).toBe(true);
    }
  });

  test('ids match case-insensitively', async () => {
    const s = all[0] as JsonRecord;
    const answer = await h.get(
      `/instructor-led-courses/${String(s.courseId).toUpperCase()}/sessions/${String(s.id).toUpperCase()}?includeCompletedSessions=true`,
    );
    expect(answer.obj).toEqual(s);
  });
});

describe('the clock', () => {
  test('a running session is completed once the clock passes its end, and leaves the lists without the flag', async () => {
    const running = all.find((s) => Date.parse(String(s.start)) <= now() && !completed(s)) as JsonRecord;
    const listed = async () => ids(embedded(await h.get(`/instructor-led-courses/${String(running.courseId)}/sessions?_limit=30`), 'sessions'));
    expect(await listed()).toContain(running.id);
    clock.advance(Date.parse(String(running.end)) - now());
    expect(await listed()).toContain(running.id); // ends now: not before now, so not completed yet
    clock.advance(1);
    expect(await listed()).not.toContain(running.id);
  });
});
