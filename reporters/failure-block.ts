/**
 * A failure as every report shows it (style.md "A failure, as the user reads it"): the console
 * summary and the JUnit failure text print the same block, and the Markdown and HTML reports show
 * the same fields (failureView), so that all say the same thing the same way.
 *
 * Sizes: Expected, Received and the counterexample are previews of at most PREVIEW_CHARS, which
 * say how much was cut and where the whole text is (a file beside the report, side-files.ts). A
 * curl of at most MAX_INLINE_CURL is shown whole; a longer one is written beside the report as a
 * script, and the block shows the command that runs it (what a reader pastes) and a preview.
 */
import { catalogueEntry, type CheckResult, type Failure } from '../src/runner/base/model.js';
import { markOf, type Mark } from './verdict.js';
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

/** Expected, Received and the counterexample: at most this much of each in any report. */
export const PREVIEW_CHARS = 1000;
/** A reproduction (curl) longer than this is written beside the report, not shown whole. */
export const MAX_INLINE_CURL = 2000;
/** The preview of a reproduction too long to show. */
const REQUEST_PREVIEW_CHARS = 240;
/** Where a cut field is whole when no file beside the report holds it (a report rendered on its own). */
const WHOLE_IN_JSON = 'the JSON report (--json)';

/** What a report names beside itself for one failed check (side-files.ts), as it names it: paths
 * relative to the working directory of the run (absolute outside it). */
export interface SideFiles {
  /** The script that sends the whole reproduction, when it is longer than MAX_INLINE_CURL. */
  script?: string;
  /** The failure uncut, when a field is longer than PREVIEW_CHARS. */
  text?: string;
  /** The failure's attachments (screenshots), copied beside the report; `dataUri` to embed one. */
  attachments: { path: string; dataUri?: string }[];
}

/** Side files by check id. */
export type SideFileIndex = ReadonlyMap<string, SideFiles>;

/** What a failed check carries; the runner may fail a check without a structured failure (e.g. a
 * crash in the check itself), and the reader must still see that nothing was recorded. */
export function failureOf(check: CheckResult): Failure {
  return check.failure ?? { expected: '(not recorded)', received: '(not recorded)', replay: '(not recorded)' };
}

/** One line for `<failure message>` and the like: what was expected against what came back. */
export function failureMessage(failure: Failure, clean: Cleaner): string {
  return `Expected ${clean.line(failure.expected, 200)}; received ${clean.line(failure.received, 200)}`;
}

/** A failed check's attachments as a report names them: the copies beside it, or without side
 * files (a report rendered on its own) where the run saved them. */
export function attachmentsOf(check: CheckResult, side: SideFiles | undefined): SideFiles['attachments'] {
  if (check.status !== 'failed') return [];
  return side?.attachments ?? (check.failure?.attachments ?? []).map((path) => ({ path }));
}

/** The command that runs a script written beside a report: what a reader pastes. */
export function scriptCommand(path: string): string {
  return `bash '${path.replace(/'/g, `'\\''`)}'`;
}

/** A failure's fields as a report shows them, cleaned and cut the same way in every report. */
export interface FailureView {
  mark: Mark;
  expected: string;
  received: string;
  counterexample?: string;
  /** What a reader pastes to reproduce the failure: the curl, or the command that runs its script. */
  reproduce?: string;
  /** The failing request when `reproduce` does not show it: a preview of a long curl, or `METHOD URL`. */
  request?: string;
  replay: string;
  /** Why a KNOWN failure is known: the baseline and its reason. */
  known?: string;
  /** Attachments, as this report names them. */
  attachments: SideFiles['attachments'];
}

/** How a report shows failures: `whole` shows every field and the curl uncut (the failure's own file). */
export interface ViewOptions {
  clean: Cleaner;
  strict: boolean;
  side?: SideFiles;
  whole?: boolean;
}

export function failureView(check: CheckResult, opts: ViewOptions): FailureView {
  const { clean, side } = opts;
  const failure = failureOf(check);
  // A preview says how much it cut, how much there is in all, and where the whole is.
  const field = (text: string) => clean.field(text, opts.whole ? Number.POSITIVE_INFINITY : PREVIEW_CHARS, side?.text ?? WHOLE_IN_JSON);
  const view: FailureView = {
    mark: markOf(check, opts.strict),
    expected: field(failure.expected),
    received: field(failure.received),
    ...(failure.counterexample !== undefined ? { counterexample: field(failure.counterexample) } : {}),
    replay: clean.field(failure.replay),
    ...(check.known ? { known: clean.field(`listed in ${check.known.baseline}${check.known.reason ? `: ${check.known.reason}` : ''}`) } : {}),
    attachments: attachmentsOf(check, side),
  };
  const curl = failure.curl === undefined ? undefined : clean.field(failure.curl, Number.POSITIVE_INFINITY);
  if (curl !== undefined && (opts.whole || curl.length <= MAX_INLINE_CURL)) return { ...view, reproduce: curl };
  if (curl !== undefined) {
    // The curl itself, without the line that obtains a token and the lines' continuations: what the request is.
    const request = curl.slice(Math.max(0, curl.search(/^curl /m))).replace(/ \\\n\s*/g, ' ');
    return {
      ...view,
      ...(side?.script ? { reproduce: scriptCommand(side.script) } : {}),
      request: clean.line(request, REQUEST_PREVIEW_CHARS, side?.script ?? WHOLE_IN_JSON),
    };
  }
  return failure.operation !== undefined ? { ...view, request: clean.field(failure.operation) } : view;
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
 *   Reproduce:  curl …                    (or: bash 'reports/failures/<id>.sh')
 *   Request:    curl … …(N more chars, M in all; in full: reports/failures/<id>.sh)
 *   Replay:     lp-conformance run --only … --seed … --path …
 * ```
 * `Request:` is printed when the reproduction does not show the request: a curl too long to show,
 * or no curl (the failing `METHOD URL`). The word is the check's mark: FAIL, WARN (advisory: it does
 * not fail the run) or KNOWN (listed in the baseline).
 */
export function formatFailureBlock(check: CheckResult, opts: ViewOptions & { paint: Paint }): string {
  const { clean, paint } = opts;
  const view = failureView(check, opts);
  const word = view.mark === 'FAIL' ? paint.fail(paint.bold(view.mark)) : paint.warn(paint.bold(view.mark));
  const lines = [
    `${word}  ${paint.bold(`[${clean.line(check.id)}]`)}  ${clean.line(check.level)} · ${paint.dim(clean.line(check.spec))}`,
    `      ${clean.line(check.title)}`,
    ...(check.source === undefined ? [] : [`  Defined:  ${paint.dim(`${clean.line(check.source)} (${catalogueEntry(check.id)})`)}`]),
    labelled('  Expected: ', view.expected, paint),
    labelled('  Received: ', view.received, paint),
  ];
  if (view.counterexample !== undefined) lines.push(labelled('  Counterexample (shrunk): ', view.counterexample, paint));
  if (view.reproduce !== undefined) lines.push(labelled('  Reproduce:  ', view.reproduce, paint));
  if (view.request !== undefined) lines.push(labelled('  Request:    ', view.request, paint));
  lines.push(labelled('  Replay:     ', view.replay, paint));
  if (view.known !== undefined) lines.push(labelled('  Known:      ', view.known, paint));
  if (view.attachments.length > 0) lines.push(labelled('  Attached:   ', view.attachments.map((a) => a.path).join('\n'), paint));
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

/** What a skipped check tells its reader: the skip reason, or what blocked it (the outcomes of outcomes.ts). */
export function skipText(check: CheckResult): string {
  if (check.notSetUp) return `not set up: ${check.notSetUp.request} answered ${check.notSetUp.answer}`;
  if (check.blockedBy) return `blocked by ${check.blockedBy}${check.skipReason ? `: ${check.skipReason}` : ''}`;
  return check.skipReason ?? 'no reason recorded';
}
