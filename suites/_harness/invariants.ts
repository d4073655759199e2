/**
 * The invariants of every exchange: each family's rules (src/families/<family>/invariants.ts names
 * them; `suites/_harness/<family>/invariants.ts` evaluates them, exporting `familyInvariants`),
 * found by folder, so that this module names no family. The client (http.ts) calls it on every
 * response; each rule returns at most one violation, recorded against the running check.
 */
import type { Profile } from '../../src/profile/index.js';
import { familyOf } from '../../src/profile/index.js';
import type { ApiRequest, ApiResponse } from './exchange.js';
import { FOUND_HARNESS_MODULES } from './found.js';
import type { FamilyInvariants, InvariantOutcome } from './violations.js';

export type { InvariantOutcome, Violation } from './violations.js';

const modules = import.meta.glob<{ familyInvariants: FamilyInvariants }>('./*/invariants.ts', { eager: true });
const found = FOUND_HARNESS_MODULES.filter((m): m is { familyInvariants: FamilyInvariants } => m.familyInvariants !== undefined);
const byFamily = new Map([...Object.values(modules), ...found].map(({ familyInvariants }) => [familyInvariants.family, familyInvariants]));

/** The invariants of the exchange's family (none for a family that declares none). */
export function checkInvariants(req: ApiRequest, res: ApiResponse, profile: Profile): InvariantOutcome {
  return byFamily.get(familyOf(req.op).name)?.check(req, res, profile) ?? { violations: [], applied: [] };
}
