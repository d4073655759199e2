/**
 * A target profile as a commented YAML document (`lp-conformance init`): each value found, with a
 * comment above it saying how; each value not found commented out where it belongs, with why and
 * the form it takes, so that uncommenting and filling it in is all a user does. Written with the
 * `yaml` package's Document API, which keeps comments on the nodes they belong to.
 */
import { Document, isMap, isNode, isPair, isScalar, isSeq, type Node, type Scalar, YAMLMap } from 'yaml';
import type { InitFound, InitMissing } from '../families/family.js';

type Tree = { kind: 'map'; children: Map<string, Tree> } | { kind: 'found'; entry: InitFound } | { kind: 'missing'; entry: InitMissing };

const WIDTH = 100;

/** Comment lines of at most WIDTH characters (a word longer than that keeps its own line). */
function wrap(text: string, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = indent + word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

function insert(root: Tree & { kind: 'map' }, path: readonly string[], leaf: Tree): void {
  let at = root;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      if (at.children.has(key)) throw new Error(`profile writer: ${path.join('.')} given twice`);
      at.children.set(key, leaf);
      return;
    }
    let next = at.children.get(key);
    if (next === undefined) at.children.set(key, (next = { kind: 'map', children: new Map() }));
    if (next.kind !== 'map') throw new Error(`profile writer: ${path.slice(0, i + 1).join('.')} is a value and a section`);
    at = next;
  });
}

const hasFound = (t: Tree): boolean => t.kind === 'found' || (t.kind === 'map' && [...t.children.values()].some(hasFound));

function missingLeaves(t: Tree): InitMissing[] {
  if (t.kind === 'missing') return [t.entry];
  return t.kind === 'map' ? [...t.children.values()].flatMap(missingLeaves) : [];
}

/** The examples of a subtree of missing values, as the value they would take. */
function examplesOf(t: Tree): unknown {
  if (t.kind === 'missing') return t.entry.example;
  if (t.kind === 'found') return t.entry.value;
  return Object.fromEntries([...t.children].map(([k, c]) => [k, examplesOf(c)]));
}

/** The path every one of `paths` starts with. */
function commonPrefix(paths: readonly (readonly string[])[]): readonly string[] {
  const [first = []] = paths;
  let n = 0;
  while (n < first.length && paths.every((p) => p[n] === first[n])) n++;
  return first.slice(0, n);
}

/** The node, each of its small mappings and lists of scalars on one line (they read best so). */
function flowSmall(node: Node): Node {
  if (isMap(node) || isSeq(node)) {
    const items = node.items.map((item) => (isPair(item) ? item.value : item));
    items.forEach((item) => void (isNode(item) && flowSmall(item)));
    node.flow = items.every((item) => isScalar(item)) && JSON.stringify(node.toJSON()).length <= 80;
  }
  return node;
}

/** The commented-out form of missing values: why each is missing, then the YAML to fill in. */
function commentedOut(key: string, t: Tree): string[] {
  const leaves = missingLeaves(t);
  const why = leaves[0]?.why;
  // One reason for all of them: said once, of the section.
  const reasons = leaves.length > 1 && leaves.every((m) => m.why === why) ? [{ path: commonPrefix(leaves.map((m) => m.path)), why: why ?? '' }] : leaves;
  const whys = reasons.flatMap((m) => wrap(`${m.path.join('.')}: ${m.why}`, '  '));
  const yaml = new Document();
  const node = yaml.createNode({ [key]: examplesOf(t) });
  // The value of the key itself stays a block (a section to fill in), what it holds may flow.
  const value = isMap(node) ? node.items[0]?.value : undefined;
  if (isMap(value) || isSeq(value)) value.items.forEach((item) => void flowSmall((isPair(item) ? item.value : item) as Node));
  else if (isNode(value)) flowSmall(value);
  yaml.contents = node;
  const example = yaml.toString({ lineWidth: 0, flowCollectionPadding: true }).trimEnd().split('\n');
  return [...whys, ...example].map((line) => ` ${line}`);
}

function render(doc: Document, t: Tree & { kind: 'map' }, order?: readonly string[]): YAMLMap {
  const map = new YAMLMap();
  let pending: string[] = [];
  const keys = [...t.children.keys()];
  if (order) keys.sort((a, b) => rank(order, a) - rank(order, b));
  for (const key of keys) {
    const child = t.children.get(key) as Tree;
    if (!hasFound(child)) {
      pending.push(...commentedOut(key, child));
      continue;
    }
    const keyNode = doc.createNode(key) as Scalar;
    const value: Node = child.kind === 'map' ? render(doc, child) : flowSmall(doc.createNode(child.kind === 'found' ? child.entry.value : null) as Node);
    // An empty how: the comment above (of the values found together) says it.
    const how = child.kind === 'found' ? wrap(child.entry.how).map((line) => ` ${line}`) : [];
    if (pending.length + how.length > 0) keyNode.commentBefore = [...pending, ...how].join('\n');
    pending = [];
    map.items.push(doc.createPair(keyNode, value));
  }
  if (pending.length > 0) map.comment = pending.join('\n');
  return map;
}

function rank(order: readonly string[], key: string): number {
  const i = order.indexOf(key);
  return i < 0 ? order.length : i;
}

/**
 * The profile's YAML: `header` as its opening comment, the values found with how, the values missing
 * commented out where they belong. Top-level keys follow `order` (the profile schema's), the rest
 * the order the entries came in.
 */
export function commentedProfile(
  header: readonly string[],
  parts: readonly { readonly found: readonly InitFound[]; readonly missing: readonly InitMissing[] }[],
  order: readonly string[],
): string {
  const root: Tree & { kind: 'map' } = { kind: 'map', children: new Map() };
  // Part by part, so that each part's values, found or not, stay together.
  for (const part of parts) {
    for (const entry of part.found) insert(root, entry.path, { kind: 'found', entry });
    for (const entry of part.missing) insert(root, entry.path, { kind: 'missing', entry });
  }
  const doc = new Document();
  doc.contents = render(doc, root, order);
  // A header line that starts with spaces (a command) is not wrapped.
  doc.commentBefore = header
    .flatMap((line) => (line === '' || line.startsWith('  ') ? [line] : wrap(line)))
    .map((line) => (line === '' ? '' : ` ${line}`))
    .join('\n');
  const text = doc.toString({ lineWidth: 0, flowCollectionPadding: true });
  return text.endsWith('\n') ? text : `${text}\n`;
}
