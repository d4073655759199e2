/**
 * `lp-conformance explain PATTERN…`: for each check the patterns select (as --only: an id, a prefix
 * or a glob), its rule (id, level, title, anchor and the heading or section the anchor names, from
 * the shipped indexes), where it is defined, and the faults of the reference server that prove it
 * can fail. `--json` for tools. A pattern that selects nothing is a set-up mistake (exit 2) that
 * names the closest ids.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { idMatcher } from '../runner/select.js';
import { packageRoot } from '../util/package-root.js';
import { EXPLAIN, helpAsked, parseCommand, UsageError } from './args.js';
import { tool } from './invocation.js';
import { catalogue, type CheckEntry, closestIds, readControls } from './catalogue.js';

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
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${number} `));
    const title = readFileSync(file, 'utf8')
      .split('\n')[0]
      ?.replace(/^#\s*/, '')
      .replace(/\s*\(.*$/, '');
    return line ? `${title ?? `RFC ${rfc[1] ?? ''}`}, section ${line}` : undefined;
  }
  const names: Record<string, string> = { spec: 'learning-platform-apis', 'public-facts': 'public-facts' };
  const index = names[document] === undefined ? undefined : join(root, 'fixtures', 'spec', `${names[document]}.anchors.txt`);
  if (!index || !existsSync(index)) return undefined;
  const known = readFileSync(index, 'utf8').split('\n').includes(fragment);
  return known ? `${names[document]}.md, heading “${fragment.replace(/-/g, ' ')}”` : undefined;
}

interface Explained extends CheckEntry {
  anchorTitle?: string;
  faultDescriptions: Record<string, string>;
}

function text(e: Explained): string {
  const lines = [
    `${e.id}  ${e.level}`,
    `  ${e.title}`,
    `  rule:    ${e.spec}${e.anchorTitle ? ` (${e.anchorTitle})` : ''}`,
    `  defined: ${e.source ?? 'unknown'}`,
    ...(e.faults.length === 0
      ? ['  faults:  none known (no negative control names this check)']
      : [`  faults that prove it can fail (${tool()} serve --faults NAME):`, ...e.faults.map((f) => `    ${f}  ${e.faultDescriptions[f] ?? ''}`)]),
    `  run it:  ${tool()} run --only ${e.id}`,
  ];
  return lines.join('\n');
}

export async function explainCommand(argv: string[]): Promise<number> {
  const { values, help, positionals } = parseCommand(EXPLAIN, argv);
  if (helpAsked(EXPLAIN, help)) return 0;
  if (positionals.length === 0) throw new UsageError('explain needs a check id, prefix or glob (as --only; ${tool()} run --list shows the ids)');
  const [{ listChecks }, { faultCatalogue }] = await Promise.all([import('../runner/run.js'), import('../../reference-impl/index.js')]);
  const checks = await listChecks();
  const ids = checks.map((c) => c.id);
  for (const pattern of positionals) {
    if (!ids.some(idMatcher([pattern]))) {
      throw new UsageError(`'${pattern}' selects no check; closest: ${closestIds(pattern, ids).join(', ')} (${tool()} run --list shows them all)`);
    }
  }
  const faults = faultCatalogue();
  const selected = idMatcher(positionals);
  const entries: Explained[] = catalogue(
    checks.filter((c) => selected(c.id)),
    faults,
    readControls(),
  ).checks.map((c) => {
    const title = anchorTitle(c.spec);
    return { ...c, ...(title ? { anchorTitle: title } : {}), faultDescriptions: Object.fromEntries(c.faults.map((f) => [f, faults[f]?.description ?? ''])) };
  });
  process.stdout.write(values.json ? `${JSON.stringify(entries, null, 2)}\n` : `${entries.map(text).join('\n\n')}\n`);
  return 0;
}
