/**
 * The merge of a sharded run (`lp-conformance merge`, and a bundled run split over the machine's
 * cores): the shards' JSON reports, each valid against the published schema and each a shard of the
 * same plan (shard.ts), become the run model of one run, the one a single run of the same checks would
 * have made: every check once, in a single run's order, with its shard's verdict; each invariant
 * failed when any shard saw a violation (their counts added, the first in check order named), passed
 * when some shard observed it unbroken, else skipped. The reporters then write it as they write a run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { INVARIANTS } from '../families/registry.js';
import { packageRoot } from '../util/package-root.js';
import { SIDE_FOLDER, violationsLead, violationsReceived, type CheckResult, type FamilyLeftovers, type RunResult, type ShardOfPlan } from './base/model.js';

/** Shards that do not make one run (missing, twice, of another plan): exit 2 with this one line. */
export class MergeError extends Error {
  override readonly name = 'MergeError';
}

/** A shard's report as read: its run model, and the verdict options it was judged under. */
export interface ShardReport {
  file: string;
  result: RunResult & { shard: ShardOfPlan };
  /** `--fail-on should` (`--strict`). */
  strict: boolean;
}

let validator: ReturnType<Ajv2020['compile']> | undefined;
function validate(doc: unknown): ErrorObject[] {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    ajvFormats.default(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(join(packageRoot(), 'reports/run.schema.json'), 'utf8')) as object);
  }
  return validator(doc) ? [] : (validator.errors ?? []);
}

/** What each family's records became, over every shard: counts added, the first reason for leaving kept. */
function mergeLeftovers(each: readonly Record<string, FamilyLeftovers>[]): Record<string, FamilyLeftovers> {
  const merged: Record<string, FamilyLeftovers> = {};
  for (const families of each) {
    for (const [name, f] of Object.entries(families)) {
      const m = (merged[name] ??= { created: {}, deleted: 0, gone: 0, left: 0 });
      for (const [collection, n] of Object.entries(f.created)) m.created[collection] = (m.created[collection] ?? 0) + n;
      m.deleted += f.deleted;
      m.gone += f.gone;
      m.left += f.left;
      if (f.leftBecause !== undefined && m.leftBecause === undefined) m.leftBecause = f.leftBecause;
    }
  }
  return merged;
}

/** Reads a shard's JSON report: valid against reports/run.schema.json, and a shard's. */
export function readShardReport(file: string): ShardReport {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new MergeError(`${file}: ${e.code === 'ENOENT' ? 'no such file' : `not JSON (${e.message.split('\n')[0]})`}`);
  }
  const errors = validate(doc);
  if (errors.length > 0) {
    const first = errors[0] as ErrorObject;
    const version = (doc as { schemaVersion?: unknown } | null)?.schemaVersion;
    throw new MergeError(
      `${file}: not a JSON report this version of lp-conformance reads (schemaVersion ${JSON.stringify(version)}): ${first.instancePath || '/'} ${first.message ?? ''}`.trim(),
    );
  }
  const { schemaVersion: _version, verdict, ...result } = doc as RunResult & { schemaVersion: number; verdict: { failOn: string } };
  if (!result.shard) throw new MergeError(`${file}: the report of a whole run, not of a shard (run --shard I/N writes a shard's)`);
  const checks = result.checks.map((c) =>
    c.failure?.attachments ? { ...c, failure: { ...c.failure, attachments: c.failure.attachments.map((a) => attachment(a, file)) } } : c,
  );
  return { file, result: { ...(result as ShardReport['result']), checks }, strict: verdict.failOn === 'should' };
}

/** Where a shard report's attachment is: as the report names it (from the directory its run was
 * started in), or in the `failures/` folder beside the report (a report copied elsewhere, a CI
 * artifact downloaded into another folder). */
function attachment(named: string, report: string): string {
  if (existsSync(named)) return named;
  const beside = join(dirname(report), SIDE_FOLDER, basename(named));
  return existsSync(beside) ? beside : named;
}

const INVARIANT_IDS = new Set(INVARIANTS.map((i) => i.id));

const list = (items: readonly string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The shards are the whole plan, each once, and agree on what makes them one run. */
function checkShards(shards: readonly ShardReport[]): void {
  const [first] = shards;
  if (!first) throw new MergeError('merge needs the JSON reports of the shards (REPORT.json…)');
  const plan = first.result.shard;
  for (const s of shards) {
    const { shard } = s.result;
    if (shard.count !== plan.count || shard.plan !== plan.plan) {
      throw new MergeError(`${s.file} is shard ${shard.index} of ${shard.count} of another plan than ${first.file} (shard ${plan.index} of ${plan.count})`);
    }
  }
  const byIndex = new Map<number, string[]>();
  for (const s of shards) byIndex.set(s.result.shard.index, [...(byIndex.get(s.result.shard.index) ?? []), s.file]);
  const twice = [...byIndex].filter(([, files]) => files.length > 1);
  if (twice.length > 0) {
    const [index, files] = twice[0] as [number, string[]];
    throw new MergeError(`shard ${index} of ${plan.count} is given ${files.length} times: ${list(files)}`);
  }
  const missing = Array.from({ length: plan.count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new MergeError(`shard${missing.length > 1 ? 's' : ''} ${list(missing.map(String))} of ${plan.count} ${missing.length > 1 ? 'are' : 'is'} missing`);
  }
  const disagree = (what: string, of: (s: ShardReport) => unknown): void => {
    const other = shards.find((s) => JSON.stringify(of(s)) !== JSON.stringify(of(first)));
    if (other) throw new MergeError(`${other.file} and ${first.file} are shards of one plan run with other ${what}`);
  };
  disagree('--runs', (s) => s.result.runs);
  disagree('profiles', (s) => s.result.profileName);
  disagree('--fail-on (--strict)', (s) => s.strict);
  disagree('baselines (--baseline)', (s) => s.result.baseline !== undefined);
  // Shards of one server must have checked the same one; each bundled shard had a server of its own.
  if (plan.sharedServer) disagree('targets', (s) => s.result.targets);
  for (const s of shards) {
    const own = s.result.checks.filter((c) => !INVARIANT_IDS.has(c.id)).length;
    if (own !== s.result.shard.positions.length) {
      throw new MergeError(`${s.file}: its shard record names ${s.result.shard.positions.length} checks, and it reports ${own}`);
    }
  }
  const seen = new Set<number>();
  for (const s of shards) {
    for (const p of s.result.shard.positions) {
      if (seen.has(p) || p >= plan.checks) throw new MergeError(`${s.file}: its checks overlap another shard's or lie outside the plan`);
      seen.add(p);
    }
  }
  if (seen.size !== plan.checks) throw new MergeError(`the shards report ${seen.size} of the plan's ${plan.checks} checks`);
}

/** One invariant of the merged run, from each shard's verdict on it. */
function mergeInvariant(results: readonly CheckResult[], position: (checkId: string) => number): CheckResult {
  const failed = results.filter((r) => r.status === 'failed' && r.failure);
  if (failed.length > 0) {
    const count = failed.reduce((n, r) => n + (r.violations?.count ?? 1), 0);
    // The first violation of a single run is the one of the earliest check in its order.
    const earliest = [...failed].sort((a, b) => position(a.violations?.check ?? '') - position(b.violations?.check ?? ''))[0] as CheckResult;
    const failure = earliest.failure as NonNullable<CheckResult['failure']>;
    const check = earliest.violations?.check;
    if (!check || failure.operation === undefined) return earliest;
    const lead = violationsLead(earliest.violations?.count ?? 1, { operation: failure.operation, checkId: check });
    const own = failure.received.startsWith(lead) ? failure.received.slice(lead.length) : failure.received;
    return {
      ...earliest,
      violations: { count, check },
      failure: { ...failure, received: violationsReceived(count, { operation: failure.operation, checkId: check, received: own }) },
    };
  }
  return results.find((r) => r.status === 'passed') ?? (results[0] as CheckResult);
}

/** The checks of the whole run in the plan's order, the invariants after them (merged). */
function mergedChecks(shards: readonly ShardReport[]): CheckResult[] {
  const placed: [number, CheckResult][] = [];
  const invariants = new Map<string, CheckResult[]>();
  for (const { result } of shards) {
    let next = 0;
    for (const check of result.checks) {
      if (INVARIANT_IDS.has(check.id)) invariants.set(check.id, [...(invariants.get(check.id) ?? []), check]);
      else placed.push([result.shard.positions[next++] as number, check]);
    }
  }
  placed.sort((a, b) => a[0] - b[0]);
  const positionOf = new Map(placed.map(([p, c]) => [c.id, p]));
  const position = (id: string): number => positionOf.get(id) ?? Number.POSITIVE_INFINITY;
  // Invariants follow the checks, in their registration order, as in a single run.
  const invariantChecks = INVARIANTS.flatMap((inv) => {
    const results = invariants.get(inv.id);
    return results ? [mergeInvariant(results, position)] : [];
  });
  return [...placed.map(([, c]) => c), ...invariantChecks];
}

/** The baseline of the whole run (the first shard's file), its counts over the merged checks. */
function mergedBaseline(runs: readonly RunResult[], checks: readonly CheckResult[]): Pick<RunResult, 'baseline'> {
  const baseline = runs[0]?.baseline;
  if (!baseline) return {};
  const nowPassing = new Set(runs.flatMap((r) => r.baseline?.nowPassing ?? []));
  return {
    baseline: { file: baseline.file, known: checks.filter((c) => c.known).length, nowPassing: checks.filter((c) => nowPassing.has(c.id)).map((c) => c.id) },
  };
}

/** The cleanups of the shards as one. */
function mergedCleanup(runs: readonly RunResult[]): Pick<RunResult, 'cleanup'> {
  const cleanups = runs.flatMap((r) => (r.cleanup ? [r.cleanup] : []));
  if (cleanups.length === 0) return {};
  return {
    cleanup: {
      deleted: cleanups.reduce((n, c) => n + c.deleted, 0),
      gone: cleanups.reduce((n, c) => n + c.gone, 0),
      failed: cleanups.flatMap((c) => c.failed),
      ...(cleanups.some((c) => c.kept) ? { kept: true as const } : {}),
      families: mergeLeftovers(cleanups.map((c) => c.families)),
    },
  };
}

/** The run's figures summed over the shards: its time span, requests and waits. */
function mergedFigures(runs: readonly RunResult[]): Pick<RunResult, 'startedAt' | 'durationMs' | 'requests' | 'waited'> {
  const starts = runs.map((r) => Date.parse(r.startedAt));
  const start = Math.min(...starts);
  const end = Math.max(...runs.map((r, i) => (starts[i] as number) + r.durationMs));
  const sum = (of: (r: RunResult) => number | undefined): number => runs.reduce((n, r) => n + (of(r) ?? 0), 0);
  return {
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    requests: sum((r) => r.requests),
    waited: {
      retryAfterMs: sum((r) => r.waited?.retryAfterMs),
      maxRpsMs: sum((r) => r.waited?.maxRpsMs),
      retries: sum((r) => r.waited?.retries),
      resent: sum((r) => r.waited?.resent),
    },
  };
}

/** The run model of the whole run, from its shards' reports (checked: checkShards). */
export function mergeShards(reports: readonly ShardReport[]): { result: RunResult; strict: boolean } {
  checkShards(reports);
  const shards = [...reports].sort((a, b) => a.result.shard.index - b.result.shard.index);
  const first = shards[0] as ShardReport;
  const checks = mergedChecks(shards);
  const runs = shards.map((s) => s.result);
  const interrupted = runs.find((r) => r.interrupted)?.interrupted;
  // A shard that did not verify certificates (--insecure) makes the whole run say so.
  const tls = runs.find((r) => r.tls?.insecure)?.tls ?? runs.find((r) => r.tls)?.tls;
  const { startedAt, durationMs, requests, waited } = mergedFigures(runs);
  const result: RunResult = {
    targets: first.result.targets,
    profileName: first.result.profileName,
    seed: first.result.seed,
    runs: first.result.runs,
    startedAt,
    durationMs,
    checks,
    requests,
    ...(first.result.concurrency !== undefined ? { concurrency: first.result.concurrency } : {}),
    ...(tls ? { tls } : {}),
    waited,
    ...mergedBaseline(runs, checks),
    ...mergedCleanup(runs),
    ...(interrupted ? { interrupted } : {}),
    shards: runs.map((r) => ({
      index: r.shard.index,
      ...(r.runId ? { runId: r.runId } : {}),
      seed: r.seed,
      startedAt: r.startedAt,
      durationMs: r.durationMs,
      requests: r.requests,
      checks: r.shard.positions.length,
    })),
  };
  return { result, strict: first.strict };
}
