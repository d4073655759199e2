// Negative-control expectations of the learner API's and the course player's faults (reference-impl/learner/faults.ts).
import type { Control } from '../negative-controls.expectations.js';

export const LEARNER_CONTROLS: Readonly<Record<string, Control>> = {};
