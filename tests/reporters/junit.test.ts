/**
 * The JUnit report must validate against the schema its strictest consumer applies (the Jenkins
 * xUnit plugin's junit-10.xsd), whatever the target sent, and must say which rule broke. Structure
 * is asserted through libxml2 itself (xmllint's --xpath), not with regular expressions, so the
 * assertions read the document the way a consumer parses it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { PREVIEW_CHARS } from '../../reporters/failure-block.js';
import { renderJUnit, writeJUnit } from '../../reporters/junit.js';
import { markInterrupted } from '../../src/runner/base/model.js';
import {
  baseRun,
  HOSTILE_RUN,
  HUGE_CHARS,
  MARKUP,
  MAY_FAILED,
  MUST_FAILED,
  MUST_FAILED_BLOCK,
  ORDINARY_RUN,
  redactSecret,
  SECRET,
  SHOULD_FAILED,
  SKIPPED,
} from './run-results.js';

const XSD = readFileSync(new URL('../../fixtures/junit/junit-10.xsd', import.meta.url), 'utf8');

async function validate(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'report.xml', contents: xml },
    schema: { fileName: 'junit-10.xsd', contents: XSD },
  });
  return result.errors.map((error) => error.rawMessage);
}

/** Evaluates an XPath expression with xmllint; its standard output lands in `normalized`. */
async function xpath(xml: string, expression: string): Promise<string> {
  const result = await validateXML({
    xml: { fileName: 'report.xml', contents: xml },
    normalization: 'format',
    modifyArguments: (args) => ['--xpath', expression, ...args.filter((arg) => arg !== '--format')],
  });
  if (result.errors.length > 0) throw new Error(result.rawOutput);
  return result.normalized.replace(/\n$/, '');
}

const testcase = (id: string): string => `//testcase[starts-with(@name, '[${id}] ')]`;

describe('renderJUnit: schema', () => {
  it('the validation bites: a raw control character or a root skipped attribute is rejected', async () => {
    const xml = renderJUnit(ORDINARY_RUN);
    // junit-report-builder's own root carries `skipped`, which the xUnit plugin's schema rejects.
    expect(await validate(xml.replace('<testsuites ', '<testsuites skipped="1" '))).toEqual([
      expect.stringContaining("attribute 'skipped': The attribute 'skipped' is not allowed"),
    ]);
    expect((await validate(xml.replace('Received: 201', 'Received: \u0001'))).join()).toContain('invalid Char');
  });

  it('an ordinary run validates against junit-10.xsd', async () => {
    expect(await validate(renderJUnit(ORDINARY_RUN))).toEqual([]);
  });

  it('an ordinary run under --strict validates', async () => {
    expect(await validate(renderJUnit(ORDINARY_RUN, { strict: true }))).toEqual([]);
  });

  it('a baseline run (KNOWN) and an interrupted run (INTERRUPTED) validate, and say so', async () => {
    const knownRun = {
      ...baseRun([{ ...MUST_FAILED, known: { baseline: 'b.yml', reason: 'r' } }, SKIPPED]),
      baseline: { file: 'b.yml', known: 1, nowPassing: [] },
    };
    const known = renderJUnit(knownRun);
    expect(await validate(known)).toEqual([]);
    expect(known).toContain('failures="0"');
    expect(known).toContain('<skipped type="MUST" message="MUST not met, known failure (baseline b.yml): Expected');
    expect(known).toContain('<property name="verdict" value="PASSED: no new failure of a MUST or PROFILE check; 1 known from the baseline"/>');
    const interrupted = renderJUnit(markInterrupted(baseRun([MUST_FAILED]), 'SIGTERM', [SKIPPED]));
    expect(await validate(interrupted)).toEqual([]);
    expect(interrupted).toContain('<skipped message="INTERRUPTED (SIGTERM): not run: the run was interrupted"/>');
    expect(interrupted).toContain(
      '<property name="verdict" value="INTERRUPTED by SIGTERM: 1 of 2 checks did not finish; of those that finished, 1 fails the run"/>',
    );
  });

  it('a run with no checks validates', async () => {
    expect(await validate(renderJUnit(baseRun([])))).toEqual([]);
  });

  it('hostile content (markup, ]]>, control characters, lone surrogates, emoji, 1 MB) validates', async () => {
    const xml = renderJUnit(HOSTILE_RUN);
    expect(await validate(xml)).toEqual([]);
    expect(await validate(renderJUnit(HOSTILE_RUN, { redact: redactSecret }))).toEqual([]);
  });

  it('is UTF-8 without any raw control character', () => {
    const xml = renderJUnit(HOSTILE_RUN);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/);
  });
});

describe('renderJUnit: attachments', () => {
  it('names each file a failure saved (a player screenshot) as [[ATTACHMENT|path]] in its system-out, and validates', async () => {
    const shot = '/tmp/reports/attachments/player.branding-theme-1.png';
    const failed = { ...MUST_FAILED, failure: { ...MUST_FAILED.failure, expected: 'x', received: 'y', replay: 'r', attachments: [shot] } };
    const xml = renderJUnit(baseRun([failed]));
    expect(await validate(xml)).toEqual([]);
    expect(await xpath(xml, 'string(//testcase/system-out)')).toContain(`[[ATTACHMENT|${shot}]]`);
  });
});

describe('renderJUnit: structure', () => {
  const xml = renderJUnit(ORDINARY_RUN);

  it('has one testsuite per area, in run order', async () => {
    expect(await xpath(xml, 'count(/testsuites/testsuite)')).toBe('4');
    const names = await Promise.all([1, 2, 3, 4].map((i) => xpath(xml, `string(/testsuites/testsuite[${i}]/@name)`)));
    expect(names).toEqual(['intapi.v2.submissions', 'intapi.invariant', 'intapi.v2.errors', 'intapi.v2.lists']);
  });

  it('has one testcase per check, named [id] title, classname the area', async () => {
    expect(await xpath(xml, 'count(//testcase)')).toBe(String(ORDINARY_RUN.checks.length));
    for (const check of ORDINARY_RUN.checks) {
      expect(await xpath(xml, `count(//testcase[@name = '[${check.id}] ${check.title}'][@classname = '${check.area}'])`)).toBe('1');
    }
  });

  it('puts target(s), profile, seed and runs on every testsuite', async () => {
    for (const [name, value] of [
      ['target.intapi', 'http://127.0.0.1:8080'],
      ['target.scim', 'http://127.0.0.1:8080/scim/v2'],
      ['profile', 'reference'],
      ['seed', '1392788'],
      ['runs', '100'],
    ]) {
      expect(await xpath(xml, `count(/testsuites/testsuite[properties/property[@name = '${name}'][@value = '${value}']])`)).toBe('4');
    }
  });

  it('gives every testcase its level and spec anchor (system-out, as junit-10.xsd has no testcase properties)', async () => {
    const out = await xpath(xml, `string(${testcase(MUST_FAILED.id)}/system-out)`);
    expect(out.split('\n').slice(0, 2)).toEqual(['[[PROPERTY|level=MUST]]', '[[PROPERTY|spec=spec#integration-api-submission-v2]]']);
    expect(await xpath(xml, "count(//testcase[not(system-out[starts-with(., '[[PROPERTY|level=')])])")).toBe('0');
  });

  it('counts per suite and overall, without the skipped attribute junit-10.xsd forbids on the root', async () => {
    expect(await xpath(xml, "string(/testsuites/testsuite[@name='intapi.v2.submissions']/@tests)")).toBe('3');
    expect(await xpath(xml, "string(/testsuites/testsuite[@name='intapi.v2.submissions']/@failures)")).toBe('1');
    expect(await xpath(xml, "string(/testsuites/testsuite[@name='intapi.v2.submissions']/@skipped)")).toBe('1');
    // SHOULD and MAY failures are advisory: skipped, not failures.
    expect(await xpath(xml, "string(/testsuites/testsuite[@name='intapi.v2.errors']/@failures)")).toBe('0');
    expect(await xpath(xml, "string(/testsuites/testsuite[@name='intapi.v2.errors']/@skipped)")).toBe('2');
    expect(await xpath(xml, 'string(/testsuites/@tests)')).toBe('8');
    expect(await xpath(xml, 'string(/testsuites/@failures)')).toBe('3');
    expect(await xpath(xml, 'count(/testsuites/@skipped)')).toBe('0');
  });

  it('writes times as plain decimals in seconds', async () => {
    expect(await xpath(xml, `string(${testcase(MUST_FAILED.id)}/@time)`)).toBe('0.812');
    expect(await xpath(xml, 'string(/testsuites/@time)')).toBe('8.412');
    expect(await xpath(renderJUnit(HOSTILE_RUN), 'string(//testcase[1]/@time)')).toBe('0');
  });
});

describe('renderJUnit: verdicts', () => {
  const xml = renderJUnit(ORDINARY_RUN);

  it('a failed MUST check is a <failure> typed MUST with a one-line expected-vs-received message', async () => {
    const failure = `${testcase(MUST_FAILED.id)}/failure`;
    expect(await xpath(xml, `string(${failure}/@type)`)).toBe('MUST');
    expect(await xpath(xml, `string(${failure}/@message)`)).toBe('Expected 422 with validations naming "title"; received 201');
  });

  it('the failure text is the whole failure block, in the house layout', async () => {
    const text = await xpath(xml, `string(${testcase(MUST_FAILED.id)}/failure)`);
    expect(text).toBe(MUST_FAILED_BLOCK);
  });

  it('an invariant check reports its violations and names the request when there is no curl', async () => {
    const text = await xpath(xml, `string(${testcase('intapi.invariant.no-5xx')}/failure)`);
    expect(text).toContain('  Received: 3 violations; first at POST /submissions in check intapi.v2.submissions.create.title-max-255');
    expect(text).toContain('  Request:    POST http://127.0.0.1:8080/submissions');
    expect(await xpath(xml, `string(${testcase('intapi.invariant.json-content-type')}/@name)`)).toBe(
      '[intapi.invariant.json-content-type] Every JSON body is served as application/json',
    );
  });

  it('a failed PROFILE check fails like a MUST', async () => {
    expect(await xpath(xml, `string(${testcase('intapi.v2.lists.default-limit')}/failure/@type)`)).toBe('PROFILE');
  });

  it('a skipped check is <skipped> with its reason', async () => {
    expect(await xpath(xml, `string(${testcase(SKIPPED.id)}/skipped/@message)`)).toBe(SKIPPED.skipReason);
    expect(await xpath(xml, `count(${testcase(SKIPPED.id)}/skipped/@type)`)).toBe('0');
    expect(await xpath(xml, 'count(//testcase[failure and skipped])')).toBe('0');
  });

  it('a failed SHOULD or MAY check is an advisory <skipped> typed with its level, block in system-out', async () => {
    for (const check of [SHOULD_FAILED, MAY_FAILED]) {
      const skipped = `${testcase(check.id)}/skipped`;
      expect(await xpath(xml, `count(${testcase(check.id)}/failure)`)).toBe('0');
      expect(await xpath(xml, `string(${skipped}/@type)`)).toBe(check.level);
      expect(await xpath(xml, `string(${skipped}/@message)`)).toMatch(new RegExp(`^${check.level} not met \\(advisory, does not fail the run\\): Expected `));
      const out = await xpath(xml, `string(${testcase(check.id)}/system-out)`);
      expect(out).toContain(`WARN  [${check.id}]  ${check.level} · ${check.spec}`);
      expect(out).toContain(`  Replay:     ${check.failure?.replay ?? ''}`);
    }
  });

  it('under --strict a failed SHOULD is a <failure> typed SHOULD; MAY stays advisory', async () => {
    const strict = renderJUnit(ORDINARY_RUN, { strict: true });
    expect(await xpath(strict, `string(${testcase(SHOULD_FAILED.id)}/failure/@type)`)).toBe('SHOULD');
    expect(await xpath(strict, `string(${testcase(SHOULD_FAILED.id)}/failure)`)).toMatch(/^FAIL {2}\[intapi\.v2\.errors\.message-names-field\]/);
    expect(await xpath(strict, `string(${testcase(MAY_FAILED.id)}/skipped/@type)`)).toBe('MAY');
    expect(await xpath(strict, 'string(/testsuites/@failures)')).toBe('4');
  });

  it('a failed check without a recorded failure still says so', async () => {
    const bare = { ...MUST_FAILED, failure: undefined };
    const text = await xpath(renderJUnit(baseRun([bare])), 'string(//failure)');
    expect(text).toContain('  Expected: (not recorded)');
  });
});

describe('renderJUnit: hostile content', () => {
  const xml = renderJUnit(HOSTILE_RUN, { redact: redactSecret });
  const hostile = "//testcase[starts-with(@name, '[hostile.check.')]";

  it('keeps markup and every ]]> intact, as text', async () => {
    const text = await xpath(xml, `string(${hostile}/failure)`);
    expect(text).toContain(`  Expected: expected ${MARKUP} \${LPC_API_KEY}`);
    expect(text).toContain(`  Reproduce:  curl -H 'x-api-key: \${LPC_API_KEY}' -d '${MARKUP}'`);
  });

  it('shows control characters and lone surrogates as \\u escapes, and keeps emoji and non-ASCII', async () => {
    const text = await xpath(xml, `string(${hostile}/failure)`);
    expect(text).toContain('\\u0000\\u0007\\u001B[31mred\\u000B\\u007F\\u009B\\uFFFE\\uD800 \\uDC00');
    expect(text).toContain('😀 naïve 日本語');
  });

  it('cuts a 1 MB body to a preview and says by how much, how much in all, and where the whole is', async () => {
    const text = await xpath(xml, `string(${hostile}/failure)`);
    const received = /\n {2}Received: (.*)\n/.exec(text)?.[1] ?? '';
    const redactedLength = HUGE_CHARS - SECRET.length + '${LPC_API_KEY}'.length;
    expect(received.length).toBeLessThan(PREVIEW_CHARS + 100);
    expect(received).toMatch(
      new RegExp(`…\\(${redactedLength - PREVIEW_CHARS} more chars, ${redactedLength} in all; in full: the JSON report \\(--json\\)\\)$`),
    );
    expect(xml.length).toBeLessThan(80_000);
  });

  it('never splits an emoji when truncating', async () => {
    const emojiBody = '😀'.repeat(5000); // 10000 UTF-16 units: the cut falls inside a pair
    const run = baseRun([{ ...MUST_FAILED, failure: { expected: 'x', received: `a${emojiBody}`, replay: 'r' } }]);
    const out = renderJUnit(run);
    expect(await validate(out)).toEqual([]);
    expect(out).toMatch(/😀…\(\d+ more chars, 5001 in all; /);
  });
});

describe('renderJUnit: secrets', () => {
  it('with redact, the secret value appears nowhere: names, areas, properties, messages, bodies, reasons', () => {
    const xml = renderJUnit(HOSTILE_RUN, { redact: redactSecret });
    expect(xml).not.toContain(SECRET);
    // Redaction runs before truncation: the secret straddling the preview's bound leaves no prefix.
    expect(xml).not.toContain(SECRET.slice(0, 7));
    expect(xml).toContain('${LPC_API_KEY}');
  });

  it('redact is applied to every string, including suite names and properties', async () => {
    const xml = renderJUnit(HOSTILE_RUN, { redact: redactSecret });
    expect(await xpath(xml, 'string(/testsuites/testsuite[1]/@name)')).toBe('hostile.${LPC_API_KEY}');
    expect(await xpath(xml, "string(//property[@name='target.intapi']/@value)")).toBe('http://user:${LPC_API_KEY}@h/<&">');
  });

  it('without redact, text passes through unchanged (the run model is already redacted)', () => {
    expect(renderJUnit(HOSTILE_RUN)).toContain(SECRET);
  });
});

describe('writeJUnit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-junit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the rendered report, creating the directory', () => {
    const file = join(dir, 'nested', 'junit.xml');
    writeJUnit(ORDINARY_RUN, file, { strict: true });
    expect(readFileSync(file, 'utf8')).toBe(renderJUnit(ORDINARY_RUN, { strict: true }));
  });

  it('never writes colours', () => {
    expect(renderJUnit(ORDINARY_RUN)).not.toContain('\u001b[');
  });
});
