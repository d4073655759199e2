// Parser of SCIM filters (RFC 7644 section 3.4.2.2, ABNF Figure 1) and PATCH paths (section
// 3.5.2). Recursive descent over tokens; a syntax error is a result, never a thrown exception.
//
//   FILTER    = attrExp / logExp / valuePath / *1"not" "(" FILTER ")"
//   valuePath = attrPath "[" valFilter "]"
//   valFilter = attrExp / logExp / *1"not" "(" valFilter ")"
//   attrExp   = (attrPath SP "pr") / (attrPath SP compareOp SP compValue)
//   logExp    = FILTER SP ("and" / "or") SP FILTER
//   compValue = false / null / true / number / string      ; JSON (RFC 7159)
//   attrPath  = [URI ":"] ATTRNAME *1subAttr
//   ATTRNAME  = ALPHA *(nameChar)    nameChar = "-" / "_" / DIGIT / ALPHA    subAttr = "." ATTRNAME
//   PATH      = attrPath / valuePath [subAttr]                                 ; section 3.5.2
//
// Readings of the ABNF (choices where it is loose):
// - Precedence (section 3.4.2.2): grouping, then not, then and, then or; and/or associate to the left.
// - Keywords (and, or, not, pr, the compare operators) and attribute names match case-insensitively;
//   false/null/true are JSON literals, lower case only.
// - SP: one or more spaces where the ABNF has SP (between an attribute path, its operator and its
//   value, around and/or). Spaces are also allowed after "(" / "[" and before ")" / "]", and
//   between not and "(" (the RFC's own example `not (emails co ...)`, erratum 7319). No other
//   whitespace characters.
// - A valuePath inside a valFilter is refused (erratum 4690: "nesting of valuePath should not be
//   possible"); `$ref` is an ATTRNAME too (RFC 7643 section 2.1 names it as the exception).
// - A URI prefix is everything before the last ":" of the path, and must itself contain ":".
import type { AttrPath, CompareOperator, CompValue, ScimFilter, ScimPath } from './ast.js';
import { COMPARE_OPERATORS } from './ast.js';

/** Where and why a text is not a sentence of the grammar. */
export interface ScimSyntaxError {
  readonly message: string;
  /** Offset (UTF-16 code units) in the text where the problem was found. */
  readonly position: number;
}

export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ScimSyntaxError };

/** Parse a `filter` parameter. */
export function parseFilter(text: string): ParseResult<ScimFilter> {
  return run(text, (parser) => parser.filterToEnd());
}

/** Parse the `path` of a PATCH operation: attrPath, valuePath or valuePath.subAttr. */
export function parsePath(text: string): ParseResult<ScimPath> {
  return run(text, (parser) => parser.pathToEnd());
}

// ---------------------------------------------------------------------------------------------

/** Thrown inside the parser only; the entry points turn it into a result. */
class Failure {
  constructor(readonly error: ScimSyntaxError) {}
}

function run<T>(text: string, parse: (parser: Parser) => T): ParseResult<T> {
  try {
    return { ok: true, value: parse(new Parser(tokenize(text))) };
  } catch (caught) {
    if (caught instanceof Failure) return { ok: false, error: caught.error };
    throw caught;
  }
}

function fail(message: string, position: number): never {
  throw new Failure({ message, position });
}

type Token =
  | { readonly kind: '(' | ')' | '[' | ']' | 'end'; readonly position: number; readonly spaced: boolean }
  | { readonly kind: 'word' | 'dotted'; readonly text: string; readonly position: number; readonly spaced: boolean }
  | { readonly kind: 'string'; readonly value: string; readonly position: number; readonly spaced: boolean }
  | { readonly kind: 'number'; readonly text: string; readonly position: number; readonly spaced: boolean };

// A word: an attribute path (URI prefix included), a keyword or a JSON literal.
const WORD = /[A-Za-z$][A-Za-z0-9$:._/-]*/y;
// ".name" after "]" in a PATCH path.
const DOTTED = /\.[A-Za-z$][A-Za-z0-9$_-]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const DELIMITED = /[ ()[\]]/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let spaced = false;
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = index;
    return pattern.exec(text)?.[0];
  };
  while (index < text.length) {
    const char = text.charAt(index);
    const position = index;
    if (char === ' ') {
      index += 1;
      spaced = true;
      continue;
    }
    if (char === '(' || char === ')' || char === '[' || char === ']') {
      tokens.push({ kind: char, position, spaced });
      index += 1;
    } else if (char === '"') {
      const literal = match(STRING);
      if (literal === undefined) fail('unterminated or malformed JSON string', position);
      tokens.push({ kind: 'string', value: JSON.parse(literal) as string, position, spaced });
      index += literal.length;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const literal = match(NUMBER);
      if (literal === undefined) fail('malformed number', position);
      tokens.push({ kind: 'number', text: literal, position, spaced });
      index += literal.length;
    } else if (char === '.') {
      const literal = match(DOTTED);
      if (literal === undefined) fail('expected a sub-attribute name after "."', position);
      tokens.push({ kind: 'dotted', text: literal.slice(1), position, spaced });
      index += literal.length;
    } else {
      const literal = match(WORD);
      if (literal === undefined) fail(`unexpected character ${JSON.stringify(char)}`, position);
      tokens.push({ kind: 'word', text: literal, position, spaced });
      index += literal.length;
    }
    // A number or a word runs up to a delimiter: `12abc` and `"a""b"` are not two tokens.
    const last = tokens[tokens.length - 1];
    if (last !== undefined && last.kind !== '(' && last.kind !== ')' && last.kind !== '[' && last.kind !== ']') {
      const next = text.charAt(index);
      if (next !== '' && !DELIMITED.test(next)) {
        fail(`unexpected character ${JSON.stringify(next)}`, index);
      }
    }
    spaced = false;
  }
  tokens.push({ kind: 'end', position: text.length, spaced });
  return tokens;
}

const ATTRNAME = /^(?:[A-Za-z][A-Za-z0-9_-]*|\$ref)$/;
const URI_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
const MAX_DEPTH = 64;

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  filterToEnd(): ScimFilter {
    const filter = this.expression(false);
    this.expectEnd();
    return filter;
  }

  pathToEnd(): ScimPath {
    const path = this.attrPath();
    if (this.peek().kind !== '[') {
      this.expectEnd();
      return { kind: 'attribute', path };
    }
    const filter = this.bracketed(path);
    const next = this.peek();
    if (next.kind === 'dotted') {
      if (next.spaced) fail('no space before a sub-attribute', next.position);
      this.index += 1;
      if (!ATTRNAME.test(next.text)) fail(`malformed sub-attribute name ${JSON.stringify(next.text)}`, next.position);
      this.expectEnd();
      return { kind: 'valuePath', path, filter, sub: next.text };
    }
    this.expectEnd();
    return { kind: 'valuePath', path, filter };
  }

  /** or-expression: and-expressions joined by `or`, left-associative. */
  private expression(inValuePath: boolean): ScimFilter {
    this.enter();
    let left = this.conjunction(inValuePath);
    for (let keyword = this.keyword('or'); keyword !== undefined; keyword = this.keyword('or')) {
      left = { kind: 'or', left, right: this.conjunction(inValuePath), ...spelled('or', keyword) };
    }
    this.depth -= 1;
    return left;
  }

  private conjunction(inValuePath: boolean): ScimFilter {
    let left = this.unary(inValuePath);
    for (let keyword = this.keyword('and'); keyword !== undefined; keyword = this.keyword('and')) {
      left = { kind: 'and', left, right: this.unary(inValuePath), ...spelled('and', keyword) };
    }
    return left;
  }

  /** `and`/`or` after a space, followed by a space: consumed and returned as written. */
  private keyword(word: 'and' | 'or'): string | undefined {
    const token = this.peek();
    if (token.kind !== 'word' || token.text.toLowerCase() !== word || !token.spaced) return undefined;
    this.index += 1;
    if (!this.peek().spaced) fail(`expected a space after ${token.text}`, this.peek().position);
    return token.text;
  }

  private unary(inValuePath: boolean): ScimFilter {
    const token = this.peek();
    if (token.kind === '(') {
      this.index += 1;
      const operand = this.expression(inValuePath);
      this.expect(')');
      return { kind: 'group', operand };
    }
    if (token.kind === 'word' && token.text.toLowerCase() === 'not' && this.peek(1).kind === '(') {
      this.index += 2;
      const operand = this.expression(inValuePath);
      this.expect(')');
      return { kind: 'not', operand, ...spelled('not', token.text) };
    }
    const path = this.attrPath();
    if (this.peek().kind === '[') {
      if (inValuePath) fail('a value filter cannot hold another value filter', this.peek().position);
      return { kind: 'valuePath', path, filter: this.bracketed(path) };
    }
    return this.attrExp(path);
  }

  private bracketed(path: AttrPath): ScimFilter {
    const open = this.peek();
    if (open.spaced) fail('no space between an attribute path and "["', open.position);
    if (path.sub !== undefined) fail('a value filter follows an attribute, not a sub-attribute', open.position);
    this.index += 1;
    const filter = this.expression(true);
    this.expect(']');
    return filter;
  }

  private attrExp(path: AttrPath): ScimFilter {
    const operator = this.peek();
    if (operator.kind !== 'word' || !operator.spaced) fail('expected a space and an operator after the attribute path', operator.position);
    const op = operator.text.toLowerCase();
    this.index += 1;
    if (op === 'pr') return { kind: 'present', path, ...spelled('pr', operator.text) };
    if (!isCompareOperator(op)) fail(`unknown operator ${JSON.stringify(operator.text)}`, operator.position);
    return { kind: 'compare', path, op, value: this.compValue(), ...spelled(op, operator.text) };
  }

  private compValue(): CompValue {
    const token = this.peek();
    if (!token.spaced && token.kind !== 'end') fail('expected a space before the comparison value', token.position);
    this.index += 1;
    switch (token.kind) {
      case 'string':
        return { kind: 'string', value: token.value };
      case 'number':
        return { kind: 'number', text: token.text };
      case 'word':
        if (token.text === 'true' || token.text === 'false') return { kind: 'boolean', value: token.text === 'true' };
        if (token.text === 'null') return { kind: 'null' };
        return fail(`a comparison value is false, null, true, a number or a JSON string, not ${JSON.stringify(token.text)}`, token.position);
      default:
        return fail('expected a comparison value', token.position);
    }
  }

  private attrPath(): AttrPath {
    const token = this.peek();
    if (token.kind !== 'word') fail('expected an attribute path', token.position);
    this.index += 1;
    const colon = token.text.lastIndexOf(':');
    const uri = colon < 0 ? undefined : token.text.slice(0, colon);
    if (uri !== undefined && !URI_PREFIX.test(uri)) fail(`malformed schema URI ${JSON.stringify(uri)}`, token.position);
    const names = token.text.slice(colon + 1).split('.');
    const [name = '', sub, ...rest] = names;
    if (rest.length > 0) fail('an attribute path has at most one sub-attribute', token.position);
    if (!ATTRNAME.test(name) || (sub !== undefined && !ATTRNAME.test(sub))) fail(`malformed attribute name in ${JSON.stringify(token.text)}`, token.position);
    return { ...(uri === undefined ? {} : { uri }), name, ...(sub === undefined ? {} : { sub }) };
  }

  private expect(kind: ')' | ']'): void {
    const token = this.peek();
    if (token.kind !== kind) fail(`expected "${kind}"`, token.position);
    this.index += 1;
  }

  private expectEnd(): void {
    const token = this.peek();
    if (token.kind !== 'end') fail('unexpected text after a complete expression', token.position);
  }

  private enter(): void {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`, this.peek().position);
  }

  private peek(ahead = 0): Token {
    const token = this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
    if (token === undefined) throw new Error('the token list always ends with an end token');
    return token;
  }
}

function isCompareOperator(word: string): word is CompareOperator {
  return (COMPARE_OPERATORS as readonly string[]).includes(word);
}

function spelled(canonical: string, written: string): { keyword?: string } {
  return written === canonical ? {} : { keyword: written };
}
