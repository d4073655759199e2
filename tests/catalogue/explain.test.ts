// `lp-conformance explain` and `serve --list-faults [PATTERN]`: from an id to its rule, its line and
// its proof, and from a fault to what it breaks.
import { describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.js';

describe('lp-conformance explain', () => {
  test('an id: rule, anchor with its heading, defining line, and the faults that prove it can fail', async () => {
    const { code, stdout } = await runCli(['explain', 'intapi.v2.submissions.create.title.above-max']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^intapi\.v2\.submissions\.create\.title\.above-max {2}MUST$/m);
    expect(stdout).toContain('rule:    spec#integration-api-submission-v2 (learning-platform-apis.md, heading');
    expect(stdout).toMatch(/defined: suites\/_harness\/intapi\/bounds\.ts:\d+/);
    expect(stdout).toContain('intapi.skip-rule:submissions.create.title.maxLength  Disables the maxLength rule of title');
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
