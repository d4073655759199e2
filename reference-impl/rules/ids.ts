/**
 * Ids of new records: deterministic version-4-shaped GUIDs from a seed, which a request that names
 * its check and case (`x-lpc-check`, `x-lpc-case`) can make follow that check (docs/decisions/core/exact-replays.md "Exact
 * replays"). Every family's store takes its new ids from one such generator.
 */
import { createHash } from 'node:crypto';
import { isGuid } from './guid.js';
import { seededRandom } from './random.js';

const HEX_DIGITS = '0123456789abcdef';

/** Version-4-shaped GUIDs drawn from `random`. (A string built digit by digit: every reference
 * server's seed data takes its ids from here, and the tests build hundreds of servers.) */
function guids(random: () => number): () => string {
  const hex = (n: number): string => {
    let digits = '';
    for (let i = 0; i < n; i++) digits += HEX_DIGITS.charAt(Math.floor(random() * 16));
    return digits;
  };
  return () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'.charAt(Math.floor(random() * 4))}${hex(3)}-${hex(12)}`;
}

/** What a request says about itself (headers `x-lpc-check` and `x-lpc-case`), for ids that follow it. */
export interface IdOrigin {
  /** The check that sent the request. */
  readonly check: string;
  /** The property case within the check (its fast-check path), if any. */
  readonly case?: string;
}

/** A seeded id generator that can also derive ids from the request they are made for. */
export interface SeededIds {
  (): string;
  /** Runs `fn` (synchronously) with the new ids derived from `origin`: the n-th id made for a
   * (check, case) is a function of (seed, check, case, n) only, whatever else the server was asked
   * before or in between. Without an origin, ids come from the plain seeded sequence. */
  within<T>(origin: IdOrigin | undefined, fn: () => T): T;
}

/** FNV-1a, 32 bits. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Deterministic version-4-shaped GUIDs (docs/decisions/core/exact-replays.md "Exact replays"). Called plainly, a seeded
 * sequence. Within a request that names its check (and case), the ids of each (check, case) follow
 * their own counter, so that a check run alone (`--only X --seed N`, or one case of it with
 * `--path`) is handed the same ids as in the full run, where checks run concurrently.
 */
export function seededIds(seed = 0x5eed): SeededIds {
  const plain = guids(seededRandom(seed));
  const counters = new Map<string, number>();
  let origin: IdOrigin | undefined;
  const next = (): string => {
    if (origin === undefined) return plain();
    const key = `${origin.check}\u0000${origin.case ?? ''}`;
    const n = counters.get(key) ?? 0;
    counters.set(key, n + 1);
    return guids(seededRandom(fnv1a(`${seed}\u0000${key}\u0000${n}`)))();
  };
  return Object.assign(next, {
    within<T>(o: IdOrigin | undefined, fn: () => T): T {
      const outer = origin;
      origin = o;
      try {
        return fn();
      } finally {
        origin = outer;
      }
    },
  });
}

/** The id a seeded record gets: its fixed id, or one derived from an id seed (`serve --id-seed N`). */
export type SeedIdOf = (fixed: string) => string;

/** Every seeded record keeps its fixed id (no id seed). */
export const FIXED_IDS: SeedIdOf = (fixed) => fixed;

/**
 * The ids of the seed data. Without an id seed, each record keeps its fixed id (the ids the bundled
 * reference profile names); with one, every fixed id becomes a version-4-shaped GUID derived from
 * (seed, fixed id), the same for the same seed, so that a client must find the records through the
 * API instead of knowing them. A fixed id is read without case, as the stores look ids up.
 */
export function seedIdOf(idSeed?: number): SeedIdOf {
  if (idSeed === undefined) return FIXED_IDS;
  return (fixed) => {
    const h = createHash('sha256').update(`${idSeed}\u0000${fixed.toLowerCase()}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'.charAt(parseInt(h.charAt(16), 16) % 4)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
}

/** A 32-bit number that varies the seed's other sources (generated ids, scaled records) with the id seed; 0 without one. */
export function idSeedSalt(idSeed?: number): number {
  return idSeed === undefined ? 0 : fnv1a(`id-seed\u0000${idSeed}`);
}

/** `value` with every GUID string in it (at any depth) replaced by `idOf` of it. */
export function withSeedIds<T>(value: T, idOf: SeedIdOf): T {
  if (typeof value === 'string') return (isGuid(value) ? idOf(value) : value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withSeedIds(v, idOf)) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSeedIds(v, idOf)])) as T;
  return value;
}
