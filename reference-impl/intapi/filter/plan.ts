import type { FieldDef, FieldSchema, Scalar } from '../../rules/fields.js';
import type { CompareOp, FilterNode } from './ast.js';
import { literalValue } from './compile.js';
import type { FilterSemantics } from './semantics.js';

/**
 * The parts of a `_filter` that an index on one field can answer: the conjuncts at the top level
 * of the expression (`a and b and ...`) that compare a plain field (no tolower/toupper) with
 * eq, gt, ge, lt or le, or test `startswith(field, '...')`. Every record the filter selects
 * satisfies each of them, so an index range for any one is a superset of the selection; the
 * compiled predicate still decides. `ne`, `or`, `not` and the other functions are not indexable.
 * Meant for a filter that compiled (its fields and literals are known to fit).
 *
 * `exact`: every conjunct is one of them, so the filter selects exactly the records that satisfy
 * all of them (an index range for a constraint holds exactly the records that satisfy it).
 */
export type Constraint<R> =
  | { readonly kind: 'compare'; readonly field: FieldDef<R>; readonly op: Exclude<CompareOp, 'ne'>; readonly literal: Scalar }
  | { readonly kind: 'prefix'; readonly field: FieldDef<R>; readonly prefix: string };

export interface FilterPlan<R> {
  readonly constraints: readonly Constraint<R>[];
  readonly exact: boolean;
}

export function planFilter<R>(node: FilterNode, schema: FieldSchema<R>, semantics: FilterSemantics): FilterPlan<R> {
  const conjuncts: FilterNode[] = [];
  const flatten = (n: FilterNode): void => {
    if (n.kind === 'and') {
      flatten(n.left);
      flatten(n.right);
    } else {
      conjuncts.push(n);
    }
  };
  flatten(node);
  const constraints = conjuncts.map((conjunct) => constraintOf(conjunct, schema, semantics));
  return {
    constraints: constraints.filter((c): c is Constraint<R> => c !== undefined),
    exact: constraints.every((k) => k !== undefined),
  };
}

function constraintOf<R>(node: FilterNode, schema: FieldSchema<R>, semantics: FilterSemantics): Constraint<R> | undefined {
  if (node.kind !== 'compare' && node.kind !== 'call') return undefined;
  if (node.operand.transform !== undefined) return undefined;
  const field = schema.resolve(node.operand.field, semantics.fieldNames);
  if (field === undefined) return undefined;
  if (node.kind === 'call') {
    if (node.fn !== 'startswith' || (field.type !== 'string' && field.type !== 'guid')) return undefined;
    return { kind: 'prefix', field, prefix: field.type === 'guid' ? node.value.toLowerCase() : node.value };
  }
  if (node.op === 'ne') return undefined;
  return { kind: 'compare', field, op: node.op, literal: literalValue(node.literal, field.type) };
}
