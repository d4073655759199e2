/** The learner-facing API's invariants: every exchange with it (spec#learner-facing-api; bodies per contracts/learner.*). */
import type { InvariantMeta } from '../family.js';

export const LEARNER_INVARIANTS = [
  {
    id: 'learner.invariant.no-5xx',
    notObserved: 'no learner API exchange was made',
    level: 'MUST',
    spec: 'spec#errors',
    title: 'No learner API request, valid or malformed, answers a 5xx status',
    area: 'learner.invariant',
  },
  {
    id: 'learner.invariant.json-content-type',
    notObserved: 'no learner API answer had a body',
    level: 'PROFILE',
    spec: 'spec#learner-facing-api',
    title: 'Every learner API response with a body is labelled application/json',
    area: 'learner.invariant',
  },
  {
    id: 'learner.invariant.success-body-matches-contract',
    notObserved: 'no learner API 2xx answer was seen',
    level: 'PROFILE',
    spec: 'public-facts#learner-api',
    title: 'Every learner API 2xx body is valid against its contract (HAL envelopes and their items)',
    area: 'learner.invariant',
  },
  {
    id: 'learner.invariant.error-body-matches-contract',
    notObserved: 'no learner API 4xx answer was seen',
    level: 'PROFILE',
    spec: 'spec#learner-facing-api',
    title: 'Every learner API 4xx body is the learner error body (code, message, validations)',
    area: 'learner.invariant',
  },
] as const satisfies readonly InvariantMeta[];

export type LearnerInvariantId = (typeof LEARNER_INVARIANTS)[number]['id'];
