// The suite's own model of the Integration API's `_filter` and `_sort` list parameters.
//
// A check compares a server's filtered or sorted list with this module's evaluation of the same
// expression over the collection the suite read. This is the second, independent reading of the
// grammar in docs/decisions/intapi/reference-choices.md ("`_filter` grammar"; spec#integration-api-common-list-parameters-v1-and-v2-list-operations-that-list-below-as-list);
// it must never share code with reference-impl/.
import { holdsOrder, type OrderOperator } from '../order.js';

// ---------------------------------------------------------------------------------------------
// Types

/** Type of a filterable or sortable field, as the list's field table declares it. */
export type FieldType = 'string' | 'guid' | 'datetime' | 'number' | 'integer' | 'boolean';

/** Field name (as it appears in the records) to its type. */
export type FieldTypes = Readonly<Record<string, FieldType>>;

/** One item of a list, as read from the server (JSON object). */
export type DataRecord = Readonly<Record<string, unknown>>;

export type ComparisonOperator = OrderOperator;
export type BoolFunction = 'substringof' | 'startswith' | 'endswith';
type CaseFunction = 'tolower' | 'toupper';

/** `field`, `tolower(field)` or `toupper(field)` (grammar: operand). */
export type Operand = { readonly kind: 'field'; readonly field: string } | { readonly kind: CaseFunction; readonly field: string };

/** A literal of the grammar; `guid` and `datetime` keep their text as written. */
export type Literal =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'number'; readonly value: number }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'null' }
  | { readonly type: 'guid'; readonly value: string }
  | { readonly type: 'datetime'; readonly value: string };

interface OrNode {
  readonly kind: 'or';
  readonly left: FilterAst;
  readonly right: FilterAst;
}
interface AndNode {
  readonly kind: 'and';
  readonly left: FilterAst;
  readonly right: FilterAst;
}
interface NotNode {
  readonly kind: 'not';
  readonly operand: FilterAst;
}
interface ComparisonNode {
  readonly kind: 'comparison';
  readonly op: ComparisonOperator;
  readonly operand: Operand;
  readonly literal: Literal;
}
/** `substringof(value, operand)`, `startswith(operand, value)`, `endswith(operand, value)`. */
interface BoolCallNode {
  readonly kind: 'boolcall';
  readonly fn: BoolFunction;
  readonly operand: Operand;
  readonly value: string;
}
export type FilterAst = OrNode | AndNode | NotNode | ComparisonNode | BoolCallNode;

/** Well-formed but not meaningful for the fields: unknown field, wrong literal type, `gt` on a boolean. */
export class FilterTypeError extends Error {
  override readonly name = 'FilterTypeError';
}

/** A `_sort` value that is malformed or names a field that is not sortable. */
export class SortSpecError extends Error {
  override readonly name = 'SortSpecError';
}

/** A record read from the server whose field value does not have the field's declared type. */
export class RecordValueError extends Error {
  override readonly name = 'RecordValueError';
}

export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
export const BOOL_FUNCTIONS: readonly BoolFunction[] = ['substringof', 'startswith', 'endswith'];

// ---------------------------------------------------------------------------------------------
// Shared lexical helpers

const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

// RFC 3339 section 5.6 `date-time`: full-date "T" full-time, time-offset mandatory. Lower-case
// "t" and "z" are allowed by RFC 3339 (section 5.6, NOTE on case).
const RFC3339_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** True when `text` is a GUID in 8-4-4-4-12 hexadecimal form (either case). */
export function isGuid(text: string): boolean {
  return GUID_PATTERN.test(text);
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/**
 * The instant (milliseconds since the epoch) of an RFC 3339 date-time, or `undefined` when the
 * text is not one. docs/decisions/intapi/reference-choices.md ("Bodies and bounds"): date-times are RFC 3339 and compare as
 * instants. Choices: a leap second (`:60`) is rejected because the server stores JavaScript-Date
 * instants, which cannot hold it; fraction digits beyond milliseconds are truncated, as the
 * server's `toISOString()` precision is milliseconds.
 */
export function parseDateTime(text: string): number | undefined {
  const match = RFC3339_PATTERN.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const offsetSign = match[9] === '-' ? -1 : 1;
  const offsetHours = Number(match[10] ?? '0');
  const offsetMinutes = Number(match[11] ?? '0');
  const valid =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  if (!valid) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  return date.getTime() - offsetSign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

// ---------------------------------------------------------------------------------------------
// Rendering (AST -> `_filter` text)

const PRECEDENCE = { or: 1, and: 2, not: 3, primary: 4 } as const;

/**
 * The exact `_filter` text of an expression. Parentheses are written only where the grammar
 * needs them to keep the tree (`(a or b) and c`, `a and (b and c)`, `not (a or b)`), so
 * `not` binding tighter than `and`, and `and` tighter than `or`, is exercised on the server.
 */
export function render(ast: FilterAst): string {
  return renderAt(ast, PRECEDENCE.or);
}

function renderAt(ast: FilterAst, context: number): string {
  const [text, own] = renderNode(ast);
  return own < context ? `(${text})` : text;
}

function renderNode(ast: FilterAst): [string, number] {
  switch (ast.kind) {
    // or/and are left-associative in the grammar: a same-level right child needs parentheses.
    case 'or':
      return [`${renderAt(ast.left, PRECEDENCE.or)} or ${renderAt(ast.right, PRECEDENCE.and)}`, PRECEDENCE.or];
    case 'and':
      return [`${renderAt(ast.left, PRECEDENCE.and)} and ${renderAt(ast.right, PRECEDENCE.not)}`, PRECEDENCE.and];
    case 'not':
      return [`not ${renderAt(ast.operand, PRECEDENCE.not)}`, PRECEDENCE.not];
    case 'comparison':
      return [`${renderOperand(ast.operand)} ${ast.op} ${renderLiteral(ast.literal)}`, PRECEDENCE.primary];
    case 'boolcall':
      return [renderBoolCall(ast), PRECEDENCE.primary];
  }
}

function renderBoolCall(node: BoolCallNode): string {
  const operand = renderOperand(node.operand);
  const value = renderString(node.value);
  // grammar: substringof takes the string first, startswith/endswith take the operand first.
  return node.fn === 'substringof' ? `substringof(${value},${operand})` : `${node.fn}(${operand},${value})`;
}

function renderOperand(operand: Operand): string {
  return operand.kind === 'field' ? operand.field : `${operand.kind}(${operand.field})`;
}

/** Text of a literal. */
function renderLiteral(literal: Literal): string {
  switch (literal.type) {
    case 'string':
      return renderString(literal.value);
    case 'number':
      return renderNumber(literal.value);
    case 'boolean':
      return String(literal.value);
    case 'null':
      return 'null';
    case 'guid':
      return `guid'${literal.value}'`;
    case 'datetime':
      return `datetime'${literal.value}'`;
  }
}

/** grammar: string := "'" (any char, with '' for a quote)* "'". */
function renderString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * A number in plain decimal notation (no exponent, which the grammar's `number` may not
 * include on every server), with exactly the digits of JavaScript's shortest round-trip form,
 * so that parsing the text gives back the same double.
 */
function renderNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`a _filter number must be finite, got ${value}`);
  const text = String(value); // String(-0) is "0": -0 and 0 are the same number to a filter
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const sign = match[1] ?? '';
  const digits = (match[2] ?? '') + (match[3] ?? '');
  const point = (match[2] ?? '').length + Number(match[4]);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

// ---------------------------------------------------------------------------------------------
// Field resolution and typed record values

interface ResolvedField {
  readonly name: string; // the name as declared in FieldTypes (= the record's key)
  readonly type: FieldType;
}

/** docs/decisions/intapi/reference-choices.md "Lists": field names in `_filter` and `_sort` match case-insensitively. */
function resolveField(written: string, fields: FieldTypes): ResolvedField | undefined {
  const exact = fields[written];
  if (exact !== undefined) return { name: written, type: exact };
  const lower = written.toLowerCase();
  const name = Object.keys(fields).find((candidate) => candidate.toLowerCase() === lower);
  const type = name === undefined ? undefined : fields[name];
  return name === undefined || type === undefined ? undefined : { name, type };
}

/** A field value reduced to what compares: guids lower-cased, date-times as instants. */
type Scalar = string | number | boolean;

/** The record's value of a field, or null when unset (absent counts as null). */
function readField(record: DataRecord, field: ResolvedField): Scalar | null {
  const value = record[field.name];
  if (value === null || value === undefined) return null;
  const scalar = scalarOf(value, field.type);
  if (scalar === undefined) {
    throw new RecordValueError(`field ${field.name}: expected ${field.type}, got ${JSON.stringify(value)}`);
  }
  return scalar;
}

function scalarOf(value: unknown, type: FieldType): Scalar | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'guid':
      // docs/decisions/intapi/reference-choices.md: guid fields compare case-insensitively.
      return typeof value === 'string' ? value.toLowerCase() : undefined;
    case 'datetime':
      // docs/decisions/intapi/reference-choices.md: date-time fields compare as instants.
      return typeof value === 'string' ? instantOf(value) : undefined;
    case 'number':
    case 'integer':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
  }
}

/** parseDateTime's answers, kept: a sort compares each record n log n times, and parsing in every
 * comparison was a large share of a run's CPU against pages of 1000 (tests/run/budget.test.ts). Bounded: cleared when full. */
const INSTANTS = new Map<string, number | undefined>();
function instantOf(text: string): number | undefined {
  if (INSTANTS.has(text)) return INSTANTS.get(text);
  const instant = parseDateTime(text);
  if (INSTANTS.size >= 100_000) INSTANTS.clear();
  INSTANTS.set(text, instant);
  return instant;
}

/** Ordinal comparison: UTF-16 code units for strings (JavaScript `<`), numeric, false < true. */
function compareScalars(left: Scalar, right: Scalar): number {
  if (typeof left === 'boolean' || typeof right === 'boolean') return Number(left) - Number(right);
  if (left < right) return -1;
  return left > right ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Type checking (what a server answers 422 for although the text parses)

// docs/decisions/intapi/reference-choices.md: guid fields take a guid'...' or string literal, date-time fields datetime'...';
// `null` is a literal of every type.
const ACCEPTED_LITERALS: Readonly<Record<FieldType, readonly Literal['type'][]>> = {
  string: ['string', 'null'],
  guid: ['guid', 'string', 'null'],
  datetime: ['datetime', 'null'],
  number: ['number', 'null'],
  integer: ['number', 'null'],
  boolean: ['boolean', 'null'],
};

/**
 * Throws FilterTypeError when the expression does not fit the fields: an unknown field, a literal
 * of the wrong type, an ordering operator on a boolean, or a function on a field that is not a
 * string (choice: the spec lists the functions as string functions; guid, date-time, number and
 * boolean fields do not take them).
 */
function checkFilter(ast: FilterAst, fields: FieldTypes): void {
  switch (ast.kind) {
    case 'or':
    case 'and':
      checkFilter(ast.left, fields);
      checkFilter(ast.right, fields);
      return;
    case 'not':
      checkFilter(ast.operand, fields);
      return;
    case 'comparison':
      checkComparison(ast, fields);
      return;
    case 'boolcall':
      requireStringField(ast.operand, fields, ast.fn);
      return;
  }
}

function checkComparison(node: ComparisonNode, fields: FieldTypes): void {
  const field = operandField(node.operand, fields);
  if (node.operand.kind !== 'field') requireStringField(node.operand, fields, node.operand.kind);
  if (!ACCEPTED_LITERALS[field.type].includes(node.literal.type)) {
    throw new FilterTypeError(`field ${field.name} (${field.type}) does not take ${renderLiteral(node.literal)}`);
  }
  // docs/decisions/intapi/reference-choices.md: booleans allow only eq/ne.
  if (field.type === 'boolean' && node.op !== 'eq' && node.op !== 'ne') {
    throw new FilterTypeError(`boolean field ${field.name} allows only eq and ne, not ${node.op}`);
  }
  checkLiteralText(node.literal);
}

/** A tree built in code (not parsed) may hold a guid or datetime text the parser would refuse. */
function checkLiteralText(literal: Literal): void {
  if (literal.type === 'guid' && !isGuid(literal.value)) throw new FilterTypeError(`malformed guid '${literal.value}'`);
  if (literal.type === 'datetime' && parseDateTime(literal.value) === undefined) {
    throw new FilterTypeError(`malformed datetime '${literal.value}'`);
  }
  if (literal.type === 'number' && !Number.isFinite(literal.value)) throw new FilterTypeError('non-finite number');
}

function operandField(operand: Operand, fields: FieldTypes): ResolvedField {
  const field = resolveField(operand.field, fields);
  if (field === undefined) throw new FilterTypeError(`unknown or non-filterable field ${operand.field}`);
  return field;
}

function requireStringField(operand: Operand, fields: FieldTypes, fn: string): void {
  const field = operandField(operand, fields);
  if (field.type !== 'string') throw new FilterTypeError(`${fn} needs a string field; ${field.name} is ${field.type}`);
}

// ---------------------------------------------------------------------------------------------
// Evaluation (docs/decisions/intapi/reference-choices.md "`_filter` grammar", semantics; two-valued logic)

/** The records that satisfy the expression, in their order. */
export function filterRecords<R extends DataRecord>(records: readonly R[], ast: FilterAst, fields: FieldTypes): R[] {
  checkFilter(ast, fields);
  return records.filter((record) => evaluateNode(ast, record, fields));
}

function evaluateNode(ast: FilterAst, record: DataRecord, fields: FieldTypes): boolean {
  switch (ast.kind) {
    case 'or':
      return evaluateNode(ast.left, record, fields) || evaluateNode(ast.right, record, fields);
    case 'and':
      return evaluateNode(ast.left, record, fields) && evaluateNode(ast.right, record, fields);
    case 'not':
      // Two-valued logic: `not` is plain negation, also over comparisons that were false for null.
      return !evaluateNode(ast.operand, record, fields);
    case 'comparison':
      return evaluateComparison(ast, record, fields);
    case 'boolcall':
      return evaluateBoolCall(ast, record, fields);
  }
}

function evaluateComparison(node: ComparisonNode, record: DataRecord, fields: FieldTypes): boolean {
  const field = operandField(node.operand, fields);
  const value = readField(record, field);
  if (node.literal.type === 'null') return compareWithNull(node.op, node.operand, value);
  // docs/decisions/intapi/reference-choices.md: `ne` is the negation of `eq`, so a null field is `ne` every non-null value;
  // an ordering comparison with null, and a function applied to null, are false.
  if (value === null) return node.op === 'ne' && node.operand.kind === 'field';
  return holdsOrder(node.op, compareScalars(applyCase(node.operand, value), literalScalar(node.literal, field.type)));
}

/**
 * docs/decisions/intapi/reference-choices.md: `f eq null` is true iff f is null, `f ne null` the reverse, an ordering comparison
 * with null is false, and every function applied to null is false. Hence (our reading)
 * `tolower(f) eq null` is always false (either f is null, and the function makes it false, or
 * f is not null) and `tolower(f) ne null` is true iff f is not null.
 */
function compareWithNull(op: ComparisonOperator, operand: Operand, value: Scalar | null): boolean {
  if (op === 'eq') return operand.kind === 'field' && value === null;
  if (op === 'ne') return value !== null;
  return false;
}

function evaluateBoolCall(node: BoolCallNode, record: DataRecord, fields: FieldTypes): boolean {
  const value = readField(record, operandField(node.operand, fields));
  if (value === null) return false; // every function applied to null is false
  const text = applyCase(node.operand, value);
  if (typeof text !== 'string') throw new FilterTypeError(`${node.fn} needs a string field`);
  // Case-sensitive and by UTF-16 code units, as JavaScript's own string functions.
  switch (node.fn) {
    case 'substringof':
      return text.includes(node.value);
    case 'startswith':
      return text.startsWith(node.value);
    case 'endswith':
      return text.endsWith(node.value);
  }
}

/** docs/decisions/intapi/reference-choices.md: tolower/toupper are toLowerCase()/toUpperCase() (string fields only, checked). */
function applyCase(operand: Operand, value: Scalar): Scalar {
  if (typeof value !== 'string' || operand.kind === 'field') return value;
  return operand.kind === 'tolower' ? value.toLowerCase() : value.toUpperCase();
}

function literalScalar(literal: Literal, type: FieldType): Scalar {
  switch (literal.type) {
    case 'string':
    case 'guid':
      return type === 'guid' ? literal.value.toLowerCase() : literal.value;
    case 'datetime':
      return parseDateTime(literal.value) ?? Number.NaN; // checked by checkFilter
    case 'number':
    case 'boolean':
      return literal.value;
    case 'null':
      throw new FilterTypeError('null has no value'); // handled by compareWithNull
  }
}

// ---------------------------------------------------------------------------------------------
// `_sort` (docs/decisions/intapi/reference-choices.md "Lists"; public-facts#list-parameters-and-envelope-integration-api)

export interface SortKey {
  readonly field: string;
  readonly descending: boolean;
}
type SortSpec = readonly SortKey[];

/** The `_sort` text of a spec. */
export function renderSort(spec: SortSpec): string {
  return spec.map((key) => `${key.descending ? '-' : ''}${key.field}`).join(',');
}

/** A copy of the records in `_sort` order; ties keep their input order (the sort is stable). */
export function sortRecords<R extends DataRecord>(records: readonly R[], spec: SortSpec, fields: FieldTypes): R[] {
  const compare = recordComparator(spec, fields);
  return [...records].sort(compare);
}

/**
 * For each key of `spec`, how many neighbouring pairs of the records (in `_sort` order) that key
 * decides: `[3, 0]` means the first key orders three pairs and the second key none (the other pairs
 * tie on every key). All zeros: any order of the records is sorted, and a sort check on them proves nothing.
 */
export function keyDecisions(records: readonly DataRecord[], spec: SortSpec, fields: FieldTypes): number[] {
  const keys = spec.map((key) => sortField(key.field, fields));
  const sorted = sortRecords(records, spec, fields);
  const decided = keys.map(() => 0);
  for (let index = 1; index < sorted.length; index += 1) {
    const previous = sorted[index - 1];
    const current = sorted[index];
    if (previous === undefined || current === undefined) continue;
    const at = keys.findIndex((field) => compareNullable(readField(previous, field), readField(current, field)) !== 0);
    if (at >= 0) decided[at] = (decided[at] ?? 0) + 1;
  }
  return decided;
}

/** The first index i with records[i] ordered before records[i - 1], or -1 when sorted. */
export function sortViolationIndex(records: readonly DataRecord[], spec: SortSpec, fields: FieldTypes): number {
  const compare = recordComparator(spec, fields);
  for (let index = 1; index < records.length; index += 1) {
    const previous = records[index - 1];
    const current = records[index];
    if (previous !== undefined && current !== undefined && compare(previous, current) > 0) return index;
  }
  return -1;
}

function recordComparator(spec: SortSpec, fields: FieldTypes): (left: DataRecord, right: DataRecord) => number {
  const keys = spec.map((key) => ({ field: sortField(key.field, fields), descending: key.descending }));
  return (left, right) => {
    for (const key of keys) {
      const order = compareNullable(readField(left, key.field), readField(right, key.field));
      if (order !== 0) return key.descending ? -order : order;
    }
    return 0;
  };
}

function sortField(name: string, fields: FieldTypes): ResolvedField {
  const field = resolveField(name, fields);
  if (field === undefined) throw new SortSpecError(`unknown or non-sortable field ${name}`);
  return field;
}

/** docs/decisions/intapi/reference-choices.md: nulls sort first ascending, so last descending (the whole order is reversed). */
function compareNullable(left: Scalar | null, right: Scalar | null): number {
  if (left === null) return right === null ? 0 : -1;
  if (right === null) return 1;
  return compareScalars(left, right);
}

/**
 * Whether the expression sits on a boundary of its rule in these records, where a misreading of
 * the rule shows even when the right answer is all or nothing: a string literal that differs only
 * in case from a value of its field (`name eq 'ALPHA'` beside 'alpha': comparisons are
 * case-sensitive), or an ordering comparison whose literal is a value of its field (`gt` against
 * `ge`), or a startswith/endswith whose piece stands inside a value, not at its start/end (a server
 * that takes them for substringof), or `ne` on a field that is null in some record (a null field is
 * `ne` every value). The kind of the first boundary found, or undefined.
 */
export function boundaryOf(
  ast: FilterAst,
  records: readonly DataRecord[],
): 'case-boundary' | 'bound-boundary' | 'inner-boundary' | 'null-boundary' | undefined {
  switch (ast.kind) {
    case 'and':
    case 'or':
      return boundaryOf(ast.left, records) ?? boundaryOf(ast.right, records);
    case 'not':
      return boundaryOf(ast.operand, records);
    case 'boolcall': {
      // startswith/endswith with a piece that stands inside a value but does not start (end) it.
      if (ast.fn === 'substringof' || ast.operand.kind !== 'field' || ast.value.length === 0) return undefined;
      const field = ast.operand.field;
      const inside = (v: unknown) =>
        typeof v === 'string' && v.includes(ast.value) && !(ast.fn === 'startswith' ? v.startsWith(ast.value) : v.endsWith(ast.value));
      return records.some((r) => inside(r[field])) ? 'inner-boundary' : undefined;
    }
    case 'comparison': {
      if (ast.operand.kind !== 'field' || ast.literal.type === 'null' || ast.literal.type === 'boolean') return undefined;
      const literal = ast.literal.value;
      const values = records.map((r) => r[ast.operand.field]);
      if (typeof literal === 'string' && ast.literal.type === 'string') {
        if (values.some((v) => typeof v === 'string' && v !== literal && v.toLowerCase() === literal.toLowerCase())) return 'case-boundary';
      }
      // `ne` where the field is null somewhere: a null field is ne every value (docs/decisions/intapi/reference-choices.md).
      if (ast.op === 'ne' && values.some((v) => v === null || v === undefined)) return 'null-boundary';
      if (ast.op !== 'eq' && ast.op !== 'ne') {
        const same = (v: unknown) =>
          ast.literal.type === 'datetime' && typeof v === 'string' && typeof literal === 'string' ? Date.parse(v) === Date.parse(literal) : v === literal;
        if (values.some(same)) return 'bound-boundary';
      }
      return undefined;
    }
  }
}
