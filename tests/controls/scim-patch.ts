// Negative-control expectations of the SCIM faults the patch checks detect (see tests/negative-controls.expectations.ts).
import type { Control } from '../negative-controls.expectations.js';

export const SCIM_PATCH_CONTROLS: Readonly<Record<string, Control>> = {};
