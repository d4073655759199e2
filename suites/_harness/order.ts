// The comparison operators the families' filter languages share (OData's, RFC 7644's).

/** `eq ne gt ge lt le`: the operators that compare by order. */
export type OrderOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

/** Whether a comparison operator holds for a three-way order of its operands. */
export function holdsOrder(op: OrderOperator, order: number): boolean {
  switch (op) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'le':
      return order <= 0;
  }
}
