/**
 * The Integration API operations the suites call, with the reference server's method and path
 * (DEVELOPERS.md, "Choices where the specification is silent": the spec says "Method and path of
 * each operation in this table: not shown"; the resource paths are public facts). A target
 * profile overrides any of them under `operations`.
 */

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
} as const;

export type OperationId = keyof typeof TABLE;

/** The default method and path of every operation. */
export const OPERATIONS: Readonly<Record<OperationId, OperationRoute>> = Object.freeze(TABLE);

export const OPERATION_IDS: readonly OperationId[] = Object.freeze(Object.keys(TABLE) as OperationId[]);

export function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(TABLE, id);
}

/** The `{name}` parameters of a path, sorted. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] ?? '').sort();
}
