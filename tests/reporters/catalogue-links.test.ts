// Every report names where a failed check is defined and links to its catalogue entry
// (docs/checks.md of the package that ran): the console block, JUnit (properties), Markdown and HTML.
import { describe, expect, test } from 'vitest';
import { formatSummary } from '../../reporters/console.js';
import { renderHtml } from '../../reporters/html.js';
import { renderJUnit } from '../../reporters/junit.js';
import { renderMarkdown } from '../../reporters/markdown.js';
import { fileLink } from '../../src/runner/base/model.js';
import { filesBase } from '../../src/util/repository.js';
import { baseRun, MUST_FAILED } from './run-results.js';

const SOURCE = 'suites/intapi/submissions.check.ts:42';
const RUN = baseRun([{ ...MUST_FAILED, source: SOURCE }]);
const ENTRY = 'docs/checks.md#intapi-v2-submissions-create-title-max-255';
const LINK = 'suites/intapi/submissions.check.ts#L42';

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
    // The package names no repository: the links are paths from the package root.
    expect(renderMarkdown(RUN)).toContain(`- Defined: [\`${SOURCE}\`](${LINK}) ([catalogue](${ENTRY}))`);
    expect(renderHtml(RUN)).toContain(`<a href="${LINK}"><code>${SOURCE}</code></a> (<a href="${ENTRY}">catalogue</a>)`);
  });

  test('a package that names its repository links to the version that ran', () => {
    const links = filesBase({ version: '1.2.3', repository: { url: 'git+https://github.com/example/lp-conformance.git' } });
    expect(links).toBe('https://github.com/example/lp-conformance/blob/v1.2.3/');
    expect(filesBase({ version: '1.2.3', repository: 'github:example/lp-conformance' })).toBe(links);
    expect(filesBase({ version: '1.2.3' })).toBeUndefined();
    expect(fileLink(SOURCE, undefined, '../')).toBe(`../${LINK}`);
    const versioned = `${links}suites/intapi/submissions.check.ts#L42`;
    expect(renderMarkdown(RUN, { links })).toContain(`- Defined: [\`${SOURCE}\`](${versioned}) ([catalogue](${links}${ENTRY}))`);
    expect(renderHtml(RUN, { links })).toContain(`<a href="${versioned}"><code>${SOURCE}</code></a>`);
    expect(renderJUnit(RUN, { links })).toContain(`[[PROPERTY|catalogue=${links}${ENTRY}]]`);
  });

  test('a check without a known source shows no Defined line', () => {
    expect(renderMarkdown(baseRun([MUST_FAILED]))).not.toContain('Defined');
  });
});
