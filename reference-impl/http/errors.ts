/**
 * Errors as the handlers raise them: an HTTP status, a stable machine word (`term`), a message and
 * the validation reasons. A family renders them in its own error body.
 * docs/decisions/ "Errors": terms Unauthorized, NotFound, ValidationFailed, Conflict, BadRequest,
 * UnsupportedVersion, UnsupportedMediaType, PayloadTooLarge.
 */
export type Term =
  | 'Unauthorized'
  | 'NotFound'
  | 'ValidationFailed'
  | 'Conflict'
  | 'BadRequest'
  | 'UnsupportedVersion'
  | 'UnsupportedMediaType'
  | 'PayloadTooLarge'
  | 'InternalError';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly term: Term;
  readonly validations: readonly string[];

  constructor(status: number, term: Term, message: string, validations: readonly string[] = []) {
    // An ApiError is an answer, not a bug: no stack trace is shown or needed, and capturing one on
    // every 4xx is the costliest part of raising it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.term = term;
    this.validations = validations;
  }
}

export const unauthorized = (message: string): ApiError => new ApiError(401, 'Unauthorized', message);
export const notFound = (message: string, validations: readonly string[] = []): ApiError => new ApiError(404, 'NotFound', message, validations);
export const conflict = (message: string, validations: readonly string[] = []): ApiError => new ApiError(409, 'Conflict', message, validations);
export const validationFailed = (validations: readonly string[]): ApiError =>
  new ApiError(422, 'ValidationFailed', 'The request failed validation.', validations);

/** Terms of the statuses fastify itself produces (body parsing, routing, malformed requests). */
const TERM_BY_STATUS: Readonly<Record<number, Term>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'ValidationFailed',
};

const MESSAGE_BY_STATUS: Readonly<Record<number, string>> = {
  413: 'The request body is larger than the limit.',
  415: 'The request body must be application/json.',
  404: 'No such route.',
};

/** Any error fastify hands to an error handler, as an ApiError. Only a bug ends as a 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : 500;
  if (status >= 400 && status < 500) {
    const message = MESSAGE_BY_STATUS[status] ?? (error instanceof Error ? error.message : 'Bad request.');
    return new ApiError(status, TERM_BY_STATUS[status] ?? 'BadRequest', message);
  }
  return new ApiError(500, 'InternalError', 'Internal error.');
}
