import type { Behaviour } from './behaviour.js';
import { ApiError } from '../http/errors.js';
import type { RenderedError } from '../http/route.js';
import type { JsonObject } from '../rules/json.js';

/**
 * The Integration API's error vocabulary (docs/decisions/ "Errors"): the `term` of its error body,
 * a stable machine word per kind of error.
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

/** The term of an error whose raiser named none: by its status. */
const TERM_BY_STATUS: Readonly<Record<number, Term>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'ValidationFailed',
};

export function termOf(error: ApiError): string {
  return error.word ?? TERM_BY_STATUS[error.status] ?? (error.status >= 500 ? 'InternalError' : 'BadRequest');
}

/** An Integration API error with its term. */
export const intapiError = (status: number, term: Term, message: string, validations: readonly string[] = []): ApiError =>
  new ApiError(status, message, validations, term);

/**
 * spec#error-body: `{validations, code, message, term, _meta}` with `code` equal to the HTTP
 * status and `_meta` an object of strings (docs/decisions/intapi/reference-choices.md "Errors").
 */
export function intapiErrorRenderer(errors: Behaviour['errors']): (error: ApiError) => RenderedError {
  return (error) => {
    const status = error.status;
    const validations = errors.validations === 'name-field' ? [...error.validations] : error.validations.map((entry) => entry.slice(entry.indexOf(': ') + 2));
    const body: JsonObject = {
      validations,
      code: errors.code === 'status' ? status : status === 400 ? 422 : 400,
      message: error.message,
    };
    if (errors.term === 'present') body.term = termOf(error);
    body._meta = {};
    return { status, body };
  };
}
