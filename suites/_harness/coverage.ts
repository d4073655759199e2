/**
 * "This run proved something": the tally behind `t.degenerate()` and `t.outcome()` (requirement.ts).
 * A property run whose input or answer is degenerate (an empty page, a filter that selects every
 * item or none, one item to sort) passes whatever the target does, so it does not count. A check
 * whose runs were mostly degenerate fails as "not exercised" with the figures, never passes; one
 * whose only run was degenerate (`--runs 1`) is skipped as not exercised: one draw says nothing of
 * the target, and failing it failed a right target by the seed's chance (about two checks a seed).
 */
import type { Coverage } from '../../src/runner/base/model.js';

/**
 * A property check fails as not exercised when more than this share of its runs were degenerate:
 * at least half of the runs must exercise the rule. Half, not "almost all": the generators aim at
 * the interesting cases and reach them in nearly every run against a target with enough data, so
 * a check above the threshold means the target's answers (or the suite's generator) left the rule
 * untested, not bad luck; and a few degenerate cases (a page past the end) may be drawn on purpose.
 */
export const MAX_DEGENERATE_SHARE = 0.5;

/** How many of `runs` runs must exercise the rule. */
export function requiredRuns(runs: number): number {
  return runs - Math.floor(runs * MAX_DEGENERATE_SHARE);
}

export class CoverageTally {
  private runs = 0;
  private degenerate = 0;
  private readonly reasons = new Map<string, number>();
  private readonly outcomes = new Set<string>();
  /** The run in progress: undefined outside a predicate; `reason` set once it is marked degenerate. */
  private current: { reason?: string } | undefined;
  /** False once a run failed: the shrinking that follows is not sampling and is not counted. */
  private sampling = true;

  /** A property run starts (the harness calls it around each predicate). */
  begin(): void {
    this.current = this.sampling ? {} : undefined;
  }

  /** The run ended; `passed` false ends the sampling (what follows is shrinking). */
  end(passed: boolean): void {
    const run = this.current;
    this.current = undefined;
    if (!this.sampling || run === undefined) return;
    this.runs += 1;
    if (run.reason !== undefined) {
      this.degenerate += 1;
      this.reasons.set(run.reason, (this.reasons.get(run.reason) ?? 0) + 1);
    }
    if (!passed) this.sampling = false;
  }

  /** The predicate with a run begun before it and ended after it. */
  wrap<T>(predicate: (value: T) => Promise<void>): (value: T) => Promise<void> {
    return async (value) => {
      this.begin();
      try {
        await predicate(value);
      } catch (error) {
        this.end(false);
        throw error;
      }
      this.end(true);
    };
  }

  /** Whether any property run was made: a check without one has no coverage. */
  get used(): boolean {
    return this.runs > 0;
  }

  /** Marks the current run as not counting; the first reason given is kept. */
  markDegenerate(reason: string): void {
    this.requireRun('t.degenerate()');
    if (this.current) this.current.reason ??= reason;
  }

  /** Records a distinct outcome of the current run. */
  outcome(label: string): void {
    this.requireRun('t.outcome()');
    if (this.current) this.outcomes.add(label);
  }

  /** What the check's coverage verdict needs when too many runs were degenerate, else undefined;
   * `single` when that is its only run (skipped, not failed). */
  shortfall(): { expected: string; received: string; single: boolean } | undefined {
    if (this.runs === 0 || this.degenerate <= Math.floor(this.runs * MAX_DEGENERATE_SHARE)) return undefined;
    const reasons = [...this.reasons]
      .sort((a, b) => b[1] - a[1])
      .map(([reason, n]) => `${reason} (${n})`)
      .join('; ');
    return {
      expected: `at least ${requiredRuns(this.runs)} of ${this.runs} runs exercise the rule (not exercised otherwise)`,
      received: `${this.degenerate} of ${this.runs} runs were degenerate: ${reasons}`,
      single: this.runs === 1,
    };
  }

  summary(): Coverage {
    return {
      runs: this.runs,
      degenerate: this.degenerate,
      outcomes: [...this.outcomes].sort(),
      degenerateReasons: Object.fromEntries([...this.reasons].sort((a, b) => b[1] - a[1])),
    };
  }

  private requireRun(what: string): void {
    // Outside sampling (shrinking) the call is ignored; outside any predicate it is a suite bug.
    if (this.current === undefined && this.sampling) throw new Error(`${what} is for use inside a t.property predicate`);
  }
}
