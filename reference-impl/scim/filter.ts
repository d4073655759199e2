import { isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import { badRequest, type ScimError } from './errors.js';
import { type Attr, type ResourceSchema, resolvePath } from './schema.js';

/**
 * SCIM filters, an independent reading of rfc7644#section-3.4.2.2 (ABNF, Figure 1): a lexer, a
 * recursive-descent parser (`or` < `and` < `not` < attribute expressions, `()` grouping, value
 * paths in `[]`), and an evaluator that reads each attribute's type and `caseExact` from the schema.
 * Also the PATCH path (rfc7644#section-3.5.2, Figure 7: `attrPath / valuePath [subAttr]`).
 */
export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
const COMPARE_OPS: ReadonlySet<string> = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

export type Literal = string | number | boolean | null;

export type FilterNode =
  | { readonly kind: 'compare'; readonly path: string; readonly op: CompareOp; readonly value: Literal }
  | { readonly kind: 'present'; readonly path: string }
  | { readonly kind: 'and' | 'or'; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly kind: 'not'; readonly operand: FilterNode }
  | { readonly kind: 'valuePath'; readonly path: string; readonly filter: FilterNode };

type Token =
  | { readonly t: '(' | ')' | '[' | ']'; readonly at: number }
  | { readonly t: 'word'; readonly text: string; readonly at: number }
  | { readonly t: 'literal'; readonly value: Literal; readonly at: number };

const ATTR_PATH = /^(?:urn:[A-Za-z0-9:._-]+:)?[A-Za-z$][\w$-]*(?:\.[A-Za-z$][\w$-]*)?$/i;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const invalid = (detail: string): ScimError => badRequest('invalidFilter', detail);

/** Bounds that keep parsing and evaluation off deep recursion: tokens per filter, nesting of ( ) and not. */
export const MAX_FILTER_TOKENS = 1000;
export const MAX_FILTER_NESTING = 100;

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i += 1;
    } else if (ch === '(' || ch === ')' || ch === '[' || ch === ']') {
      tokens.push({ t: ch, at: i });
      i += 1;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text.charAt(j) !== '"') j += text.charAt(j) === '\\' ? 2 : 1;
      if (j >= text.length) throw invalid(`Unterminated string at ${i}.`);
      let value: unknown;
      try {
        value = JSON.parse(text.slice(i, j + 1));
      } catch {
        throw invalid(`Malformed string at ${i}.`);
      }
      tokens.push({ t: 'literal', value: String(value), at: i });
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !' \t\n\r()[]"'.includes(text.charAt(j))) j += 1;
      const word = text.slice(i, j);
      if (NUMBER.test(word)) tokens.push({ t: 'literal', value: Number(word), at: i });
      else tokens.push({ t: 'word', text: word, at: i });
      i = j;
    }
  }
  return tokens;
}

class Parser {
  private i = 0;
  private depth = 0;
  /** Groups open around the token being read. */
  private groups = 0;
  constructor(
    private readonly tokens: readonly Token[],
    private readonly b: ScimBehaviour['filter'],
  ) {
    if (tokens.length > MAX_FILTER_TOKENS) throw invalid(`The filter has more than ${MAX_FILTER_TOKENS} tokens.`);
  }

  /** Moves past the token being read. */
  private advance(): void {
    this.i += 1;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  /** A keyword (`and`, `or`, `not`, `pr`, an operator) in the case the behaviour accepts. */
  private keyword(token: Token | undefined): string | undefined {
    if (token?.t !== 'word') return undefined;
    return this.b.keywordCase === 'insensitive' ? token.text.toLowerCase() : token.text;
  }

  private expect(t: '(' | ')' | ']'): void {
    const token = this.peek();
    if (token?.t !== t) throw invalid(`Expected '${t}'${token === undefined ? ' at the end' : ` at ${token.at}`}.`);
    this.advance();
  }

  parseAll(): FilterNode {
    if (this.tokens.length === 0) throw invalid('The filter is empty.');
    const node = this.parseOr(false);
    const rest = this.peek();
    if (rest !== undefined) throw invalid(`Unexpected token at ${rest.at}.`);
    return node;
  }

  private parseOr(inBrackets: boolean): FilterNode {
    if (this.b.precedence === 'left-to-right') {
      let left = this.parseUnary(inBrackets);
      for (let k = this.keyword(this.peek()); k === 'and' || k === 'or'; k = this.keyword(this.peek())) {
        this.advance();
        left = { kind: k, left, right: this.parseUnary(inBrackets) };
      }
      return left;
    }
    let left = this.parseAnd(inBrackets);
    while (this.keyword(this.peek()) === 'or') {
      this.advance();
      left = { kind: 'or', left, right: this.parseAnd(inBrackets) };
    }
    return left;
  }

  private parseAnd(inBrackets: boolean): FilterNode {
    let left = this.parseUnary(inBrackets);
    while (this.keyword(this.peek()) === 'and') {
      this.advance();
      left = { kind: 'and', left, right: this.parseUnary(inBrackets) };
    }
    return left;
  }

  private parseUnary(inBrackets: boolean): FilterNode {
    this.depth += 1;
    try {
      if (this.depth > MAX_FILTER_NESTING) throw invalid(`The filter nests deeper than ${MAX_FILTER_NESTING}.`);
      return this.parseUnaryInner(inBrackets);
    } finally {
      this.depth -= 1;
    }
  }

  private parseUnaryInner(inBrackets: boolean): FilterNode {
    const token = this.peek();
    if (this.keyword(token) === 'not' && this.tokens[this.i + 1]?.t === '(') {
      this.advance();
      return { kind: 'not', operand: this.parseGroup(inBrackets) };
    }
    if (token?.t === '(') return this.parseGroup(inBrackets);
    return this.parseAttrExp(inBrackets);
  }

  private parseGroup(inBrackets: boolean): FilterNode {
    if (this.b.groups === 'one-level' && this.groups > 0) throw invalid(`A group inside a group at ${this.peek()?.at ?? 0}.`);
    this.expect('(');
    this.groups += 1;
    const inner = this.parseOr(inBrackets);
    this.groups -= 1;
    this.expect(')');
    return inner;
  }

  private parseAttrExp(inBrackets: boolean): FilterNode {
    const token = this.peek();
    if (token === undefined && this.b.cutShort === 'server-error') throw new TypeError('no token where an attribute was expected');
    if (token?.t !== 'word') throw invalid(token === undefined ? 'The filter ends where an attribute was expected.' : `Expected an attribute at ${token.at}.`);
    if (!ATTR_PATH.test(token.text)) throw invalid(`'${token.text}' is not an attribute path.`);
    this.advance();
    const path = token.text;
    if (this.peek()?.t === '[') {
      if (inBrackets) throw invalid('Value paths do not nest.');
      this.advance();
      const filter = this.parseOr(true);
      this.expect(']');
      return { kind: 'valuePath', path, filter };
    }
    const op = this.keyword(this.peek());
    if (op === 'pr') {
      this.advance();
      return { kind: 'present', path };
    }
    if (op === undefined || !COMPARE_OPS.has(op)) {
      const at = this.peek();
      throw invalid(at === undefined ? `The filter ends after '${path}'.` : `Unknown operator at ${at.at}.`);
    }
    this.advance();
    const value = this.peek();
    let literal: Literal;
    if (value?.t === 'literal') literal = value.value;
    else if (value?.t === 'word' && ['true', 'false', 'null'].includes(value.text.toLowerCase())) {
      const word = value.text.toLowerCase();
      literal = word === 'null' ? null : word === 'true';
    } else throw invalid(value === undefined ? `The filter ends after '${path} ${op}'.` : `Expected a value at ${value.at}.`);
    this.advance();
    return { kind: 'compare', path, op: op as CompareOp, value: literal };
  }
}

/** Parses a filter; throws 400 invalidFilter. */
export function parseFilter(text: string, b: ScimBehaviour['filter']): FilterNode {
  return new Parser(lex(text), b).parseAll();
}

// --- evaluation -------------------------------------------------------------------------------

/** A compiled filter: true when the resource (wire form, canonical names) matches. */
export type Predicate = (resource: JsonObject) => boolean;

/** The attribute a comparison reads: the sub-attribute, or `value` of a multi-valued complex one. */
interface Target {
  readonly read: (container: JsonObject) => JsonValue[];
  readonly type: Attr;
  readonly complexWhole: boolean;
}

function valuesOf(v: JsonValue | undefined): JsonValue[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

function targetOf(schema: ResourceSchema, path: string, within: Attr | undefined, b: ScimBehaviour['filter']): Target {
  let attr: Attr;
  let sub: Attr | undefined;
  let urn: string | undefined;
  if (within !== undefined) {
    const found = path.includes('.') || path.includes(':') ? undefined : within.sub?.get(path.toLowerCase());
    if (found === undefined) throw invalid(`'${path}' is not a sub-attribute of ${within.name}.`);
    attr = found;
  } else {
    const resolved = resolvePath(schema, path);
    if (resolved === undefined && b.unknownAttribute === 'server-error') throw new TypeError(`no attribute ${path}`);
    if (resolved === undefined) throw invalid(`Unknown attribute '${path}'.`);
    ({ attr, sub, urn } = resolved);
    if (attr.multiValued && b.multiValued === 'refused') throw invalid(`Filters on the multi-valued '${attr.name}' are not supported.`);
  }
  const firstOnly = (xs: JsonValue[]): JsonValue[] => (b.multiValued === 'first' ? xs.slice(0, 1) : xs);
  const top = (c: JsonObject): JsonValue | undefined => {
    if (urn === undefined) return c[attr.name];
    const ext = c[urn];
    return isJsonObject(ext) ? ext[attr.name] : undefined;
  };
  if (sub !== undefined) {
    const s = sub;
    return { read: (c) => firstOnly(valuesOf(top(c))).flatMap((x) => (isJsonObject(x) ? valuesOf(x[s.name]) : [])), type: s, complexWhole: false };
  }
  if (attr.sub !== undefined && attr.multiValued) {
    const valueAttr = attr.sub.get('value');
    if (valueAttr !== undefined) {
      return { read: (c) => firstOnly(valuesOf(top(c))).flatMap((x) => (isJsonObject(x) ? valuesOf(x.value) : [])), type: valueAttr, complexWhole: false };
    }
  }
  return { read: (c) => firstOnly(valuesOf(top(c))), type: attr, complexWhole: attr.sub !== undefined };
}

const nonEmpty = (v: JsonValue): boolean => {
  if (v === null || v === '') return false;
  if (Array.isArray(v)) return v.some(nonEmpty);
  if (isJsonObject(v)) return Object.values(v).some(nonEmpty);
  return true;
};

function caseExactOf(type: Attr, b: ScimBehaviour['filter'], isUserName: boolean): boolean {
  if (isUserName) return b.userNameCase === 'sensitive';
  if (!type.caseExact) return b.otherStringsCase === 'sensitive';
  return b.caseExact === 'honoured';
}

const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

function comparison(target: Target, op: CompareOp, literal: Literal, b: ScimBehaviour['filter'], isUserName: boolean): (v: JsonValue) => boolean {
  const { type } = target;
  if (target.complexWhole && b.complexWhole === 'no-match') return () => false;
  if (target.complexWhole) throw invalid(`${type.name} is complex: compare one of its sub-attributes.`);
  if (literal === null) {
    if (op !== 'eq' && op !== 'ne') throw invalid(`'${op}' does not take null.`);
    if (b.nullValue === 'refused') throw invalid(`This server does not compare with null ('${op} null').`);
    return () => false; // handled by the caller: eq null ⇔ no value
  }
  const ordering = op === 'gt' || op === 'ge' || op === 'lt' || op === 'le';
  const substring = op === 'co' || op === 'sw' || op === 'ew';
  const order = (c: number): boolean => (op === 'gt' ? c > 0 : op === 'ge' ? c >= 0 : op === 'lt' ? c < 0 : op === 'le' ? c <= 0 : c === 0);
  if (type.type === 'boolean') {
    if (typeof literal !== 'boolean') throw invalid(`${type.name} is a boolean.`);
    if (substring && b.booleanSubstring === 'compare')
      return (v) => typeof v === 'boolean' && String(v)[op === 'co' ? 'includes' : op === 'sw' ? 'startsWith' : 'endsWith'](String(literal));
    if (substring) throw invalid(`'${op}' does not apply to the boolean ${type.name}.`);
    if (ordering && b.booleanOrdering === 'reject') throw invalid(`'${op}' does not apply to the boolean ${type.name}.`);
    return (v) => typeof v === 'boolean' && order(Number(v) - Number(literal));
  }
  if (typeof literal !== 'string' && b.typeMismatch === 'server-error') throw new TypeError(`${type.name} compared with ${String(literal)}`);
  if (typeof literal !== 'string') throw invalid(`${type.name} takes a string value.`);
  if (type.type === 'dateTime' && !substring && b.dates === 'instants') {
    if (!DATE.test(literal) || Number.isNaN(Date.parse(literal))) throw invalid(`'${literal}' is not a dateTime.`);
    const instant = Date.parse(literal);
    return (v) => typeof v === 'string' && order(Date.parse(v) - instant);
  }
  const exact = caseExactOf(type, b, isUserName);
  const norm = (s: string): string => (exact ? s : s.toLowerCase());
  const lit = norm(literal);
  return (v) => {
    if (typeof v !== 'string') return false;
    const s = norm(v);
    if (op === 'co') return s.includes(lit);
    if (op === 'sw') return s.startsWith(lit);
    if (op === 'ew') return s.endsWith(lit);
    if (s === lit && b.stringOrdering === 'inclusive' && (op === 'gt' || op === 'lt')) return true;
    return order(s < lit ? -1 : s > lit ? 1 : 0);
  };
}

function compileNode(schema: ResourceSchema, node: FilterNode, within: Attr | undefined, b: ScimBehaviour['filter']): Predicate {
  switch (node.kind) {
    case 'and': {
      const l = compileNode(schema, node.left, within, b);
      const r = compileNode(schema, node.right, within, b);
      return (x) => l(x) && r(x);
    }
    case 'or': {
      const l = compileNode(schema, node.left, within, b);
      const r = compileNode(schema, node.right, within, b);
      return (x) => l(x) || r(x);
    }
    case 'not': {
      const inner = compileNode(schema, node.operand, within, b);
      return (x) => !inner(x);
    }
    case 'present': {
      const target = targetOf(schema, node.path, within, b);
      return (x) => target.read(x).some(nonEmpty);
    }
    case 'compare': {
      const target = targetOf(schema, node.path, within, b);
      const isUserName = within === undefined && target.type.name === 'userName';
      const test = comparison(target, node.op, node.value, b, isUserName);
      if (node.value === null) {
        const present = (x: JsonObject): boolean => target.read(x).some((v) => v !== null);
        return node.op === 'eq' ? (x) => !present(x) : present;
      }
      // `ne` is the negation of `eq` (a resource without the attribute is `ne` every value).
      if (node.op === 'ne') {
        const eq = comparison(target, 'eq', node.value, b, isUserName);
        return (x) => !target.read(x).some(eq);
      }
      return (x) => target.read(x).some(test);
    }
    case 'valuePath': {
      if (within !== undefined) throw invalid('Value paths do not nest.');
      const resolved = resolvePath(schema, node.path);
      if (resolved === undefined) throw invalid(`Unknown attribute '${node.path}'.`);
      const onSub = resolved.sub !== undefined && b.valuePathOnSub === 'reject';
      if (onSub || resolved.attr.sub === undefined || !resolved.attr.multiValued) {
        throw invalid(`'${node.path}' is not a multi-valued complex attribute.`);
      }
      if (b.multiValued === 'refused') throw invalid(`Filters on the multi-valued '${resolved.attr.name}' are not supported.`);
      const inner = compileNode(schema, node.filter, resolved.attr, b);
      const { attr, urn } = resolved;
      return (x) => {
        const container = urn === undefined ? x : x[urn];
        if (!isJsonObject(container)) return false;
        const values = valuesOf(container[attr.name]);
        return (b.multiValued === 'first' ? values.slice(0, 1) : values).some((v) => isJsonObject(v) && inner(v));
      };
    }
  }
}

/** Compiles a parsed filter against a schema; throws 400 invalidFilter (unknown attribute, type mismatch). */
export function compileFilter(schema: ResourceSchema, node: FilterNode, b: ScimBehaviour['filter']): Predicate {
  return compileNode(schema, node, undefined, b);
}

/** The top-level attributes of a resource a filter reads (names as in the wire form, an extension's
 * by its URN): a list builds only these of each record's representation to filter it. */
export function topLevelReads(schema: ResourceSchema, node: FilterNode, into = new Set<string>()): Set<string> {
  switch (node.kind) {
    case 'and':
    case 'or':
      topLevelReads(schema, node.left, into);
      return topLevelReads(schema, node.right, into);
    case 'not':
      return topLevelReads(schema, node.operand, into);
    case 'present':
    case 'compare':
    case 'valuePath': {
      const resolved = resolvePath(schema, node.path);
      if (resolved !== undefined) into.add(resolved.urn ?? resolved.attr.name);
      return into;
    }
  }
}

/** Compiles a filter over the values of a multi-valued complex attribute (PATCH value paths). */
export function compileValueFilter(schema: ResourceSchema, node: FilterNode, within: Attr, b: ScimBehaviour['filter']): Predicate {
  return compileNode(schema, node, within, b);
}

// --- PATCH paths ------------------------------------------------------------------------------

export interface PatchPath {
  readonly attrPath: string;
  readonly filter: FilterNode | undefined;
  /** The sub-attribute after a value filter: `emails[type eq "work"].value`. */
  readonly subAfterFilter: string | undefined;
}

/** Parses a PATCH path (`attrPath`, `valuePath`, `valuePath.subAttr`); undefined when malformed. */
export function parsePatchPath(text: string, b: ScimBehaviour['filter']): PatchPath | undefined {
  const open = text.indexOf('[');
  if (open < 0) return ATTR_PATH.test(text.trim()) ? { attrPath: text.trim(), filter: undefined, subAfterFilter: undefined } : undefined;
  const attrPath = text.slice(0, open).trim();
  if (!ATTR_PATH.test(attrPath)) return undefined;
  // The closing bracket: the first ']' outside string literals.
  let close = -1;
  let inString = false;
  const strings = b.pathBrackets === 'outside-strings';
  for (let i = open + 1; i < text.length; i += 1) {
    const ch = text.charAt(i);
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
    } else if (ch === '"' && strings) inString = true;
    else if (ch === ']') {
      close = i;
      break;
    }
  }
  if (close < 0) return undefined;
  const rest = text.slice(close + 1).trim();
  if (rest !== '' && !/^\.[A-Za-z$][\w$-]*$/.test(rest)) return undefined;
  let filter: FilterNode;
  try {
    filter = new Parser(lex(text.slice(open + 1, close)), b).parseAll();
  } catch {
    return undefined;
  }
  return { attrPath, filter, subAfterFilter: rest === '' ? undefined : rest.slice(1) };
}
