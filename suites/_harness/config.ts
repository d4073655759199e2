/**
 * The run configuration the runner (src/runner) gives the suites' worker (worker.ts). Secrets are
 * not in it: the suites read them from the environment variables the profile names, so that they
 * can never leak through the configuration.
 *
 * One run may check several targets at once (the negative controls run the suite against one
 * reference server per fault; a differential run against two servers): each is a `TargetRun`,
 * and every selected check runs once per target, scheduled together (scheduler.ts).
 */
export type { MatrixConfig, RunConfig, TargetRun } from '../../src/runner/base/model.js';
import type { MatrixConfig } from '../../src/runner/base/model.js';

let provided: MatrixConfig | undefined;

/** The run's configuration, as the runner gave it to the suites' worker (worker.ts). */
export function provideMatrixConfig(matrix: MatrixConfig): void {
  provided = matrix;
}

export function matrixConfig(): MatrixConfig {
  if (!provided) throw new Error('lp-conformance suites run through `lp-conformance run`, which provides their configuration');
  return provided;
}
