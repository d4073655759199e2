// Negative-control expectations of the SCIM faults the filter checks detect (see tests/negative-controls.expectations.ts).
import type { Control } from '../negative-controls.expectations.js';

export const SCIM_FILTER_CONTROLS: Readonly<Record<string, Control>> = {};
