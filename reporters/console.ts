/**
 * Run model -> what the user reads in the terminal or the CI log: counts per level and area, the
 * skipped checks with their reasons, every failure as a block (failure-block.ts), and one final
 * line. Failures come last, just above the final line, where a CI log is read first.
 */
import { failsRun, LEVELS, SLOW_CHECK_MS, type CheckMeta, type CheckResult, type Level, type RunResult } from '../src/runner/model.js';
import { formatFailureBlock, isAdvisory, NO_PAINT, type Paint } from './failure-block.js';
import { makeCleaner, type Cleaner, type Redact } from './text.js';

export interface SummaryOptions {
  /** ANSI colours; the caller decides (a TTY, no NO_COLOR). Never set for files. */
  color: boolean;
  /** As `--strict`: SHOULD failures fail the run. */
  strict?: boolean;
  /** Defence in depth: applied to every string taken from the run, although it is already redacted. */
  redact?: Redact;
}

/** A terminal page, not a report: bodies are cut sooner than in JUnit. */
const MAX_FIELD_CHARS = 2048;
const MAX_LINE_CHARS = 300;

const ANSI: Paint = {
  fail: (text) => `\u001b[31m${text}\u001b[39m`,
  warn: (text) => `\u001b[33m${text}\u001b[39m`,
  pass: (text) => `\u001b[32m${text}\u001b[39m`,
  dim: (text) => `\u001b[2m${text}\u001b[22m`,
  bold: (text) => `\u001b[1m${text}\u001b[22m`,
};

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export function formatSummary(result: RunResult, opts: SummaryOptions): string {
  const strict = opts.strict ?? false;
  const paint = opts.color ? ANSI : NO_PAINT;
  const clean = makeCleaner({ redact: opts.redact, maxFieldChars: MAX_FIELD_CHARS, maxLineChars: MAX_LINE_CHARS });
  const sections = [header(result, clean), levelTable(result.checks, { clean, paint, strict })];

  // Checks refused their fixture are listed once per cause (issue 19): one refusal of the target,
  // however many checks it kept from running.
  const skipped = result.checks.filter((check) => check.status === 'skipped' && !check.notSetUp);
  const notSetUp = notSetUpCauses(result.checks);
  if (skipped.length > 0 || notSetUp.size > 0) {
    sections.push(
      [
        ...skipped.map((check) => `${paint.dim('SKIP')}  [${clean.line(check.id)}]  ${clean.line(check.skipReason ?? 'no reason recorded')}`),
        ...[...notSetUp].map(
          ([key, checks]) =>
            `${paint.warn('NOT SET UP')}  ${clean.line(key)} (${clean.line(checks[0]?.notSetUp?.answer ?? '')}): ${plural(checks.length, 'check')}: ` +
            clean.line(checks.map((check) => check.id).join(', ')),
        ),
      ].join('\n'),
    );
  }
  // Failures that fail the run first, then the advisory ones: the reader fixes the former.
  const failed = result.checks.filter((check) => check.status === 'failed');
  const ordered = [...failed.filter((check) => !isAdvisory(check, strict)), ...failed.filter((check) => isAdvisory(check, strict))];
  for (const check of ordered) sections.push(formatFailureBlock(check, { clean, paint, strict }));

  if (result.baseline && result.baseline.nowPassing.length > 0) {
    sections.push(
      [
        `${paint.pass('PASSING AGAIN')}  remove from the baseline ${clean.line(result.baseline.file)}:`,
        ...result.baseline.nowPassing.map((id) => `  - ${clean.line(id)}`),
      ].join('\n'),
    );
  }
  sections.push(finalLine(result, { paint, strict }));
  return sections.filter((section) => section !== '').join('\n\n');
}

/** The checks that could not set up, by cause (`POST /scim/v2/Users answered 409 uniqueness`), in run order. */
export function notSetUpCauses(checks: readonly CheckResult[]): Map<string, CheckResult[]> {
  const causes = new Map<string, CheckResult[]>();
  for (const check of checks) {
    if (check.status !== 'skipped' || !check.notSetUp) continue;
    const list = causes.get(check.notSetUp.key) ?? [];
    list.push(check);
    causes.set(check.notSetUp.key, list);
  }
  return causes;
}

/** `--list`: one check a line, columns aligned (id, level, anchor, title), in registry order. */
export function formatList(checks: CheckMeta[]): string {
  const clean = makeCleaner({ maxFieldChars: MAX_FIELD_CHARS, maxLineChars: MAX_LINE_CHARS });
  // A check that may wait long says so after its title: with a long wait it runs only with --include-slow.
  const title = (check: CheckMeta) => `${clean.line(check.title)}${check.slow ? `  [slow over ${SLOW_CHECK_MS / 1000} s: --include-slow]` : ''}`;
  const rows = checks.map((check) => [clean.line(check.id), clean.line(check.level), clean.line(check.spec), title(check)]);
  return alignColumns(rows).join('\n');
}

function header(result: RunResult, clean: Cleaner): string {
  const lines = [
    `lp-conformance · profile ${clean.line(result.profileName)} · seed ${result.seed} · ${plural(result.runs, 'run')} · started ${clean.line(result.startedAt)}`,
  ];
  const targets = Object.entries(result.targets).map(([family, url]) => [`  target ${clean.line(family)}`, clean.line(url)]);
  return [...lines, ...alignColumns(targets)].join('\n');
}

/** Counts grouped by level (MUST, PROFILE, SHOULD, MAY), then by area in run order. */
function levelTable(checks: readonly CheckResult[], ctx: { clean: Cleaner; paint: Paint; strict: boolean }): string {
  const { clean, paint, strict } = ctx;
  const blocks: { level: Level; rows: { area: string; counts: Counts }[] }[] = [];
  for (const level of LEVELS) {
    const byArea = new Map<string, Counts>();
    for (const check of checks.filter((c) => c.level === level)) {
      const counts = byArea.get(check.area) ?? { passed: 0, failed: 0, skipped: 0 };
      counts[check.status]++;
      byArea.set(check.area, counts);
    }
    if (byArea.size > 0) blocks.push({ level, rows: [...byArea].map(([area, counts]) => ({ area: clean.line(area), counts })) });
  }
  const all = blocks.flatMap((block) => block.rows);
  const width = {
    area: Math.max(0, ...all.map((row) => row.area.length)),
    passed: Math.max(0, ...all.map((row) => String(row.counts.passed).length)),
    failed: Math.max(0, ...all.map((row) => String(row.counts.failed).length)),
    skipped: Math.max(0, ...all.map((row) => String(row.counts.skipped).length)),
  };
  return blocks
    .map(({ level, rows }) => {
      const advisory = !failsRun(level, strict);
      const title = paint.bold(level) + (advisory ? paint.dim(level === 'SHOULD' ? ' (advisory; fails the run with --strict)' : ' (advisory)') : '');
      const failColour = advisory ? paint.warn : paint.fail;
      const lines = rows.map(({ area, counts }) => {
        // Pad before painting: escape codes have no width on screen but do have a length.
        const passed = String(counts.passed).padStart(width.passed);
        const failed = String(counts.failed).padStart(width.failed);
        const skipped = String(counts.skipped).padStart(width.skipped);
        return [
          `  ${area.padEnd(width.area)}`,
          `${counts.passed > 0 ? paint.pass(passed) : passed} passed`,
          `${counts.failed > 0 ? failColour(failed) : failed} failed`,
          `${counts.skipped > 0 ? paint.warn(skipped) : skipped} skipped`,
        ].join('  ');
      });
      return [title, ...lines].join('\n');
    })
    .join('\n');
}

/** `lp-conformance: 412 checks, 409 passed, 2 failed (2 MUST), 1 skipped in 8.4s (15123 requests)`. */
function finalLine(result: RunResult, ctx: { paint: Paint; strict: boolean }): string {
  const { paint, strict } = ctx;
  const count = (status: CheckResult['status']): number => result.checks.filter((check) => check.status === status).length;
  const failed = result.checks.filter((check) => check.status === 'failed');
  const known = failed.filter((check) => check.known).length;
  const byLevel = LEVELS.flatMap((level) => {
    const n = failed.filter((check) => check.level === level && !check.known).length;
    return n === 0 ? [] : [`${n} ${level}${failsRun(level, strict) ? '' : ' advisory'}`];
  });
  const gating = failed.some((check) => !isAdvisory(check, strict));
  const failedText = `${failed.length} failed${byLevel.length > 0 || known > 0 ? ` (${[...byLevel, ...(known > 0 ? [`${known} known from the baseline`] : [])].join(', ')})` : ''}`;
  const failedPainted = failed.length === 0 ? failedText : gating ? paint.fail(failedText) : paint.warn(failedText);
  return (
    `lp-conformance: ${plural(result.checks.length, 'check')}, ${count('passed')} passed, ${failedPainted}, ` +
    `${count('skipped')} skipped${outcomesText(result.checks)} in ${(Math.max(0, result.durationMs) / 1000).toFixed(1)}s (${plural(result.requests, 'request')})` +
    waitedText(result) +
    cleanupText(result)
  );
}

/** ` (40 not set up by 1 cause, 3 blocked)`: the skips that are outcomes of the target, not of the profile. */
function outcomesText(checks: readonly CheckResult[]): string {
  const causes = notSetUpCauses(checks);
  const notSetUp = [...causes.values()].reduce((n, list) => n + list.length, 0);
  const blocked = checks.filter((check) => check.status === 'skipped' && check.blockedBy).length;
  const parts = [...(notSetUp > 0 ? [`${notSetUp} not set up by ${plural(causes.size, 'cause')}`] : []), ...(blocked > 0 ? [`${blocked} blocked`] : [])];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** `; deleted the 12 SCIM records it created`, and what it could not delete. */
function cleanupText(result: RunResult): string {
  const c = result.cleanup;
  if (!c) return '';
  const made = c.deleted + c.gone + c.failed.length;
  const left = c.failed.length === 0 ? '' : `; ${plural(c.failed.length, 'record')} left behind (lp-conformance cleanup removes them): ${c.failed[0]}`;
  return `; cleaned up ${c.deleted + c.gone} of the ${plural(made, 'record')} the run created (marker lpc-${result.runId ?? '?'}-)${left}`;
}

/** `; waited 12.0s for the target's rate limits (3 retries after 429)`, when the run waited at all. */
function waitedText(result: RunResult): string {
  const w = result.waited;
  if (!w || w.retryAfterMs + w.maxRpsMs === 0) return '';
  const parts = [
    ...(w.retryAfterMs > 0 ? [`${(w.retryAfterMs / 1000).toFixed(1)}s on 429 Retry-After (${plural(w.retries, 'retry')})`.replace('retrys', 'retries')] : []),
    ...(w.maxRpsMs > 0 ? [`${(w.maxRpsMs / 1000).toFixed(1)}s pacing to --max-rps`] : []),
  ];
  return `; checks waited ${parts.join(' and ')}`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Pads every column but the last to its widest cell. */
function alignColumns(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '));
}
