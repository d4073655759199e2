import { ApiError } from '../http/errors.js';
import type { Family } from '../http/route.js';
import { authOperations } from './auth/operations.js';
import { compileIntapiBodies } from './bodies.js';
import { evaluationOperations } from './evaluations/operations.js';
import type { IntapiContext, IntapiDeps, IntapiOperation } from './context.js';
import { intapiErrorRenderer } from './error-body.js';
import { enrollmentOperations } from './enrollments/operations.js';
import { ruleBatches } from './enrollments/rules.js';
import { createGuard } from './guard.js';
import { provinceOperations } from './provinces/operations.js';
import { groupOperations } from './groups/operations.js';
import { questionBankOperations } from './question-banks/operations.js';
import { questionOperations } from './questions/operations.js';
import { answeringUnknownIds } from './requests.js';
import { resourceOperations } from './resources/operations.js';
import { submissionOperations } from './submissions/operations.js';
import { templateOperations } from './templates/operations.js';
import { userOperations } from './users/operations.js';

export type { IntapiDeps } from './context.js';

/**
 * The Integration API family at the host root (public-facts "Base addresses and prefixes"):
 * its operations, guard and error body. Paths: docs/decisions/intapi/reference-choices.md "Choices where the specification is silent".
 * An unrouted operation (a fault) is not registered, so it answers as an unknown route; an
 * operation in `unknownIdOk` (a fault) answers an unknown path id with its blank answer. The
 * automatic enrollment rules' batches run lazily, at the start of each request (enrollments/rules.ts).
 */
export function createIntapiFamily(deps: IntapiDeps): Family<IntapiContext, IntapiOperation> {
  const { http } = deps.behaviour;
  const validators = compileIntapiBodies(deps.behaviour);
  const rules = ruleBatches({ ...deps, behaviour: deps.behaviour.enrollmentRules, batchMs: deps.ruleBatchMs });
  const guard = createGuard(deps);
  const notJsonStatus = deps.behaviour.errors.notJsonStatus;
  const operations = [
    ...authOperations(deps),
    ...resourceOperations(deps),
    ...submissionOperations(deps, validators),
    ...templateOperations(deps),
    ...questionBankOperations(deps, validators),
    ...questionOperations(deps, validators),
    ...userOperations(deps),
    ...evaluationOperations(deps),
    ...provinceOperations(deps),
    ...groupOperations(deps),
    ...enrollmentOperations(deps),
  ];
  return {
    prefix: '',
    operations: operations
      .filter((operation) => !http.unrouted.has(operation.id))
      .map((operation) => (http.unknownIdOk.has(operation.id) ? answeringUnknownIds(operation) : operation)),
    // The rule batches due run first, before the request is even admitted: every answer, and every
    // user change the request makes, comes after them. Outside the handler's `around`, the ids of
    // the enrollments they make are not drawn from the request's check and case.
    guard: (headers, operation) => {
      rules.catchUp();
      return guard(headers, operation);
    },
    renderError: intapiErrorRenderer(deps.behaviour.errors),
    // Only JSON bodies (docs/decisions/ "Errors": another content type is 415, not JSON is 400).
    bodyLimit: http.bodyLimit,
    bodyTypes: {
      types: http.contentTypes === 'json' ? ['application/json'] : '*',
      notJson: () => new ApiError(notJsonStatus, 'The request body is not valid JSON.', ['body: is not valid JSON']),
    },
    textPlainOperations: http.textPlainOperations,
    htmlGets: http.htmlGets,
    ...(http.maxUrlBytes === undefined ? {} : { maxUrlBytes: http.maxUrlBytes }),
  };
}
