/**
 * Shard plans (`run --shard I/N`): a deterministic partition of a run's checks into N shards that
 * run at the same time, in separate processes (a CI job matrix, or the cores of one machine), and
 * merge back into the report of a single run (merge.ts).
 *
 * Shards against one target server cannot share the run's scheduler (suites/_harness/scheduler.ts),
 * so every pair of checks the scheduler would keep apart goes to the same shard: the plan's units are
 * the connected components of the "would disturb each other" graph, computed from what each check
 * declared at registration (its `uses`), without running anything:
 * - a check that writes a collection and one that observes it whole (a walk, a total, a count before
 *   and after) of the same collection;
 * - the checks that use a family's session, when the shards would not share one token: a shard that
 *   obtains its token by the family's exchange revokes the token of another shard for the same user
 *   (public-facts: a new token invalidates the user's previous one), and so does a check that asks
 *   for a new token. Only a ready token (the profile's) that no selected check rotates is shared.
 * Shards that each have a server of their own (the bundled server of each shard's process) disturb
 * nothing of each other's. Either way, the checks of one area stay together: they share what is made
 * once per server and process (a record that a list's checks page through, a browser), which a
 * shard would otherwise make again.
 *
 * Units are balanced by cost: the checks' durations in an earlier run's JSON report when given (a
 * check it does not name costs the median of those it does), else one each. The largest unit goes
 * first to the shard with the least cost so far (ties: the earlier unit, the lower shard), so the
 * same inputs always give the same plan; its digest names it in every shard's report.
 */
import { createHash } from 'node:crypto';
import { FAMILIES, sessionOfCheck } from '../families/registry.js';
import type { Profile } from '../profile/base/types.js';
import type { Uses } from './base/model.js';

/** A check as the plan sees it: its id, its report area, and what it declared it does to shared state. */
export interface PlannedCheck {
  id: string;
  area: string;
  uses?: Uses;
}

export interface PlanInput {
  /** The checks the shards run together, in registration order (a single run's), invariants excluded. */
  checks: readonly PlannedCheck[];
  /** N: the number of shards. */
  count: number;
  /** Whether the shards share one target server (else each has its own: no unit joins checks). */
  sharedServer: boolean;
  /** The family whose session token a check sends, if any (its own, or the one it is a page of). */
  sessionOf: (id: string) => string | undefined;
  /** Families whose session the shards cannot share: every check that uses it joins one unit. */
  unsharedSessions: ReadonlySet<string>;
  /** Measured cost of checks, by id (milliseconds of an earlier run). */
  costs?: ReadonlyMap<string, number>;
}

export interface ShardPlan {
  count: number;
  sharedServer: boolean;
  /** The checks of each shard (index 0 is shard 1), in registration order. */
  shards: string[][];
  /** Each shard's cost as planned (the same unit as the costs given, or checks when none were). */
  costs: number[];
  /** Names the plan: the same for every shard of it, another for any other partition. */
  digest: string;
}

/** Union-find over check positions. */
class Units {
  private readonly parent: number[];
  constructor(size: number) {
    this.parent = Array.from({ length: size }, (_, i) => i);
  }
  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root] as number;
    while (this.parent[i] !== root) {
      const next = this.parent[i] as number;
      this.parent[i] = root;
      i = next;
    }
    return root;
  }
  join(members: readonly number[]): void {
    const [first, ...rest] = members;
    if (first === undefined) return;
    for (const m of rest) {
      const a = this.find(first);
      const b = this.find(m);
      // The earlier check stays the root: a unit is named by its first check.
      if (a !== b) this.parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The units: groups of check positions that must share a shard. */
export function unitsOf(input: Pick<PlanInput, 'checks' | 'sharedServer' | 'sessionOf' | 'unsharedSessions'>): number[][] {
  const { checks } = input;
  const units = new Units(checks.length);
  const areas = new Map<string, number[]>();
  checks.forEach((c, i) => void (areas.get(c.area) ?? areas.set(c.area, []).get(c.area))?.push(i));
  for (const members of areas.values()) units.join(members);
  if (input.sharedServer) {
    const writers = new Map<string, number[]>();
    const observers = new Map<string, number[]>();
    const sessions = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, i: number) => void (map.get(key) ?? map.set(key, []).get(key))?.push(i);
    checks.forEach((c, i) => {
      for (const collection of c.uses?.write ?? []) add(writers, collection, i);
      for (const collection of c.uses?.observe ?? []) add(observers, collection, i);
      const session = input.sessionOf(c.id);
      if (session !== undefined && input.unsharedSessions.has(session)) add(sessions, session, i);
    });
    for (const [collection, seen] of observers) {
      const written = writers.get(collection);
      if (written) units.join([...seen, ...written]);
    }
    for (const members of sessions.values()) units.join(members);
  }
  const byRoot = new Map<number, number[]>();
  checks.forEach((_, i) => {
    const root = units.find(i);
    (byRoot.get(root) ?? byRoot.set(root, []).get(root))?.push(i);
  });
  return [...byRoot.values()];
}

/** The digest of a partition: its shards' check ids, in order, and whether they share a server. */
export function planDigest(shards: readonly (readonly string[])[], sharedServer: boolean): string {
  return createHash('sha256').update(JSON.stringify({ sharedServer, shards })).digest('hex');
}

/** The plan: every check in exactly one of `count` shards. */
export function planShards(input: PlanInput): ShardPlan {
  const { checks, count } = input;
  if (!Number.isInteger(count) || count < 1) throw new Error(`shard plan: the number of shards must be a positive integer, not ${count}`);
  const known = input.costs ? checks.flatMap((c) => (input.costs?.has(c.id) ? [input.costs.get(c.id) as number] : [])) : [];
  const fallback = known.length > 0 ? median(known) : 1;
  const costOf = (id: string): number => {
    const cost = known.length > 0 ? input.costs?.get(id) : undefined;
    return cost !== undefined && Number.isFinite(cost) && cost >= 0 ? cost : fallback;
  };
  const units = unitsOf(input)
    .map((members) => ({ members, first: members[0] as number, cost: members.reduce((sum, i) => sum + costOf((checks[i] as PlannedCheck).id), 0) }))
    .sort((a, b) => b.cost - a.cost || a.first - b.first);
  const loads = Array.from({ length: count }, () => 0);
  const assigned = Array.from({ length: count }, () => [] as number[]);
  for (const unit of units) {
    let least = 0;
    for (let s = 1; s < count; s++) if ((loads[s] as number) < (loads[least] as number)) least = s;
    loads[least] = (loads[least] as number) + unit.cost;
    (assigned[least] as number[]).push(...unit.members);
  }
  const shards = assigned.map((members) => members.sort((a, b) => a - b).map((i) => (checks[i] as PlannedCheck).id));
  return { count, sharedServer: input.sharedServer, shards, costs: loads, digest: planDigest(shards, input.sharedServer) };
}

/** `I/N` as given to `--shard`: undefined when it is not of that form (1 ≤ I ≤ N). */
export function parseShard(text: string): { index: number; count: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index >= 1 && count >= 1 && index <= count ? { index, count } : undefined;
}

/** The families whose session the shards of a plan against one server cannot share: each shard
 * would exchange its own token (revoking another's), or a selected check asks for a new one. */
export function unsharedSessions(profile: Profile, checks: readonly PlannedCheck[]): Set<string> {
  const unshared = new Set<string>();
  for (const family of FAMILIES) if (family.auth?.exchangesToken(profile)) unshared.add(family.name);
  for (const check of checks) {
    const session = sessionOfCheck(check.id);
    if (session !== undefined && check.uses?.rotatesSession) unshared.add(session);
  }
  return unshared;
}
