// Every report names where a failed check is defined and links to its catalogue entry
// (docs/checks.md of the package that ran): the console block, JUnit (properties), Markdown and HTML.
import { describe, expect, test } from 'vitest';
import { formatSummary } from '../../reporters/console.js';
import { renderHtml } from '../../reporters/html.js';
import { renderJUnit } from '../../reporters/junit.js';
import { renderMarkdown } from '../../reporters/markdown.js';
import { baseRun, MUST_FAILED } from './run-results.js';

const SOURCE = 'suites/intapi/submissions.check.ts:42';
const RUN = baseRun([{ ...MUST_FAILED, source: SOURCE }]);
const ENTRY = 'docs/checks.md#intapi-v2-submissions-create-title-max-255';

describe('a failed check names its source and its catalogue entry', () => {
  test('console: a Defined line under the title', () => {
    const text = formatSummary(RUN, { color: false });
    expect(text).toContain(`  Defined:  ${SOURCE} (${ENTRY})`);
  });

  test('JUnit: source and catalogue properties', () => {
    const xml = renderJUnit(RUN);
    expect(xml).toContain(`[[PROPERTY|source=${SOURCE}]]`);
    expect(xml).toContain(`[[PROPERTY|catalogue=${ENTRY}]]`);
  });

  test('Markdown and HTML: the line, and a link to the entry', () => {
    expect(renderMarkdown(RUN)).toContain(`- Defined: \`${SOURCE}\` ([catalogue](${ENTRY}))`);
    expect(renderHtml(RUN)).toContain(`<code>${SOURCE}</code> (<a href="${ENTRY}">catalogue</a>)`);
  });

  test('a check without a known source shows no Defined line', () => {
    expect(renderMarkdown(baseRun([MUST_FAILED]))).not.toContain('Defined');
  });
});
