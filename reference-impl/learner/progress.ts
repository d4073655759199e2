import { notFound, validationFailed } from '../http/errors.js';
import { isJsonObject, type JsonObject } from '../rules/json.js';
import { learnerOf, type LearnerDeps, type LearnerOperation, PLAYER_PREFIX } from './context.js';
import { pathGuid } from './query.js';
import type { Course, Department, Learner } from './seed.js';
import type { LearnerStore } from './store.js';

/**
 * What the course player reads and writes besides the course (spec#learner-facing-api: "Department-
 * specific branding … is used as the theme"; "A token is used by the lesson player to save
 * progress", spec#learner-facing-api-1): the learner's department branding and the saved progress
 * of each lesson. Both act on the token's learner.
 */
export const logoUrl = (origin: string, department: Department): string => `${origin}${PLAYER_PREFIX}/assets/logo-${department.id}.svg`;

function progressItem(store: LearnerStore, learner: Learner, lessonId: string): JsonObject {
  const saved = store.progressOf(learner, lessonId);
  return { lessonId, progress: saved?.progress ?? 0, updatedAt: saved === undefined ? null : new Date(saved.updatedAt).toISOString() };
}

/** `progress`: an integer 0..100 (any number under the fault `learner.progress-bounds-unchecked`). */
function progressOfBody(body: unknown, bounds: 'checked' | 'unchecked'): number {
  if (!isJsonObject(body)) throw validationFailed(['body: must be a JSON object']);
  const value = body.progress;
  if (value === undefined || value === null) throw validationFailed(['progress: is required']);
  const ok = typeof value === 'number' && (bounds === 'unchecked' ? Number.isFinite(value) : Number.isInteger(value) && value >= 0 && value <= 100);
  if (!ok) throw validationFailed(['progress: must be an integer from 0 to 100']);
  return value;
}

export function progressOperations(deps: LearnerDeps): LearnerOperation[] {
  const { store, behaviour: b, clock } = deps;
  const courseOf = (id: string): Course => {
    const course = store.course(id);
    if (course === undefined) throw notFound(`No course ${id}.`);
    return course;
  };
  return [
    {
      id: 'learner.branding.get',
      method: 'GET',
      path: '/my-branding',
      auth: 'token',
      handle: ({ context }) => {
        const department = store.department(learnerOf(context).departmentId);
        if (department === undefined) throw new TypeError('a learner without a department');
        const branding =
          department.branding === null || b.branding.served === 'null' ? null : { ...department.branding, logoUrl: logoUrl(context.origin, department) };
        return { status: 200, body: { departmentId: department.id, branding } };
      },
    },
    {
      id: 'learner.progress.get',
      method: 'GET',
      path: '/my-progress/:courseId',
      auth: 'token',
      handle: ({ context, params }) => {
        const course = courseOf(pathGuid('courseId', params.courseId, b.errors));
        const learner = learnerOf(context);
        return { status: 200, body: { courseId: course.id, lessons: course.lessons.map((l) => progressItem(store, learner, l.id)) } };
      },
    },
    {
      id: 'learner.progress.save',
      method: 'PUT',
      path: '/my-progress/:courseId/lessons/:lessonId',
      auth: 'token',
      handle: ({ context, params, body }) => {
        const courseId = pathGuid('courseId', params.courseId, b.errors);
        const lessonId = pathGuid('lessonId', params.lessonId, b.errors);
        const lesson = courseOf(courseId).lessons.find((l) => l.id === lessonId.toLowerCase());
        if (lesson === undefined) throw notFound(`No lesson ${lessonId} in course ${courseId}.`);
        const progress = progressOfBody(body, b.progress.bounds);
        const updatedAt = clock().getTime();
        if (b.progress.stored === 'yes') store.saveProgress(learnerOf(context), lesson.id, { progress, updatedAt });
        return { status: 200, body: { lessonId: lesson.id, progress, updatedAt: new Date(updatedAt).toISOString() } };
      },
    },
  ];
}
