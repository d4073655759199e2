/**
 * The run's verdict, computed once: from the run model and the options (`--strict` / `--fail-on`),
 * the outcome, the counts and each check's mark. The exit code and every report (console, JUnit,
 * JSON, Markdown, HTML) read it instead of counting on their own, so they cannot disagree: a run whose
 * only failures are known from the baseline says PASSED and KNOWN in all of them.
 *
 * Each check counts once, under its mark:
 * - FAIL: failed at a level that fails the run (MUST, PROFILE; SHOULD too under --strict);
 * - WARN: failed at a level that does not (SHOULD without --strict, MAY always): advisory;
 * - KNOWN: failed, and listed in the run's baseline: reported, does not fail the run;
 * - PASS, SKIP; INTERRUPTED: skipped because the run was interrupted before it finished.
 */
import { failsRun, isInterrupted, LEVELS, type CheckResult, type InterruptSignal, type Level, type RunResult } from '../src/runner/base/model.js';

export type Mark = 'PASS' | 'FAIL' | 'WARN' | 'KNOWN' | 'SKIP' | 'INTERRUPTED';

export interface VerdictOptions {
  /** As `--strict` (`--fail-on should`): SHOULD failures fail the run. */
  strict?: boolean;
}

export interface VerdictCounts {
  checks: number;
  passed: number;
  /** Failures that fail the run (FAIL). */
  failed: number;
  /** Failures at a level that does not fail the run (WARN). */
  advisory: number;
  /** Failures the baseline lists (KNOWN). */
  known: number;
  skipped: number;
  /** Checks the interrupted run did not finish. */
  interrupted: number;
}

export interface Verdict {
  /** `interrupted` whatever the checks found: the run did not finish. */
  outcome: 'passed' | 'failed' | 'interrupted';
  /** The levels whose failures fail the run: `must` (MUST, PROFILE) or `should` (SHOULD too). */
  failOn: 'must' | 'should';
  counts: VerdictCounts;
  /** FAIL checks by level, in LEVELS order. */
  failedByLevel: [Level, number][];
  /** WARN checks by level, in LEVELS order. */
  advisoryByLevel: [Level, number][];
  /** The signal that stopped an interrupted run. */
  signal?: InterruptSignal;
  /** `lp-conformance run`'s exit code for this run: 0 passed, 1 failed, 130 (SIGINT) or 143 (SIGTERM). */
  exitCode: number;
  /** One line, the same in every report: `FAILED: 2 checks fail the run (1 MUST, 1 PROFILE)`. */
  headline: string;
  /** One line of counts, the same in every report: `8 checks, 2 passed, 2 failed, 2 advisory, 1 skipped`. */
  tally: string;
  /** What a reader must know before trusting the verdict, one line each, said by every report
   * (`--insecure`: the certificates were not verified). */
  caveats: string[];
}

/** What the reports say of the safe requests sent again after a closed connection (`waited.resent`):
 * `; 2 requests sent again after …`, or nothing when none was. */
export function resentText(resent: number | undefined): string {
  const n = resent ?? 0;
  return n > 0 ? `; ${n} ${n === 1 ? 'request' : 'requests'} sent again after the target closed their connection without an answer` : '';
}

/** The caveat of a run that verified no TLS certificate. */
export const INSECURE_CAVEAT = 'TLS certificates were not verified (--insecure): an answer may not have come from the target';

/** The mark of one check in a run with these options. */
export function markOf(check: CheckResult, strict = false): Mark {
  if (check.status === 'passed') return 'PASS';
  if (check.status === 'failed') return check.known ? 'KNOWN' : failsRun(check.level, strict) ? 'FAIL' : 'WARN';
  return isInterrupted(check) ? 'INTERRUPTED' : 'SKIP';
}

const COUNTED: Record<Mark, keyof VerdictCounts> = {
  PASS: 'passed',
  FAIL: 'failed',
  WARN: 'advisory',
  KNOWN: 'known',
  SKIP: 'skipped',
  INTERRUPTED: 'interrupted',
};

const EXIT_ON_SIGNAL: Record<InterruptSignal, number> = { SIGINT: 130, SIGTERM: 143 };

export function verdictOf(result: RunResult, options: VerdictOptions = {}): Verdict {
  const strict = options.strict ?? false;
  const counts: VerdictCounts = { checks: result.checks.length, passed: 0, failed: 0, advisory: 0, known: 0, skipped: 0, interrupted: 0 };
  const byLevel = (mark: Mark): [Level, number][] =>
    LEVELS.map((level): [Level, number] => [level, result.checks.filter((c) => c.level === level && markOf(c, strict) === mark).length]).filter(
      ([, n]) => n > 0,
    );
  for (const check of result.checks) counts[COUNTED[markOf(check, strict)]]++;
  const signal = result.interrupted?.signal;
  const outcome = signal ? 'interrupted' : counts.failed > 0 ? 'failed' : 'passed';
  const verdict = {
    outcome,
    failOn: strict ? 'should' : 'must',
    counts,
    failedByLevel: byLevel('FAIL'),
    advisoryByLevel: byLevel('WARN'),
    ...(signal ? { signal } : {}),
    exitCode: signal ? EXIT_ON_SIGNAL[signal] : outcome === 'failed' ? 1 : 0,
  } as const;
  const caveats = result.tls?.insecure ? [INSECURE_CAVEAT] : [];
  return { ...verdict, headline: headlineOf(verdict, result.baseline !== undefined, strict), tally: tallyOf(counts, result), caveats };
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
const levels = (byLevel: readonly [Level, number][]): string => byLevel.map(([level, n]) => `${n} ${level}`).join(', ');

function headlineOf(v: Omit<Verdict, 'headline' | 'tally' | 'caveats'>, baseline: boolean, strict: boolean): string {
  const { counts } = v;
  const advisory = counts.advisory > 0 ? `; ${counts.advisory} advisory (${levels(v.advisoryByLevel)})` : '';
  if (v.signal) {
    const failed = counts.failed > 0 ? `; of those that finished, ${counts.failed} ${counts.failed === 1 ? 'fails' : 'fail'} the run` : '';
    return `INTERRUPTED by ${v.signal}: ${counts.interrupted} of ${plural(counts.checks, 'check')} did not finish${failed}`;
  }
  const known = counts.known > 0 ? `; ${counts.known} known from the baseline` : '';
  if (v.outcome === 'failed') {
    return `FAILED: ${plural(counts.failed, 'check')} ${counts.failed === 1 ? 'fails' : 'fail'} the run (${levels(v.failedByLevel)})${known}${advisory}`;
  }
  const gate = strict ? 'MUST, PROFILE or SHOULD' : 'MUST or PROFILE';
  return `PASSED: ${baseline ? `no new failure of a ${gate} check` : `no ${gate} check failed`}${known}${advisory}`;
}

/** Every count, in one order; `known` where the run had a baseline or known failures, `interrupted`
 * where the run was interrupted. */
function tallyOf(counts: VerdictCounts, result: RunResult): string {
  const parts = [
    plural(counts.checks, 'check'),
    `${counts.passed} passed`,
    `${counts.failed} failed`,
    `${counts.advisory} advisory`,
    ...(result.baseline || counts.known > 0 ? [`${counts.known} known`] : []),
    `${counts.skipped} skipped`,
    ...(result.interrupted || counts.interrupted > 0 ? [`${counts.interrupted} interrupted`] : []),
  ];
  return parts.join(', ');
}
