/**
 * The vitest task meta the suites write and the runner reads: the check's identity (at collection)
 * and what its run found. Meta is the one channel from test workers to the runner's process.
 */
import type {} from 'vitest';
import type { CheckMeta, CheckRunMeta, Uses } from './model.js';

declare module 'vitest' {
  interface TaskMeta {
    check?: CheckMeta;
    /** What the check does to shared state, as it declared at registration (a shard plan reads it
     * without running anything). */
    uses?: Uses;
    /** What the check found, by target key (one key in a single-target run). */
    lpc?: Record<string, CheckRunMeta>;
  }
}

export {};
