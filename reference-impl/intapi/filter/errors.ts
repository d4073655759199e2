/**
 * Why a `_filter` was refused. `syntax` = the text is not in the grammar; `field` = an unknown or
 * non-filterable field; `type` = a literal or operator that does not fit the field.
 * All three answer 422 naming `_filter` (docs/decisions/intapi/reference-choices.md "_filter grammar").
 */
export type FilterErrorKind = 'syntax' | 'field' | 'type';

export class FilterError extends Error {
  constructor(
    readonly kind: FilterErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'FilterError';
  }
}
