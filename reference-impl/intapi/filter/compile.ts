import type { JsonValue } from '../../rules/json.js';
import { parseDateTime } from '../../rules/datetime.js';
import { comparable, type FieldDef, type FieldSchema, type Scalar, type ValueType } from '../../rules/fields.js';
import { isGuid } from '../../rules/guid.js';
import type { FilterNode, Literal, Operand } from './ast.js';
import { FilterError } from './errors.js';
import type { FilterSemantics, Predicate } from './semantics.js';

/**
 * Binds a parsed `_filter` to a collection's fields and returns the record predicate.
 * Type rules (docs/decisions/intapi/reference-choices.md "_filter grammar"): strings take string literals; guids take guid'...'
 * or a string and compare case-insensitively; date-times take datetime'...' and compare as
 * instants; booleans allow only eq/ne; null fits every field. Functions and tolower/toupper apply
 * to string and guid fields; a function applied to null is false.
 */
const ACCEPTED_LITERALS: Readonly<Record<ValueType, ReadonlySet<Literal['type']>>> = {
  string: new Set(['string', 'null']),
  guid: new Set(['guid', 'string', 'null']),
  datetime: new Set(['datetime', 'null']),
  number: new Set(['number', 'null']),
  boolean: new Set(['boolean', 'null']),
};
const TEXT_TYPES: ReadonlySet<ValueType> = new Set(['string', 'guid']);
const UNKNOWN_FIELD_TYPE: ValueType = 'string';

interface BoundOperand<R> {
  readonly name: string;
  readonly type: ValueType;
  /** The comparable value of the operand on a record; undefined when it does not compare. */
  readonly read: (record: R) => Scalar | undefined;
  readonly transformed: boolean;
}

export function compileFilter<R>(node: FilterNode, schema: FieldSchema<R>, semantics: FilterSemantics): Predicate<R> {
  switch (node.kind) {
    case 'and':
      return semantics.and(compileFilter(node.left, schema, semantics), compileFilter(node.right, schema, semantics));
    case 'or':
      return semantics.or(compileFilter(node.left, schema, semantics), compileFilter(node.right, schema, semantics));
    case 'not':
      return semantics.not(compileFilter(node.operand, schema, semantics));
    case 'compare':
      return compileComparison(node, schema, semantics);
    case 'call':
      return compileCall(node, schema, semantics);
  }
}

function compileComparison<R>(node: Extract<FilterNode, { kind: 'compare' }>, schema: FieldSchema<R>, semantics: FilterSemantics): Predicate<R> {
  const operand = bindOperand(node.operand, schema, semantics);
  if (operand.type === 'boolean' && node.op !== 'eq' && node.op !== 'ne') {
    throw new FilterError('type', `boolean field '${operand.name}' allows only eq and ne, not ${node.op}`);
  }
  if (!ACCEPTED_LITERALS[operand.type].has(node.literal.type)) {
    throw new FilterError('type', `field '${operand.name}' does not take a ${node.literal.type} literal`);
  }
  const literal = literalValue(node.literal, operand.type);
  const compare = semantics.comparisons[node.op];
  return (record) => {
    const value = operand.read(record);
    // A value of another type than the field's (only after a fault let it in) matches nothing;
    // a function applied to null is false.
    if (value === undefined || (value === null && operand.transformed)) return false;
    return compare(value, literal);
  };
}

function compileCall<R>(node: Extract<FilterNode, { kind: 'call' }>, schema: FieldSchema<R>, semantics: FilterSemantics): Predicate<R> {
  const operand = bindOperand(node.operand, schema, semantics);
  if (!TEXT_TYPES.has(operand.type)) {
    throw new FilterError('type', `${node.fn} applies to text fields, not to '${operand.name}'`);
  }
  const needle = operand.type === 'guid' ? node.value.toLowerCase() : node.value;
  const test = semantics.functions[node.fn];
  return (record) => {
    const value = operand.read(record);
    return typeof value === 'string' && test(value, needle);
  };
}

function bindOperand<R>(operand: Operand, schema: FieldSchema<R>, semantics: FilterSemantics): BoundOperand<R> {
  const field = resolveField(operand.field, schema, semantics);
  const transform = operand.transform;
  if (transform === undefined) {
    return { name: field.name, type: field.type, read: (record) => comparable(field.get(record), field.type), transformed: false };
  }
  if (!TEXT_TYPES.has(field.type)) {
    throw new FilterError('type', `${transform} applies to text fields, not to '${field.name}'`);
  }
  const apply = transform === 'tolower' ? (s: string) => s.toLowerCase() : (s: string) => s.toUpperCase();
  const foldGuid = field.type === 'guid';
  return {
    name: field.name,
    type: field.type,
    read: (record) => {
      const value: JsonValue = field.get(record);
      if (value === null) return null;
      if (typeof value !== 'string') return undefined;
      const result = apply(value);
      return foldGuid ? result.toLowerCase() : result;
    },
    transformed: true,
  };
}

function resolveField<R>(name: string, schema: FieldSchema<R>, semantics: FilterSemantics): FieldDef<R> {
  const field = schema.resolve(name, semantics.fieldNames);
  if (field !== undefined) return field;
  if (semantics.unknownField === 'as-null') return { name, type: UNKNOWN_FIELD_TYPE, get: () => null };
  throw new FilterError('field', `unknown or non-filterable field '${name}'`);
}

/** The comparable value of a literal for a field of the given type; throws FilterError when it does not fit. */
export function literalValue(literal: Literal, type: ValueType): Scalar {
  switch (literal.type) {
    case 'null':
      return null;
    case 'string':
      return type === 'guid' ? literal.value.toLowerCase() : literal.value;
    case 'number':
    case 'boolean':
      return literal.value;
    case 'guid':
      if (!isGuid(literal.value)) throw new FilterError('type', `guid'${literal.value}' is not a GUID`);
      return literal.value.toLowerCase();
    case 'datetime': {
      const instant = parseDateTime(literal.value);
      if (instant === undefined) throw new FilterError('type', `datetime'${literal.value}' is not an RFC 3339 date-time`);
      return instant;
    }
  }
}
