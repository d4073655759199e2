// Spec anchors of checks (`spec#<slug>`, `public-facts#<slug>`, `rfc7643#section-<n>`,
// `rfc7644#section-<n>`, `rfc9110#section-<n>`, and the tool's own `lpc#harness`) and what they
// resolve against: indexes shipped in fixtures/ (the specification documents' heading slugs, the
// RFCs' section numbers), so that a clone alone resolves every anchor.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import { ROOT } from './cli.js';

/** Where the specification documents are, when they are: `LPC_SPEC_DIR`, else ../shared/spec beside
 * the clone. Only the comparison of the shipped anchor index with the documents reads them. */
export const SPEC_DIR = process.env.LPC_SPEC_DIR ? resolve(process.env.LPC_SPEC_DIR) : resolve(ROOT, '../shared/spec');

/** The shipped indexes of the documents' anchors (fixtures/spec/<document>.anchors.txt). */
export const ANCHOR_INDEX_DIR = join(ROOT, 'fixtures/spec');

/** The specification documents that anchors name, by the anchor's prefix (`spec#…`). */
export const SPEC_DOCUMENTS = { spec: 'learning-platform-apis', 'public-facts': 'public-facts' } as const;

/** The tool's own anchors: not in any document, allowed by name. */
export const TOOL_ANCHORS: ReadonlySet<string> = new Set(['lpc#harness', 'lpc#compare']);

/** The lines of a Markdown text outside its fenced code blocks (their text is an example). */
function* outsideFences(markdown: string): Generator<string> {
  let fence: string | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f?.[1]) {
      if (fence === undefined) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence === undefined) yield line;
  }
}

/** What a link's `#fragment` may name in a Markdown text: its headings' slugs, and the explicit HTML
 * anchors (`<a id="…"></a>`, as the generated tables put in their rows) outside code fences. */
export function linkTargets(markdown: string): Set<string> {
  const targets = headingSlugs(markdown);
  for (const line of outsideFences(markdown)) {
    for (const m of line.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) if (m[1]) targets.add(m[1]);
  }
  return targets;
}

/** GitHub-style slugs of every heading of a Markdown text, in order, duplicates numbered (`-1`, `-2`). */
export function headingSlugs(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const slugs = new Set<string>();
  for (const line of outsideFences(markdown)) {
    const h = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (h?.[1] !== undefined) slugs.add(slugger.slug(h[1]));
  }
  return slugs;
}

/** The shipped index of a document's anchors: a header, then the slug of every heading, one a line. */
export function anchorIndexText(document: string, markdown: string): string {
  return [
    `# Anchors of ${document}.md: the GitHub-style slug of every heading, in order, one per line`,
    '# (github-slugger, as tests/support/anchors.ts headingSlugs computes them). Anchors resolve against',
    '# this file; tests/catalogue/anchors.test.ts compares it with the document when ../shared/spec (or $LPC_SPEC_DIR)',
    '# is there. After the document changes: LPC_SPEC_DIR=<folder> npx vitest run tests/catalogue/anchors.test.ts -u',
    ...headingSlugs(markdown),
    '',
  ].join('\n');
}

/** The sentences under every heading of a Markdown text, by the heading's slug: each sentence of its
 * paragraphs and list items, and each row of its tables as its cells joined by ` | ` (what explain
 * quotes for a check's anchor). Fenced code is left out. */
export function headingSentences(markdown: string): Record<string, string[]> {
  const slugger = new GithubSlugger();
  const out: Record<string, string[]> = {};
  let current: string[] | undefined;
  // A paragraph or list item, its lines joined, until a blank line, a new item, a table or a heading.
  let paragraph: string[] = [];
  const flush = (): void => {
    const text = paragraph.join(' ').trim();
    paragraph = [];
    if (current === undefined || text === '') return;
    // A source's confidence mark (`(H)`) ends a fact of public-facts.md: not a sentence of its own.
    current.push(...text.split(/(?<=[.!?])\s+(?=[A-Z`(])/).filter((s) => s.trim() !== '' && !/^\([A-Z]\)$/.test(s.trim())));
  };
  for (const line of outsideFences(markdown)) {
    const h = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (h?.[1] !== undefined) {
      flush();
      current = out[slugger.slug(h[1])] = [];
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (current === undefined) continue;
    if (/^\s*\|/.test(line)) {
      flush();
      if (/^\s*\|[\s|:-]+\|\s*$/.test(line)) continue;
      current.push(
        line
          .trim()
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((c) => c.trim())
          .join(' | '),
      );
      continue;
    }
    const item = /^\s*(?:\d+\.|[-*])\s+/.exec(line);
    if (item) flush();
    paragraph.push(line.slice(item?.[0].length ?? 0).trim());
  }
  flush();
  return out;
}

/** The shipped index of a document's sentences (fixtures/spec/<document>.sentences.json). */
export function sentenceIndexText(document: string, markdown: string): string {
  const index = {
    note: `The sentences under each heading of ${document}.md, by its slug (tests/support/anchors.ts headingSentences); tests/catalogue/anchors.test.ts compares it with the document, and -u with LPC_SPEC_DIR refreshes it.`,
    sentences: headingSentences(markdown),
  };
  return `${JSON.stringify(index, null, 1)}\n`;
}

/** Lines of a fixture that are not blank and not `#` comments. */
function factLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** Section numbers of an RFC fixture (`<number> <title>` per line, `#` comments). */
export function rfcSections(text: string): Set<string> {
  const sections = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^(\d+(?:\.\d+)*)\s+\S/.exec(line);
    if (m?.[1]) sections.add(m[1]);
  }
  return sections;
}

export interface AnchorTargets {
  spec: ReadonlySet<string>;
  publicFacts: ReadonlySet<string>;
  rfc: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Reads the shipped indexes (fixtures/spec, fixtures/rfc): nothing outside the repository. */
export function loadAnchorTargets(indexDir: string = ANCHOR_INDEX_DIR): AnchorTargets {
  const index = (document: string): Set<string> => {
    const path = join(indexDir, `${document}.anchors.txt`);
    if (!existsSync(path)) throw new Error(`${path} is missing: the shipped index of ${document}.md's anchors`);
    return new Set(factLines(readFileSync(path, 'utf8')).map((line) => line.trim()));
  };
  const rfc = new Map<string, Set<string>>();
  for (const n of ['7643', '7644', '9110']) rfc.set(`rfc${n}`, rfcSections(readFileSync(join(ROOT, `fixtures/rfc/rfc${n}-sections.txt`), 'utf8')));
  return { spec: index(SPEC_DOCUMENTS.spec), publicFacts: index(SPEC_DOCUMENTS['public-facts']), rfc };
}

/** Whether an anchor names something that exists. */
export function resolves(anchor: string, targets: AnchorTargets): boolean {
  if (TOOL_ANCHORS.has(anchor)) return true;
  const m = /^([a-z0-9-]+)#(.+)$/.exec(anchor);
  if (!m?.[1] || !m[2]) return false;
  const [, doc, fragment] = m;
  if (doc === 'spec') return targets.spec.has(fragment);
  if (doc === 'public-facts') return targets.publicFacts.has(fragment);
  const sections = targets.rfc.get(doc);
  const section = /^section-(\d+(?:\.\d+)*)$/.exec(fragment)?.[1];
  return sections !== undefined && section !== undefined && sections.has(section);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(ROOT, dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(relative(ROOT, path));
    return /\.(ts|js|mjs)$/.test(name) ? [relative(ROOT, path)] : [];
  });
}

const ANCHOR_LITERAL = /(['"`])((?:spec|public-facts|lpc|rfc\d+)#[^'"`\s]*)\1/g;

/** Every anchor written as a string literal (comments stripped) in the files under the directories. */
export function anchorLiterals(dirs: readonly string[]): { file: string; line: number; anchor: string }[] {
  return dirs.flatMap(sourceFiles).flatMap((file) => {
    // Blank out comments but keep line breaks, so that line numbers stay right.
    const text = readFileSync(join(ROOT, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
      .replace(/^(\s*)\/\/.*$/gm, '$1');
    return [...text.matchAll(ANCHOR_LITERAL)].map((m) => ({
      file,
      line: text.slice(0, m.index).split('\n').length,
      anchor: m[2] ?? '',
    }));
  });
}
