// A `_filter` and `_sort` parser for the tests of the suite's filter model (suites/_harness/intapi/filter.ts).
// The suite itself never parses: it generates trees, renders them (render, renderSort) and
// evaluates them. Tests parse so that cases can be written as text, and so that
// parse(render(tree)) proves the rendered text means the tree. Recursive descent, one function
// per production of docs/decisions/intapi/reference-choices.md "`_filter` grammar".
import {
  BOOL_FUNCTIONS,
  COMPARISON_OPERATORS,
  filterRecords,
  isGuid,
  parseDateTime,
  render,
  SortSpecError,
  sortViolationIndex,
  type BoolFunction,
  type ComparisonOperator,
  type DataRecord,
  type FieldTypes,
  type FilterAst,
  type Literal,
  type Operand,
  type SortKey,
} from '../../suites/_harness/intapi/filter.js';

type CaseFunction = Exclude<Operand['kind'], 'field'>;
const CASE_FUNCTIONS: readonly CaseFunction[] = ['tolower', 'toupper'];

/** The text is not a sentence of the grammar (docs/decisions/intapi/reference-choices.md: a syntax error is 422 naming `_filter`). */
export class FilterSyntaxError extends Error {
  override readonly name = 'FilterSyntaxError';
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Tokenizer

type Token =
  | { readonly kind: '(' | ')' | ',' | 'end'; readonly position: number }
  | { readonly kind: 'word'; readonly text: string; readonly position: number }
  | { readonly kind: 'string' | 'guid' | 'datetime'; readonly value: string; readonly position: number }
  | { readonly kind: 'number'; readonly value: number; readonly position: number };

const WHITESPACE = new Set([' ', '\t', '\r', '\n']);
const WORD_START = /[A-Za-z_]/;
const WORD_PART = /[A-Za-z0-9_]/;
const NUMBER_AT = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text.charAt(index);
    if (WHITESPACE.has(char)) {
      index += 1;
    } else if (char === '(' || char === ')' || char === ',') {
      tokens.push({ kind: char, position: index });
      index += 1;
    } else if (char === "'") {
      const [value, next] = readQuoted(text, index);
      tokens.push({ kind: 'string', value, position: index });
      index = next;
    } else if (char === '-' || /\d/.test(char)) {
      const [value, next] = readNumber(text, index);
      tokens.push({ kind: 'number', value, position: index });
      index = next;
    } else if (WORD_START.test(char)) {
      const [token, next] = readWordOrTypedLiteral(text, index);
      tokens.push(token);
      index = next;
    } else {
      throw new FilterSyntaxError(`unexpected character ${JSON.stringify(char)}`, index);
    }
  }
  tokens.push({ kind: 'end', position: text.length });
  return tokens;
}

/** A quoted string starting at `start` (the opening quote); `''` inside stands for one quote. */
function readQuoted(text: string, start: number): [string, number] {
  let value = '';
  let index = start + 1;
  for (;;) {
    const quote = text.indexOf("'", index);
    if (quote < 0) throw new FilterSyntaxError('unterminated string literal', start);
    value += text.slice(index, quote);
    if (text.charAt(quote + 1) !== "'") return [value, quote + 1];
    value += "'";
    index = quote + 2;
  }
}

function readNumber(text: string, start: number): [number, number] {
  NUMBER_AT.lastIndex = start;
  const match = NUMBER_AT.exec(text);
  if (match === null) throw new FilterSyntaxError('malformed number', start);
  const value = Number(match[0]);
  if (!Number.isFinite(value)) throw new FilterSyntaxError('number out of range', start);
  return [value, start + match[0].length];
}

/** A word, or `guid'...'` / `datetime'...'` when the word is directly followed by a quote. */
function readWordOrTypedLiteral(text: string, start: number): [Token, number] {
  let end = start + 1;
  while (end < text.length && WORD_PART.test(text.charAt(end))) end += 1;
  const word = text.slice(start, end);
  if ((word === 'guid' || word === 'datetime') && text.charAt(end) === "'") {
    const [value, next] = readQuoted(text, end);
    checkTypedLiteral(word, value, start);
    return [{ kind: word, value, position: start }, next];
  }
  return [{ kind: 'word', text: word, position: start }, end];
}

function checkTypedLiteral(kind: 'guid' | 'datetime', value: string, position: number): void {
  if (kind === 'guid' && !isGuid(value)) throw new FilterSyntaxError(`malformed guid literal '${value}'`, position);
  if (kind === 'datetime' && parseDateTime(value) === undefined) {
    throw new FilterSyntaxError(`malformed datetime literal '${value}' (RFC 3339 expected)`, position);
  }
}

// ---------------------------------------------------------------------------------------------
// Parser (recursive descent, one function per production of docs/decisions/intapi/reference-choices.md "`_filter` grammar")

// Keywords and function names are lower case (docs/decisions/intapi/reference-choices.md); none of them can name a field.
const RESERVED = new Set<string>(['and', 'or', 'not', 'true', 'false', 'null', ...COMPARISON_OPERATORS, ...BOOL_FUNCTIONS, ...CASE_FUNCTIONS]);

/** Parses `_filter` text into its tree; throws FilterSyntaxError. Field names are kept as written. */
export function parse(text: string): FilterAst {
  const parser = new Parser(tokenize(text));
  const ast = parser.expression();
  parser.expectEnd();
  return ast;
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  /** expr := or; or := and ("or" and)* */
  expression(): FilterAst {
    let left = this.conjunction();
    while (this.acceptWord('or')) left = { kind: 'or', left, right: this.conjunction() };
    return left;
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== 'end') throw new FilterSyntaxError(`unexpected ${describe(token)}`, token.position);
  }

  /** and := unary ("and" unary)* */
  private conjunction(): FilterAst {
    let left = this.unary();
    while (this.acceptWord('and')) left = { kind: 'and', left, right: this.unary() };
    return left;
  }

  /** unary := "not" unary | primary */
  private unary(): FilterAst {
    if (this.acceptWord('not')) return { kind: 'not', operand: this.unary() };
    return this.primary();
  }

  /** primary := "(" expr ")" | boolcall | operand OP literal */
  private primary(): FilterAst {
    if (this.accept('(')) {
      const inner = this.expression();
      this.expect(')');
      return inner;
    }
    const token = this.peek();
    if (token.kind === 'word' && isBoolFunction(token.text)) return this.boolCall(token.text);
    const operand = this.operand();
    const op = this.operator();
    return { kind: 'comparison', op, operand, literal: this.literal() };
  }

  /** boolcall := substringof(string, operand) | startswith(operand, string) | endswith(operand, string) */
  private boolCall(fn: BoolFunction): Extract<FilterAst, { kind: 'boolcall' }> {
    this.next();
    this.expect('(');
    if (fn === 'substringof') {
      const value = this.stringLiteral();
      this.expect(',');
      const operand = this.operand();
      this.expect(')');
      return { kind: 'boolcall', fn, operand, value };
    }
    const operand = this.operand();
    this.expect(',');
    const value = this.stringLiteral();
    this.expect(')');
    return { kind: 'boolcall', fn, operand, value };
  }

  /** operand := field | tolower(field) | toupper(field) */
  private operand(): Operand {
    const token = this.peek();
    if (token.kind === 'word' && isCaseFunction(token.text)) {
      this.next();
      this.expect('(');
      const field = this.fieldName();
      this.expect(')');
      return { kind: token.text, field };
    }
    return { kind: 'field', field: this.fieldName() };
  }

  private fieldName(): string {
    const token = this.next();
    if (token.kind === 'word' && !RESERVED.has(token.text)) return token.text;
    throw new FilterSyntaxError(`expected a field name, found ${describe(token)}`, token.position);
  }

  private operator(): ComparisonOperator {
    const token = this.next();
    if (token.kind === 'word' && isComparisonOperator(token.text)) return token.text;
    throw new FilterSyntaxError(`expected one of eq ne gt ge lt le, found ${describe(token)}`, token.position);
  }

  /** literal := string | number | true | false | null | guid'..' | datetime'..' */
  private literal(): Literal {
    const token = this.next();
    switch (token.kind) {
      case 'string':
      case 'guid':
      case 'datetime':
        return { type: token.kind, value: token.value };
      case 'number':
        return { type: 'number', value: token.value };
      case 'word':
        if (token.text === 'true' || token.text === 'false') return { type: 'boolean', value: token.text === 'true' };
        if (token.text === 'null') return { type: 'null' };
        break;
      default:
        break;
    }
    throw new FilterSyntaxError(`expected a literal, found ${describe(token)}`, token.position);
  }

  private stringLiteral(): string {
    const token = this.next();
    if (token.kind === 'string') return token.value;
    throw new FilterSyntaxError(`expected a string literal, found ${describe(token)}`, token.position);
  }

  private peek(): Token {
    // tokenize() always ends the list with an `end` token, which next() never passes.
    return this.tokens[this.index] ?? { kind: 'end', position: 0 };
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  private accept(kind: '(' | ')' | ','): boolean {
    if (this.peek().kind !== kind) return false;
    this.index += 1;
    return true;
  }

  private acceptWord(word: string): boolean {
    const token = this.peek();
    if (token.kind !== 'word' || token.text !== word) return false;
    this.index += 1;
    return true;
  }

  private expect(kind: '(' | ')' | ','): void {
    const token = this.peek();
    if (!this.accept(kind)) throw new FilterSyntaxError(`expected '${kind}', found ${describe(token)}`, token.position);
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'end of text';
    case 'word':
      return `'${token.text}'`;
    case 'number':
      return `number ${token.value}`;
    case 'string':
    case 'guid':
    case 'datetime':
      return `${token.kind} literal`;
    default:
      return `'${token.kind}'`;
  }
}

function isComparisonOperator(word: string): word is ComparisonOperator {
  return (COMPARISON_OPERATORS as readonly string[]).includes(word);
}
function isBoolFunction(word: string): word is BoolFunction {
  return (BOOL_FUNCTIONS as readonly string[]).includes(word);
}
function isCaseFunction(word: string): word is CaseFunction {
  return (CASE_FUNCTIONS as readonly string[]).includes(word);
}

// ---------------------------------------------------------------------------------------------
// `_sort`

const SORT_FIELD = /^(-?)([A-Za-z_][A-Za-z0-9_]*)$/;

/** `name,-completionDate` -> keys; a `-` prefix selects descending order. Throws SortSpecError. */
export function parseSort(text: string): readonly SortKey[] {
  return text.split(',').map((part) => {
    const match = SORT_FIELD.exec(part);
    if (match === null) throw new SortSpecError(`malformed _sort item ${JSON.stringify(part)} in ${JSON.stringify(text)}`);
    return { field: match[2] ?? '', descending: match[1] === '-' };
  });
}

// ---------------------------------------------------------------------------------------------
// Through the model's public functions

/** Whether one record satisfies the expression: filterRecords over that record alone. */
export function evaluate(ast: FilterAst, record: DataRecord, fields: FieldTypes): boolean {
  return filterRecords([record], ast, fields).length === 1;
}

/** The records in `_sort` order, ties in input order (Array.prototype.sort is stable), with the
 * model's own order read through sortViolationIndex on each pair. */
export function sortRecords<R extends DataRecord>(records: readonly R[], spec: readonly SortKey[], fields: FieldTypes): R[] {
  const before = (a: R, b: R): boolean => sortViolationIndex([b, a], spec, fields) === 1;
  return [...records].sort((a, b) => (before(b, a) ? 1 : before(a, b) ? -1 : 0));
}

/** The `_filter` text of a number, as render writes it inside a comparison. */
export function renderNumber(value: number): string {
  return render({ kind: 'comparison', operand: { kind: 'field', field: 'n' }, op: 'eq', literal: { type: 'number', value } }).replace(/^n eq /, '');
}
