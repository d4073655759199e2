// Branding and lesson progress, what the course player reads and writes with the learner token.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LEARNER_SEED_IDS, learnerCourseId } from '../../../reference-impl/index.js';
import type { JsonRecord } from '../intapi/_support.js';
import { expectLearnerError, type LearnerHarness, names, startLearner, testClock, UNKNOWN } from './_learner.js';

const clock = testClock();
const COURSE = LEARNER_SEED_IDS.playerCourse;
let h: LearnerHarness;
let lessons: string[];
beforeAll(async () => {
  h = await startLearner({ clock: clock.now });
  lessons = ((await h.get(`/courses/${COURSE}`)).obj.lessons as JsonRecord[]).map((l) => String(l.id));
});
afterAll(() => h.close());

const save = (lesson: string, body: unknown, token?: string) =>
  h.call('PUT', `/my-progress/${COURSE}/lessons/${lesson}`, token === undefined ? { body } : { body, token });

describe('GET /my-branding', () => {
  test("learner a: the department's colours and a logo the player serves", async () => {
    const answer = await h.get('/my-branding');
    expect(answer.obj).toEqual({
      departmentId: LEARNER_SEED_IDS.departmentA,
      branding: { primaryColor: '#0b6e4f', backgroundColor: '#f4efe6', logoUrl: `${h.base}/learn/assets/logo-${LEARNER_SEED_IDS.departmentA}.svg` },
    });
    const logo = await h.raw(`/learn/assets/logo-${LEARNER_SEED_IDS.departmentA}.svg`);
    expect([logo.status, logo.contentType, logo.text.startsWith('<svg')]).toEqual([200, 'image/svg+xml', true]);
  });

  test('learner b: branding null, and no logo to serve', async () => {
    expect((await h.get('/my-branding', { token: await h.login('b') })).obj).toEqual({ departmentId: LEARNER_SEED_IDS.departmentB, branding: null });
    expectLearnerError(await h.raw(`/learn/assets/logo-${LEARNER_SEED_IDS.departmentB}.svg`), 404);
    expectLearnerError(await h.raw('/learn/assets/anything.png'), 404);
  });
});

describe('lesson progress', () => {
  test('unsaved lessons read 0 with updatedAt null; a save answers and reads back, per learner', async () => {
    const before = (await h.get(`/my-progress/${COURSE}`)).obj;
    expect(before).toEqual({ courseId: COURSE, lessons: lessons.map((lessonId) => ({ lessonId, progress: 0, updatedAt: null })) });
    const saved = await save(lessons[1] ?? '', { progress: 40 });
    const stamp = clock.now().toISOString();
    expect([saved.status, saved.obj]).toEqual([200, { lessonId: lessons[1], progress: 40, updatedAt: stamp }]);
    expect(((await h.get(`/my-progress/${COURSE}`)).obj.lessons as JsonRecord[])[1]).toEqual({ lessonId: lessons[1], progress: 40, updatedAt: stamp });
    const b = await h.login('b');
    expect(((await h.get(`/my-progress/${COURSE}`, { token: b })).obj.lessons as JsonRecord[])[1]?.progress).toBe(0);
    expect((await save(lessons[1] ?? '', { progress: 10 })).obj.progress).toBe(10);
  });

  test.each([
    [{ progress: 101 }, 'progress'],
    [{ progress: -1 }, 'progress'],
    [{ progress: 2.5 }, 'progress'],
    [{ progress: '50' }, 'progress'],
    [{}, 'progress'],
    [{ progress: null }, 'progress'],
    [[50], 'body'],
  ])('%j: 422 naming %s', async (body, name) => {
    const answer = await save(lessons[0] ?? '', body);
    expectLearnerError(answer, 422);
    expect(names(answer, name)).toBe(true);
  });

  test('0 and 100 are accepted; unknown fields are ignored', async () => {
    expect((await save(lessons[0] ?? '', { progress: 0 })).status).toBe(200);
    expect((await save(lessons[0] ?? '', { progress: 100, note: 'x' })).status).toBe(200);
  });

  test('unknown course or lesson, or a lesson of another course: 404; not GUIDs: 422; a revoked token: 401', async () => {
    expectLearnerError(await h.get(`/my-progress/${UNKNOWN}`), 404);
    expectLearnerError(await save(UNKNOWN, { progress: 1 }), 404);
    const other = await h.get(`/courses/${learnerCourseId(2)}`);
    expectLearnerError(await save(String((other.obj.lessons as JsonRecord[])[0]?.id), { progress: 1 }), 404);
    expectLearnerError(await h.get('/my-progress/x'), 422);
    expectLearnerError(await save('x', { progress: 1 }), 422);
    const old = h.token;
    h.token = await h.login('a');
    expectLearnerError(await save(lessons[0] ?? '', { progress: 5 }, old), 401);
  });
});
