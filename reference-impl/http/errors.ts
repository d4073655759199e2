/**
 * Errors as the handlers raise them: an HTTP status, a message, the validation reasons, and the
 * machine word of the family's own vocabulary when the raiser names one (`word`). A family renders
 * them in its own error body (its words for a status, when the raiser named none).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly validations: readonly string[];
  /** The family's machine word for the error (its error vocabulary), when the raiser named one. */
  readonly word: string | undefined;

  constructor(status: number, message: string, validations: readonly string[] = [], word?: string) {
    // An ApiError is an answer, not a bug: no stack trace is shown or needed, and capturing one on
    // every 4xx is the costliest part of raising it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.validations = validations;
    this.word = word;
  }
}

export const unauthorized = (message: string): ApiError => new ApiError(401, message);
export const notFound = (message: string, validations: readonly string[] = []): ApiError => new ApiError(404, message, validations);
export const conflict = (message: string, validations: readonly string[] = []): ApiError => new ApiError(409, message, validations);
export const validationFailed = (validations: readonly string[]): ApiError => new ApiError(422, 'The request failed validation.', validations);

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
    return new ApiError(status, message);
  }
  return new ApiError(500, 'Internal error.');
}
