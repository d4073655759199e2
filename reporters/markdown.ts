/**
 * Run model -> a Markdown summary, for `--markdown FILE` and, when `$GITHUB_STEP_SUMMARY` is set, the
 * GitHub Actions job summary: the verdict, a table of counts per area, and each failure with its
 * expected/received, counterexample, curl and replay line. Everything from the target is cleaned
 * (redacted, control characters made visible, bounded) and put in code spans or fenced blocks, so a
 * hostile body cannot inject Markdown or HTML into the page.
 */
import { failsRun, type CheckResult, type RunResult } from '../src/runner/model.js';
import { failureOf, isAdvisory } from './failure-block.js';
import { makeCleaner, type Redact } from './text.js';

export interface MarkdownOptions {
  strict?: boolean;
  redact?: Redact;
}

const MAX_FIELD_CHARS = 4096;
const MAX_LINE_CHARS = 400;

/** A code span that holds any text: a fence of more backticks than the text's longest run. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text}${fence}`;
}

function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/** Table cells: no pipes or newlines from the data. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdown(result: RunResult, options: MarkdownOptions = {}): string {
  const strict = options.strict ?? false;
  const clean = makeCleaner({ redact: options.redact, maxFieldChars: MAX_FIELD_CHARS, maxLineChars: MAX_LINE_CHARS });
  const count = (status: CheckResult['status'], checks: readonly CheckResult[] = result.checks) => checks.filter((c) => c.status === status).length;
  const failing = result.checks.filter((c) => c.status === 'failed' && failsRun(c.level, strict));
  const advisory = result.checks.filter((c) => isAdvisory(c, strict));
  const stopped = result.interrupted ? `, interrupted by ${clean.line(result.interrupted.signal)}` : '';
  const verdict = `${failing.length === 0 ? '✅ passed' : `❌ ${failing.length} failed`}${stopped}`;
  const lines = [
    `## lp-conformance: ${verdict}`,
    '',
    `${result.checks.length} checks, ${count('passed')} passed, ${count('failed')} failed${advisory.length > 0 ? ` (${advisory.length} advisory)` : ''}, ${count('skipped')} skipped in ${(result.durationMs / 1000).toFixed(1)} s (${result.requests} requests); seed ${result.seed}, profile ${code(clean.line(result.profileName))}.`,
    '',
    '| area | passed | failed | skipped |',
    '|---|---:|---:|---:|',
  ];
  const areas = [...new Set(result.checks.map((c) => c.area))];
  for (const area of areas) {
    const checks = result.checks.filter((c) => c.area === area);
    lines.push(`| ${cell(clean.line(area))} | ${count('passed', checks)} | ${count('failed', checks)} | ${count('skipped', checks)} |`);
  }
  const failed = [...failing, ...advisory];
  if (failed.length > 0) lines.push('', '### Failures');
  for (const check of failed) {
    const f = failureOf(check);
    lines.push(
      '',
      `#### ${isAdvisory(check, strict) ? 'WARN' : 'FAIL'} ${code(check.id)} · ${check.level} · ${code(check.spec)}`,
      '',
      clean.line(check.title),
      '',
      `- Expected: ${code(clean.line(f.expected))}`,
      `- Received: ${code(clean.line(f.received))}`,
      ...(f.counterexample ? [`- Counterexample (shrunk): ${code(clean.line(f.counterexample))}`] : []),
      ...(f.curl ? ['- Reproduce:', '', fenced(clean.field(f.curl))] : []),
      `- Replay: ${code(clean.line(f.replay))}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
