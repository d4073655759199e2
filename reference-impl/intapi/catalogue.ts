/**
 * The Integration API operations the reference server serves, by operation id (DEVELOPERS.md
 * "Choices where the specification is silent", the path table), with the identifiers of their
 * paths. The fault catalogue generates its per-operation faults from this list;
 * tests/reference-impl/faults.test.ts checks it against the routes the family registers.
 */
export interface CatalogueEntry {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  /** The path identifiers (GUIDs), in path order. */
  readonly pathIds: readonly string[];
  /** Served with x-api-version 2 only (DEVELOPERS.md "Versions"). */
  readonly v2Only: boolean;
}

const entry = (id: string, method: CatalogueEntry['method'], path: string): CatalogueEntry => ({
  id,
  method,
  path,
  // The learning-resource operations and /authenticate exist in both versions; the rest in version 2 only.
  v2Only: !id.startsWith('resources.') && id !== 'auth.authenticate',
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
  entry('auth.authenticate', 'POST', '/authenticate'),
];
