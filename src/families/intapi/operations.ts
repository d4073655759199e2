/**
 * The Integration API's operations and their default routes (docs/decisions/intapi/reference-choices.md, "Choices where the
 * specification is silent": the spec says "Method and path of each operation in this table: not
 * shown"; the resource paths are public facts). The part of an id before its last dot is the
 * collection it belongs to (the scheduler's lock key): `submissions.create` → `submissions`.
 */
import { route } from '../../profile/base/routes.js';

export const INTAPI_OPERATIONS = {
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
  // Users (v1 and v2) and manager direct reports (v2 only), named by release notes: the
  // specification's table (the current user at /users/my-details; public-facts says /my-details) and
  // public-facts' paths for update and upsert.
  'users.list': route('GET', '/users'),
  'users.get': route('GET', '/users/{userId}'),
  'users.myDetails': route('GET', '/users/my-details'),
  'users.update': route('PUT', '/users/{userId}'),
  'users.upsert': route('POST', '/users'),
  'managers.listDirectReports': route('GET', '/managers/{managerId}/direct-reports'),
  'managers.updateDirectReports': route('POST', '/managers/{managerId}/direct-reports'),
  // Course evaluations (v2 only; spec's path shapes) and countries and provinces (public-facts paths).
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
} as const;

declare module '../../profile/base/routes.js' {
  interface OperationTables {
    intapi: typeof INTAPI_OPERATIONS;
  }
}
