/**
 * Where a check is defined, as a reader of the repository finds it: `path:line` of the line that
 * holds its id, or of the table row that generates it. The suites' worker records the call sites of
 * each registration in the built bundle (suites/_harness/requirement.ts); they are mapped back to the
 * TypeScript sources through the bundle's source map, and the line chosen is the one whose string
 * or template literal spells the id (a `${…}` part standing for any text), looked for near each call
 * site, innermost first, then in the suite file that started the registration (a table of rows
 * defined apart from the call). An invariant is a row of its family's table in src/families/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../util/package-root.js';

interface SourceText {
  /** Path from the package root, with forward slashes. */
  path: string;
  lines: readonly string[];
}

interface Mapped {
  source: SourceText;
  /** 0-based. */
  line: number;
}

interface LoadedMap {
  map: SourceMap;
  sources: Map<string, SourceText>;
}

const maps = new Map<string, LoadedMap | undefined>();

const posix = (path: string): string => path.split(sep).join('/');

function loadMap(file: string): LoadedMap | undefined {
  if (maps.has(file)) return maps.get(file);
  let loaded: LoadedMap | undefined;
  const mapFile = `${file}.map`;
  if (existsSync(mapFile)) {
    const payload = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
    const sources = new Map<string, SourceText>();
    const root = packageRoot();
    payload.sources.forEach((name, i) => {
      const absolute = resolve(dirname(file), name);
      const content = payload.sourcesContent?.[i] ?? (existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined);
      if (content !== undefined && content !== null) sources.set(name, { path: posix(relative(root, absolute)), lines: content.split('\n') });
    });
    loaded = { map: new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]), sources };
  }
  maps.set(file, loaded);
  return loaded;
}

const textCache = new Map<string, SourceText | undefined>();

/** A source file of the package read from disk (a frame of code that runs unbundled). */
function readSource(absolute: string): SourceText | undefined {
  if (!textCache.has(absolute)) {
    textCache.set(
      absolute,
      existsSync(absolute) ? { path: posix(relative(packageRoot(), absolute)), lines: readFileSync(absolute, 'utf8').split('\n') } : undefined,
    );
  }
  return textCache.get(absolute);
}

function mapFrame(frame: string): Mapped | undefined {
  const m = /^(.*):(\d+):(\d+)$/.exec(frame);
  if (!m) return undefined;
  const [, location = '', line = '0', column = '0'] = m;
  const file = location.startsWith('file:') ? fileURLToPath(location) : location;
  if (file.endsWith('.ts')) {
    const source = readSource(file);
    return source ? { source, line: Number(line) - 1 } : undefined;
  }
  const loaded = loadMap(file);
  if (!loaded) return undefined;
  const entry = loaded.map.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number };
  const source = entry.originalSource === undefined ? undefined : loaded.sources.get(entry.originalSource);
  return source && entry.originalLine !== undefined ? { source, line: entry.originalLine } : undefined;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Literal characters (dots aside) a template or a suffix must spell to name a check: `${prefix}.${rule}` names none. */
const MIN_LITERAL = 6;

/** What the lines of a file spell: each string literal with its lines, each template literal as a pattern. */
interface SpellingIndex {
  strings: Map<string, number[]>;
  templates: { line: number; pattern: RegExp; literal: number }[];
}

const indexes = new WeakMap<SourceText, SpellingIndex>();

function indexOf(source: SourceText): SpellingIndex {
  let index = indexes.get(source);
  if (index) return index;
  index = { strings: new Map(), templates: [] };
  const { strings, templates } = index;
  source.lines.forEach((text, line) => {
    for (const [, single, double, template] of text.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"|`((?:[^`\\]|\\.)*)`/g)) {
      const plain = single ?? double ?? (template !== undefined && !template.includes('${') ? template : undefined);
      if (plain !== undefined) strings.set(plain, [...(strings.get(plain) ?? []), line]);
      else if (template !== undefined) {
        const parts = template.split(/\$\{[^}]*\}/);
        const literal = parts.join('').replace(/\./g, '').length;
        if (literal >= MIN_LITERAL) templates.push({ line, pattern: new RegExp(`(?:^|\\.)${parts.map(escape).join('.+')}$`), literal });
      }
    }
  });
  indexes.set(source, index);
  return index;
}

/** The lines of `source` that spell `id`, each with how well: Infinity for the id as a string; the
 * literal characters of a template that matches it (each `${…}` any text), or of a string that is
 * its last segments (`'envelope.returned-items'`, the row of a table whose id prefix is given apart). */
function spellings(source: SourceText, id: string): Map<number, number> {
  const { strings, templates } = indexOf(source);
  const found = new Map<number, number>();
  const note = (line: number, score: number): void => void found.set(line, Math.max(found.get(line) ?? 0, score));
  for (const line of strings.get(id) ?? []) note(line, Infinity);
  const segments = id.split('.');
  for (let i = 1; i < segments.length; i++) {
    const suffix = segments.slice(i).join('.');
    if (suffix.replace(/\./g, '').length < MIN_LITERAL) break;
    for (const line of strings.get(suffix) ?? []) note(line, suffix.length);
  }
  for (const { line, pattern, literal } of templates) if (pattern.test(id)) note(line, literal);
  return found;
}

/** How well a line of code spells `id` (0: not at all); see spellings(). */
export function spells(line: string, id: string): number {
  return spellings({ path: '', lines: [line] }, id).get(0) ?? 0;
}

const HARNESS_ENTRY = 'suites/_harness/requirement.ts';

/** The defining line of a check from the call sites that registered it (innermost first): of the
 * lines of the call sites' files that spell the id, the one that spells most of it; among equals,
 * the innermost call site's, the first at or after the call. */
export function sourceOfFrames(id: string, frames: readonly string[]): string | undefined {
  // The files do not change within a process: a matrix of many targets (the negative controls' is of
  // hundreds) asks the same check's line once per target.
  const key = `${id}\n${frames.join('\n')}`;
  if (!frameSources.has(key)) frameSources.set(key, definingLine(id, frames));
  return frameSources.get(key);
}

const frameSources = new Map<string, string | undefined>();

function definingLine(id: string, frames: readonly string[]): string | undefined {
  // The suites' files, and the check files of a family from a folder of its own (build/bundle.mjs).
  const suiteFile = (path: string): boolean => (path.startsWith('suites/') || path.endsWith('.check.ts')) && path !== HARNESS_ENTRY;
  const mapped = frames.flatMap((f) => mapFrame(f) ?? []).filter((m) => suiteFile(m.source.path));
  let best: { at: string; rank: readonly number[] } | undefined;
  const better = (a: readonly number[], b: readonly number[]): boolean => {
    for (let i = 0; i < a.length; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
    return false;
  };
  mapped.forEach(({ source, line }, depth) => {
    for (const [l, score] of spellings(source, id)) {
      const rank = [-score, depth, l >= line ? 0 : 1, Math.abs(l - line)];
      if (best === undefined || better(rank, best.rank)) best = { at: `${source.path}:${l + 1}`, rank };
    }
  });
  if (best) return best.at;
  const first = mapped[0];
  return first ? `${first.source.path}:${first.line + 1}` : undefined;
}

/** The line of src/families/<family>/ that holds an invariant's id as a string. */
export function sourceOfInvariant(id: string): string | undefined {
  const family = id.split('.')[0] ?? '';
  const dir = join(packageRoot(), 'src', 'families', family);
  if (!existsSync(dir)) return undefined;
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.ts'))
    .sort()) {
    const source = readSource(join(dir, name));
    const line = source ? [...spellings(source, id)].find(([, score]) => score === Infinity)?.[0] : undefined;
    if (source && line !== undefined) return `${source.path}:${line + 1}`;
  }
  return undefined;
}
