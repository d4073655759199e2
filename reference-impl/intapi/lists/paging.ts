/**
 * Paging of the Integration API lists (public-facts "List parameters and envelope"): `_offset` is a
 * 0-based page number, so offset 2 with limit 10 is items 20..29.
 */
export type OffsetUnit = 'page' | 'item';

export function pageOf<T>(items: readonly T[], limit: number, offset: number, unit: OffsetUnit): T[] {
  const start = unit === 'page' ? offset * limit : offset;
  return items.slice(Math.max(0, start), Math.max(0, start + limit));
}

/** A decimal integer parameter: digits with an optional minus sign, nothing else. */
const INTEGER = /^-?\d+$/;

export function parseIntegerParam(text: string): number | undefined {
  if (!INTEGER.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
