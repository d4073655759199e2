import { mountFamily } from '../http/app.js';
import { PORTAL_ACCOUNT, type PortalAccount, type ServerCore, type ServerFamily, type ServerFamilyMount } from '../http/server-family.js';
import type { LearnerDeps } from './context.js';
import { type LearnerAccounts, type LearnerCredentials, SANDBOX_LEARNERS } from './credentials.js';
import { learnerBehaviourWithFaults, learnerFaultsOf } from './faults.js';
import { createLearnerFamily } from './index.js';
import { LearnerStore } from './store.js';

/**
 * The learner API as a family of the reference server: its routes under /api/rest/v2, its faults
 * and options. Its requests carry the platform account's API key (PORTAL_ACCOUNT); it shares its
 * store and behaviour (LEARNER_DEPS) with the course player, a page of it.
 */

/** The key under which the family shares its LearnerDeps with the course player. */
export const LEARNER_DEPS = 'learner-deps';

export interface LearnerServerOptions {
  /** The learners of the token exchange. Default: SANDBOX_LEARNERS. */
  learners?: LearnerAccounts;
  /** Lifetime of a learner token, in seconds, on the core's clock. Default 3600. */
  tokenTtlSeconds?: number;
}

function mount(core: ServerCore, options: LearnerServerOptions): ServerFamilyMount {
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds < 1) {
    throw new TypeError('createReferenceServer: learner tokenTtlSeconds must be a positive integer');
  }
  // Session times of the learner seed are placed around the clock's time at creation.
  const deps: LearnerDeps = {
    store: new LearnerStore(core.clock(), options.learners ?? SANDBOX_LEARNERS, core.seedIdOf),
    behaviour: learnerBehaviourWithFaults(core.faults),
    credentials: core.shared<PortalAccount>(PORTAL_ACCOUNT).credentials,
    clock: core.clock,
    tokenTtlSeconds,
  };
  core.share(LEARNER_DEPS, deps);
  return { scopes: [mountFamily(createLearnerFamily(deps))] };
}

export const LEARNER_SERVER: ServerFamily<'learner', LearnerServerOptions, LearnerCredentials> = {
  name: 'learner',
  faults: learnerFaultsOf('learner'),
  sandbox: {
    /** The learner whose log-in the checks use (learner A of the seed: a department with branding). */
    make: (): LearnerCredentials => ({ ...SANDBOX_LEARNERS.a }),
    options: (part) => ({ learners: { a: part, b: SANDBOX_LEARNERS.b } }),
  },
  mount,
};
