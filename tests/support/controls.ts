// Runs tests/support/controls-run.mjs (a matrix run: one reference server per fault, in one
// process) with a plan, and reads what it found. Used by the negative controls and the matrix test.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HANG_GUARD_MS, ROOT } from './cli.js';

export interface TargetPlan {
  key: string;
  /** The fault of the target's server; none for a sound server. */
  fault?: string;
  /** A variant of the server's SCIM (SCIM_VARIANTS): a legitimate configuration. */
  variant?: string;
  /** The target's profile file; default: the reference profile. */
  profile?: string;
  /** The server holds the SCIM seed (2,500 users of other clients) whatever its fault. */
  scimSeed?: boolean;
  seed: number;
  runs: number;
  only?: readonly string[];
  /** Sweep only the checks of `only` that call an operation reading what the fault changes, as a
   * trace of a run without it finds (controls-run.mjs traceScopes). */
  traced?: boolean;
  /** With `traced`: the sweep may share one run with other faults' sweeps of the same trace and
   * selection (controls-run.mjs groupSweeps); `allowed` is what its fault may make fail, `mustFail`
   * what it must. */
  shares?: { allowed: readonly string[]; mustFail: readonly string[] };
  /** Not run when every one of `ids` failed with its own verdict in target `key`'s result, which
   * then stands for this target's (`Found.from`); otherwise run after the others. */
  unlessFailedIn?: { key: string; ids: readonly string[] };
}

/** A check that failed, as tests/support/controls-run.mjs reports it: enough to understand the
 * failure from a CI log alone. */
export interface FailedCheck {
  id: string;
  expected: string;
  received: string;
  /** Absent for the check's own verdict; `transport` (no answer to judge) or `harness` otherwise. */
  cause?: 'transport' | 'harness';
  /** The request that failed, `METHOD URL`. */
  operation?: string;
}

export interface Found {
  failed: FailedCheck[];
  skipped: { id: string; reason?: string; notSetUp?: { key: string }; blockedBy?: string }[];
  checks: number;
  requests: number;
  /** A traced sweep's checks (none when it kept its whole `only`) and why. */
  traced?: { checks: string[]; reason: string };
  /** A sweep that may share a run (TargetPlan.shares) and was grouped: `swept in one run with …`, or
   * why it was swept alone after all. */
  shared?: string;
  /** The target whose result stands for this one (TargetPlan.unlessFailedIn); it made no request. */
  from?: string;
}

/** Checks listed in one assertion message, and characters of one expected or received. */
const LISTED_CHECKS = 20;
const SHOWN_CHARS = 1000;

function shown(text: string): string {
  const bounded = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} characters)` : text;
  return bounded.replace(/\n/g, '\n      ');
}

/** The message of a control's assertion over some checks of a target's result: what is wrong, then
 * each check's failure (cause, request, expected, received), or that it did not fail. */
export function failuresMessage(what: string, ids: readonly string[], found: Found): string {
  const lines = ids.slice(0, LISTED_CHECKS).flatMap((id) => {
    const f = found.failed.find((x) => x.id === id);
    if (!f) return [`- ${id}: did not fail`];
    const how = [f.cause ? `${f.cause} failure` : 'its own verdict', ...(f.operation ? [`at ${f.operation}`] : [])].join(' ');
    return [`- ${id}: ${how}`, `    expected: ${shown(f.expected)}`, `    received: ${shown(f.received)}`];
  });
  if (ids.length > LISTED_CHECKS) lines.push(`- and ${ids.length - LISTED_CHECKS} more`);
  return [what, ...lines].join('\n');
}

export interface ControlsResult {
  durationMs: number;
  requests: number;
  targets: Record<string, Found>;
}

/** Runs the plan in `shards` processes at once, each with the servers of its share of the faults
 * (every target of a fault in the same one, round robin over the faults in plan order, which mixes
 * the families), and merges what they found. One process keeps one core busy at most (its suite
 * thread); two let the controls, the longest file of npm test, use the machine's cores as the
 * other files' runs leave them free. */
export async function runControls(
  plan: { concurrency: number; targets: TargetPlan[]; shards?: number },
  timeoutMs = 2 * HANG_GUARD_MS,
): Promise<ControlsResult> {
  const faults = [...new Set(plan.targets.map((t) => t.fault ?? ''))];
  const shards = Math.max(1, Math.min(plan.shards ?? 1, faults.length));
  const shardOf = new Map(faults.map((fault, i) => [fault, i % shards]));
  const parts = await Promise.all(
    Array.from({ length: shards }, (_, shard) =>
      runShard({ concurrency: plan.concurrency, targets: plan.targets.filter((t) => shardOf.get(t.fault ?? '') === shard) }, timeoutMs),
    ),
  );
  return {
    durationMs: Math.max(...parts.map((p) => p.durationMs)),
    requests: parts.reduce((n, p) => n + p.requests, 0),
    targets: Object.assign({}, ...parts.map((p) => p.targets)) as Record<string, Found>,
  };
}

function runShard(plan: { concurrency: number; targets: TargetPlan[] }, timeoutMs: number): Promise<ControlsResult> {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-controls-'));
  const planFile = join(dir, 'plan.json');
  const resultFile = join(dir, 'result.json');
  writeFileSync(planFile, JSON.stringify(plan));
  return new Promise((done, failed) => {
    // A larger young generation: the run allocates briskly for minutes, and fewer scavenges
    // promote less, which costs the whole run less CPU.
    const child = spawn(process.execPath, ['--max-semi-space-size=64', resolve(ROOT, 'tests/support/controls-run.mjs'), planFile, resultFile], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', failed);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return failed(new Error(`controls-run exited ${code}: ${stderr.slice(-2000)}`));
      done(JSON.parse(readFileSync(resultFile, 'utf8')) as ControlsResult);
    });
  });
}
