/**
 * `lp-conformance explain PATTERN…`: for each check the patterns select (as --only: an id, a prefix
 * or a glob), its rule (id, level, title, anchor and the heading or section the anchor names, from
 * the shipped indexes), the sentence it enforces (its binding sentence, or the sentences of the
 * specification under its anchor), what it sends and expects in words, the profile fields that
 * change it, where it is defined, the faults of the reference server that prove it can fail and the
 * variants it passes on. `--json` for tools. A pattern that selects nothing is a set-up mistake
 * (exit 2) that names the closest ids.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckAbout, DescribedCheck } from '../runner/base/model.js';
import { idMatcher } from '../runner/select.js';
import { packageRoot } from '../util/package-root.js';
import { packageFileLink } from '../util/repository.js';
import { EXPLAIN, helpAsked, parseCommand, UsageError } from './args.js';
import { tool } from './invocation.js';
import { catalogue, type CheckEntry, closestIds, readControls } from './catalogue.js';

/** The specification documents anchors name, by the anchor's prefix (`spec#…`). */
const SPEC_DOCUMENTS: Readonly<Record<string, string>> = { spec: 'learning-platform-apis', 'public-facts': 'public-facts' };

/** The heading or section an anchor names, from the indexes shipped in fixtures/ (the specification's
 * headings as slugs; the RFCs' section numbers with their titles). */
export function anchorTitle(anchor: string): string | undefined {
  const [document = '', fragment = ''] = anchor.split('#');
  const rfc = /^rfc(\d+)$/.exec(document);
  const root = packageRoot();
  if (rfc) {
    const file = join(root, 'fixtures', 'rfc', `rfc${rfc[1] ?? ''}-sections.txt`);
    if (!existsSync(file)) return undefined;
    const number = fragment.replace(/^section-/, '');
    const lines = readFileSync(file, 'utf8').split('\n');
    const line = lines.find((l) => l.startsWith(`${number} `));
    const title = lines[0]?.replace(/^#\s*/, '').replace(/\s*\(.*$/, '');
    return line ? `${title ?? `RFC ${rfc[1] ?? ''}`}, section ${line}` : undefined;
  }
  const name = SPEC_DOCUMENTS[document];
  const index = name === undefined ? undefined : join(root, 'fixtures', 'spec', `${name}.anchors.txt`);
  if (!index || !existsSync(index)) return undefined;
  const known = readFileSync(index, 'utf8').split('\n').includes(fragment);
  return known ? `${name}.md, heading “${fragment.replace(/-/g, ' ')}”` : undefined;
}

const sentenceIndexes = new Map<string, Readonly<Record<string, readonly string[]>>>();

/** The sentences under the heading an anchor names, from the shipped sentence indexes: the
 * specification's (fixtures/spec/<document>.sentences.json, made from the documents) and the RFCs'
 * (fixtures/rfc/sentences.json, kept by hand for the sections checks name). */
export function anchorSentences(anchor: string): readonly string[] {
  const [document = '', fragment = ''] = anchor.split('#');
  if (/^rfc\d+$/.test(document)) {
    let rfc = sentenceIndexes.get('rfc');
    if (rfc === undefined) {
      const file = join(packageRoot(), 'fixtures', 'rfc', 'sentences.json');
      rfc = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { sentences: Record<string, string[]> }).sentences : {};
      sentenceIndexes.set('rfc', rfc);
    }
    return rfc[anchor] ?? [];
  }
  const name = SPEC_DOCUMENTS[document];
  if (name === undefined) return [];
  let index = sentenceIndexes.get(name);
  if (index === undefined) {
    const file = join(packageRoot(), 'fixtures', 'spec', `${name}.sentences.json`);
    index = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { sentences: Record<string, string[]> }).sentences : {};
    sentenceIndexes.set(name, index);
  }
  return index[fragment] ?? [];
}

/** Words of an id that name what it is about (`title`, `above`, `max`), without its family and version. */
function idWords(id: string): string[] {
  return id
    .split('.')
    .slice(1)
    .filter((s) => !/^v\d+$/.test(s))
    .flatMap((s) => s.split('-'))
    .filter((w) => w.length >= 3);
}

/** The sentences of a check's anchor that speak of what its id names: a table row whose first cell is
 * a word of the id first, then the sentences naming most of its words; the first two sentences of
 * the heading when none does. */
export function quotedSentences(id: string, anchor: string, n = 2): string[] {
  const sentences = anchorSentences(anchor);
  const words = idWords(id);
  const score = (s: string): number => {
    const first = s.split(' | ')[0]?.replace(/`/g, '') ?? '';
    const row = s.includes(' | ') && words.includes(first) ? 10 : 0;
    return row + words.filter((w) => new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(s)).length;
  };
  const ranked = sentences.map((s, i) => ({ s, i, score: score(s) })).filter((x) => x.score > 0);
  if (ranked.length === 0) return sentences.slice(0, n);
  return ranked
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, n)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s);
}

/** What a check's family declares, for `explain`: its operations' default routes and its variants. */
export interface FamilyFacts {
  /** Operation id → method and path (`submissions.create` → POST /submissions). */
  readonly operations: Readonly<Record<string, { readonly method: string; readonly path: string }>>;
  /** The bundled server's variants of the family (`<family>.<variant>`), which the positive controls run
   * every check of the family against. */
  readonly variants: readonly string[];
}

const kebab = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The operation a check's id names (the longest operation id, in the id's kebab case, that the id's
 * segments after its family and version start with), and what the id says after it. */
export function operationOf(id: string, operations: FamilyFacts['operations']): { op: string; rest: string } | undefined {
  const [family = '', ...segments] = id.split('.');
  const tail = segments.filter((s, i) => !(i === 0 && /^v\d+$/.test(s))).join('.');
  // Some ids name the HTTP verb where their operation names what it does: PUT replaces.
  const spelled = tail.replace(/^([a-z]+)\.put-/, '$1.replace-');
  let best: { op: string; key: string } | undefined;
  for (const op of Object.keys(operations)) {
    const key = kebab(op.startsWith(`${family}.`) ? op.slice(family.length + 1) : op);
    const matches = spelled === key || spelled.startsWith(`${key}.`) || spelled.startsWith(`${key}-`);
    if (matches && (best === undefined || key.length > best.key.length)) best = { op, key };
  }
  if (best !== undefined) return { op: best.op, rest: spelled.slice(best.key.length).replace(/^[.-]/, '') };
  // Else the operation all of whose words the id names, in any order (`managers.direct-reports.list`
  // names `managers.listDirectReports`): the one with most words.
  const words = new Set(tail.split(/[.-]/));
  let loose: { op: string; n: number } | undefined;
  for (const op of Object.keys(operations)) {
    const own = kebab(op.startsWith(`${family}.`) ? op.slice(family.length + 1) : op).split(/[.-]/);
    if (own.every((w) => words.has(w)) && (loose === undefined || own.length > loose.n)) loose = { op, n: own.length };
  }
  return loose === undefined ? undefined : { op: loose.op, rest: '' };
}

/** A title's two halves, at its verb `answers`: what is sent, and what it answers. */
const titleHalves = (title: string): [string, string] | undefined => {
  const at = title.indexOf(' answers ');
  return at < 0 ? undefined : [title.slice(0, at), title.slice(at + 1)];
};

/** What a check sends, in words: its own `sends`, else the method and path of the operation its id
 * names, with what its title says is sent (`POST /submissions (API version 2): create submission with
 * title of 256 characters`) or, without that, the part of the id after the operation. */
export function sendsInWords(check: DescribedCheck, facts: FamilyFacts | undefined): string | undefined {
  if (check.about?.sends !== undefined) return check.about.sends;
  if (/\.invariant\./.test(check.id)) return "nothing of its own: it judges every exchange of the run's other checks with the family's API";
  const sent = titleHalves(check.title)?.[0];
  // What the title says last in parentheses names the operation (`(list submissions, v1)`).
  const named = /\s(\([^()]+\))$/.exec(check.title)?.[1];
  const found = facts === undefined ? undefined : operationOf(check.id, facts.operations);
  const route = found === undefined ? undefined : facts?.operations[found.op];
  if (found === undefined || route === undefined) return sent === undefined ? undefined : `${sent}${named ? ` ${named}` : ''}`;
  const version = /^[a-z]+\.(v\d+)\./.exec(check.id)?.[1];
  const request = `${route.method} ${route.path}${version ? ` (API version ${version.slice(1)})` : ''}`;
  if (sent?.startsWith(`${route.method} `)) return `${sent}${version ? ` (API version ${version.slice(1)})` : ''}`;
  const rest = found.rest
    .split('.')
    .map((s) => s.replace(/-/g, ' '))
    .join(': ');
  const lower = sent === undefined ? undefined : /^[A-Z][a-z]/.test(sent) ? `${sent.charAt(0).toLowerCase()}${sent.slice(1)}` : sent;
  return `${request}${lower !== undefined ? `: ${lower}` : rest === '' ? '' : `, case: ${rest}`}`;
}

/** What a check expects of the answer, in words: its own `expects`, else what its title says the
 * request answers, else its title. */
export function expectsInWords(check: DescribedCheck): string {
  return check.about?.expects ?? titleHalves(check.title)?.[1] ?? check.title;
}

interface Explained extends CheckEntry {
  about?: CheckAbout;
  anchorTitle?: string;
  /** The sentence that binds the server (a MUST check), or the specification's under its anchor. */
  quote: readonly string[];
  sends?: string;
  expects: string;
  /** The profile fields that change what the check sends or judges. */
  profileFields: readonly string[];
  /** Where it is defined, as a link (versioned when the package names its repository). */
  sourceLink?: string;
  faultDescriptions: Record<string, string>;
  /** The bundled server's variants it passes on (or is skipped on, as their profiles declare). */
  variants: readonly string[];
}

function text(e: Explained): string {
  const lines = [
    `${e.id}  ${e.level}`,
    `  ${e.title}`,
    `  rule:    ${e.spec}${e.anchorTitle ? ` (${e.anchorTitle})` : ''}`,
    ...e.quote.map((q, i) => `  ${i === 0 ? (e.about?.binds !== undefined ? 'binds:  ' : 'says:   ') : '        '} ${q}`),
    ...(e.sends === undefined ? [] : [`  sends:   ${e.sends}`]),
    `  expects: ${e.expects}`,
    ...(e.profileFields.length === 0 ? [] : [`  profile: ${e.profileFields.join(', ')}`]),
    `  defined: ${e.source ?? 'unknown'}${e.sourceLink !== undefined && e.sourceLink !== e.source ? ` (${e.sourceLink})` : ''}`,
    ...(e.faults.length === 0
      ? ['  faults:  none known (no negative control names this check)']
      : [`  faults that prove it can fail (${tool()} serve --faults NAME):`, ...e.faults.map((f) => `    ${f}  ${e.faultDescriptions[f] ?? ''}`)]),
    `  passes on: the bundled reference server${e.variants.length > 0 ? ` and its variants ${e.variants.join(', ')} (serve --variant NAME)` : ''}`,
    `  run it:  ${tool()} run --only ${e.id}`,
  ];
  return lines.join('\n');
}

/** A check's explained entry, from its catalogue entry and what its family declares. */
export function explained(c: CheckEntry & DescribedCheck, facts: FamilyFacts | undefined, faultDescription: (fault: string) => string): Explained {
  const title = anchorTitle(c.spec);
  const quote = c.about?.binds !== undefined ? [c.about.binds] : quotedSentences(c.id, c.spec);
  const sends = sendsInWords(c, facts);
  const op = facts === undefined ? undefined : operationOf(c.id, facts.operations)?.op;
  return {
    ...c,
    ...(title ? { anchorTitle: title } : {}),
    quote,
    ...(sends === undefined ? {} : { sends }),
    expects: expectsInWords(c),
    profileFields: op === undefined ? [] : [`operations.${op} (its method and path)`],
    ...(c.source === undefined ? {} : { sourceLink: packageFileLink(c.source) }),
    faultDescriptions: Object.fromEntries(c.faults.map((f) => [f, faultDescription(f)])),
    variants: facts?.variants ?? [],
  };
}

export async function explainCommand(argv: string[]): Promise<number> {
  const { values, help, positionals } = parseCommand(EXPLAIN, argv);
  if (helpAsked(EXPLAIN, help)) return 0;
  if (positionals.length === 0) throw new UsageError(`explain needs a check id, prefix or glob (as --only; ${tool()} run --list shows the ids)`);
  const [{ describeChecks }, { faultCatalogue, VARIANTS }, { familyOfCheck }] = await Promise.all([
    import('../runner/run.js'),
    import('../../reference-impl/index.js'),
    import('../families/registry.js'),
  ]);
  const checks = await describeChecks();
  const ids = checks.map((c) => c.id);
  for (const pattern of positionals) {
    if (!ids.some(idMatcher([pattern]))) {
      throw new UsageError(`'${pattern}' selects no check; closest: ${closestIds(pattern, ids).join(', ')} (${tool()} run --list shows them all)`);
    }
  }
  const faults = faultCatalogue();
  const selected = idMatcher(positionals);
  const chosen = checks.filter((c) => selected(c.id));
  const about = new Map(chosen.map((c) => [c.id, c.about]));
  const factsOf = (id: string): FamilyFacts | undefined => {
    const family = familyOfCheck(id);
    return family === undefined ? undefined : { operations: family.operations, variants: Object.keys(VARIANTS).filter((v) => v.startsWith(`${family.name}.`)) };
  };
  const entries = catalogue(chosen, faults, readControls()).checks.map((c) => {
    const own = about.get(c.id);
    return explained({ ...c, ...(own ? { about: own } : {}) }, factsOf(c.id), (f) => faults[f]?.description ?? '');
  });
  process.stdout.write(values.json ? `${JSON.stringify(entries, null, 2)}\n` : `${entries.map(text).join('\n\n')}\n`);
  return 0;
}
