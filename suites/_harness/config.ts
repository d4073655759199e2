/**
 * The run configuration the runner (src/runner) provides to every suite file through vitest's
 * `provide`/`inject`. Secrets are not in it: the suites read them from the environment variables
 * the profile names, so that they can never leak through the configuration.
 */
import { inject } from 'vitest';
import type { Profile } from '../../src/profile/index.js';

export interface RunConfig {
  profile: Profile;
  /** The run's seed; every check derives its own fast-check seed from it and its id. */
  seed: number;
  /** fast-check runs per property check. */
  runs: number;
  /** fast-check path to replay (with --only naming one check). */
  path?: string;
  /** fast-check commands replayPath, for model-based checks (printed in their counterexample). */
  replayPath?: string;
  /** The command line that repeats this run, without --only/--seed/--path (for replay lines). */
  replayBase: string;
  /** Per-request timeout in milliseconds: a hanging target fails the check, not the tool. */
  timeoutMs: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    lpc: RunConfig;
  }
}

let cached: RunConfig | undefined;

export function runConfig(): RunConfig {
  cached ??= inject('lpc');
  if (!cached) throw new Error('lp-conformance suites run through `lp-conformance run`, which provides their configuration');
  return cached;
}
