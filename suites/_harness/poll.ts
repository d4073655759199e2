/**
 * Waiting for a target that acts later than it answers (spec#what-the-service-does 5: rules
 * processed in batches, "not necessarily ... at once"): a probe asked again at an interval until what
 * it reads holds, or until the time the target is allowed has passed.
 */
import { sleep } from '../../src/target/base/retry.js';
import { interruptedRun, type CheckContext } from './requirement.js';

/** Probes per allowed time: the interval is a fraction of it. */
export const POLLS = 20;
/** The shortest interval between probes: a short bound is no busy loop. */
export const MIN_POLL_MS = 100;
/** The longest interval between probes: a target that acts within seconds is seen within seconds,
 * also under the 10-minute bound (at most 60 probes then). */
export const MAX_POLL_MS = 10_000;
/** The longest a wait goes without looking whether the run was interrupted (Ctrl-C). */
const STOP_CHECK_MS = 500;

export interface Polled<T> {
  /** What the last probe read. */
  readonly value: T;
  /** Whether it holds: false when the allowed time passed first. */
  readonly held: boolean;
  /** Milliseconds from `since` to the last probe's answer. */
  readonly elapsedMs: number;
  readonly polls: number;
}

/**
 * Asks `probe` every `withinMs / POLLS` (from MIN_POLL_MS to MAX_POLL_MS) until `holds` what it read, or until
 * `withinMs` have passed since `since` (a `performance.now()` time): the last probe is asked at that
 * deadline, so a target that acts at the last moment allowed passes. An interrupted run stops the
 * wait (the next request then stops the check).
 */
export async function pollUntil<T>(
  t: CheckContext,
  since: number,
  withinMs: number,
  probe: () => Promise<T>,
  holds: (value: T) => boolean,
): Promise<Polled<T>> {
  const interval = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, Math.floor(withinMs / POLLS)));
  for (let polls = 1; ; polls++) {
    const value = await probe();
    const elapsedMs = Math.round(performance.now() - since);
    const held = holds(value);
    if (held || elapsedMs >= withinMs) return { value, held, elapsedMs, polls };
    const wake = Math.min(since + withinMs, performance.now() + interval);
    while (performance.now() < wake && !interruptedRun(t.config)) await sleep(Math.min(wake - performance.now(), STOP_CHECK_MS));
  }
}
