import type { BoolFunction, CompareOp, FilterNode, Literal, Operand, Transform } from './ast.js';
import { FilterError } from './errors.js';
import { type Token, tokenize } from './lexer.js';

/**
 * Recursive-descent parser of the `_filter` grammar (docs/decisions/intapi/reference-choices.md "_filter grammar"):
 *   expr := or;  or := and ("or" and)*;  and := unary ("and" unary)*;  unary := "not" unary | primary
 *   primary := "(" expr ")" | boolcall | operand OP literal
 * Keywords and function names are lower case.
 */
const COMPARE_OPS: ReadonlySet<string> = new Set<CompareOp>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const BOOL_FUNCTIONS: ReadonlySet<string> = new Set<BoolFunction>(['substringof', 'startswith', 'endswith']);
const TRANSFORMS: ReadonlySet<string> = new Set<Transform>(['tolower', 'toupper']);
const RESERVED: ReadonlySet<string> = new Set(['and', 'or', 'not', 'true', 'false', 'null', ...COMPARE_OPS]);
/** Deeper nesting is refused rather than risking the call stack (a malformed input never 5xx). */
const MAX_DEPTH = 200;

class Parser {
  #i = 0;
  #depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly textLength: number,
  ) {}

  parse(): FilterNode {
    if (this.tokens.length === 0) throw new FilterError('syntax', 'the expression is empty');
    const node = this.#or();
    const rest = this.tokens[this.#i];
    if (rest !== undefined) throw this.#unexpected(rest, 'end of expression');
    return node;
  }

  #or(): FilterNode {
    let left = this.#and();
    while (this.#atWord('or')) {
      this.#i++;
      left = { kind: 'or', left, right: this.#and() };
    }
    return left;
  }

  #and(): FilterNode {
    let left = this.#unary();
    while (this.#atWord('and')) {
      this.#i++;
      left = { kind: 'and', left, right: this.#unary() };
    }
    return left;
  }

  #unary(): FilterNode {
    this.#enter();
    let node: FilterNode;
    if (this.#atWord('not')) {
      this.#i++;
      node = { kind: 'not', operand: this.#unary() };
    } else {
      node = this.#primary();
    }
    this.#depth--;
    return node;
  }

  #primary(): FilterNode {
    const token = this.#peek('an expression');
    if (token.kind === 'punct' && token.value === '(') {
      this.#i++;
      const inner = this.#or();
      this.#expectPunct(')');
      return inner;
    }
    if (token.kind === 'word' && BOOL_FUNCTIONS.has(token.value) && this.#nextIsOpenParen()) {
      return this.#boolCall(token.value as BoolFunction);
    }
    const operand = this.#operand();
    const opToken = this.#peek('an operator (eq, ne, gt, ge, lt, le)');
    if (opToken.kind !== 'word' || !COMPARE_OPS.has(opToken.value)) {
      throw this.#unexpected(opToken, 'an operator (eq, ne, gt, ge, lt, le)');
    }
    this.#i++;
    return { kind: 'compare', op: opToken.value as CompareOp, operand, literal: this.#literal() };
  }

  /** substringof('value', operand) | startswith(operand, 'value') | endswith(operand, 'value') */
  #boolCall(fn: BoolFunction): FilterNode {
    this.#i += 2; // name and "("
    let operand: Operand;
    let value: string;
    if (fn === 'substringof') {
      value = this.#stringLiteral();
      this.#expectPunct(',');
      operand = this.#operand();
    } else {
      operand = this.#operand();
      this.#expectPunct(',');
      value = this.#stringLiteral();
    }
    this.#expectPunct(')');
    return { kind: 'call', fn, operand, value };
  }

  /** field | tolower(field) | toupper(field) */
  #operand(): Operand {
    const token = this.#peek('a field name');
    if (token.kind !== 'word' || RESERVED.has(token.value) || BOOL_FUNCTIONS.has(token.value)) {
      throw this.#unexpected(token, 'a field name');
    }
    if (TRANSFORMS.has(token.value) && this.#nextIsOpenParen()) {
      this.#i += 2;
      const field = this.#fieldName();
      this.#expectPunct(')');
      return { field, transform: token.value as Transform };
    }
    return { field: this.#fieldName() };
  }

  #fieldName(): string {
    const token = this.#peek('a field name');
    if (token.kind !== 'word' || RESERVED.has(token.value)) throw this.#unexpected(token, 'a field name');
    this.#i++;
    return token.value;
  }

  #literal(): Literal {
    const token = this.#peek('a literal');
    this.#i++;
    switch (token.kind) {
      case 'string':
        return { type: 'string', value: token.value };
      case 'number':
        return { type: 'number', value: token.value };
      case 'guid':
        return { type: 'guid', value: token.value };
      case 'datetime':
        return { type: 'datetime', value: token.value };
      case 'word':
        if (token.value === 'true' || token.value === 'false') return { type: 'boolean', value: token.value === 'true' };
        if (token.value === 'null') return { type: 'null' };
        break;
      case 'punct':
        break;
    }
    this.#i--;
    throw this.#unexpected(token, 'a literal');
  }

  #stringLiteral(): string {
    const token = this.#peek('a quoted string');
    if (token.kind !== 'string') throw this.#unexpected(token, 'a quoted string');
    this.#i++;
    return token.value;
  }

  #enter(): void {
    if (++this.#depth > MAX_DEPTH) throw new FilterError('syntax', `nesting deeper than ${MAX_DEPTH}`);
  }

  #atWord(word: string): boolean {
    const token = this.tokens[this.#i];
    return token !== undefined && token.kind === 'word' && token.value === word;
  }

  #nextIsOpenParen(): boolean {
    const next = this.tokens[this.#i + 1];
    return next !== undefined && next.kind === 'punct' && next.value === '(';
  }

  #peek(expected: string): Token {
    const token = this.tokens[this.#i];
    if (token === undefined) {
      throw new FilterError('syntax', `expected ${expected} at position ${this.textLength}, found the end`);
    }
    return token;
  }

  #expectPunct(value: '(' | ')' | ','): void {
    const token = this.#peek(`'${value}'`);
    if (token.kind !== 'punct' || token.value !== value) throw this.#unexpected(token, `'${value}'`);
    this.#i++;
  }

  #unexpected(token: Token, expected: string): FilterError {
    const shown = token.kind === 'string' ? `'${token.value}'` : String(token.value);
    return new FilterError('syntax', `expected ${expected} at position ${token.at}, found ${shown}`);
  }
}

/** Parses `_filter` text; throws FilterError (kind `syntax`) when it is not in the grammar. */
export function parseFilter(text: string): FilterNode {
  return new Parser(tokenize(text), text.length).parse();
}
