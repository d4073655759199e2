/**
 * Run model -> a Markdown summary, for `--markdown FILE` and, when `$GITHUB_STEP_SUMMARY` is set, the
 * GitHub Actions job summary: the verdict, each failure with its expected/received, counterexample,
 * curl and replay line, then a table of counts per area (what the reader fixes comes first). Everything from the target is cleaned
 * (redacted, control characters made visible, bounded) and put in code spans or fenced blocks, so a
 * hostile body cannot inject Markdown or HTML into the page.
 */
import { catalogueEntry, fileLink, type CheckResult, type RunResult } from '../src/runner/base/model.js';
import { failureView, skipText, type SideFileIndex } from './failure-block.js';
import { makeCleaner, shardsText, oneLine, type Redact } from './text.js';
import { markOf, verdictOf, type Mark } from './verdict.js';

export interface MarkdownOptions {
  /** Where the package's files are read, for links to a check's source and catalogue entry: the
   * versioned address of its repository (`https://…/blob/v<version>/`); paths from the package root without it. */
  links?: string;
  strict?: boolean;
  redact?: Redact;
  /** The files written beside the report (reproductions too long to show, attachments). */
  side?: SideFileIndex;
}

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

const ICON: Record<Verdict['outcome'], string> = { passed: '✅', failed: '❌', interrupted: '⏹️' };
type Verdict = ReturnType<typeof verdictOf>;

export function renderMarkdown(result: RunResult, options: MarkdownOptions = {}): string {
  const strict = options.strict ?? false;
  const clean = makeCleaner({ redact: options.redact, maxFieldChars: MAX_LINE_CHARS, maxLineChars: MAX_LINE_CHARS });
  const verdict = verdictOf(result, { strict });
  const marks = (checks: readonly CheckResult[], ...wanted: Mark[]) => checks.filter((c) => wanted.includes(markOf(c, strict))).length;
  const sharded = shardsText(result);
  const lines = [
    `## lp-conformance: ${ICON[verdict.outcome]} ${verdict.headline}`,
    '',
    ...verdict.caveats.flatMap((caveat) => [`> **Caveat:** ${caveat}`, '']),
    `${verdict.tally} in ${(result.durationMs / 1000).toFixed(1)} s (${result.requests} requests); seed ${result.seed}, profile ${code(clean.line(result.profileName))}${sharded ? `; ${sharded}` : ''}.`,
    ...failureLines(result, clean, options),
  ];
  const unfinished = result.checks.filter((c) => markOf(c, strict) === 'INTERRUPTED');
  if (unfinished.length > 0) {
    lines.push('', `### INTERRUPTED: ${unfinished.length} checks did not finish`, '', ...unfinished.map((c) => `- ${code(c.id)}: ${clean.line(skipText(c))}`));
  }
  // The counts per area after what the reader fixes.
  lines.push('', '### Counts per area', '', '| area | passed | failed | advisory | known | skipped |', '|---|---:|---:|---:|---:|---:|');
  for (const area of new Set(result.checks.map((c) => c.area))) {
    const checks = result.checks.filter((c) => c.area === area);
    lines.push(
      `| ${cell(clean.line(area))} | ${marks(checks, 'PASS')} | ${marks(checks, 'FAIL')} | ${marks(checks, 'WARN')} | ${marks(checks, 'KNOWN')} | ${marks(checks, 'SKIP', 'INTERRUPTED')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `### Failures`: those that fail the run first, then the advisory and the known ones; none: nothing. */
function failureLines(result: RunResult, clean: ReturnType<typeof makeCleaner>, options: MarkdownOptions): string[] {
  const strict = options.strict ?? false;
  const failed = result.checks.filter((c) => c.status === 'failed');
  const ordered = [...failed.filter((c) => markOf(c, strict) === 'FAIL'), ...failed.filter((c) => markOf(c, strict) !== 'FAIL')];
  const lines = ordered.length > 0 ? ['', '### Failures'] : [];
  for (const check of ordered) {
    const side = options.side?.get(check.id);
    const v = failureView(check, { clean, strict, ...(side ? { side } : {}) });
    lines.push(
      '',
      `#### ${v.mark} ${code(check.id)} · ${check.level} · ${code(check.spec)}`,
      '',
      clean.line(check.title),
      '',
      ...(check.source === undefined
        ? []
        : [
            `- Defined: [${code(clean.line(check.source))}](${fileLink(check.source, options.links)}) ([catalogue](${fileLink(catalogueEntry(check.id), options.links)}))`,
          ]),
      `- Expected: ${code(oneLine(v.expected))}`,
      `- Received: ${code(oneLine(v.received))}`,
      ...(v.counterexample !== undefined ? [`- Counterexample (shrunk): ${code(oneLine(v.counterexample))}`] : []),
      ...(v.reproduce !== undefined ? ['- Reproduce:', '', fenced(v.reproduce)] : []),
      ...(v.request !== undefined ? [`- Request: ${code(oneLine(v.request))}`] : []),
      `- Replay: ${code(oneLine(v.replay))}`,
      ...(v.known !== undefined ? [`- Known: ${code(oneLine(v.known))}`] : []),
      ...v.attachments.map((a) => `- Attached: ${code(oneLine(a.path))}`),
    );
  }
  return lines;
}
