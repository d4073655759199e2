// Negative-control expectations of the SCIM faults the crud checks detect (see tests/negative-controls.expectations.ts).
import type { Control } from '../negative-controls.expectations.js';

export const SCIM_CRUD_CONTROLS: Readonly<Record<string, Control>> = {};
