/**
 * `run --shard I/N [--shard-plan REPORT.json]`: the command line's side of a shard plan
 * (src/runner/shard.ts). It collects the checks (as `--list` does, running nothing), plans the
 * partition of the run's selection, and gives the shard's checks to the run; the shard's report then
 * records which shard of which plan it is, for `lp-conformance merge`.
 */
import { readFileSync } from 'node:fs';
import { familyOfCheck, sessionOfCheck } from '../families/registry.js';
import type { Profile } from '../profile/index.js';
import type { ShardOfPlan } from '../runner/base/model.js';
import { planShards, unsharedSessions, type PlannedCheck, type ShardPlan } from '../runner/shard.js';

/** A problem with the shard options: exit 2 with this one line. */
export class ShardError extends Error {}

/** What a shard run needs of its plan. */
export interface ShardSelection {
  /** The checks this shard runs (exact ids). */
  ids: string[];
  /** The whole plan. */
  plan: ShardPlan;
  /** What the shard's report records, but its checks' positions (`positionsOf`). */
  record: Omit<ShardOfPlan, 'positions'>;
  /** Each check the plan reports (invariants excluded), by id: its position in a single run's order. */
  order: ReadonlyMap<string, number>;
  /** Whether the shard runs checks of the family (or checks that use its session). */
  selects(family: string): boolean;
  /** The families whose invariants this shard reports: those of its checks that no earlier shard of
   * the plan has checks of (the others' invariants it reports only when it saw them broken). */
  invariantFamilies: readonly string[];
}

/** The measured cost of each check (its `durationMs`) in a JSON report of an earlier run. */
export function readCosts(file: string): Map<string, number> {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new ShardError(`--shard-plan ${file}: ${e.code === 'ENOENT' ? 'no such file' : (e.message.split('\n')[0] ?? String(error))}`);
  }
  const checks = (doc as { checks?: unknown } | null)?.checks;
  if (!Array.isArray(checks)) throw new ShardError(`--shard-plan ${file}: not a JSON report of lp-conformance (no 'checks' list; --json FILE writes one)`);
  const costs = new Map<string, number>();
  for (const c of checks as { id?: unknown; durationMs?: unknown }[]) {
    if (typeof c?.id === 'string' && typeof c.durationMs === 'number' && Number.isFinite(c.durationMs) && c.durationMs >= 0) costs.set(c.id, c.durationMs);
  }
  return costs;
}

/**
 * The shard `index` of `count` of the run's selection: `executed` are the checks the run executes in
 * registration order (invariants excluded; an invariants-only `--only` executes its families' checks),
 * `reported` selects those it reports.
 */
export function shardSelection(options: {
  executed: readonly PlannedCheck[];
  reported: (id: string) => boolean;
  profile: Profile;
  index: number;
  count: number;
  sharedServer: boolean;
  costs?: ReadonlyMap<string, number>;
}): ShardSelection {
  const { executed, index, count, sharedServer } = options;
  const plan = planShards({
    checks: executed,
    count,
    sharedServer,
    sessionOf: sessionOfCheck,
    unsharedSessions: sharedServer ? unsharedSessions(options.profile, executed) : new Set(),
    ...(options.costs ? { costs: options.costs } : {}),
  });
  const ids = plan.shards[index - 1] ?? [];
  const reportedIds = executed.map((c) => c.id).filter((id) => options.reported(id));
  const families = new Set(ids.flatMap((id) => [familyOfCheck(id)?.name, sessionOfCheck(id)]).filter((f): f is string => f !== undefined));
  return {
    ids,
    plan,
    record: { index, count, plan: plan.digest, sharedServer, checks: reportedIds.length },
    order: new Map(reportedIds.map((id, i) => [id, i])),
    selects: (family) => families.has(family),
    invariantFamilies: invariantFamiliesOf(plan, index),
  };
}

/** The families of the shard's checks that no earlier shard has checks of: of each family, the earliest
 * shard that runs its checks reports its invariants. */
function invariantFamiliesOf(plan: ShardPlan, index: number): string[] {
  const familiesOf = (ids: readonly string[]) => new Set(ids.map((id) => familyOfCheck(id)?.name).filter((f): f is string => f !== undefined));
  const own = familiesOf(plan.shards[index - 1] ?? []);
  const earlier = familiesOf(plan.shards.slice(0, index - 1).flat());
  return [...own].filter((f) => !earlier.has(f));
}

/** The shard's record in its report: the plan, and each reported check's position in it. */
export function shardRecord(selection: ShardSelection, checkIds: readonly string[]): ShardOfPlan {
  return { ...selection.record, positions: checkIds.flatMap((id) => (selection.order.has(id) ? [selection.order.get(id) as number] : [])) };
}
