/**
 * The run configuration the runner (src/runner) provides to the suites through vitest's
 * `provide`/`inject`. Secrets are not in it: the suites read them from the environment variables
 * the profile names, so that they can never leak through the configuration.
 *
 * One run may check several targets at once (the negative controls run the suite against one
 * reference server per fault; a differential run against two servers): each is a `TargetRun`,
 * and every selected check runs once per target, scheduled together (scheduler.ts).
 */
import { inject } from 'vitest';

export type { MatrixConfig, RunConfig, TargetRun } from '../../src/runner/model.js';
import type { MatrixConfig } from '../../src/runner/model.js';

declare module 'vitest' {
  export interface ProvidedContext {
    lpc: MatrixConfig;
  }
}

let cached: MatrixConfig | undefined;

export function matrixConfig(): MatrixConfig {
  cached ??= inject('lpc');
  if (!cached) throw new Error('lp-conformance suites run through `lp-conformance run`, which provides their configuration');
  return cached;
}
