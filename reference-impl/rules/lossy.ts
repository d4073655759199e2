import type { JsonObject, JsonValue } from './json.js';
import type { BodySpec, FieldSpec } from './bounds.js';
import { formatInstant, parseDateTime } from './datetime.js';

/**
 * Lossy storage (a fault family, `<family>.lossy-store:<operation>.<field>`): the server keeps a value that
 * is valid for the field but not the one sent. The altered value follows from the field's row of
 * the bounds table, so it stays within the field's bounds:
 * - a date-time moves by one day (back by one day when that would pass 9999-12-31);
 * - an enum value becomes the next one of the enum, cyclically (status (v+1)%3, questionType the
 *   next type);
 * - a string loses its last character (code point); one too short for that (at its minimum length,
 *   or of one character) gets its last character replaced by "x" ("y" when it is "x"), and "" becomes "x";
 * - a number gains 1, or loses 1 when +1 would pass the maximum;
 * - a client-supplied `id` is replaced by a generated one.
 * Only top-level fields, and only values of the field's own type, are altered.
 */

/** A field a lossy store can alter: a bounded length or number, an enum, a date-time, a client id. */
function isLossy(field: FieldSpec): boolean {
  if (field.notAccepted === true || field.items !== undefined) return false;
  const bounded = field.minLength !== undefined || field.maxLength !== undefined || field.minimum !== undefined || field.maximum !== undefined;
  return bounded || field.enum !== undefined || field.format === 'date-time' || (field.name === 'id' && field.format === 'guid');
}

export interface LossyField {
  /** `<operation>.<field>` */
  readonly id: string;
  /** How the stored value differs from the one sent, in words. */
  readonly alteration: string;
}

function alterationOf(field: FieldSpec): string {
  if (field.format === 'date-time') return 'the date-time moved by one day';
  if (field.format === 'guid') return 'a generated id instead of the one sent';
  if (field.enum !== undefined) return `the next value of the enum (${field.enum.join(' -> ')} -> ${String(field.enum[0])})`;
  if (field.type === 'string') return 'its last character dropped (replaced by "x", or "y" for "x", in a string too short for that; "" becomes "x")';
  return '1 more (1 less at the maximum)';
}

/** Every field of the table a lossy store can alter, in table order. */
export function listLossyFields(spec: BodySpec): LossyField[] {
  return spec.fields.filter(isLossy).map((field) => ({ id: `${spec.operation}.${field.name}`, alteration: alterationOf(field) }));
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** 9999-12-31T23:59:59.999Z: the last instant an RFC 3339 date-time can name. */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function otherString(text: string, minLength: number): string {
  const points = Array.from(text);
  if (points.length - 1 >= Math.max(minLength, 1)) return points.slice(0, -1).join('');
  const last = points.at(-1);
  return [...points.slice(0, -1), last === 'x' ? 'y' : 'x'].join('');
}

function otherNumber(value: number, field: FieldSpec): number {
  const max = field.maximum ?? Number.POSITIVE_INFINITY;
  const min = field.minimum ?? Number.NEGATIVE_INFINITY;
  if (value + 1 <= max) return value + 1;
  if (value - 1 >= min) return value - 1;
  return value === min ? max : min;
}

/** A value valid for the field and different from the one sent (the sent one when none is known). */
export function alteredValue(field: FieldSpec, value: JsonValue, freshId: () => string): JsonValue {
  if (typeof value === 'string' && field.format === 'date-time') {
    const instant = parseDateTime(value);
    if (instant === undefined) return value;
    return formatInstant(instant + DAY_MS <= LAST_INSTANT ? instant + DAY_MS : instant - DAY_MS);
  }
  if (typeof value === 'string' && field.format === 'guid') return freshId();
  const allowed = field.enum;
  if (allowed !== undefined) {
    const index = typeof value === 'string' || typeof value === 'number' ? allowed.indexOf(value) : -1;
    return index < 0 ? value : (allowed[(index + 1) % allowed.length] ?? value);
  }
  if (typeof value === 'string') return otherString(value, field.minLength ?? 0);
  if (typeof value === 'number') return otherNumber(value, field);
  return value;
}

/** The body as the server stores it: the sent body, less faithful in the lossy fields. */
export type BodyStorage = (body: JsonObject, freshId: () => string) => JsonObject;

export function compileStorage(spec: BodySpec, lossy: ReadonlySet<string>): BodyStorage {
  const fields = spec.fields.filter((field) => isLossy(field) && lossy.has(`${spec.operation}.${field.name}`));
  if (fields.length === 0) return (body) => body;
  return (body, freshId) => {
    const stored: JsonObject = { ...body };
    for (const field of fields) {
      const value = body[field.name];
      if (value !== undefined && value !== null) stored[field.name] = alteredValue(field, value, freshId);
    }
    return stored;
  };
}
