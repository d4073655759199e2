/**
 * The checks the suite files register (requirement()) and what ends a run (afterRun()): what the
 * suites' worker (worker.ts) runs. One registry per worker, so per run: every run starts its own.
 */
import type { CheckAbout, CheckMeta, CheckRunMeta, Uses } from '../../src/runner/base/model.js';

export interface RegisteredCheck {
  check: CheckMeta;
  uses?: Uses;
  /** What the catalogue says of it beside its identity (its binding sentence, what it sends and expects). */
  about?: CheckAbout;
  /** Where it was registered: the call sites, innermost first (`file:line:column` as running). */
  frames?: readonly string[];
  /** Runs the check against each target of the run that selects it; its results by target key.
   * `signal` aborts when the run is cancelled: the check's waiting runs start nothing. */
  run(signal: AbortSignal): Promise<Record<string, CheckRunMeta>>;
  /** The suite file that registered it: the checks of a file run in one worker thread (they may
   * share what the file makes once per server). */
  file?: string;
}

const checks: RegisteredCheck[] = [];
const ids = new Set<string>();
const endHooks: (() => Promise<void>)[] = [];

/** Adds `check`; an id registered before throws (ids are unique across the suite files). */
let loading: string | undefined;

/** The suite file being loaded: what registers now is its. */
export function loadingFile(file: string | undefined): void {
  loading = file;
}

export function register(check: RegisteredCheck): void {
  if (ids.has(check.check.id)) throw new Error(`check id ${check.check.id} is registered twice`);
  ids.add(check.check.id);
  checks.push(loading === undefined ? check : { ...check, file: loading });
}

/** The registered checks, in the order their files registered them. */
export function registeredChecks(): readonly RegisteredCheck[] {
  return checks;
}

/** `hook` runs once the run's checks have all ended (a browser the checks shared is closed). */
export function afterRun(hook: () => Promise<void>): void {
  endHooks.push(hook);
}

/** Runs the hooks of afterRun(), one after the other. */
export async function endRun(): Promise<void> {
  for (const hook of endHooks) await hook();
}
