/**
 * The failure block, as the user reads it (style.md "A failure, as the user reads it"), shared by
 * the console summary and the JUnit failure text so that both say the same thing the same way.
 */
import { failsRun, type CheckResult, type Failure } from '../src/runner/model.js';
import type { Cleaner } from './text.js';

/** Styling hooks: ANSI colours on a terminal, identity everywhere else. */
export interface Paint {
  fail(text: string): string;
  warn(text: string): string;
  pass(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const same = (text: string): string => text;
export const NO_PAINT: Paint = { fail: same, warn: same, pass: same, dim: same, bold: same };

/**
 * A failed check whose level does not fail the run (SHOULD without --strict, MAY always): it is
 * reported, but as advisory, so that the report and the exit code tell the same story.
 */
export function isAdvisory(check: CheckResult, strict: boolean): boolean {
  return check.status === 'failed' && (!failsRun(check.level, strict) || check.known !== undefined);
}

/** What a failed check carries; the runner may fail a check without a structured failure (e.g. a
 * crash in the check itself), and the reader must still see that nothing was recorded. */
export function failureOf(check: CheckResult): Failure {
  return check.failure ?? { expected: '(not recorded)', received: '(not recorded)', replay: '(not recorded)' };
}

/** One line for `<failure message>` and the like: what was expected against what came back. */
export function failureMessage(failure: Failure, clean: Cleaner): string {
  return `Expected ${clean.line(failure.expected, 200)}; received ${clean.line(failure.received, 200)}`;
}

/** `label` followed by `value`, continuation lines indented under the value so a multi-line curl
 * or body stays readable (and the curl stays copy-pasteable line by line). */
function labelled(label: string, value: string, paint: Paint): string {
  const indent = ' '.repeat(label.length);
  return paint.dim(label) + value.split('\n').join(`\n${indent}`);
}

/**
 * The block:
 * ```
 * FAIL  [id]  MUST · spec#anchor
 *       title
 *   Expected: …
 *   Received: …
 *   Counterexample (shrunk): …
 *   Reproduce:  curl …
 *   Replay:     lp-conformance run --only … --seed … --path …
 * ```
 * `Request:` (the failing `METHOD URL`) is printed only when there is no curl, which already
 * names the request. Advisory failures say `WARN` instead of `FAIL`: they do not fail the run.
 */
export function formatFailureBlock(check: CheckResult, opts: { clean: Cleaner; paint: Paint; strict: boolean }): string {
  const { clean, paint } = opts;
  const failure = failureOf(check);
  const word = check.known ? paint.warn(paint.bold('KNOWN')) : isAdvisory(check, opts.strict) ? paint.warn(paint.bold('WARN')) : paint.fail(paint.bold('FAIL'));
  const lines = [
    `${word}  ${paint.bold(`[${clean.line(check.id)}]`)}  ${clean.line(check.level)} · ${paint.dim(clean.line(check.spec))}`,
    `      ${clean.line(check.title)}`,
    labelled('  Expected: ', clean.field(failure.expected), paint),
    labelled('  Received: ', clean.field(failure.received), paint),
  ];
  if (failure.counterexample !== undefined) {
    lines.push(labelled('  Counterexample (shrunk): ', clean.field(failure.counterexample), paint));
  }
  if (failure.curl !== undefined) {
    lines.push(labelled('  Reproduce:  ', clean.field(failure.curl), paint));
  } else if (failure.operation !== undefined) {
    lines.push(labelled('  Request:    ', clean.field(failure.operation), paint));
  }
  lines.push(labelled('  Replay:     ', clean.field(failure.replay), paint));
  if (check.known)
    lines.push(labelled('  Known:      ', clean.field(`listed in ${check.known.baseline}${check.known.reason ? `: ${check.known.reason}` : ''}`), paint));
  return lines.join('\n');
}

/** Areas in the order they first appear, so a report follows the run's order (JUnit, HTML). */
export function groupByArea(checks: readonly CheckResult[]): Map<string, CheckResult[]> {
  const byArea = new Map<string, CheckResult[]>();
  for (const check of checks) {
    const group = byArea.get(check.area);
    if (group) group.push(check);
    else byArea.set(check.area, [check]);
  }
  return byArea;
}
