/**
 * The operations the suites call, of every family, with the reference server's method and path
 * (DEVELOPERS.md, "Choices where the specification is silent": the spec says "Method and path of
 * each operation in this table: not shown"; the resource paths are public facts). A target
 * profile overrides the method and path of any of them under `operations`; the family is fixed.
 * An operation's id names its family: `scim.…` and `learner.…` ids are those families', the rest
 * the Integration API's. The part before the last dot is the collection it belongs to (the
 * scheduler's lock key): `submissions.create` → `submissions`, `scim.users.create` → `scim.users`.
 */

/** The API families of the specification. */
export const FAMILIES = ['intapi', 'scim', 'learner'] as const;
export type Family = (typeof FAMILIES)[number];

export interface OperationRoute {
  readonly method: string;
  /** Path under the family's base URL; `{name}` marks a path parameter. */
  readonly path: string;
}

/** The methods a profile may give an operation. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const route = (method: (typeof HTTP_METHODS)[number], path: string): OperationRoute => Object.freeze({ method, path });

const TABLE = {
  'auth.authenticate': route('POST', '/authenticate'),
  'resources.get': route('GET', '/resources/{resourceId}'),
  'resources.list': route('GET', '/resources'),
  'resources.listForUser': route('GET', '/users/{userId}/resources'),
  'resources.listMine': route('GET', '/enrollments/myresources'),
  'resources.listForCourse': route('GET', '/courses/{courseId}/resources'),
  'resources.getForCourse': route('GET', '/courses/{courseId}/resources/{resourceId}'),
  'resources.listForEnrollment': route('GET', '/users/{userId}/enrollments/{courseId}/resources'),
  'resources.listMineForCourse': route('GET', '/enrollments/{courseId}/myresources'),
  'submissions.list': route('GET', '/submissions'),
  'submissions.create': route('POST', '/submissions'),
  'submissions.get': route('GET', '/submissions/{id}'),
  'submissions.update': route('PUT', '/submissions/{id}'),
  'templates.list': route('GET', '/templates'),
  'templates.get': route('GET', '/templates/{id}'),
  'questionBanks.list': route('GET', '/question-banks'),
  'questionBanks.create': route('POST', '/question-banks'),
  'questionBanks.get': route('GET', '/question-banks/{questionBankId}'),
  'questionBanks.update': route('PUT', '/question-banks/{questionBankId}'),
  'questions.list': route('GET', '/question-banks/{questionBankId}/questions'),
  'questions.create': route('POST', '/question-banks/{questionBankId}/questions'),
  'questions.get': route('GET', '/question-banks/{questionBankId}/questions/{questionId}'),
  'questions.update': route('PUT', '/question-banks/{questionBankId}/questions/{questionId}'),
  // Users (v1 and v2) and manager direct reports (v2 only), named by release notes (issue 8): the
  // specification's table (the current user at /users/my-details; public-facts says /my-details) and
  // public-facts' paths for update and upsert.
  'users.list': route('GET', '/users'),
  'users.get': route('GET', '/users/{userId}'),
  'users.myDetails': route('GET', '/users/my-details'),
  'users.update': route('PUT', '/users/{userId}'),
  'users.upsert': route('POST', '/users'),
  'managers.listDirectReports': route('GET', '/managers/{managerId}/direct-reports'),
  'managers.updateDirectReports': route('POST', '/managers/{managerId}/direct-reports'),
  // Course evaluations (v2 only; spec's path shapes) and countries and provinces (public-facts paths); issue 8.
  'evaluationQuestions.list': route('GET', '/courses/{courseId}/evaluation-questions'),
  'evaluationQuestions.get': route('GET', '/courses/{courseId}/evaluation-questions/{questionId}'),
  'evaluationAnswers.list': route('GET', '/courses/{courseId}/evaluation-answers'),
  'countries.list': route('GET', '/countries'),
  'provinces.list': route('GET', '/provinces'),
  'provinces.get': route('GET', '/provinces/{id}'),
  // Groups (public-facts: list and get; create, update, assign, unassign and the group's users are
  // the reference server's choices, as the specification's path shapes) and enrollments (public-facts).
  'groups.list': route('GET', '/groups'),
  'groups.get': route('GET', '/groups/{groupId}'),
  'groups.create': route('POST', '/groups'),
  'groups.update': route('PUT', '/groups/{groupId}'),
  'groups.assignUsers': route('POST', '/groups/{groupId}/users/assign'),
  'groups.unassignUsers': route('POST', '/groups/{groupId}/users/unassign'),
  'groups.listUsers': route('GET', '/groups/{groupId}/users'),
  'enrollments.list': route('GET', '/users/{userId}/enrollments'),
  'enrollments.create': route('POST', '/users/{userId}/enrollments'),
  'enrollments.enrollSession': route('POST', '/users/{userId}/enrollments/{courseId}/session/{sessionId}'),
  // SCIM 2.0 (public-facts "Base addresses": /Users, /Groups, /Schemas under /scim/v2; RFC 7644 §3.2).
  'scim.auth.token': route('POST', '/token'),
  'scim.users.create': route('POST', '/Users'),
  'scim.users.list': route('GET', '/Users'),
  'scim.users.get': route('GET', '/Users/{id}'),
  'scim.users.replace': route('PUT', '/Users/{id}'),
  'scim.users.patch': route('PATCH', '/Users/{id}'),
  'scim.users.delete': route('DELETE', '/Users/{id}'),
  'scim.groups.create': route('POST', '/Groups'),
  'scim.groups.list': route('GET', '/Groups'),
  'scim.groups.get': route('GET', '/Groups/{id}'),
  'scim.groups.replace': route('PUT', '/Groups/{id}'),
  'scim.groups.patch': route('PATCH', '/Groups/{id}'),
  'scim.groups.delete': route('DELETE', '/Groups/{id}'),
  'scim.schemas.list': route('GET', '/Schemas'),
  'scim.schemas.get': route('GET', '/Schemas/{id}'),
  // Learner-facing API (the specification's paths; the token exchange and the branding and progress
  // operations are the reference server's choices, DEVELOPERS.md).
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

export type OperationId = keyof typeof TABLE;

/** The default method and path of every operation. */
export const OPERATIONS: Readonly<Record<OperationId, OperationRoute>> = Object.freeze(TABLE);

export const OPERATION_IDS: readonly OperationId[] = Object.freeze(Object.keys(TABLE) as OperationId[]);

export function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(TABLE, id);
}

/** The family an operation belongs to, from its id. */
export function familyOf(id: string): Family {
  if (id.startsWith('scim.')) return 'scim';
  if (id.startsWith('learner.')) return 'learner';
  return 'intapi';
}

/** The collection an operation belongs to, for the scheduler's locks: its id without the last part. */
export function collectionOf(id: string): string {
  return id.slice(0, id.lastIndexOf('.'));
}

/** The `{name}` parameters of a path, sorted. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] ?? '').sort();
}
