/**
 * Run model -> JUnit XML, valid against the Jenkins xUnit plugin's junit-10.xsd
 * (fixtures/junit/junit-10.xsd), the strictest common consumer: it rejects a report that does not
 * validate, where the Jenkins JUnit plugin, GitLab and GitHub reporters read leniently.
 *
 * Layout: one <testsuite> per area, one <testcase> per check named `[<id>] <title>`; each testsuite
 * carries the run's verdict (verdict.ts) as the properties `verdict` (its headline) and `tally`. By
 * the check's mark:
 * - FAIL (fails the run) -> <failure type="LEVEL" message="Expected …; received …">, text = the
 *   failure block (failure-block.ts).
 * - WARN (a level that does not fail the run: SHOULD without --strict, MAY) -> <skipped type="LEVEL"
 *   message="LEVEL not met (advisory): Expected …; received …">, the failure block in <system-out>.
 *   Most consumers count any <failure> as red (Jenkins marks the build unstable, GitLab and GitHub
 *   reporters fail the check), which would contradict the exit code; the type and message keep the
 *   advisory finding visible and distinguishable from a check that did not run.
 * - KNOWN (listed in the baseline) -> <skipped message="LEVEL not met, known failure (baseline …): …">,
 *   the block in <system-out>, for the same reason.
 * - SKIP -> <skipped message="reason">; INTERRUPTED -> <skipped message="INTERRUPTED (SIGTERM): reason">.
 * Level and spec anchor go to the testcase's <system-out> as `[[PROPERTY|level=MUST]]` lines (the
 * convention of the common JUnit format, github.com/testmoapp/junitxml): junit-10.xsd does not allow
 * <properties> in a <testcase>, and the name stays `[<id>] <title>`, the check's identity.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import junit, { type Builder, type TestSuite } from 'junit-report-builder';
import { catalogueEntry, fileLink, type CheckResult, type RunResult } from '../src/runner/base/model.js';
import { attachmentsOf, failureMessage, failureOf, formatFailureBlock, groupByArea, NO_PAINT, skipText, type SideFileIndex } from './failure-block.js';
import { makeCleaner, shardsText, type Cleaner, type Redact } from './text.js';
import { markOf, verdictOf, type Verdict } from './verdict.js';

// Node hands this CommonJS package's module.exports (the builder) to a default import, while
// TypeScript under NodeNext types the default import as the module object `{ default }`.
const rootBuilder: Builder = 'default' in junit ? junit.default : junit;

/** The xmlbuilder element junit-report-builder builds a testsuite into. */
type XmlElement = ReturnType<TestSuite['build']>;

export interface JUnitOptions {
  /** Where the package's files are read, for links to a check's source and catalogue entry: the
   * versioned address of its repository (`https://…/blob/v<version>/`); paths from the package root without it. */
  links?: string;
  /** Defence in depth: applied to every string written, although the run model is already redacted. */
  redact?: Redact;
  /** As `--strict`: SHOULD failures fail the run, so they are rendered as <failure>. */
  strict?: boolean;
  /** The files written beside the report (reproductions too long to show, attachments). */
  side?: SideFileIndex;
}

interface Ctx {
  clean: Cleaner;
  strict: boolean;
  verdict: Verdict;
  side?: SideFileIndex;
  /** JUnitOptions.links. */
  links?: string;
}

/** Bounds: a failure field stays readable in a CI page, an attribute stays one short line. */
const MAX_FIELD_CHARS = 8192;
const MAX_LINE_CHARS = 1024;

export function renderJUnit(result: RunResult, options: JUnitOptions = {}): string {
  const strict = options.strict ?? false;
  const clean = makeCleaner({ redact: options.redact, maxFieldChars: MAX_FIELD_CHARS, maxLineChars: MAX_LINE_CHARS });
  // A fresh builder per report: the package's default instance is shared module state.
  const reportBuilder = rootBuilder.newBuilder();

  const verdict = verdictOf(result, { strict });
  const ctx: Ctx = { clean, strict, verdict, ...(options.side ? { side: options.side } : {}), ...(options.links ? { links: options.links } : {}) };
  const suites = [...groupByArea(result.checks)].map(([area, checks]) => {
    const suite = reportBuilder.testSuite().name(clean.line(area)).timestamp(clean.line(result.startedAt));
    suite.time(seconds(checks.reduce((sum, check) => sum + check.durationMs, 0)));
    suite.property('verdict', verdict.headline);
    suite.property('tally', verdict.tally);
    for (const caveat of verdict.caveats) suite.property('caveat', caveat);
    for (const [family, url] of Object.entries(result.targets)) {
      suite.property(clean.line(`target.${family}`), clean.line(url));
    }
    suite.property('profile', clean.line(result.profileName));
    suite.property('seed', String(result.seed));
    suite.property('runs', String(result.runs));
    const shards = shardsText(result);
    if (shards) suite.property('sharded', shards);
    if (result.interrupted) suite.property('interrupted', result.interrupted.signal);
    for (const check of checks) addTestCase(suite, check, ctx);
    return completeSuite(suite.build(), checks, ctx).toString({ pretty: true, offset: 1 }).trimEnd();
  });

  const failures = verdict.counts.failed;
  // The root is written here, not by the builder: the builder puts a `skipped` attribute on
  // <testsuites>, which junit-10.xsd rejects (jenkinsci/xunit-plugin; see kyrus/python-junit-xml#32).
  // Every value in it is a number or a constant, so nothing needs escaping.
  const root = `<testsuites name="lp-conformance" tests="${result.checks.length}" failures="${failures}" errors="0" time="${seconds(result.durationMs)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', root, ...suites, '</testsuites>', ''].join('\n');
}

export function writeJUnit(result: RunResult, file: string, options: JUnitOptions = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderJUnit(result, options), 'utf8');
}

/** What junit-report-builder can express: identity, timing, verdict (so it counts the suite). */
function addTestCase(suite: TestSuite, check: CheckResult, { clean, strict }: Ctx): void {
  const testCase = suite
    .testCase()
    .className(clean.line(check.area))
    .name(clean.line(`[${check.id}] ${check.title}`))
    .time(seconds(check.durationMs));
  const mark = markOf(check, strict);
  if (mark === 'FAIL') testCase.failure(failureMessage(failureOf(check), clean), clean.line(check.level));
  else if (mark !== 'PASS') testCase.skipped();
}

/**
 * What junit-report-builder 5.1.2 cannot express, added to the tree it built:
 * - <skipped> takes no message or type there;
 * - its CDATA escaping splits only the first `]]>` of a text (a second one ends the section and
 *   breaks the document), so texts are written as escaped character data instead of CDATA.
 */
function completeSuite(suiteElement: XmlElement, checks: readonly CheckResult[], { clean, strict, verdict, side, links }: Ctx): XmlElement {
  const testCases = childElements(suiteElement, 'testcase');
  checks.forEach((check, index) => {
    const testCase = testCases[index];
    if (!testCase) throw new Error(`junit: no <testcase> built for ${check.id}`);
    const out = [`[[PROPERTY|level=${clean.line(check.level)}]]`, `[[PROPERTY|spec=${clean.line(check.spec)}]]`];
    // Where the check is defined and its catalogue entry, for a CI viewer to show beside a failure.
    if (check.source !== undefined)
      out.push(`[[PROPERTY|source=${clean.line(check.source)}]]`, `[[PROPERTY|catalogue=${fileLink(catalogueEntry(check.id), links)}]]`);
    const mark = markOf(check, strict);
    const files = side?.get(check.id);
    if (check.status === 'failed') {
      const block = formatFailureBlock(check, { clean, paint: NO_PAINT, strict, ...(files ? { side: files } : {}) });
      if (mark === 'FAIL') elementOf(testCase, 'failure').txt(block);
      else {
        const level = clean.line(check.level);
        const message = check.known
          ? `${level} not met, known failure (baseline ${clean.line(check.known.baseline)}): ${failureMessage(failureOf(check), clean)}`
          : `${level} not met (advisory, does not fail the run): ${failureMessage(failureOf(check), clean)}`;
        elementOf(testCase, 'skipped').att('type', level).att('message', message);
        out.push('', block);
      }
    } else if (mark === 'INTERRUPTED') {
      elementOf(testCase, 'skipped').att('message', clean.line(`INTERRUPTED (${verdict.signal ?? 'signal'}): ${skipText(check)}`));
    } else if (mark === 'SKIP') {
      elementOf(testCase, 'skipped').att('message', clean.line(skipText(check)));
    }
    // Files saved for the failure (a screenshot), copied beside the report: the JUnit attachments
    // convention (Jenkins' plugin, GitLab), one a line.
    for (const attachment of attachmentsOf(check, files)) out.push(`[[ATTACHMENT|${clean.line(attachment.path)}]]`);
    testCase.ele('system-out').txt(out.join('\n'));
  });
  return suiteElement;
}

function childElements(parent: XmlElement, name: string): XmlElement[] {
  return parent.children.filter((node): node is XmlElement => 'name' in node && node.name === name);
}

function elementOf(parent: XmlElement, name: string): XmlElement {
  const [element] = childElements(parent, name);
  if (!element) throw new Error(`junit: <${name}> missing in a built <testcase>`);
  return element;
}

/** Seconds with at most three decimals: a plain decimal, never `1e-7`, which SUREFIRE_TIME rejects. */
function seconds(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) / 1000 : 0;
}
