/**
 * Answers whose rule another check owns, whatever check met them ("one deviation, one
 * failure"): when a check fails (or cannot set up) on such an answer, it ends "blocked by" the owner,
 * whose own verdict reports the deviation once. Each family names its own, in its folder's
 * `blockers.ts` (exporting `familyBlockers`), found by folder so that this module names none.
 */
import { FAMILIES, baseUrlOf, type Profile } from '../../src/profile/index.js';
import type { Exchange } from './exchange.js';
import { FOUND_HARNESS_MODULES } from './found.js';

/** A family's owners of rules, as its folder's `blockers.ts` exports them. */
export interface FamilyBlockers {
  readonly family: string;
  /** The check that owns the rule the exchange breaks, if one does. */
  ownerOf(exchange: Exchange): string | undefined;
}

const modules = import.meta.glob<{ familyBlockers: FamilyBlockers }>('./*/blockers.ts', { eager: true });
const found = FOUND_HARNESS_MODULES.filter((m): m is { familyBlockers: FamilyBlockers } => m.familyBlockers !== undefined);
const byFamily = new Map([...Object.values(modules), ...found].map(({ familyBlockers }) => [familyBlockers.family, familyBlockers]));

/** The family whose base URL the exchange went to (the longest that fits). */
function familyOfExchange(exchange: Exchange, profile: Profile): string | undefined {
  const bases = FAMILIES.filter((f) => f.profile.baseUrl !== undefined).map((f) => ({ name: f.name, base: baseUrlOf(profile, f.name) }));
  return bases.filter(({ base }) => exchange.url.startsWith(base)).sort((a, b) => b.base.length - a.base.length)[0]?.name;
}

/** The check that owns the rule `exchange` breaks, when it is not `checkId`'s own; else undefined. */
export function ownerOf(checkId: string, exchange: Exchange, profile: Profile): string | undefined {
  const family = familyOfExchange(exchange, profile);
  const owner = family === undefined ? undefined : byFamily.get(family)?.ownerOf(exchange);
  return owner === checkId ? undefined : owner;
}
