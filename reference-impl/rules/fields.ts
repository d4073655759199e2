import type { JsonValue } from './json.js';
import { parseDateTime } from './datetime.js';

/**
 * The fields of a collection that `_filter` and `_sort` may name, with the type that decides how
 * they compare. docs/decisions/ "Lists": field names match case-insensitively.
 */
export type ValueType = 'string' | 'guid' | 'datetime' | 'number' | 'boolean';

export interface FieldDef<R> {
  readonly name: string;
  readonly type: ValueType;
  readonly get: (record: R) => JsonValue;
}

export type FieldNameMatching = 'case-insensitive' | 'case-sensitive';

export class FieldSchema<R> {
  readonly #byExactName = new Map<string, FieldDef<R>>();
  readonly #byFoldedName = new Map<string, FieldDef<R>>();

  constructor(fields: readonly FieldDef<R>[]) {
    for (const field of fields) {
      this.#byExactName.set(field.name, field);
      this.#byFoldedName.set(field.name.toLowerCase(), field);
    }
  }

  resolve(name: string, matching: FieldNameMatching): FieldDef<R> | undefined {
    return matching === 'case-sensitive' ? this.#byExactName.get(name) : this.#byFoldedName.get(name.toLowerCase());
  }
}

/** A comparable form of a stored value: guids fold case, date-times become instants. */
export type Scalar = string | number | boolean | null;

/**
 * The comparable form of a stored value of the given type, or undefined when the stored value
 * does not have that type (possible only when a fault let an invalid value in).
 */
export function comparable(value: JsonValue, type: ValueType): Scalar | undefined {
  if (value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'guid':
      return typeof value === 'string' ? lowerCase(value) : undefined;
    case 'datetime':
      return typeof value === 'string' ? parseDateTime(value) : undefined;
    case 'number':
      return typeof value === 'number' ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
  }
}

/** The lower-case form of a string: the string itself when it has no upper case (no new string is kept). */
function lowerCase(text: string): string {
  const lower = text.toLowerCase();
  return lower === text ? text : lower;
}

/** Ordering of two non-null scalars of one type: negative, zero, positive; NaN when incomparable. */
export function order(a: Scalar, b: Scalar): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0; // UTF-16 code units
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return Number.NaN;
}
