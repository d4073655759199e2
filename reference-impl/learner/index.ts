import type { Family } from '../http/route.js';
import { createLearnerGuard, tokenOperation } from './auth.js';
import { catalogOperations } from './catalog.js';
import { LEARNER_PREFIX, type LearnerContext, type LearnerDeps, type LearnerOperation } from './context.js';
import { badRequest, learnerErrorRenderer } from './errors.js';
import { progressOperations } from './progress.js';
import { sessionOperations } from './sessions.js';

export { LEARNER_PREFIX, type LearnerDeps, PLAYER_PREFIX } from './context.js';

/**
 * The learner-facing API under /api/rest/v2 (public-facts#base-addresses-and-prefixes): token
 * exchange, catalog, sessions, branding and lesson progress; JSON only, HAL lists, its own error
 * body. docs/decisions/learner/reference-server-and-player.md "Learner reference server and player: choices".
 */
export function createLearnerFamily(deps: LearnerDeps): Family<LearnerContext, LearnerOperation> {
  const operations = [tokenOperation(deps), ...catalogOperations(deps), ...sessionOperations(deps), ...progressOperations(deps)];
  return {
    prefix: LEARNER_PREFIX,
    operations,
    guard: createLearnerGuard(deps),
    renderError: learnerErrorRenderer(deps.behaviour.errors),
    bodyTypes: { types: ['application/json'], notJson: () => badRequest('The request body is not valid JSON.', ['body: is not valid JSON']) },
    ...(deps.behaviour.transport.responseType === 'text' ? { textPlainOperations: new Set(operations.map((o) => o.id)) } : {}),
  };
}
