// The docs hold: every relative link of the Markdown files resolves (the file, and the heading when it
// names one); and neither the docs nor the code comments carry tracker numbers or dated measurements, which
// belong in commit messages and in what `npm run bench` prints. (That the pages made from the code are
// as the code gives them is tests/catalogue/docs.test.ts's.)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { linkTargets } from '../support/anchors.js';
import { ROOT } from '../support/cli.js';

function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(join(ROOT, path)).isDirectory() ? walk(path, keep) : keep(name) ? [path] : [];
  });
}

/** The project's Markdown: the top-level pages and docs/. */
const MARKDOWN = [...['README.md', 'DEVELOPERS.md', 'ARCHITECTURE.md'], ...walk('docs', (n) => n.endsWith('.md'))];
/** The code whose comments are read. */
const CODE_DIRS = ['src', 'suites', 'reference-impl', 'reporters', 'tests', 'bench', 'build'];
const CODE = [
  ...CODE_DIRS.flatMap((d) => walk(d, (n) => /\.(ts|js|mjs|cjs)$/.test(n))),
  ...['vitest.config.ts', 'eslint.config.js', '.dependency-cruiser.cjs'],
].filter((file) => file !== 'tests/repo/docs.test.ts'); // this file names the patterns

/** Markdown without its fenced code blocks (their text is an example, not a link or a claim). */
function prose(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f?.[1]) {
      if (fence === undefined) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      return '';
    }
    return fence === undefined ? line : '';
  });
}

/** The comment text of a line of code, if it has a comment. */
const commentOf = (line: string): string | undefined => (/^\s*(?:\/\/|\/\*|\*)(.*)$/.exec(line) ?? /\s\/\/\s(.*)$/.exec(line))?.[1];

/** A tracker number: "issue 8", "issues 17 and 19", "#21". */
const TRACKER = /\b(?:issues?|tickets?)\s*#?\d+|(?<![\w&/])#\d{1,4}\b/i;
/** A dated note ("on 2026-11-27", "(2026-11-26)") or a measurement of time or CPU ("0.6 s of CPU",
 * "187 s against 284 s", "measured: 8% less"). */
const DATED = /\b20\d\d-\d\d-\d\d\b/;
const MEASURED =
  /\d+(?:\.\d+)?\s?(?:ms|s)\b[^.;]{0,20}\bof CPU\b|\b\d+(?:\.\d+)?\s?(?:ms|s|min)\s+against\s+\d|\bmeasured\b[^.;]{0,40}\d+(?:\.\d+)?\s?(?:ms|s|min|%)(?!\w)/i;

function findings(files: readonly string[], lines: (text: string) => (string | undefined)[], patterns: readonly RegExp[]): string[] {
  return files.flatMap((file) =>
    lines(readFileSync(join(ROOT, file), 'utf8')).flatMap((line, i) =>
      line !== undefined && patterns.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
    ),
  );
}

describe('the links of the docs', () => {
  test('every relative link resolves, to a file and to a heading of it', () => {
    expect(MARKDOWN.length).toBeGreaterThan(10);
    const broken: string[] = [];
    // Each page's targets read once: the generated catalogue pages are linked to hundreds of times.
    const targetsOf = new Map<string, Set<string>>();
    const targets = (file: string): Set<string> => {
      let found = targetsOf.get(file);
      if (!found) targetsOf.set(file, (found = linkTargets(readFileSync(file, 'utf8'))));
      return found;
    };
    for (const file of MARKDOWN) {
      const text = prose(readFileSync(join(ROOT, file), 'utf8')).join('\n');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const to = path ? resolve(ROOT, dirname(file), decodeURIComponent(path)) : join(ROOT, file);
        if (!existsSync(to)) {
          broken.push(`${file}: ${target} (no ${relative(ROOT, to)})`);
          continue;
        }
        if (anchor && to.endsWith('.md') && !targets(to).has(anchor)) {
          broken.push(`${file}: ${target} (no heading or anchor #${anchor} in ${relative(ROOT, to)})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('what the docs and comments say is true now, not when or for which issue', () => {
  test('no tracker number and no dated measurement in the docs', () => {
    expect(findings(MARKDOWN, (text) => prose(text), [TRACKER, DATED, MEASURED])).toEqual([]);
  });

  test('no tracker number and no dated or CPU-time measurement in a code comment', () => {
    expect(CODE.length).toBeGreaterThan(200);
    expect(findings(CODE, (text) => text.split('\n').map(commentOf), [TRACKER, DATED, MEASURED])).toEqual([]);
  });

  test('the patterns catch what they are for', () => {
    for (const said of ['(issue 8)', 'issues 17 and 19', 'see #21', 'on 2026-11-27', '0.6 s of CPU', '187 s against 284 s', 'measured: 8% less'])
      expect(
        [TRACKER, DATED, MEASURED].some((p) => p.test(said)),
        said,
      ).toBe(true);
    for (const said of ['rfc7644#section-3.4.2.4', 'colour #24292f', 'a 20 ms delay', 'RFC 9110 §4.1'])
      expect(
        [TRACKER, DATED, MEASURED].some((p) => p.test(said)),
        said,
      ).toBe(false);
  });
});
