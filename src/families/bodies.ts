/**
 * Readers of JSON answers that families use to say what their bodies hold (FamilyHttp's `errors`
 * and `lists`): a field of an object, a list envelope.
 */

const objectOf = (json: unknown): Readonly<Record<string, unknown>> | undefined =>
  typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;

/** The non-empty string at `key` of an object body, else undefined. */
export function stringAt(json: unknown, key: string): string | undefined {
  const value = objectOf(json)?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The array of strings at `key` of an object body, else undefined. */
export function stringsAt(json: unknown, key: string): string[] | undefined {
  const value = objectOf(json)?.[key];
  return Array.isArray(value) && value.every((s) => typeof s === 'string') ? value : undefined;
}

/** A list answer that is a bare array, or an object whose first array-valued field is the list
 * (with its total at `totalKey`, when given and a number). */
export function firstArrayList(json: unknown, totalKey?: string): { items: readonly unknown[]; total?: number } | undefined {
  if (Array.isArray(json)) return { items: json };
  const body = objectOf(json);
  if (body === undefined) return undefined;
  const items = Object.values(body).find((v) => Array.isArray(v)) as unknown[] | undefined;
  if (!items) return undefined;
  const total = totalKey === undefined ? undefined : body[totalKey];
  return { items, ...(typeof total === 'number' ? { total } : {}) };
}

/** The operations of a table whose ids say they list (`<collection>.list…`). */
export function listOperations(table: Readonly<Record<string, unknown>>): ReadonlySet<string> {
  return new Set(Object.keys(table).filter((id) => /\.list/.test(id)));
}
