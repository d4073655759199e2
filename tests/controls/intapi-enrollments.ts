// Negative-control expectations of the Integration API faults of the enrollments area (issue 8; see tests/negative-controls.expectations.ts).
import type { Control } from '../negative-controls.expectations.js';

export const INTAPI_ENROLLMENTS_CONTROLS: Readonly<Record<string, Control>> = {};
