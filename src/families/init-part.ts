/**
 * What the families' `init` parts share (src/families/family.ts InitContext): a builder of the
 * values found and missing, and small readers of the target's answers.
 */
import type { InitFound, InitMissing, InitPart, ToolAnswer } from './family.js';

export type Item = Record<string, unknown>;

export const isItem = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);

export const ok = (a: ToolAnswer): boolean => a.status >= 200 && a.status < 300;

/** `GET /path answered 404`, or `… got no answer (ECONNREFUSED)`. */
export const said = (a: ToolAnswer): string => `${a.request} ${a.status === 0 ? `got no answer (${a.error ?? ''})` : `answered ${a.status}`}`;

/** The items of a 2xx answer: a bare array, or the array under `key` (an envelope, or HAL's `_embedded`). */
export function itemsOf(a: ToolAnswer, key: string): Item[] {
  const j = a.json;
  const list = Array.isArray(j) ? j : isItem(j) ? (j[key] ?? (isItem(j._embedded) ? j._embedded[key] : undefined)) : undefined;
  return ok(a) && Array.isArray(list) ? list.filter(isItem) : [];
}

/** `fn` over `items`, at most `n` at a time, the results in order. */
export async function mapLimit<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** The values a family's init found and left out, as it goes. */
export class PartBuilder {
  readonly found: InitFound[] = [];
  readonly missing: InitMissing[] = [];

  /** @param defaults the family's default expectations (what `keep` comments out). */
  constructor(private readonly defaults: unknown = {}) {}

  /** A value found, and how (an empty how: the comment of the value before says it). */
  set(path: readonly string[], value: unknown, how: string): void {
    this.found.push({ path, value, how });
  }

  /** A value not found: left commented out with why and its form; the checks needing it are skipped. */
  lack(path: readonly string[], why: string, example: unknown): void {
    this.missing.push({ path, why, example });
  }

  /** An expectation (`['expectations', …]`) left at its default, commented out with why. */
  keep(path: readonly string[], why: string): void {
    const example = path.slice(1).reduce<unknown>((at, k) => (isItem(at) ? at[k] : undefined), this.defaults);
    this.missing.push({ path, why, example, defaults: true });
  }

  part(extra: { where?: string; absent?: string } = {}): InitPart {
    return { found: this.found, missing: this.missing, ...extra };
  }
}
