// Negative-control expectations of the Integration API faults of the users area (issue 8; see tests/negative-controls.expectations.ts).
import type { Control } from '../negative-controls.expectations.js';

export const INTAPI_USERS_CONTROLS: Readonly<Record<string, Control>> = {};
