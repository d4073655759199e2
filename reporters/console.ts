/**
 * Run model -> what the user reads in the terminal or the CI log: counts per level and area, the
 * skipped checks with their reasons, every failure as a block (failure-block.ts), and one final
 * line. Failures come last, just above the final line, where a CI log is read first.
 */
import { failsRun, LEVELS, SLOW_CHECK_MS, type CheckMeta, type CheckResult, type Level, type RunResult } from '../src/runner/base/model.js';
import { formatFailureBlock, NO_PAINT, skipText, type Paint, type SideFileIndex } from './failure-block.js';
import { makeCleaner, shardsText, type Cleaner, type Redact } from './text.js';
import { markOf, resentText, verdictOf, type Mark, type Verdict } from './verdict.js';

export interface SummaryOptions {
  /** ANSI colours; the caller decides (a TTY, no NO_COLOR). Never set for files. */
  color: boolean;
  /** As `--strict`: SHOULD failures fail the run. */
  strict?: boolean;
  /** Defence in depth: applied to every string taken from the run, although it is already redacted. */
  redact?: Redact;
  /** The files written beside the JUnit report (reproductions too long to show, attachments). */
  side?: SideFileIndex;
  /** In full (default): every area's counts, every skipped check's id. Short: the slowest areas instead
   * of the table, three ids per reason of skipping (`--verbose` and the reports have them all). */
  verbose?: boolean;
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

type Counts = Record<Column, number>;

export function formatSummary(result: RunResult, opts: SummaryOptions): string {
  const strict = opts.strict ?? false;
  const paint = opts.color ? ANSI : NO_PAINT;
  const clean = makeCleaner({ redact: opts.redact, maxFieldChars: MAX_FIELD_CHARS, maxLineChars: MAX_LINE_CHARS });
  const verdict = verdictOf(result, { strict });
  const caveats = verdict.caveats.map((caveat) => paint.warn(`! ${caveat}`));
  const verbose = opts.verbose ?? true;
  const counts = verbose ? levelTable(result.checks, { clean, paint, strict }) : slowestAreas(result.checks, clean);
  const sections = [[header(result, clean), ...caveats].join('\n'), counts];

  // Checks refused their fixture are listed once per cause: one refusal of the target,
  // however many checks it kept from running; the other skipped checks once per reason.
  const skipped = result.checks.filter((check) => markOf(check, strict) === 'SKIP' && !check.notSetUp);
  const notSetUp = notSetUpCauses(result.checks);
  if (skipped.length > 0 || notSetUp.size > 0) {
    sections.push(
      [
        ...(skipped.length > 0 ? [skippedLines(skipped, clean, paint, verbose)] : []),
        ...[...notSetUp].map(
          ([key, checks]) =>
            `${paint.warn('NOT SET UP')}  ${clean.line(key)} (${clean.line(checks[0]?.notSetUp?.answer ?? '')}): ${plural(checks.length, 'check')}: ` +
            clean.line(checks.map((check) => check.id).join(', ')),
        ),
      ].join('\n'),
    );
  }
  // An interrupted run: one line for the checks it did not finish (the reports list each).
  const unfinished = result.checks.filter((check) => markOf(check, strict) === 'INTERRUPTED');
  if (unfinished.length > 0) {
    const shown = unfinished.slice(0, 5).map((check) => clean.line(check.id));
    sections.push(
      `${paint.warn('INTERRUPTED')}  ${plural(unfinished.length, 'check')} did not finish: ${shown.join(', ')}${unfinished.length > shown.length ? ', …' : ''}`,
    );
  }
  // Failures that fail the run first, then the advisory and the known ones: the reader fixes the former.
  const failed = result.checks.filter((check) => check.status === 'failed');
  const ordered = [...failed.filter((check) => markOf(check, strict) === 'FAIL'), ...failed.filter((check) => markOf(check, strict) !== 'FAIL')];
  for (const check of ordered)
    sections.push(formatFailureBlock(check, { clean, paint, strict, ...(opts.side?.has(check.id) ? { side: opts.side.get(check.id) } : {}) }));

  if (result.baseline && result.baseline.nowPassing.length > 0) {
    sections.push(
      [
        `${paint.pass('PASSING AGAIN')}  remove from the baseline ${clean.line(result.baseline.file)}:`,
        ...result.baseline.nowPassing.map((id) => `  - ${clean.line(id)}`),
      ].join('\n'),
    );
  }
  sections.push([finalLine(result, verdict), ...caveats, paintVerdict(verdict, paint)].join('\n'));
  return sections.filter((section) => section !== '').join('\n\n');
}

/** The ids a reason's line names before it says how many more (the reports list every check). */
const SKIPPED_IDS_SHOWN = 3;

/**
 * The skipped checks, one line per reason (a family's missing credentials skip dozens of checks for
 * one reason): `SKIP  [<id>]  <reason>` for a reason of one check, `SKIP  23 checks  <reason>: <id>,
 * <id>, <id> and 20 more` for several.
 */
function skippedLines(skipped: readonly CheckResult[], clean: Cleaner, paint: Paint, verbose: boolean): string {
  const byReason = new Map<string, string[]>();
  for (const check of skipped) {
    const reason = clean.line(skipText(check));
    byReason.set(reason, [...(byReason.get(reason) ?? []), clean.line(check.id)]);
  }
  return [...byReason]
    .map(([reason, ids]) => {
      if (ids.length === 1) return `${paint.dim('SKIP')}  [${ids[0] ?? ''}]  ${reason}`;
      const count = verbose ? ids.length : SKIPPED_IDS_SHOWN;
      const shown = ids.slice(0, count).join(', ');
      const more = ids.length > count ? ` and ${ids.length - count} more (every one: the reports, or --verbose)` : '';
      return `${paint.dim('SKIP')}  ${ids.length} checks  ${reason}: ${shown}${more}`;
    })
    .join('\n');
}

/** The checks that could not set up, by cause (`POST /v2/Users answered 409 uniqueness`), in run order. */
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
  const sharded = shardsText(result);
  const lines = [
    `lp-conformance · profile ${clean.line(result.profileName)} · seed ${result.seed} · ${plural(result.runs, 'run')} · started ${clean.line(result.startedAt)}`,
    ...(sharded ? [`  ${sharded}`] : []),
  ];
  const targets = Object.entries(result.targets).map(([family, url]) => [`  target ${clean.line(family)}`, clean.line(url)]);
  return [...lines, ...alignColumns(targets)].join('\n');
}

/** A row's columns: failed counts FAIL and WARN (the level's title says which), known and
 * interrupted appear only in a run that has some. */
const COLUMNS = ['passed', 'failed', 'known', 'skipped', 'interrupted'] as const;
type Column = (typeof COLUMNS)[number];
const COLUMN_OF: Record<Mark, Column> = { PASS: 'passed', FAIL: 'failed', WARN: 'failed', KNOWN: 'known', SKIP: 'skipped', INTERRUPTED: 'interrupted' };

/** Counts grouped by level (MUST, PROFILE, SHOULD, MAY), then by area in run order. */
function levelTable(checks: readonly CheckResult[], ctx: { clean: Cleaner; paint: Paint; strict: boolean }): string {
  const { clean, paint, strict } = ctx;
  const blocks: { level: Level; rows: { area: string; counts: Counts }[] }[] = [];
  for (const level of LEVELS) {
    const byArea = new Map<string, Counts>();
    for (const check of checks.filter((c) => c.level === level)) {
      const counts = byArea.get(check.area) ?? { passed: 0, failed: 0, known: 0, skipped: 0, interrupted: 0 };
      counts[COLUMN_OF[markOf(check, strict)]]++;
      byArea.set(check.area, counts);
    }
    if (byArea.size > 0) blocks.push({ level, rows: [...byArea].map(([area, counts]) => ({ area: clean.line(area), counts })) });
  }
  const all = blocks.flatMap((block) => block.rows);
  const columns = COLUMNS.filter((c) => c === 'passed' || c === 'failed' || c === 'skipped' || all.some((row) => row.counts[c] > 0));
  const areaWidth = Math.max(0, ...all.map((row) => row.area.length));
  const width = (c: Column) => Math.max(0, ...all.map((row) => String(row.counts[c]).length));
  return blocks
    .map(({ level, rows }) => {
      const advisory = !failsRun(level, strict);
      const title = paint.bold(level) + (advisory ? paint.dim(level === 'SHOULD' ? ' (advisory; fails the run with --strict)' : ' (advisory)') : '');
      const colour: Record<Column, (text: string) => string> = {
        passed: paint.pass,
        failed: advisory ? paint.warn : paint.fail,
        known: paint.warn,
        skipped: paint.warn,
        interrupted: paint.warn,
      };
      const lines = rows.map(({ area, counts }) =>
        [
          `  ${area.padEnd(areaWidth)}`,
          // Pad before painting: escape codes have no width on screen but do have a length.
          ...columns.map((c) => {
            const n = String(counts[c]).padStart(width(c));
            return `${counts[c] > 0 ? colour[c](n) : n} ${c}`;
          }),
        ].join('  '),
      );
      return [title, ...lines].join('\n');
    })
    .join('\n');
}

/** Areas shown in the short summary, slowest first. */
const SLOWEST_AREAS = 3;

/** `Slowest areas: <area> 12.3s, <area> 8.1s, <area> 2.0s (every area's counts: --verbose or the reports)`. */
function slowestAreas(checks: readonly CheckResult[], clean: Cleaner): string {
  const byArea = new Map<string, number>();
  for (const check of checks) byArea.set(check.area, (byArea.get(check.area) ?? 0) + Math.max(0, check.durationMs));
  const slowest = [...byArea].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_AREAS);
  if (slowest.length === 0) return '';
  const areas = slowest.map(([area, ms]) => `${clean.line(area)} ${(ms / 1000).toFixed(1)}s`);
  return `Slowest areas: ${areas.join(', ')} (${plural(byArea.size, 'area')}; every area's counts: --verbose or the reports)`;
}

/** `lp-conformance: 412 checks, 409 passed, 2 failed, 0 advisory, 1 skipped in 8.4s (15123 requests)`: the
 * verdict's tally, the time, the requests, what the run waited for and what it cleaned up. */
function finalLine(result: RunResult, verdict: Verdict): string {
  return (
    `lp-conformance: ${verdict.tally}${outcomesText(result.checks)} in ${(Math.max(0, result.durationMs) / 1000).toFixed(1)}s (${plural(result.requests, 'request')})` +
    waitedText(result) +
    (result.interrupted ? `; interrupted by ${result.interrupted.signal}` : '') +
    cleanupText(result)
  );
}

/** The verdict's headline, last: what a CI log is read for. */
function paintVerdict(verdict: Verdict, paint: Paint): string {
  if (verdict.outcome === 'failed') return paint.fail(paint.bold(verdict.headline));
  if (verdict.outcome === 'interrupted') return paint.warn(paint.bold(verdict.headline));
  return paint.pass(paint.bold(verdict.headline));
}

/** ` (40 not set up by 1 cause, 3 blocked)`: the skips that are outcomes of the target, not of the profile. */
function outcomesText(checks: readonly CheckResult[]): string {
  const causes = notSetUpCauses(checks);
  const notSetUp = [...causes.values()].reduce((n, list) => n + list.length, 0);
  const blocked = checks.filter((check) => check.status === 'skipped' && check.blockedBy).length;
  const parts = [...(notSetUp > 0 ? [`${notSetUp} not set up by ${plural(causes.size, 'cause')}`] : []), ...(blocked > 0 ? [`${blocked} blocked`] : [])];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/**
 * What became of the records the run created, per family: `records the run created (marker
 * lpc-3f9a1c-): <family> 477 (users 470, groups 7): 477 deleted; <family> 212 (…): 212 left (no
 * delete operation)`, and the first record whose deletion failed.
 */
function cleanupText(result: RunResult): string {
  const c = result.cleanup;
  if (!c) return '';
  const families = Object.entries(c.families).map(([family, f]) => {
    const made = Object.values(f.created).reduce((n, k) => n + k, 0);
    const collections = Object.entries(f.created).map(([collection, n]) => `${collection} ${n}`);
    const removed = f.deleted + f.gone;
    const fate = [...(removed > 0 ? [`${removed} deleted`] : []), ...(f.left > 0 ? [`${f.left} left${f.leftBecause ? ` (${f.leftBecause})` : ''}`] : [])];
    return `${family} ${made} (${collections.join(', ')}): ${fate.join(', ')}`;
  });
  const failed = c.failed.length === 0 ? '' : `; ${plural(c.failed.length, 'deletion')} failed (lp-conformance cleanup removes them): ${c.failed[0]}`;
  // A merged run's records carry each shard's marker.
  const markers = (result.runId ? [result.runId] : (result.shards ?? []).flatMap((s) => (s.runId ? [s.runId] : []))).map((id) => `lpc-${id}-`);
  return `; records the run created (marker ${markers.length > 0 ? markers.join(', ') : 'lpc-?-'}): ${families.join('; ')}${failed}`;
}

/** `; checks waited 12.0s on 429 Retry-After (3 retries)`, when the run waited at all, and
 * `; 2 requests sent again after the target closed their connection without an answer`. */
function waitedText(result: RunResult): string {
  const w = result.waited;
  if (!w) return '';
  const resent = resentText(w.resent);
  if (w.retryAfterMs + w.maxRpsMs === 0) return resent;
  const parts = [
    ...(w.retryAfterMs > 0 ? [`${(w.retryAfterMs / 1000).toFixed(1)}s on 429 Retry-After (${plural(w.retries, 'retry')})`.replace('retrys', 'retries')] : []),
    ...(w.maxRpsMs > 0 ? [`${(w.maxRpsMs / 1000).toFixed(1)}s pacing to --max-rps`] : []),
  ];
  return `; checks waited ${parts.join(' and ')}${resent}`;
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
