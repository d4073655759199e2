import { mountFamily } from '../http/app.js';
import type { ServerCore, ServerFamily, ServerFamilyMount } from '../http/server-family.js';
import type { LearnerDeps } from '../learner/context.js';
import { applyLearnerFaults, learnerFaultsOf } from '../learner/faults.js';
import { LEARNER_DEPS } from '../learner/server.js';
import { createPlayerFamily } from './index.js';

/**
 * The course player as a family of the reference server: its page and images under /learn, on the
 * learner API's store and behaviour (it comes after that family in the list); its faults break
 * the page's rules of that behaviour. No options of its own.
 */

function mount(core: ServerCore): ServerFamilyMount {
  const deps = core.shared<LearnerDeps>(LEARNER_DEPS);
  applyLearnerFaults(deps.behaviour, core.faults);
  return { scopes: [mountFamily(createPlayerFamily(deps))] };
}

export const PLAYER_SERVER: ServerFamily<'player', object> = {
  name: 'player',
  faults: learnerFaultsOf('player'),
  mount,
};
