// One verdict everywhere: for a passing, a failing, a baseline-only, a SHOULD-only and a --strict run
// (real runs of the command line against the bundled server, narrowed with --only and faults), the
// exit code, the console, the JUnit, JSON, Markdown and HTML reports say the same thing: the same
// headline and counts, and the same mark (FAIL, WARN, KNOWN, SKIP, PASS) for every check. Every
// JSON report validates against the published schema (a --compare run's: tests/cli/compare.test.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { JsonReport } from '../../reporters/json.js';
import { writeReports } from '../../reporters/write.js';
import { markOf, type Mark } from '../../reporters/verdict.js';
import { runCli, type CliResult } from '../support/cli.js';
import { expectValidReport } from '../support/run-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'lpc-reports-'));
const SORTS = ['--only', 'intapi.v2.templates.list.sort'];
const BASELINE = join(dir, 'baseline.yml');
writeFileSync(
  BASELINE,
  [
    'failures:',
    '  - { id: intapi.v2.templates.list.sort.ascending, level: MUST, reason: sorting is being rewritten }',
    '  - { id: intapi.v2.templates.list.sort.descending, level: MUST, reason: sorting is being rewritten }',
    '  - { id: intapi.v2.templates.list.sort.multi-key, level: MUST, reason: sorting is being rewritten }',
    '',
  ].join('\n'),
);

interface Mode {
  name: string;
  args: string[];
  exit: number;
  outcome: 'passed' | 'failed';
  strict?: boolean;
}

const MODES: Mode[] = [
  // With the evaluation check that judges its questions one by one (it says `sampled` only when it sampled).
  { name: 'passing', args: [...SORTS, '--only', 'intapi.v2.evaluations.questions.get.agrees-with-list'], exit: 0, outcome: 'passed' },
  { name: 'failing', args: ['--faults', 'intapi.sort-ignored', ...SORTS], exit: 1, outcome: 'failed' },
  { name: 'baseline-only', args: ['--faults', 'intapi.sort-ignored', '--baseline', BASELINE, ...SORTS], exit: 0, outcome: 'passed' },
  { name: 'should-only', args: ['--faults', 'scim.json-request-rejected', '--only', 'scim.media'], exit: 0, outcome: 'passed' },
];
/** The SHOULD-only run's model, reported again under --strict (writeReports, what the command line
 * calls): its exit code is the verdict's. */
const STRICT: Mode = { name: 'should-strict', args: [], exit: 1, outcome: 'failed', strict: true };

interface Outputs {
  cli: CliResult;
  json: JsonReport;
  junit: string;
  markdown: string;
  html: string;
}

const runs = new Map<string, Outputs>();

const file = (name: string, ext: string) => join(dir, `${name}.${ext}`);
const read = (name: string, cli: CliResult): Outputs => {
  const text = (ext: string) => readFileSync(file(name, ext), 'utf8');
  return { cli, json: JSON.parse(text('json')) as JsonReport, junit: text('xml'), markdown: text('md'), html: text('html') };
};
/** GitHub Actions' job summary of the failing run: the Markdown report, appended. */
const STEP_SUMMARY = join(dir, 'step-summary.md');
writeFileSync(STEP_SUMMARY, 'earlier step\n');

async function run(name: string, args: readonly string[]): Promise<Outputs> {
  const reports = ['--junit', file(name, 'xml'), '--json', file(name, 'json'), '--markdown', file(name, 'md'), '--html', file(name, 'html')];
  const cli = await runCli(['run', ...args, '--seed', '2', '--runs', '3', '--no-progress', ...reports], {
    ...(name === 'failing' ? { env: { GITHUB_STEP_SUMMARY: STEP_SUMMARY } } : {}),
  });
  expect(cli.code, cli.stderr).not.toBe(2);
  return read(name, cli);
}

beforeAll(async () => {
  // Two at a time (the machine has two cores).
  for (let i = 0; i < MODES.length; i += 2) {
    await Promise.all(MODES.slice(i, i + 2).map(async (m) => runs.set(m.name, await run(m.name, m.args))));
  }
  // The SHOULD-only run under --strict: its model (the JSON report is the run model) reported again.
  const { verdict: _verdict, schemaVersion: _version, ...model } = runs.get('should-only')!.json;
  const { summary, verdict } = writeReports(
    model,
    { junit: file(STRICT.name, 'xml'), json: file(STRICT.name, 'json'), markdown: file(STRICT.name, 'md'), html: file(STRICT.name, 'html') },
    { strict: true },
  );
  runs.set(STRICT.name, read(STRICT.name, { code: verdict.exitCode, stdout: `${summary}\nJUnit report: …\n`, stderr: '' }));
});

/** `&#NN;` character references back to text (the HTML report escapes with them only). */
const unescape = (html: string): string => html.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
const xmlText = (xml: string): string =>
  xml.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'apos' ? "'" : e === 'amp' ? '&' : String.fromCodePoint(Number(`0${e.slice(1)}`)),
  );

/** Each report's mark of each check that is not PASS. */
function consoleMarks(stdout: string): Map<string, Mark> {
  return new Map([...stdout.matchAll(/^(FAIL|WARN|KNOWN|SKIP) {2}\[([^\]]+)\]/gm)].map((m) => [m[2]!, m[1] as Mark]));
}
function markdownMarks(md: string): Map<string, Mark> {
  return new Map([...md.matchAll(/^#### (FAIL|WARN|KNOWN) `([^`]+)`/gm)].map((m) => [m[2]!, m[1] as Mark]));
}
function htmlMarks(html: string): Map<string, Mark> {
  return new Map(
    [...html.matchAll(/data-mark="([A-Z]+)">\n<div class="head">.*?<code class="id">([^<]+)<\/code>/g)].map((m) => [unescape(m[2]!), m[1] as Mark]),
  );
}
function junitMarks(xml: string): Map<string, Mark> {
  const marks = new Map<string, Mark>();
  for (const testcase of xml.split('<testcase ').slice(1)) {
    const id = /^classname="[^"]*" name="\[([^\]]+)\]/.exec(testcase)?.[1];
    if (!id) continue;
    const body = testcase.slice(0, testcase.search(/<\/testcase>|\/>\n/) + 1);
    const skipped = /<skipped(?: type="[A-Z]+")?(?: message="([^"]*)")?/.exec(body);
    marks.set(
      id,
      /<failure/.test(body)
        ? 'FAIL'
        : !skipped
          ? 'PASS'
          : /known failure/.test(skipped[1] ?? '')
            ? 'KNOWN'
            : /\(advisory, does not fail the run\)/.test(skipped[1] ?? '')
              ? 'WARN'
              : 'SKIP',
    );
  }
  return marks;
}

const notPass = (marks: Map<string, Mark>): [string, Mark][] => [...marks].filter(([, m]) => m !== 'PASS').sort(([a], [b]) => a.localeCompare(b));

describe.each([...MODES, STRICT])('a $name run', (mode) => {
  test(`exits ${mode.exit}, and its JSON report validates and says ${mode.outcome}`, () => {
    const { cli, json } = runs.get(mode.name)!;
    expect(cli.code, cli.stdout).toBe(mode.exit);
    expectValidReport(json, `a ${mode.name} run`);
    expect(json.verdict).toMatchObject({ outcome: mode.outcome, exitCode: mode.exit, failOn: mode.strict ? 'should' : 'must' });
    const c = json.verdict.counts;
    expect(c.passed + c.failed + c.advisory + c.known + c.skipped + c.interrupted).toBe(json.checks.length);
  });

  test('the console, JUnit, Markdown and HTML say the headline and the counts of the JSON verdict', () => {
    const { cli, json, junit, markdown, html } = runs.get(mode.name)!;
    const { headline, tally, counts } = json.verdict;
    // The summary's last lines, above the lines that name the reports written.
    const lines = cli.stdout
      .trimEnd()
      .split('\n')
      .filter((l) => !/^(\w+ report|Request record|Side files): /.test(l) && !l.includes('name a server that is gone'));
    expect(lines.at(-1)).toBe(headline);
    expect(lines.at(-2)).toMatch(new RegExp(`^lp-conformance: ${tally.replace(/[()]/g, '\\$&')} in \\d+\\.\\ds`));
    expect(xmlText(junit)).toContain(`<property name="verdict" value="${headline}"/>`);
    expect(xmlText(junit)).toContain(`<property name="tally" value="${tally}"/>`);
    expect(junit).toMatch(new RegExp(`<testsuites name="lp-conformance" tests="${counts.checks}" failures="${counts.failed}" `));
    expect(markdown.split('\n')[0]).toBe(`## lp-conformance: ${mode.outcome === 'passed' ? '✅' : '❌'} ${headline}`);
    expect(markdown.split('\n')[2]).toMatch(new RegExp(`^${tally.replace(/[()]/g, '\\$&')} in `));
    expect(unescape(/<p class="verdict [a-z]+" id="verdict">([^<]*)<\/p>/.exec(html)?.[1] ?? '')).toBe(headline);
    expect(unescape(/<p class="tally" id="tally">([^<]*)<\/p>/.exec(html)?.[1] ?? '')).toBe(tally);
    expect(/<title>lp-conformance: ([^<]*)<\/title>/.exec(html)?.[1]).toBe(headline);
  });

  test('every report gives every check the mark the verdict gives it', () => {
    const { cli, json, junit, markdown, html } = runs.get(mode.name)!;
    const expected = new Map(json.checks.map((c) => [c.id, markOf(c, mode.strict)]));
    expect(junitMarks(junit)).toEqual(expected);
    expect(htmlMarks(html)).toEqual(expected);
    expect(notPass(consoleMarks(cli.stdout))).toEqual(notPass(expected));
    // Markdown lists the failures (FAIL, WARN, KNOWN); its table counts the skipped.
    expect(notPass(markdownMarks(markdown))).toEqual(notPass(expected).filter(([, m]) => m !== 'SKIP'));
    const byMark = (m: Mark) => [...expected.values()].filter((x) => x === m).length;
    expect(json.verdict.counts).toMatchObject({ failed: byMark('FAIL'), advisory: byMark('WARN'), known: byMark('KNOWN'), passed: byMark('PASS') });
  });
});

describe('what each kind of run says', () => {
  test('a baseline-only run: PASSED, and KNOWN in every report', () => {
    const { cli, json, junit, markdown, html } = runs.get('baseline-only')!;
    expect(json.verdict.headline).toBe('PASSED: no new failure of a MUST or PROFILE check; 3 known from the baseline');
    expect(json.verdict.counts).toMatchObject({ failed: 0, known: 3, advisory: 0 });
    expect(cli.stdout).toMatch(/^KNOWN {2}\[intapi\.v2\.templates\.list\.sort\.ascending\]/m);
    expect(junit.match(/known failure \(baseline /g)).toHaveLength(3);
    expect(markdown).toContain('#### KNOWN `intapi.v2.templates.list.sort.ascending`');
    expect(markdown).not.toMatch(/advisory\)|WARN/);
    expect(html.match(/data-mark="KNOWN">/g)).toHaveLength(3);
    expect(json.checks.filter((c) => c.known).map((c) => c.known?.reason)).toEqual(Array(3).fill('sorting is being rewritten'));
  });

  test('a SHOULD-only run: PASSED with the advisory failure; under --strict, FAILED', () => {
    expect(runs.get('should-only')!.json.verdict.headline).toBe('PASSED: no MUST or PROFILE check failed; 1 advisory (1 SHOULD)');
    expect(runs.get('should-strict')!.json.verdict.headline).toBe('FAILED: 1 check fails the run (1 SHOULD)');
  });

  test('a passing run: no check says sampled where it read every item', () => {
    expect(runs.get('passing')!.json.checks.filter((c) => c.sampled)).toEqual([]);
  });

  test("a failing run's Markdown report is appended to GitHub Actions' job summary", () => {
    expect(readFileSync(STEP_SUMMARY, 'utf8')).toBe(`earlier step\n${runs.get('failing')!.markdown}`);
  });
});
