import type { Behaviour } from './behaviour.js';
import type { ApiError } from '../http/errors.js';
import type { RenderedError } from '../http/route.js';
import type { JsonObject } from '../rules/json.js';

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
    if (errors.term === 'present') body.term = error.term;
    body._meta = {};
    return { status, body };
  };
}
