import { ApiError } from '../http/errors.js';
import type { RenderedError } from '../http/route.js';
import type { JsonObject } from '../rules/json.js';
import type { LearnerBehaviour } from './behaviour.js';

/**
 * The learner error body `{code, message, validations}`: `code` the HTTP status, `validations` the
 * reasons, each starting with the name of the parameter or field it is about (`_limit: …`), empty
 * when there is none. The learner API and the course player answer every error with it.
 */
export function learnerErrorRenderer(errors: LearnerBehaviour['errors']): (error: ApiError) => RenderedError {
  return (error) => {
    const body: JsonObject = { code: error.status, message: error.message };
    if (errors.validations === 'present') body.validations = [...error.validations];
    return { status: error.status, body };
  };
}

export const badRequest = (message: string, validations: readonly string[] = []): ApiError => new ApiError(400, message, validations);
