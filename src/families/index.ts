/**
 * The registration of the API families: the one place that names them all (ARCHITECTURE.md,
 * "Adding a family"). The core iterates over FAMILIES; each family's folder says what it is. The
 * families a build found in folders of their own (found.ts) come after these.
 */
import type { Family } from './family.js';
import { FOUND_FAMILIES } from './found.js';
import { INTAPI } from './intapi/index.js';
import { LEARNER } from './learner/index.js';
import { PLAYER } from './player/index.js';
import { SCIM } from './scim/index.js';

export const FAMILIES: readonly Family[] = [INTAPI, SCIM, LEARNER, PLAYER, ...FOUND_FAMILIES];
