// The Markdown summary (--markdown, $GITHUB_STEP_SUMMARY): verdict, counts per area, every failure
// with what a reader needs, no secret, and nothing from the target that could inject Markdown. (The
// command line's --markdown and job summary: tests/cli/reports.test.ts.)
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../reporters/markdown.js';
import type { CheckResult } from '../../src/runner/base/model.js';
import { baseRun, MUST_FAILED, PASSED, redactSecret, SECRET, SHOULD_FAILED, SKIPPED } from './run-results.js';

describe('renderMarkdown', () => {
  it('says the verdict, counts per area and each failure with expected, received, curl and replay', () => {
    const md = renderMarkdown(baseRun([MUST_FAILED, PASSED, SKIPPED, SHOULD_FAILED]), { redact: redactSecret });
    expect(md).toMatch(/^## lp-conformance: ❌ FAILED: 1 check fails the run \(1 MUST\); 1 advisory \(1 SHOULD\)$/m);
    expect(md).toContain('4 checks, 1 passed, 1 failed, 1 advisory, 1 skipped in 8.4 s');
    expect(md).toContain('| intapi.v2.submissions | 1 | 1 | 0 | 0 | 1 |');
    expect(md).toContain(`#### FAIL \`${MUST_FAILED.id}\``);
    expect(md).toContain(`#### WARN \`${SHOULD_FAILED.id}\``);
    expect(md).toContain(`- Replay: \`${MUST_FAILED.failure?.replay}\``);
    expect(md).toMatch(/- Expected: `.+`/);
    expect(md).not.toContain(SECRET);
  });

  it('keeps a hostile body inside its code span: backticks, pipes and HTML stay text', () => {
    const hostile: CheckResult = { ...MUST_FAILED, failure: { expected: 'x', received: '``` <script>alert(1)</script> | ## heading', replay: 'r' } };
    const md = renderMarkdown(baseRun([hostile]));
    const line = md.split('\n').find((l) => l.startsWith('- Received:')) ?? '';
    // CommonMark: a span fenced by more backticks than any run inside, padded where the text starts with one.
    expect(line).toBe('- Received: ```` ``` <script>alert(1)</script> | ## heading ````');
  });

  it('puts the failures first, the counts per area after them', () => {
    const md = renderMarkdown(baseRun([MUST_FAILED, PASSED, SKIPPED, SHOULD_FAILED]));
    const failures = md.indexOf('### Failures');
    expect(failures).toBeGreaterThan(0);
    expect(md.indexOf('| area | passed |')).toBeGreaterThan(md.lastIndexOf('- Replay:'));
    expect(md.indexOf('### Counts per area')).toBeGreaterThan(failures);
  });

  it('passed: a green verdict and no failure section', () => {
    const md = renderMarkdown(baseRun([PASSED]));
    expect(md).toMatch(/^## lp-conformance: ✅ PASSED: no MUST or PROFILE check failed$/m);
    expect(md).not.toContain('### Failures');
  });
});
