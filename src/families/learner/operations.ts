/** The learner-facing API's operations under its base URL, and their default routes. */
import { route } from '../../profile/base/routes.js';

export const LEARNER_OPERATIONS = {
  // Learner-facing API (the specification's paths; the token exchange and the branding and progress
  // operations are the reference server's choices, docs/decisions/learner/reference-server-and-player.md).
  'learner.auth.token': route('POST', '/token'),
  'learner.catalog.list': route('GET', '/my-catalog'),
  'learner.categories.list': route('GET', '/my-catalog/categories'),
  'learner.courses.get': route('GET', '/courses/{courseId}'),
  'learner.calendar.list': route('GET', '/my-catalog-calendar'),
  'learner.calendar.sessions': route('GET', '/my-catalog-calendar/sessions'),
  'learner.courses.calendar': route('GET', '/instructor-led-courses/{courseId}/calendar'),
  'learner.sessions.list': route('GET', '/instructor-led-courses/{courseId}/sessions'),
  'learner.sessions.get': route('GET', '/instructor-led-courses/{courseId}/sessions/{sessionId}'),
  'learner.branding.get': route('GET', '/my-branding'),
  'learner.progress.get': route('GET', '/my-progress/{courseId}'),
  'learner.progress.save': route('PUT', '/my-progress/{courseId}/lessons/{lessonId}'),
} as const;

declare module '../../profile/base/routes.js' {
  interface OperationTables {
    learner: typeof LEARNER_OPERATIONS;
  }
}
