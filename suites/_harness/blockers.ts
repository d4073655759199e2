/**
 * Answers whose rule another check owns, whatever check met them (issue 19, "one deviation, one
 * failure"): when a check fails (or cannot set up) on such an answer, it ends "blocked by" the owner,
 * whose own verdict reports the deviation once. Each family names its own (today SCIM's).
 */
import type { Profile } from '../../src/profile/index.js';
import type { Exchange } from './http.js';
import { scimOwnerOf } from './scim/blockers.js';

/** The check that owns the rule `exchange` breaks, when it is not `checkId`'s own; else undefined. */
export function ownerOf(checkId: string, exchange: Exchange, profile: Profile): string | undefined {
  const owner = exchange.url.startsWith(profile.families.scim.baseUrl) ? scimOwnerOf(exchange) : undefined;
  return owner === checkId ? undefined : owner;
}
