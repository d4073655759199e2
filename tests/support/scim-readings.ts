// Concrete SCIM filter evaluators, one per legitimate reading of RFC 7644 section 3.4.2.2, for
// the soundness test of the suite's three-valued evaluator (suites/_harness/scim/filter.ts):
// wherever it gives a definite verdict, every reading here must give the same. Each reading is
// what some RFC-following server does; they differ on the points the module header lists.
// Deliberately plain: ASCII or Unicode case folding by one function, no resolution subtleties
// beyond what the test's resources hold.
import type { AttrPath, CompValue, ScimFilter } from '../../suites/_harness/scim/filter.js';
import type { AttributeDescription, ResourceSchema, ScimResource } from '../../suites/_harness/scim/filter.js';

export interface Reading {
  /** A comparison with a missing value is "unknown" (SQL), not false; `not unknown` is unknown. */
  readonly missingIsUnknown: boolean;
  /** How caseExact=false strings are folded. */
  readonly fold: 'lower' | 'upper';
  /** `ne` on a multi-valued attribute: some value differs, or no value equals. */
  readonly neOnMany: 'some-differs' | 'none-equals';
  /** Whether `pr` counts "" as a value. */
  readonly emptyStringIsValue: boolean;
}

export const READINGS: readonly Reading[] = [false, true].flatMap((missingIsUnknown) =>
  (['lower', 'upper'] as const).flatMap((fold) =>
    (['some-differs', 'none-equals'] as const).flatMap((neOnMany) =>
      [false, true].map((emptyStringIsValue) => ({ missingIsUnknown, fold, neOnMany, emptyStringIsValue })),
    ),
  ),
);

type Truth = boolean | null; // null: unknown

/** Whether the reading's server puts the resource in the answer. */
export function matchesUnder(reading: Reading, filter: ScimFilter, resource: ScimResource, schema: ResourceSchema): boolean {
  return evaluate(reading, filter, resource, schema, undefined) === true;
}

function evaluate(
  reading: Reading,
  filter: ScimFilter,
  resource: Readonly<Record<string, unknown>>,
  schema: ResourceSchema,
  parent: AttributeDescription | undefined,
): Truth {
  switch (filter.kind) {
    case 'and': {
      const [l, r] = [evaluate(reading, filter.left, resource, schema, parent), evaluate(reading, filter.right, resource, schema, parent)];
      return l === false || r === false ? false : l === true && r === true ? true : null;
    }
    case 'or': {
      const [l, r] = [evaluate(reading, filter.left, resource, schema, parent), evaluate(reading, filter.right, resource, schema, parent)];
      return l === true || r === true ? true : l === false && r === false ? false : null;
    }
    case 'not': {
      const inner = evaluate(reading, filter.operand, resource, schema, parent);
      return inner === null ? null : !inner;
    }
    case 'group':
      return evaluate(reading, filter.operand, resource, schema, parent);
    case 'present': {
      const { values } = lookup(filter.path, resource, schema, parent);
      return values.some((v) => v !== undefined && v !== null && (v !== '' || reading.emptyStringIsValue) && !(Array.isArray(v) && v.length === 0));
    }
    case 'valuePath': {
      const { values, attribute } = lookup(filter.path, resource, schema, parent);
      const elements = values.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
      if (elements.length === 0) return reading.missingIsUnknown ? null : false;
      const results = elements.map((element) => evaluate(reading, filter.filter, element, schema, attribute));
      return results.includes(true) ? true : results.includes(null) ? null : false;
    }
    case 'compare': {
      const { values, attribute } = lookup(filter.path, resource, schema, parent);
      const leaf = attribute.type === 'complex' ? attribute.subAttributes?.find((s) => s.name === 'value') : attribute;
      const present = values.map((v) => (leaf !== attribute && typeof v === 'object' && v !== null ? (v as Record<string, unknown>)['value'] : v));
      const missing = (): Truth => (reading.missingIsUnknown ? null : false);
      const test = (op: string, v: unknown): Truth => (v === undefined || v === null ? missing() : compare(reading, op, v, filter.value, leaf ?? attribute));
      if (filter.op === 'ne') {
        if (reading.neOnMany === 'none-equals' || present.length <= 1) {
          const eq = present.length === 0 ? missing() : anyOf(present.map((v) => test('eq', v)));
          return eq === null ? null : !eq;
        }
        return anyOf(present.map((v) => (v === undefined || v === null ? missing() : compare(reading, 'ne', v, filter.value, leaf ?? attribute))));
      }
      return present.length === 0 ? missing() : anyOf(present.map((v) => test(filter.op, v)));
    }
  }
}

function anyOf(results: readonly Truth[]): Truth {
  return results.includes(true) ? true : results.includes(null) ? null : false;
}

function lookup(
  path: AttrPath,
  resource: Readonly<Record<string, unknown>>,
  schema: ResourceSchema,
  parent: AttributeDescription | undefined,
): { values: unknown[]; attribute: AttributeDescription } {
  const find = (list: readonly AttributeDescription[] | undefined, name: string) => list?.find((a) => a.name.toLowerCase() === name.toLowerCase());
  if (parent !== undefined) {
    const attribute = find(parent.subAttributes, path.name);
    if (attribute === undefined) throw new Error(`unknown sub-attribute ${path.name}`);
    return { values: [resource[attribute.name]], attribute };
  }
  const extension = Object.keys(schema.extensions).find((urn) => urn.toLowerCase() === path.uri?.toLowerCase());
  const container = extension === undefined ? resource : ((resource[extension] ?? {}) as Record<string, unknown>);
  const top = find(extension === undefined ? schema.attributes : schema.extensions[extension], path.name);
  if (top === undefined) throw new Error(`unknown attribute ${path.name}`);
  const raw = container[top.name];
  const list = top.multiValued ? (Array.isArray(raw) ? raw : []) : [raw];
  if (path.sub === undefined) return { values: list, attribute: top };
  const sub = find(top.subAttributes, path.sub);
  if (sub === undefined) throw new Error(`unknown sub-attribute ${path.sub}`);
  return { values: list.map((v) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[sub.name] : undefined)), attribute: sub };
}

function compare(reading: Reading, op: string, value: unknown, literal: CompValue, attribute: AttributeDescription): Truth {
  if (attribute.type === 'boolean')
    return op === 'eq' ? value === (literal.kind === 'boolean' && literal.value) : value !== (literal.kind === 'boolean' && literal.value);
  if (literal.kind !== 'string' || typeof value !== 'string') throw new Error(`unexpected comparison of ${String(value)}`);
  if (attribute.type === 'dateTime') return order(op, Math.sign(Date.parse(value) - Date.parse(literal.value)));
  const fold = (s: string) => (attribute.caseExact === true ? s : reading.fold === 'lower' ? s.toLowerCase() : s.toUpperCase());
  const [v, l] = [fold(value), fold(literal.value)];
  switch (op) {
    case 'co':
      return v.includes(l);
    case 'sw':
      return v.startsWith(l);
    case 'ew':
      return v.endsWith(l);
    default:
      return order(op, v === l ? 0 : v < l ? -1 : 1);
  }
}

function order(op: string, sign: number): boolean {
  return { eq: sign === 0, ne: sign !== 0, gt: sign > 0, ge: sign >= 0, lt: sign < 0, le: sign <= 0 }[op] ?? false;
}
