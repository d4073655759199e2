/** The parsed form of a `_filter` expression, before it meets a collection's fields. */
export type CompareOp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type BoolFunction = 'substringof' | 'startswith' | 'endswith';
export type Transform = 'tolower' | 'toupper';

export interface Operand {
  readonly field: string;
  readonly transform?: Transform;
}

export type Literal =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'number'; readonly value: number }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'null' }
  | { readonly type: 'guid'; readonly value: string }
  | { readonly type: 'datetime'; readonly value: string };

export type FilterNode =
  | { readonly kind: 'and' | 'or'; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly kind: 'not'; readonly operand: FilterNode }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly operand: Operand; readonly literal: Literal }
  | { readonly kind: 'call'; readonly fn: BoolFunction; readonly operand: Operand; readonly value: string };
