// The tree of a SCIM filter (RFC 7644 section 3.4.2.2, ABNF Figure 1) and of a PATCH path
// (section 3.5.2), the constructors the generators use, and `print`, the text of a tree.
//
// A tree keeps what the text says, also where it does not change the meaning: attribute names as
// written (`USERNAME`), a keyword's spelling when it is not lower case (`keyword: 'AND'`), and
// explicit parentheses (`group`). So a generated filter can carry mixed-case keywords and
// redundant parentheses to the server, and `parse(print(tree))` gives back the tree.

export const COMPARE_OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const;
/** compareOp of the ABNF. */
export type CompareOperator = (typeof COMPARE_OPERATORS)[number];

/** attrPath = [URI ":"] ATTRNAME *1subAttr, with the names as written. */
export interface AttrPath {
  readonly uri?: string;
  readonly name: string;
  readonly sub?: string;
}

/** compValue = false / null / true / number / string (JSON); a number keeps its text as written. */
export type CompValue =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'null' };

/** `keyword` on a node: the keyword's spelling when it is not the lower-case one (`Eq`, `AND`, `PR`). */
export interface CompareNode {
  readonly kind: 'compare';
  readonly path: AttrPath;
  readonly op: CompareOperator;
  readonly value: CompValue;
  readonly keyword?: string;
}
export interface PresentNode {
  readonly kind: 'present';
  readonly path: AttrPath;
  readonly keyword?: string;
}
export interface LogicNode {
  readonly kind: 'and' | 'or';
  readonly left: ScimFilter;
  readonly right: ScimFilter;
  readonly keyword?: string;
}
/** `not (filter)`: the parentheses belong to `not` in the ABNF. */
export interface NotNode {
  readonly kind: 'not';
  readonly operand: ScimFilter;
  readonly keyword?: string;
}
/** `(filter)`: parentheses written in the text. */
export interface GroupNode {
  readonly kind: 'group';
  readonly operand: ScimFilter;
}
/** valuePath = attrPath "[" valFilter "]": the filter applies to one value of a multi-valued attribute. */
export interface ValuePathNode {
  readonly kind: 'valuePath';
  readonly path: AttrPath;
  readonly filter: ScimFilter;
}
export type ScimFilter = CompareNode | PresentNode | LogicNode | NotNode | GroupNode | ValuePathNode;

/** PATH = attrPath / valuePath [subAttr] (RFC 7644 section 3.5.2): the `path` of a PATCH operation. */
export type ScimPath =
  | { readonly kind: 'attribute'; readonly path: AttrPath }
  | { readonly kind: 'valuePath'; readonly path: AttrPath; readonly filter: ScimFilter; readonly sub?: string };

// ---------------------------------------------------------------------------------------------
// Constructors (what the generators and checks build trees with)

/** `name`, `name.sub` or `uri:name.sub`. */
export function attrPath(name: string, sub?: string, uri?: string): AttrPath {
  return { ...(uri === undefined ? {} : { uri }), name, ...(sub === undefined ? {} : { sub }) };
}

export function compare(path: AttrPath, op: CompareOperator, value: CompValue, keyword?: string): CompareNode {
  return { kind: 'compare', path, op, value, ...spelling(op, keyword) };
}

export function present(path: AttrPath, keyword?: string): PresentNode {
  return { kind: 'present', path, ...spelling('pr', keyword) };
}

export const stringValue = (value: string): CompValue => ({ kind: 'string', value });
export const booleanValue = (value: boolean): CompValue => ({ kind: 'boolean', value });
export const NULL_VALUE: CompValue = { kind: 'null' };
/** A number as JSON text (`numberValue('1.5')`). */
export const numberValue = (text: string): CompValue => ({ kind: 'number', text });

/** `left and right`, with parentheses added where the tree needs them (so print and parse agree). */
export function and(left: ScimFilter, right: ScimFilter, keyword?: string): LogicNode {
  return logic('and', left, right, keyword);
}

/** `left or right`, with parentheses added where the tree needs them. */
export function or(left: ScimFilter, right: ScimFilter, keyword?: string): LogicNode {
  return logic('or', left, right, keyword);
}

export function not(operand: ScimFilter, keyword?: string): NotNode {
  return { kind: 'not', operand, ...spelling('not', keyword) };
}

export function group(operand: ScimFilter): GroupNode {
  return { kind: 'group', operand };
}

export function valuePath(path: AttrPath, filter: ScimFilter): ValuePathNode {
  return { kind: 'valuePath', path, filter };
}

/**
 * `prefix and filter`: a filter confined to the resources of one run, e.g.
 * `userName sw "lpc-RUN-" and <filter>`, with no parentheses of its own where the filter's meaning
 * needs none: the prefix joins the filter's chain of `and` at its left (`P and A and B`, `P and
 * not (…)`), and only a filter whose top is `or` is put in parentheses (`P and (A or B)`). The
 * confinement is the suite's, not the check's rule: it must not add a level of nesting for the
 * server to parse (a parser that fails on nested groups fails the check whose filter has them, not
 * every check with a group).
 */
export function scoped(prefix: ScimFilter, filter: ScimFilter): ScimFilter {
  return filter.kind === 'and' ? { ...filter, left: scoped(prefix, filter.left) } : and(prefix, filter);
}

/** `scoped` for a filter text that may not parse (invalidScimFilter): `<prefix> and (<text>)`. */
export function scopedText(prefix: ScimFilter, text: string): string {
  return `${print(prefix)} and (${text})`;
}

const PRECEDENCE = { or: 1, and: 2, unary: 3 } as const;

function logic(kind: 'and' | 'or', left: ScimFilter, right: ScimFilter, keyword: string | undefined): LogicNode {
  // The ABNF's logExp is left-associative here (and binds tighter than or): a right operand of
  // the same or a lower level, and a left operand of a lower level, need parentheses.
  const own = PRECEDENCE[kind];
  const wrap = (operand: ScimFilter, needed: number): ScimFilter => (levelOf(operand) < needed ? group(operand) : operand);
  return { kind, left: wrap(left, own), right: wrap(right, own + 1), ...spelling(kind, keyword) };
}

/** The `keyword` field, kept only when it spells the keyword in another case. */
function spelling(word: string, keyword: string | undefined): { keyword?: string } {
  return keyword === undefined || keyword === word || keyword.toLowerCase() !== word ? {} : { keyword };
}

function levelOf(filter: ScimFilter): number {
  return filter.kind === 'or' ? PRECEDENCE.or : filter.kind === 'and' ? PRECEDENCE.and : PRECEDENCE.unary;
}

// ---------------------------------------------------------------------------------------------
// Printing

/**
 * The filter text of a tree: one space where the ABNF has SP, strings as JSON
 * (`JSON.stringify`), numbers as written, keywords as spelled in the tree. A tree built with the
 * constructors (or parsed) prints with exactly its own parentheses; for any other tree print adds
 * the parentheses its shape needs, so the text always means the tree.
 */
export function print(filter: ScimFilter): string {
  return printAt(filter, PRECEDENCE.or);
}

/** The text of a PATCH path. */
export function printPath(path: ScimPath): string {
  if (path.kind === 'attribute') return printAttrPath(path.path);
  return `${printAttrPath(path.path)}[${print(path.filter)}]${path.sub === undefined ? '' : `.${path.sub}`}`;
}

export function printAttrPath(path: AttrPath): string {
  return `${path.uri === undefined ? '' : `${path.uri}:`}${path.name}${path.sub === undefined ? '' : `.${path.sub}`}`;
}

export function printValue(value: CompValue): string {
  switch (value.kind) {
    case 'string':
      return JSON.stringify(value.value);
    case 'number':
      return value.text;
    case 'boolean':
      return String(value.value);
    case 'null':
      return 'null';
  }
}

function printAt(filter: ScimFilter, needed: number): string {
  const text = printNode(filter);
  return levelOf(filter) < needed ? `(${text})` : text;
}

function printNode(filter: ScimFilter): string {
  switch (filter.kind) {
    case 'or':
    case 'and': {
      const own = PRECEDENCE[filter.kind];
      return `${printAt(filter.left, own)} ${word(filter.kind, filter.keyword)} ${printAt(filter.right, own + 1)}`;
    }
    case 'not':
      return `${word('not', filter.keyword)} (${print(filter.operand)})`;
    case 'group':
      return `(${print(filter.operand)})`;
    case 'compare':
      return `${printAttrPath(filter.path)} ${word(filter.op, filter.keyword)} ${printValue(filter.value)}`;
    case 'present':
      return `${printAttrPath(filter.path)} ${word('pr', filter.keyword)}`;
    case 'valuePath':
      return `${printAttrPath(filter.path)}[${print(filter.filter)}]`;
  }
}

function word(canonical: string, keyword: string | undefined): string {
  return keyword !== undefined && keyword.toLowerCase() === canonical ? keyword : canonical;
}
