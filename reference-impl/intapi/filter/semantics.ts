import { type FieldNameMatching, order, type Scalar } from '../../rules/fields.js';
import type { BoolFunction, CompareOp } from './ast.js';

/**
 * The meaning of each operator, function and connective of `_filter`, as a table. The evaluator
 * looks every operator up here, so a fault replaces one entry (see faults.ts) and nothing else.
 * docs/decisions/intapi/reference-choices.md "_filter grammar", semantics (two-valued).
 */
export type Comparison = (value: Scalar, literal: Scalar) => boolean;
export type Predicate<R> = (record: R) => boolean;

export interface FilterSemantics {
  readonly comparisons: Readonly<Record<CompareOp, Comparison>>;
  /** (haystack = the field's value, needle = the quoted string) */
  readonly functions: Readonly<Record<BoolFunction, (haystack: string, needle: string) => boolean>>;
  readonly and: <R>(left: Predicate<R>, right: Predicate<R>) => Predicate<R>;
  readonly or: <R>(left: Predicate<R>, right: Predicate<R>) => Predicate<R>;
  readonly not: <R>(operand: Predicate<R>) => Predicate<R>;
  readonly fieldNames: FieldNameMatching;
  /** `reject`: an unknown field is a 422; `as-null`: it reads as null on every record. */
  readonly unknownField: 'reject' | 'as-null';
}

/** An ordering comparison: false when either side is null or the sides do not compare, since
 * order() answers NaN for such a pair and every ordering test of NaN is false. */
function ordering(test: (sign: number) => boolean): Comparison {
  return (value, literal) => test(order(value, literal));
}

export const COMPARISONS: Readonly<Record<CompareOp, Comparison>> = {
  // `f eq null` is true iff f is null; `ne` is the negation of `eq` (two-valued logic).
  eq: (value, literal) => value === literal,
  ne: (value, literal) => value !== literal,
  gt: ordering((sign) => sign > 0),
  ge: ordering((sign) => sign >= 0),
  lt: ordering((sign) => sign < 0),
  le: ordering((sign) => sign <= 0),
};

export const FUNCTIONS: FilterSemantics['functions'] = {
  substringof: (haystack, needle) => haystack.includes(needle),
  startswith: (haystack, needle) => haystack.startsWith(needle),
  endswith: (haystack, needle) => haystack.endsWith(needle),
};

export const SPEC_FILTER_SEMANTICS: FilterSemantics = {
  comparisons: COMPARISONS,
  functions: FUNCTIONS,
  and: (left, right) => (record) => left(record) && right(record),
  or: (left, right) => (record) => left(record) || right(record),
  not: (operand) => (record) => !operand(record),
  fieldNames: 'case-insensitive',
  unknownField: 'reject',
};
