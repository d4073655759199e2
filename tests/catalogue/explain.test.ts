// `lp-conformance explain` and `serve --list-faults [PATTERN]`: from an id to its rule, its line and
// its proof, and from a fault to what it breaks.
import { describe, expect, test } from 'vitest';
import { describeChecks } from '../../src/runner/run.js';
import { runCli } from '../support/cli.js';

describe('lp-conformance explain', () => {
  test('an id: rule, anchor with its heading, binding sentence, what it sends and expects, defining line, faults', async () => {
    const { code, stdout } = await runCli(['explain', 'intapi.v2.submissions.create.title.above-max']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^intapi\.v2\.submissions\.create\.title\.above-max {2}MUST$/m);
    expect(stdout).toContain('rule:    spec#integration-api-submission-v2 (learning-platform-apis.md, heading');
    // The table of field bounds shares its sentence with every check it generates.
    expect(stdout).toContain('binds:   spec, Errors: "When the request or list parameters fail validation, the response is 422');
    expect(stdout).toContain('sends:   POST /submissions (API version 2): create submission with title of 256 characters');
    expect(stdout).toContain('expects: answers 422 naming title');
    expect(stdout).toContain('profile: operations.submissions.create');
    expect(stdout).toMatch(/defined: suites\/_harness\/intapi\/bounds\.ts:\d+/);
    expect(stdout).toContain('intapi.skip-rule:submissions.create.title.maxLength  Disables the maxLength rule of title');
  });

  test('a check without a binding sentence quotes the sentences of the specification under its anchor', async () => {
    const { code, stdout } = await runCli(['explain', 'intapi.auth.missing-key-401.submissions']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/says: {4}.*\n {11}A missing or invalid `x-api-key` gets \*\*401\*\*\./);
    expect(stdout).toContain('sends:   A request without x-api-key (list submissions)');
  });

  test('a SCIM check names the variants of the reference server it passes on', async () => {
    const { stdout } = await runCli(['explain', 'scim.users.put-unknown-404']);
    expect(stdout).toContain('binds:   RFC 7644 §3.12 Table 8: 404');
    expect(stdout).toContain('sends:   PUT /Users/{id} of an id never issued');
    expect(stdout).toMatch(/passes on: the bundled reference server and its variants .*scim\.rfc-letter/);
  });

  test('a glob selects as --only does, and --json gives the entries to tools; an RFC anchor names its section', async () => {
    const { code, stdout } = await runCli(['explain', '--json', 'scim.filter.boolean-*']);
    expect(code).toBe(0);
    const entries = JSON.parse(stdout) as { id: string; source: string; faults: string[]; anchorTitle: string }[];
    // Every check the glob matches, in catalogue order, and nothing else.
    expect(entries.map((e) => e.id)).toEqual(['scim.filter.boolean-ordering-rejected', 'scim.filter.boolean-substring-rejected']);
    const ordering = entries.find((e) => e.id === 'scim.filter.boolean-ordering-rejected');
    expect(ordering?.faults).toContain('scim.filter-boolean-ordering-accepted');
    expect(ordering?.anchorTitle).toMatch(/^RFC 7644, .*section 3\.4\.2\.2 Filtering$/);
  });

  test('a pattern that selects nothing is a set-up mistake naming the closest ids', async () => {
    const { code, stdout, stderr } = await runCli(['explain', 'intapi.v2.submision.create.title.above-max']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/'intapi\.v2\.submision\.create\.title\.above-max' selects no check; closest: intapi\.v2\.submissions\.create\.title\.above-max/);
  });
});

describe('the binding sentences', () => {
  // A MUST failure shows the sentence the server broke: every MUST check of the families whose levels
  // were read for whom they bind (docs/decisions/<family>/levels.md) has one, its own or its table's.
  test('every MUST check of SCIM and of the Integration API names the sentence that binds the server', async () => {
    const checks = await describeChecks();
    const must = checks.filter((c) => c.level === 'MUST' && /^(scim|intapi)\./.test(c.id));
    expect(must.length).toBeGreaterThan(400);
    expect(must.filter((c) => (c.about?.binds ?? '').length < 20).map((c) => c.id)).toEqual([]);
    // Each quotes a section: the RFC's (`RFC 7644 §3.12`) or the specification's heading (`spec, Errors`).
    expect(must.filter((c) => !/^(RFC \d+ §[\d.]+|spec, |public-facts, )/.test(c.about?.binds ?? '')).map((c) => c.id)).toEqual([]);
    // Only a MUST check has one.
    expect(checks.filter((c) => c.level !== 'MUST' && c.about?.binds !== undefined).map((c) => c.id)).toEqual([]);
  });
});

describe('what explain says of every check', () => {
  test('every check quotes a sentence, and says what it sends where its id or title names an operation', async () => {
    const { code, stdout } = await runCli(['explain', '--json', '*']);
    expect(code).toBe(0);
    const entries = JSON.parse(stdout) as { id: string; quote: string[]; sends?: string; expects: string; source?: string }[];
    expect(entries.length).toBeGreaterThan(800);
    expect(entries.filter((e) => e.quote.length === 0 || e.quote.some((q) => q.trim() === '')).map((e) => e.id)).toEqual([]);
    expect(entries.filter((e) => e.expects.trim() === '').map((e) => e.id)).toEqual([]);
    // Most checks name their request: the table-generated ones all do.
    expect(entries.filter((e) => e.sends !== undefined).length / entries.length).toBeGreaterThan(0.85);
    expect(
      entries.filter((e) => /\.(above-max|below-min|wrong-type|required|status-200|unknown-id-404)$/.test(e.id) && e.sends === undefined).map((e) => e.id),
    ).toEqual([]);
  });
});

describe('serve --list-faults', () => {
  test('a pattern selects faults; each line names what it breaks and the checks it fails', async () => {
    const { code, stdout } = await runCli(['serve', '--list-faults', 'intapi.accept-*']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(['intapi.accept-missing-api-key', 'intapi.accept-wrong-api-key', 'intapi.accept-wrong-password']);
    expect(lines[0]).toMatch(
      /^intapi\.accept-missing-api-key {2}A request without x-api-key is served instead of answering 401\. {2}\[fails: .*intapi\.auth\.missing-key-401\./,
    );
  });

  test('a pattern that selects no fault exits 2', async () => {
    const { code, stderr } = await runCli(['serve', '--list-faults', 'nope.*']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/'nope\.\*' selects no fault; closest: /);
  });
});
