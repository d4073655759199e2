/**
 * The Integration API operations the reference server serves, by operation id (docs/decisions/intapi/reference-choices.md
 * "Choices where the specification is silent", the path table), with the identifiers of their
 * paths. The fault catalogue generates its per-operation faults from this list;
 * tests/reference-impl/intapi/faults.test.ts checks it against the routes the family registers.
 */
export interface CatalogueEntry {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  /** The path identifiers (GUIDs), in path order. */
  readonly pathIds: readonly string[];
  /** Served with x-api-version 2 only (docs/decisions/intapi/reference-choices.md "Versions"). */
  readonly v2Only: boolean;
}

/** The operations served with x-api-version 1 and 2: an id ending in `.` names a collection's every operation. */
const BOTH_VERSIONS: readonly string[] = ['resources.', 'users.', 'countries.', 'provinces.', 'enrollments.', 'groups.list', 'groups.get', 'auth.authenticate'];

const entry = (id: string, method: CatalogueEntry['method'], path: string): CatalogueEntry => ({
  id,
  method,
  path,
  // BOTH_VERSIONS exist in both versions; the rest in version 2 only (docs/decisions/intapi/reference-choices.md "Versions").
  v2Only: !BOTH_VERSIONS.some((both) => (both.endsWith('.') ? id.startsWith(both) : id === both)),
  pathIds: path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1)),
});

export const INTAPI_OPERATIONS: readonly CatalogueEntry[] = [
  entry('resources.get', 'GET', '/resources/:resourceId'),
  entry('resources.list', 'GET', '/resources'),
  entry('resources.listForUser', 'GET', '/users/:userId/resources'),
  entry('resources.listMine', 'GET', '/enrollments/myresources'),
  entry('resources.listForCourse', 'GET', '/courses/:courseId/resources'),
  entry('resources.getForCourse', 'GET', '/courses/:courseId/resources/:resourceId'),
  entry('resources.listForEnrollment', 'GET', '/users/:userId/enrollments/:courseId/resources'),
  entry('resources.listMineForCourse', 'GET', '/enrollments/:courseId/myresources'),
  entry('submissions.list', 'GET', '/submissions'),
  entry('submissions.create', 'POST', '/submissions'),
  entry('submissions.get', 'GET', '/submissions/:id'),
  entry('submissions.update', 'PUT', '/submissions/:id'),
  entry('templates.list', 'GET', '/templates'),
  entry('templates.get', 'GET', '/templates/:id'),
  entry('questionBanks.list', 'GET', '/question-banks'),
  entry('questionBanks.create', 'POST', '/question-banks'),
  entry('questionBanks.get', 'GET', '/question-banks/:questionBankId'),
  entry('questionBanks.update', 'PUT', '/question-banks/:questionBankId'),
  entry('questions.list', 'GET', '/question-banks/:questionBankId/questions'),
  entry('questions.create', 'POST', '/question-banks/:questionBankId/questions'),
  entry('questions.get', 'GET', '/question-banks/:questionBankId/questions/:questionId'),
  entry('questions.update', 'PUT', '/question-banks/:questionBankId/questions/:questionId'),
  // Users and manager direct reports. The current user's details answer on public-facts'
  // paths too, under the same operation id (its faults name the specification's path, listed last).
  entry('users.list', 'GET', '/users'),
  entry('users.myDetails', 'GET', '/my-details'),
  entry('users.myDetails', 'GET', '/mydetails'),
  entry('users.myDetails', 'GET', '/users/my-details'),
  entry('users.get', 'GET', '/users/:userId'),
  entry('users.update', 'PUT', '/users/:userId'),
  entry('users.upsert', 'POST', '/users'),
  entry('managers.listDirectReports', 'GET', '/managers/:managerId/direct-reports'),
  entry('managers.updateDirectReports', 'POST', '/managers/:managerId/direct-reports'),
  // Course evaluations, countries and provinces
  entry('evaluationQuestions.list', 'GET', '/courses/:courseId/evaluation-questions'),
  entry('evaluationQuestions.get', 'GET', '/courses/:courseId/evaluation-questions/:questionId'),
  entry('evaluationAnswers.list', 'GET', '/courses/:courseId/evaluation-answers'),
  entry('countries.list', 'GET', '/countries'),
  entry('provinces.list', 'GET', '/provinces'),
  entry('provinces.get', 'GET', '/provinces/:id'),
  entry('groups.list', 'GET', '/groups'),
  entry('groups.get', 'GET', '/groups/:groupId'),
  entry('groups.create', 'POST', '/groups'),
  entry('groups.update', 'PUT', '/groups/:groupId'),
  entry('groups.assignUsers', 'POST', '/groups/:groupId/users/assign'),
  entry('groups.unassignUsers', 'POST', '/groups/:groupId/users/unassign'),
  entry('groups.listUsers', 'GET', '/groups/:groupId/users'),
  entry('enrollments.list', 'GET', '/users/:userId/enrollments'),
  entry('enrollments.create', 'POST', '/users/:userId/enrollments'),
  entry('enrollments.enrollSession', 'POST', '/users/:userId/enrollments/:courseId/session/:sessionId'),
  entry('auth.authenticate', 'POST', '/authenticate'),
];
