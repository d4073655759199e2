// fast-check arbitraries shared by the suites: `_filter` expressions and `_sort` specs drawn from
// the data a server actually holds, and values inside, at and just outside a field's bounds.
import * as fc from 'fast-check';
import {
  BOOL_FUNCTIONS,
  COMPARISON_OPERATORS,
  type BoolFunction,
  type ComparisonOperator,
  type DataRecord,
  type FieldType,
  type FieldTypes,
  type FilterAst,
  type Literal,
  type Operand,
  type SortKey,
  isGuid,
  parseDateTime,
} from './filter.js';
import { withSubtreeShrinks } from '../generators.js';
import { encodedLength } from '../url-budget.js';

// ---------------------------------------------------------------------------------------------
// Shared small arbitraries and helpers

const DAY_MS = 86_400_000;

/** Number of Unicode code points of a string (docs/decisions/intapi/reference-choices.md "Bodies and bounds": lengths count code points). */
export function codePointLength(text: string): number {
  const surrogatePairs = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  return text.length - surrogatePairs;
}

/** -0 renders as "0" and is the same number to a server: keep generated values canonical. */
function withoutNegativeZero(value: number): number {
  return value === 0 ? 0 : value;
}

const SURROGATE_START = 0xd800;
const SURROGATE_COUNT = 0x800;

/**
 * One Unicode scalar value (never a lone surrogate), biased towards printable ASCII but with
 * BMP (control characters included) and astral code points well represented, since a server
 * counting UTF-16 units instead of code points differs only on astral characters.
 */
const codePoint: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    {
      weight: 2,
      arbitrary: fc.integer({ min: 0, max: 0xffff - SURROGATE_COUNT }).map((value) => (value >= SURROGATE_START ? value + SURROGATE_COUNT : value)),
    },
    { weight: 3, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }) },
  )
  .map((value) => String.fromCodePoint(value));

/**
 * Strings of exactly `length` code points: a random pattern of up to 32 code points repeated
 * and cut, which keeps 10 000-code-point strings cheap to generate and to shrink.
 */
function stringOfLength(length: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return fc.tuple(length, fc.array(codePoint, { minLength: 1, maxLength: 32 })).map(([count, pattern]) => {
    // The pattern repeated, then its first count % length code points: the same string as
    // cycling through the pattern one code point at a time, built natively (values reach 10,001
    // code points, and this runs once per generated value).
    const whole = Math.floor(count / pattern.length);
    return pattern.join('').repeat(whole) + pattern.slice(0, count - whole * pattern.length).join('');
  });
}

type CaseChange = 'as-is' | 'lower' | 'upper';
const caseChange: fc.Arbitrary<CaseChange> = fc.constantFrom<CaseChange>('as-is', 'lower', 'upper');

function changeCase(text: string, change: CaseChange): string {
  if (change === 'lower') return text.toLowerCase();
  return change === 'upper' ? text.toUpperCase() : text;
}

// RFC 3339 needs a four-digit year; a day of margin keeps an offset form inside 0000..9999.
const EARLIEST_WRITABLE = parseDateTime('0000-01-02T00:00:00.000Z') ?? 0;
const LATEST_WRITABLE = parseDateTime('9999-12-30T23:59:59.999Z') ?? 0;

function clampInstant(instant: number): number {
  return Math.min(LATEST_WRITABLE, Math.max(EARLIEST_WRITABLE, instant));
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * RFC 3339 text of an instant: `toISOString()` form for offset 0, otherwise the local time at
 * the offset with `+hh:mm`/`-hh:mm`. Without fraction, the milliseconds are dropped first so the
 * text still denotes the instant it is said to.
 */
function formatDateTime(instant: number, offsetMinutes: number, withFraction: boolean): string {
  const exact = withFraction ? instant : instant - (((instant % 1000) + 1000) % 1000);
  const local = new Date(exact + offsetMinutes * 60_000).toISOString();
  const stamp = withFraction ? local.slice(0, 23) : local.slice(0, 19);
  if (offsetMinutes === 0) return `${stamp}Z`;
  const magnitude = Math.abs(offsetMinutes);
  const sign = offsetMinutes < 0 ? '-' : '+';
  return `${stamp}${sign}${twoDigits(Math.floor(magnitude / 60))}:${twoDigits(magnitude % 60)}`;
}

/** Mostly UTC, sometimes a whole-hour or half-hour offset (both must compare as instants). */
const offsetMinutes: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constantFrom(60, -300, 330, 840, -720) },
);

// ---------------------------------------------------------------------------------------------
// `_filter` expressions

/** and/or/not nest at most three levels: deep enough for every precedence case, short to read. */
const MAX_FILTER_DEPTH = 3;

const NULL_LITERAL: Literal = { type: 'null' };

type FragmentKind = 'whole' | 'prefix' | 'suffix' | 'substring';
const ALL_FRAGMENTS: readonly FragmentKind[] = ['whole', 'prefix', 'suffix', 'substring'];
// The fragment each function is most likely to select on; the first kind is the shrink target.
const FRAGMENTS_FOR: Readonly<Record<BoolFunction, readonly FragmentKind[]>> = {
  substringof: ['substring', 'whole', 'prefix', 'suffix'],
  startswith: ['prefix', 'whole', 'substring'],
  endswith: ['suffix', 'whole', 'substring'],
};

/** Bytes an and/or node adds around its operands in a query string (`(l) and (r)`, encoded): the
 * rest of its budget is halved between them. */
const CONNECTIVE_BYTES = 17;

/** The widest leaf of a string field without its literal (`substringof('',toupper(f))`), encoded. */
function leafBytes(name: string): number {
  return encodedLength(`substringof('',toupper(${name}))`);
}

/**
 * The values of each field a leaf of `room` encoded bytes can carry (url-budget.ts): a string whose
 * literal (quotes doubled) does not fit is not drawn from. Other values (numbers, GUIDs, instants)
 * are short and always fit.
 */
function valuesWithin(fields: FieldTypes, sample: readonly DataRecord[], budget: number): (name: string, room: number) => unknown[] {
  const all = new Map(Object.keys(fields).map((name) => [name, valuesOf(sample, name)]));
  // A string's encoded length, once, counted up to the whole budget (a longer one fits no leaf).
  const lengths = new Map<string, number>();
  const lengthOf = (text: string): number => {
    let n = lengths.get(text);
    if (n === undefined) lengths.set(text, (n = encodedLength(text.replaceAll("'", "''"), budget)));
    return n;
  };
  return (name, room) => {
    const values = all.get(name) ?? [];
    if (room === Number.POSITIVE_INFINITY) return values;
    const left = room - leafBytes(name);
    return values.filter((v) => typeof v !== 'string' || lengthOf(v) <= left);
  };
}

/**
 * `_filter` trees over the filterable `fields`: every comparison operator, and/or/not (nesting
 * depth at most 3, parentheses where the tree needs them), every function, with literals of
 * the field's type. Literals come mostly from `sample` (the records read from the server: their
 * values, prefixes, suffixes, substrings, case-changed variants, numbers and instants moved a
 * little, null) so that selections are proper subsets; sometimes they are fresh values.
 * Shrinks towards a single comparison `field eq <sample value>`.
 * The rendered expression takes at most `budget` bytes in a query string (url-budget.ts): a node
 * halves what it has between its operands, and a leaf draws only values whose literal fits its share.
 */
export function filterExpression(fields: FieldTypes, sample: readonly DataRecord[], budget = Number.POSITIVE_INFINITY): fc.Arbitrary<FilterAst> {
  if (Object.keys(fields).length === 0) throw new Error('filterExpression needs at least one filterable field');
  const within = valuesWithin(fields, sample, budget);
  const depthIdentifier = fc.createDepthIdentifier();
  // One level per depth, each with its share of the budget; the same depth bias as one recursive
  // tree, since the levels' oneofs share the depth identifier.
  const level = (depth: number, room: number): fc.Arbitrary<FilterAst> => {
    const leaf = fc.oneof(...Object.entries(fields).map(([name, type]) => leafFor(name, type, within(name, room))));
    if (depth === MAX_FILTER_DEPTH) return leaf;
    const operand = level(depth + 1, Math.floor((room - CONNECTIVE_BYTES) / 2));
    return fc.oneof(
      // The leaf comes first: it is the deep default, and withCrossShrink tries a leaf in a tree's place.
      { depthSize: 'small', maxDepth: MAX_FILTER_DEPTH, depthIdentifier, withCrossShrink: true },
      leaf,
      fc.tuple(operand, operand).map(([left, right]): FilterAst => ({ kind: 'and', left, right })),
      fc.tuple(operand, operand).map(([left, right]): FilterAst => ({ kind: 'or', left, right })),
      operand.map((inner): FilterAst => ({ kind: 'not', operand: inner })),
    );
  };
  return withSubtreeShrinks(level(0, budget), subExpressions);
}

/**
 * Comparisons on a boundary of the rule (filter.ts boundaryOf), built from the sample's values: a
 * string field compared with a value of it in another case, and an ordering comparison with a value
 * of its field as the literal. Where the right answer may be all or nothing, a server that compares
 * without case, or takes `gt` for `ge`, answers otherwise.
 */
export function boundaryExpression(fields: FieldTypes, sample: readonly DataRecord[], budget = Number.POSITIVE_INFINITY): fc.Arbitrary<FilterAst> {
  const within = valuesWithin(fields, sample, budget);
  const leaves = Object.entries(fields).flatMap(([name, type]): fc.Arbitrary<FilterAst>[] => {
    const values = within(name, budget);
    const nullable = sample.some((r) => r[name] === null || r[name] === undefined);
    const present = values.filter((v) => v !== null && v !== undefined && type !== 'boolean' && type !== 'guid' && type !== 'datetime');
    const ne =
      nullable && present.length > 0
        ? [
            comparisons(
              fieldOperand(name),
              ['ne'],
              fc
                .constantFrom(...present)
                .map((value): Literal => (typeof value === 'number' ? { type: 'number', value } : { type: 'string', value: String(value) })),
            ),
          ]
        : [];
    return [...ne, ...boundaryLeaves(name, type, values)];
  });
  return leaves.length === 0 ? filterExpression(fields, sample, budget) : fc.oneof(...leaves);
}

function boundaryLeaves(name: string, type: FieldType, values: readonly unknown[]): fc.Arbitrary<FilterAst>[] {
  {
    if (type === 'string') {
      const cased = values.filter(isString).filter((v) => v.toLowerCase() !== v.toUpperCase());
      if (cased.length === 0) return [];
      const literal = fc
        .tuple(fc.constantFrom(...cased), fc.constantFrom<CaseChange>('lower', 'upper'))
        .map(([v, change]): Literal => ({ type: 'string', value: changeCase(v, change) }));
      const ordered = sampleStrings(values.filter(isString));
      // A piece from inside a value (neither its start nor its end): startswith and endswith must not take it.
      const inner = values.filter(isString).filter((v) => [...v].length >= 3);
      const middle =
        inner.length === 0
          ? []
          : [
              fc
                .tuple(fc.constantFrom<BoolFunction>('startswith', 'endswith'), fc.constantFrom(...inner), fc.nat(), fc.nat())
                .map(([fn, v, a, b]): FilterAst => {
                  const points = [...v];
                  const from = 1 + (a % (points.length - 2));
                  const to = from + 1 + (b % (points.length - 1 - from));
                  return { kind: 'boolcall', fn, operand: { kind: 'field', field: name }, value: points.slice(from, to).join('') };
                }),
            ];
      return [
        comparisons(fieldOperand(name), ['eq', 'ne', 'eq', 'ne', 'gt', 'lt'], literal),
        comparisons(fieldOperand(name), ORDERING_OPERATORS, ordered),
        ...middle,
      ];
    }
    if (type === 'number' || type === 'integer') {
      const numbers = values.filter(isFiniteNumber);
      return numbers.length === 0 ? [] : [comparisons(fieldOperand(name), ORDERING_OPERATORS, sampleNumbers(numbers))];
    }
    if (type === 'datetime') {
      const instants = instantsOf(values);
      return instants.length === 0 ? [] : [comparisons(fieldOperand(name), ORDERING_OPERATORS, sampleInstants(instants))];
    }
    return [];
  }
}

const ORDERING_OPERATORS = ['gt', 'ge', 'lt', 'le'] as const;

/** Literals equal to one of the sample's values: strings, numbers, instants (as UTC with fraction). */
const sampleStrings = (values: readonly string[]) => fc.constantFrom(...values).map((value): Literal => ({ type: 'string', value }));
const sampleNumbers = (values: readonly number[]) => fc.constantFrom(...values).map((value): Literal => ({ type: 'number', value }));
const sampleInstants = (instants: readonly number[]) =>
  fc.constantFrom(...instants).map((instant): Literal => ({ type: 'datetime', value: formatDateTime(instant, 0, true) }));

/**
 * Conjunctions of ranges over the filterable `fields`: a window on one field (`f gt|ge a and f
 * lt|le b`), mostly with a third conjunct, a bound on the same or another field or a `startswith`
 * on a string field, every end a value of `sample`. Such a filter selects the intersection of its
 * ranges, which tells it apart from any one of them and from their union; filterExpression's
 * nested trees meet two ranges on one field too rarely to judge that. A number field's upper end
 * is sometimes the all-nines number at or above its values (`999`): a literal whose first digit is
 * the last one. Undefined when no field is orderable (strings, numbers, instants).
 */
export function rangeConjunction(fields: FieldTypes, sample: readonly DataRecord[], budget = Number.POSITIVE_INFINITY): fc.Arbitrary<FilterAst> | undefined {
  // Three leaves and two connectives share the budget.
  const within = valuesWithin(fields, sample, budget);
  const room = Math.floor((budget - 2 * CONNECTIVE_BYTES) / 3);
  const ends = new Map<string, { lower: fc.Arbitrary<Literal>; upper: fc.Arbitrary<Literal> }>();
  const prefixes: fc.Arbitrary<FilterAst>[] = [];
  for (const [name, type] of Object.entries(fields)) {
    const values = within(name, room);
    if (type === 'string') {
      const strings = values.filter(isString).filter((v) => v.length > 0);
      if (strings.length === 0) continue;
      const literal = sampleStrings(strings);
      ends.set(name, { lower: literal, upper: literal });
      prefixes.push(
        // A non-empty prefix: every string starts with the empty one.
        fc.tuple(fc.constantFrom(...strings), fc.nat()).map(([v, n]): FilterAst => {
          const points = [...v];
          return { kind: 'boolcall', fn: 'startswith', operand: { kind: 'field', field: name }, value: points.slice(0, 1 + (n % points.length)).join('') };
        }),
      );
    } else if (type === 'number' || type === 'integer') {
      const numbers = values.filter(isFiniteNumber);
      if (numbers.length === 0) continue;
      const literal = sampleNumbers(numbers);
      const top = Math.ceil(Math.max(1, ...numbers));
      const nines: Literal = { type: 'number', value: 10 ** String(top).length - 1 };
      const upper = top < 1e15 ? fc.oneof({ weight: 3, arbitrary: literal }, { weight: 1, arbitrary: fc.constant(nines) }) : literal;
      ends.set(name, { lower: literal, upper });
    } else if (type === 'datetime') {
      const instants = instantsOf(values);
      if (instants.length === 0) continue;
      const literal = sampleInstants(instants);
      ends.set(name, { lower: literal, upper: literal });
    }
  }
  if (ends.size === 0) return undefined;
  const bound = (name: string, operators: readonly ComparisonOperator[], literal: fc.Arbitrary<Literal>) => comparisons(fieldOperand(name), operators, literal);
  const windows = [...ends].map(([name, { lower, upper }]) =>
    fc.tuple(bound(name, ['gt', 'ge'], lower), bound(name, ['lt', 'le'], upper)).map(([left, right]): FilterAst => ({ kind: 'and', left, right })),
  );
  const thirds = [...[...ends].map(([name, { lower }]) => bound(name, ORDERING_OPERATORS, lower)), ...prefixes];
  return fc
    .tuple(fc.oneof(...windows), fc.option(fc.oneof(...thirds), { nil: undefined, freq: 4 }))
    .map(([window, third]): FilterAst => (third === undefined ? window : { kind: 'and', left: window, right: third }));
}

/**
 * Smaller trees: the operands of the top connective, every deeper sub-expression (so `not not a`
 * reaches `a`), then the connective over a smaller operand.
 */
function* subExpressions(ast: FilterAst): Generator<FilterAst> {
  const operands = ast.kind === 'and' || ast.kind === 'or' ? [ast.left, ast.right] : ast.kind === 'not' ? [ast.operand] : [];
  yield* operands;
  for (const operand of operands) yield* subExpressions(operand);
  if (ast.kind === 'and' || ast.kind === 'or') {
    for (const left of subExpressions(ast.left)) yield { kind: ast.kind, left, right: ast.right };
    for (const right of subExpressions(ast.right)) yield { kind: ast.kind, left: ast.left, right };
  } else if (ast.kind === 'not') {
    for (const operand of subExpressions(ast.operand)) yield { kind: 'not', operand };
  }
}

/** The non-null values of a field across the sample. */
function valuesOf(sample: readonly DataRecord[], name: string): unknown[] {
  return sample.map((record) => record[name]).filter((value) => value !== null && value !== undefined);
}

function leafFor(name: string, type: FieldType, values: readonly unknown[]): fc.Arbitrary<FilterAst> {
  switch (type) {
    case 'string':
      return stringLeaf(name, values.filter(isString));
    case 'guid':
      return typedLeaf(name, COMPARISON_OPERATORS, guidLiteral(values.filter(isString).filter(isGuid)));
    case 'datetime':
      return typedLeaf(name, COMPARISON_OPERATORS, dateTimeLiteral(instantsOf(values)));
    case 'number':
    case 'integer':
      return typedLeaf(name, COMPARISON_OPERATORS, numberLiteral(values.filter(isFiniteNumber), type === 'integer'));
    case 'boolean':
      // docs/decisions/intapi/reference-choices.md: booleans allow only eq/ne.
      return typedLeaf(
        name,
        ['eq', 'ne'],
        fc.boolean().map((value): Literal => ({ type: 'boolean', value })),
      );
  }
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function instantsOf(values: readonly unknown[]): number[] {
  return values.flatMap((value) => {
    const instant = typeof value === 'string' ? parseDateTime(value) : undefined;
    return instant === undefined ? [] : [instant];
  });
}

function comparisons(operand: fc.Arbitrary<Operand>, operators: readonly ComparisonOperator[], literal: fc.Arbitrary<Literal>): fc.Arbitrary<FilterAst> {
  return fc.tuple(fc.constantFrom(...operators), operand, literal).map(([op, chosenOperand, chosenLiteral]): FilterAst => ({
    kind: 'comparison',
    op,
    operand: chosenOperand,
    literal: chosenLiteral,
  }));
}

function fieldOperand(name: string): fc.Arbitrary<Operand> {
  return fc.constant({ kind: 'field', field: name });
}

/** `name`, `tolower(name)`, `toupper(name)` (plain field first: the shrink target). */
function caseOperand(name: string): fc.Arbitrary<Operand> {
  return fc.constantFrom<Operand>({ kind: 'field', field: name }, { kind: 'tolower', field: name }, { kind: 'toupper', field: name });
}

/**
 * Comparisons of a plain field with a typed literal, and sometimes with `null` (every operator:
 * docs/decisions/intapi/reference-choices.md says `eq`/`ne null` test for null and every other comparison with null is false).
 */
function typedLeaf(name: string, operators: readonly ComparisonOperator[], literal: fc.Arbitrary<Literal>): fc.Arbitrary<FilterAst> {
  return fc.oneof(
    { weight: 5, arbitrary: comparisons(fieldOperand(name), operators, literal) },
    { weight: 1, arbitrary: comparisons(fieldOperand(name), operators, fc.constant(NULL_LITERAL)) },
  );
}

/**
 * String fields take every operator on `name`, `tolower(name)`, `toupper(name)`, and every
 * function. Null comparisons use the plain field only: the rule for `tolower(f) eq null` is our
 * reading, not a sentence of docs/decisions/intapi/reference-choices.md, so the suite does not hold servers to it.
 */
function stringLeaf(name: string, values: readonly string[]): fc.Arbitrary<FilterAst> {
  const literal = sampledString(values, ALL_FRAGMENTS).map((value): Literal => ({ type: 'string', value }));
  return fc.oneof(
    { weight: 4, arbitrary: comparisons(caseOperand(name), COMPARISON_OPERATORS, literal) },
    { weight: 3, arbitrary: fc.oneof(...BOOL_FUNCTIONS.map((fn) => boolCalls(fn, name, values))) },
    { weight: 1, arbitrary: comparisons(fieldOperand(name), COMPARISON_OPERATORS, fc.constant(NULL_LITERAL)) },
  );
}

function boolCalls(fn: BoolFunction, name: string, values: readonly string[]): fc.Arbitrary<FilterAst> {
  return fc.tuple(caseOperand(name), sampledString(values, FRAGMENTS_FOR[fn])).map(([operand, value]): FilterAst => ({ kind: 'boolcall', fn, operand, value }));
}

/** Mostly a fragment of a sample value (case-changed or not), sometimes a fresh string. */
function sampledString(values: readonly string[], kinds: readonly FragmentKind[]): fc.Arbitrary<string> {
  if (values.length === 0) return freshFilterString;
  const fragment = fc
    .tuple(fc.constantFrom(...values), fc.constantFrom(...kinds), fc.nat(), fc.nat(), caseChange)
    .map(([value, kind, first, second, change]) => changeCase(cut(value, kind, first, second), change));
  return fc.oneof({ weight: 5, arbitrary: fragment }, { weight: 1, arbitrary: freshFilterString });
}

/**
 * A fragment of `value` cut at code-point boundaries (never a lone surrogate, which no URL can
 * carry). `first`/`second` shrinking to 0 gives back the whole value.
 */
function cut(value: string, kind: FragmentKind, first: number, second: number): string {
  const points = [...value];
  const count = points.length;
  const start = kind === 'suffix' || kind === 'substring' ? first % (count + 1) : 0;
  const dropped = kind === 'prefix' ? first % (count + 1) : kind === 'substring' ? second % (count - start + 1) : 0;
  return points.slice(start, count - dropped).join('');
}

/**
 * Any code point, lone surrogates included: the values of fast-check's `unit: 'binary'`. Built by
 * hand because fc.string({ unit: 'binary' }) maps its whole range back to indexes when it is
 * created (to seed its "dangerous strings"), a cost every run's worker would pay at its start.
 */
const anyCodePoint: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0x10ffff }).map((n) => String.fromCodePoint(n));

/** Fresh strings: ASCII, any code point, and the quote cases of the grammar's '' escape. */
const freshFilterString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
  fc.string({ unit: anyCodePoint, maxLength: 6 }),
  fc.constantFrom("'", "''", "O'Brien", ' ', ''),
);

/** guid'...' or a string literal (docs/decisions/intapi/reference-choices.md: guid fields take both), in either case. */
function guidLiteral(guids: readonly string[]): fc.Arbitrary<Literal> {
  const fresh = fc.uuid({ version: 4 });
  const value =
    guids.length === 0
      ? fresh
      : fc.oneof(
          {
            weight: 4,
            arbitrary: fc.tuple(fc.constantFrom(...guids), caseChange).map(([guid, change]) => changeCase(guid, change)),
          },
          { weight: 1, arbitrary: fresh },
        );
  return fc.tuple(value, fc.boolean()).map(([guid, asString]): Literal => (asString ? { type: 'string', value: guid } : { type: 'guid', value: guid }));
}

const FILTER_DATE_MIN = new Date('1900-01-02T00:00:00.000Z');
const FILTER_DATE_MAX = new Date('2999-12-30T23:59:59.999Z');

/** datetime'...': sample instants, equal or a millisecond, second or day away; sometimes fresh. */
function dateTimeLiteral(instants: readonly number[]): fc.Arbitrary<Literal> {
  const fresh = fc.date({ min: FILTER_DATE_MIN, max: FILTER_DATE_MAX, noInvalidDate: true }).map((date) => date.getTime());
  const instant = instants.length === 0 ? fresh : fc.oneof({ weight: 4, arbitrary: moved(instants) }, { weight: 1, arbitrary: fresh });
  return fc.tuple(instant, offsetMinutes).map(([chosen, offset]): Literal => ({ type: 'datetime', value: formatDateTime(clampInstant(chosen), offset, true) }));
}

/** Sample numbers moved by a small delta (a half step too, for integers), sometimes fresh. */
function numberLiteral(numbers: readonly number[], integer: boolean): fc.Arbitrary<Literal> {
  const delta = integer
    ? fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -2, max: 2 }) }, { weight: 1, arbitrary: fc.constantFrom(0.5, -0.5) })
    : fc.constantFrom(0, 1, -1, 0.5, -0.5, 0.001, -0.001);
  const fresh = integer
    ? fc.integer({ min: -10, max: 1_000_010 })
    : fc.oneof(fc.integer({ min: -10, max: 1_000_010 }), fc.double({ min: -1e7, max: 1e7, noNaN: true, noDefaultInfinity: true }));
  const value = numbers.length === 0 ? fresh : fc.oneof({ weight: 4, arbitrary: moved(numbers, delta) }, { weight: 1, arbitrary: fresh });
  return value.map((chosen): Literal => ({ type: 'number', value: withoutNegativeZero(chosen) }));
}

const INSTANT_STEPS = fc.constantFrom(0, 1, -1, 1000, -1000, DAY_MS, -DAY_MS);

/** A value of a non-empty sample plus a step (0 first: shrinks to the sample value itself). */
function moved(values: readonly number[], step: fc.Arbitrary<number> = INSTANT_STEPS): fc.Arbitrary<number> {
  return fc.tuple(fc.constantFrom(...values), step).map(([value, by]) => value + by);
}

/** A page request: `_limit` and `_offset` (a 0-based page number). */
export interface PageRequest {
  limit: number;
  offset: number;
}

/**
 * Pages of a collection of `total` items that hold items: a limit of at most `maxLimit` and at
 * most half the collection (so that there are at least two pages: page 0 is not the only one), and
 * an offset among the pages that hold items. With `pastEnd`, one draw in ten is a page past the
 * end (empty, which some rules cover too). `total` 0 gives page 0 of limit 1..maxLimit.
 */
export function pageWithin(total: number, options: { maxLimit?: number; pastEnd?: boolean; maxOffset?: number } = {}): fc.Arbitrary<PageRequest> {
  const maxLimit = Math.max(1, Math.min(options.maxLimit ?? 40, Math.floor(total / 2)));
  // Offsets stay at most maxOffset (a large collection has more pages than a request can reach).
  const cap = options.maxOffset ?? Number.POSITIVE_INFINITY;
  const within = fc
    .integer({ min: 1, max: maxLimit })
    .chain((limit) => fc.record({ limit: fc.constant(limit), offset: fc.integer({ min: 0, max: Math.min(cap, Math.max(0, Math.ceil(total / limit) - 1)) }) }));
  if (!options.pastEnd) return within;
  const past = fc.integer({ min: 1, max: maxLimit }).chain((limit) =>
    fc.record({
      limit: fc.constant(limit),
      offset: fc.integer({ min: Math.min(cap, Math.ceil(total / limit)), max: Math.min(cap, Math.ceil(total / limit) + 3) }),
    }),
  );
  return fc.oneof({ weight: 9, arbitrary: within }, { weight: 1, arbitrary: past });
}

/**
 * Pages of a collection of `total` (at least 2) items that hold at least 2 items, for sort checks:
 * a limit of 2..min(maxLimit, total) and an offset among the pages with at least 2 items (at most `maxOffset`).
 */
export function pageOfAtLeastTwo(total: number, maxLimit = 100, maxOffset = Number.POSITIVE_INFINITY): fc.Arbitrary<PageRequest> {
  const high = Math.max(2, Math.min(maxLimit, total));
  return fc
    .integer({ min: 2, max: high })
    .chain((limit) =>
      fc.record({ limit: fc.constant(limit), offset: fc.integer({ min: 0, max: Math.min(maxOffset, Math.max(0, Math.floor((total - 2) / limit))) }) }),
    );
}

// ---------------------------------------------------------------------------------------------
// `_sort` specs

/** 1..3 distinct sortable fields, each ascending or descending (docs/decisions/intapi/reference-choices.md "Lists", `_sort`). */
export function sortSpec(sortableFields: readonly string[]): fc.Arbitrary<SortKey[]> {
  if (sortableFields.length === 0) throw new Error('sortSpec needs at least one sortable field');
  const key = fc.record({ field: fc.constantFrom(...sortableFields), descending: fc.boolean() });
  return fc.uniqueArray(key, { minLength: 1, maxLength: Math.min(3, sortableFields.length), selector: (k) => k.field });
}

// ---------------------------------------------------------------------------------------------
// Bounded values (spec#resources-and-their-fields field tables; docs/decisions/intapi/reference-choices.md "Bodies and bounds")

/**
 * The bounds of one value (JSON Schema keywords), what the generators below need. Not the
 * contracts' `FieldBounds` (suites/_harness/contracts.ts), which describes a field of a contract
 * (name, required, nullable, anchor, item contract) and is structurally a `ValueBounds` as well.
 */
export interface ValueBounds {
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  /** code points for strings, items for arrays */
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly (string | number | boolean)[];
  /** `date-time` and `uuid` are generated and violated here; other formats are plain strings */
  readonly format?: string;
  /** bounds of each item of an array field; without them only `[]` is a known-valid array */
  readonly items?: ValueBounds;
}

// Defaults where a bound is absent: a string without maxLength gets a modest length, numbers the
// int32 range (spec#paged-list-envelope-v2-list-operations uses int32; no wider field exists).
const UNBOUNDED_EXTRA_LENGTH = 64;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
// Years 1900..2999 with a day's margin, so that an offset form stays inside them too.
const BOUNDED_DATE_MIN = new Date('1900-01-02T00:00:00.000Z');
const BOUNDED_DATE_MAX = new Date('2999-12-30T23:59:59.999Z');

/** An exact bound weighs as much as everything between the bounds. */
function withExactBounds<T>(low: T, high: T, between: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant(low) }, { weight: 1, arbitrary: fc.constant(high) }, { weight: 2, arbitrary: between });
}

/**
 * The exact bounds of a field as values: both ends of a numeric range, strings of the shortest and
 * the longest length (each of varied code points, the same every time), every enum value, both
 * booleans; none for a format (date-time, uuid) or an array. What a property whose runs are few
 * (each leaves a record behind) runs first.
 */
export function exactBoundValues(bounds: ValueBounds): fc.JsonValue[] {
  if (bounds.enum !== undefined) return [...bounds.enum];
  switch (bounds.type) {
    case 'string': {
      if (bounds.format !== undefined) return [];
      const lengths = [...new Set([bounds.minLength ?? 0, bounds.maxLength ?? (bounds.minLength ?? 0) + UNBOUNDED_EXTRA_LENGTH])];
      return lengths.map((n) => fc.sample(stringOfLength(fc.constant(n)), { seed: n, numRuns: 1 })[0] ?? '');
    }
    case 'integer':
    case 'number':
      return [...new Set([bounds.minimum ?? INT32_MIN, bounds.maximum ?? INT32_MAX])];
    case 'boolean':
      return [false, true];
    default:
      return [];
  }
}

/** Values every conforming server accepts for the field, the exact bounds strongly represented. */
export function withinBounds(bounds: ValueBounds): fc.Arbitrary<fc.JsonValue> {
  if (bounds.enum !== undefined) return fc.constantFrom(...bounds.enum);
  switch (bounds.type) {
    case 'string':
      return validString(bounds);
    case 'integer': {
      const low = bounds.minimum ?? INT32_MIN;
      const high = bounds.maximum ?? INT32_MAX;
      return withExactBounds(low, high, fc.integer({ min: low, max: high }));
    }
    case 'number': {
      const low = bounds.minimum ?? INT32_MIN;
      const high = bounds.maximum ?? INT32_MAX;
      const doubles = fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true }).map(withoutNegativeZero);
      const hasInteger = Math.ceil(low) <= Math.floor(high);
      const between = hasInteger ? fc.oneof(fc.integer({ min: Math.ceil(low), max: Math.floor(high) }), doubles) : doubles;
      return withExactBounds(low, high, between);
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayOfLength(bounds, fc.integer({ min: bounds.minLength ?? 0, max: itemsMax(bounds) }));
    case 'object':
      throw new Error('valid objects come from their own contract, not from bounds');
  }
}

function validString(bounds: ValueBounds): fc.Arbitrary<string> {
  if (bounds.format === 'date-time') return validDateTime;
  if (bounds.format === 'uuid') return fc.uuid({ version: 4 });
  const low = bounds.minLength ?? 0;
  const high = bounds.maxLength ?? low + UNBOUNDED_EXTRA_LENGTH;
  return stringOfLength(withExactBounds(low, high, fc.integer({ min: low, max: high })));
}

/** RFC 3339 date-times that round-trip as instants: at most millisecond precision, Z or an offset. */
const validDateTime: fc.Arbitrary<string> = fc
  .tuple(fc.date({ min: BOUNDED_DATE_MIN, max: BOUNDED_DATE_MAX, noInvalidDate: true }), offsetMinutes, fc.boolean())
  .map(([date, offset, withFraction]) => formatDateTime(date.getTime(), offset, withFraction));

function itemsMax(bounds: ValueBounds): number {
  return bounds.maxLength ?? (bounds.minLength ?? 0) + 3;
}

function arrayOfLength(bounds: ValueBounds, length: fc.Arbitrary<number>): fc.Arbitrary<fc.JsonValue> {
  const items = bounds.items;
  if (items === undefined) {
    if ((bounds.minLength ?? 0) > 0) throw new Error('array bounds with minLength need items');
    return fc.constant([]);
  }
  return length.chain((count) => fc.array(withinBounds(items), { minLength: count, maxLength: count }));
}

/** One step above the maximum: maxLength+1 code points (or items), max+1, a decimal just above max. */
export function aboveMax(bounds: ValueBounds): fc.Arbitrary<fc.JsonValue> {
  switch (bounds.type) {
    case 'string':
      return stringOfLength(fc.constant(requireBound(bounds.maxLength, 'maxLength') + 1));
    case 'integer': {
      const high = requireBound(bounds.maximum, 'maximum');
      return fc.oneof({ weight: 3, arbitrary: fc.constant(high + 1) }, { weight: 1, arbitrary: fc.integer({ min: high + 1, max: high + 1000 }) });
    }
    case 'number': {
      const high = requireBound(bounds.maximum, 'maximum');
      // fast-check orders -0 before 0: keep only values truly above.
      return fc.double({ min: high, minExcluded: true, max: high + 1000, noNaN: true, noDefaultInfinity: true }).filter((value) => value > high);
    }
    case 'array':
      return arrayOfLength(bounds, fc.constant(requireBound(bounds.maxLength, 'maxLength') + 1));
    case 'boolean':
    case 'object':
      throw new Error(`a ${bounds.type} has no maximum`);
  }
}

/** One step below the minimum: minLength-1 code points (or items), min-1, a decimal just below min. */
export function belowMin(bounds: ValueBounds): fc.Arbitrary<fc.JsonValue> {
  switch (bounds.type) {
    case 'string':
      return stringOfLength(fc.constant(requirePositive(bounds.minLength, 'minLength') - 1));
    case 'integer': {
      const low = requireBound(bounds.minimum, 'minimum');
      return fc.oneof({ weight: 3, arbitrary: fc.constant(low - 1) }, { weight: 1, arbitrary: fc.integer({ min: low - 1000, max: low - 1 }) });
    }
    case 'number': {
      const low = requireBound(bounds.minimum, 'minimum');
      return fc.double({ min: low - 1000, max: low, maxExcluded: true, noNaN: true, noDefaultInfinity: true }).filter((value) => value < low); // -0 is "below" 0 to fast-check, but JSON writes it as 0
    }
    case 'array':
      return arrayOfLength({ ...bounds, minLength: 0 }, fc.constant(requirePositive(bounds.minLength, 'minLength') - 1));
    case 'boolean':
    case 'object':
      throw new Error(`a ${bounds.type} has no minimum`);
  }
}

function requireBound(value: number | undefined, keyword: string): number {
  if (value === undefined) throw new Error(`these bounds have no ${keyword}`);
  return value;
}

function requirePositive(value: number | undefined, keyword: string): number {
  const bound = requireBound(value, keyword);
  if (bound <= 0) throw new Error(`nothing is shorter than ${keyword} ${bound}`);
  return bound;
}

/**
 * Values of the enum's own type that are not in it: integers around and between the members,
 * strings such as case variants of the members, the boolean a boolean enum leaves out.
 */
export function outsideEnum(bounds: ValueBounds): fc.Arbitrary<fc.JsonValue> {
  const members = bounds.enum ?? [];
  const numbers = members.filter(isFiniteNumber);
  if (numbers.length > 0) return integersOutside(numbers);
  const strings = members.filter(isString);
  if (strings.length > 0) return stringsOutside(strings);
  const booleansLeft = [false, true].filter((value) => !members.includes(value));
  if (members.length > 0 && booleansLeft.length > 0) return fc.constantFrom(...booleansLeft);
  throw new Error('these bounds have no enum that leaves a value of its type out');
}

function integersOutside(members: readonly number[]): fc.Arbitrary<number> {
  const low = Math.min(...members);
  const high = Math.max(...members);
  const isMember = new Set(members);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(low - 1, high + 1) },
    { weight: 1, arbitrary: fc.integer({ min: low - 1000, max: high + 1000 }).filter((value) => !isMember.has(value)) },
  );
}

function stringsOutside(members: readonly string[]): fc.Arbitrary<string> {
  const isMember = new Set(members);
  const caseVariants = members.flatMap((member) => [member.toLowerCase(), member.toUpperCase(), '']).filter((variant) => !isMember.has(variant));
  const random = fc.string({ maxLength: 12 }).filter((value) => !isMember.has(value));
  return caseVariants.length === 0 ? random : fc.oneof(fc.constantFrom(...caseVariants), random);
}

const jsonObject: fc.Arbitrary<fc.JsonValue> = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), {
  maxKeys: 3,
});
const jsonArray: fc.Arbitrary<fc.JsonValue> = fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 });
const jsonNumber: fc.Arbitrary<fc.JsonValue> = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map(withoutNegativeZero));
// Numeric and boolean-looking strings included: a server that coerces them is not type-checking.
const jsonString: fc.Arbitrary<fc.JsonValue> = fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constantFrom('true', 'false'));

/**
 * A JSON value of another type than the field's, never null (docs/decisions/intapi/reference-choices.md: null means absent).
 */
export function wrongType(bounds: ValueBounds): fc.Arbitrary<fc.JsonValue> {
  switch (bounds.type) {
    case 'string':
      return fc.oneof(jsonNumber, fc.boolean(), jsonObject, jsonArray);
    case 'integer':
    case 'number':
      return fc.oneof(jsonString, fc.boolean(), jsonObject, jsonArray);
    case 'boolean':
      return fc.oneof(jsonNumber, jsonString, jsonObject, jsonArray);
    case 'array':
      return fc.oneof(jsonString, jsonNumber, fc.boolean(), jsonObject);
    case 'object':
      return fc.oneof(jsonString, jsonNumber, fc.boolean(), jsonArray);
  }
}

// RFC 3339 section 5.6 violations: impossible month, day, hour and minute, date only, no offset,
// slashes. A space separator or a lower-case "t" is left out: RFC 3339 and JSON Schema tools
// disagree on them.
const INVALID_DATE_TIMES = [
  'not-a-date',
  '2024-13-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2023-02-29T12:00:00Z',
  '2024-04-31T00:00:00Z',
  '2024-01-01T25:00:00Z',
  '2024-01-01T00:60:00Z',
  '2024-01-01',
  '2024-01-01T00:00:00',
  '01/02/2024',
  '',
];

// Not 8-4-4-4-12 hexadecimal. The 32-digit and braced forms are left out: some GUID parsers
// accept them and JSON Schema's `uuid` does not, so no one reading decides them.
const INVALID_UUIDS = [
  'not-a-uuid',
  '',
  '00000000-0000-4000-8000-00000000000',
  '00000000-0000-4000-8000-0000000000001',
  'g0000000-0000-4000-8000-000000000000',
  '00000000_0000_4000_8000_000000000000',
  '0000000-00000-4000-8000-000000000000',
];

/** Strings that are not valid date-times / uuids for a field with that format. */
export function invalidFormat(bounds: ValueBounds): fc.Arbitrary<string> {
  const random = fc.string({ unit: 'grapheme-ascii', maxLength: 24 });
  if (bounds.format === 'date-time') {
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...INVALID_DATE_TIMES) },
      { weight: 1, arbitrary: random.filter((text) => parseDateTime(text) === undefined) },
    );
  }
  if (bounds.format === 'uuid') {
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...INVALID_UUIDS) }, { weight: 1, arbitrary: random.filter((text) => !isGuid(text)) });
  }
  throw new Error('these bounds have no format');
}
