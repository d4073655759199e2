// Lesson progress of the learner API (spec#learner-facing-api-1: the player saves progress with the
// token; PUT /my-progress/{courseId}/lessons/{lessonId} and GET /my-progress/{courseId} are the
// reference server's choices, docs/decisions/learner/reference-server-and-player.md).
import fc from 'fast-check';
import { ids, walk } from '../_harness/learner/api.js';
import { describeResponse, expectRejected, expectStatus, fail } from '../_harness/failure.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';

const AUTH = 'spec#learner-facing-api-1';
// Writes and reads back its own progress: alone on it (the player's saves would change what it reads).
const WRITES = { write: ['learner.progress'], observe: ['learner.progress'] };

/** A course of the catalog with its lessons: records.playerCourseId, else the first with lessons. */
async function lessonsOf(t: CheckContext): Promise<{ courseId: string; lessons: string[] }> {
  const preferred = t.profile.records.playerCourseId;
  const candidates = preferred ? [preferred] : ids((await walk(t, 'learner.catalog.list')).items).slice(0, 5);
  for (const courseId of candidates) {
    const res = await t.http.send({ op: 'learner.courses.get', params: { courseId } });
    expectStatus(res, 200);
    const lessons = (res.json as { lessons?: { id?: unknown }[] }).lessons ?? [];
    if (lessons.length > 0) return { courseId, lessons: lessons.map((l) => String(l.id)) };
  }
  return t.skip('no course of the catalog has lessons');
}

requirement(
  { id: 'learner.progress.saved-then-read', level: 'PROFILE', spec: AUTH, title: "A lesson's saved progress is what GET /my-progress answers next" },
  async (t) => {
    const { courseId, lessons } = await lessonsOf(t);
    await t.property(fc.record({ lesson: fc.constantFrom(...lessons), progress: fc.integer({ min: 0, max: 100 }) }), async ({ lesson, progress }) => {
      expectStatus(await t.http.send({ op: 'learner.progress.save', params: { courseId, lessonId: lesson }, json: { progress } }), 200);
      const res = await t.http.send({ op: 'learner.progress.get', params: { courseId } });
      expectStatus(res, 200);
      const saved = ((res.json as { lessons?: { lessonId?: unknown; progress?: unknown }[] }).lessons ?? []).find((l) => String(l.lessonId) === lesson);
      if (saved?.progress !== progress) fail(`lesson ${lesson} at progress ${progress}, as saved`, describeResponse(res), res);
    });
  },
  WRITES,
);

requirement(
  { id: 'learner.progress.out-of-range-422', level: 'PROFILE', spec: AUTH, title: 'Saving progress outside 0..100 answers 422 naming progress' },
  async (t) => {
    const { courseId, lessons } = await lessonsOf(t);
    for (const progress of [101, -1]) {
      expectRejected(await t.http.send({ op: 'learner.progress.save', params: { courseId, lessonId: lessons[0] as string }, json: { progress } }), 'progress');
    }
  },
  WRITES,
);
