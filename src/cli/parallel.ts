/**
 * A bundled run over the machine's cores (`run --jobs N`; by default the whole suite on a machine with
 * several cores): N shard runs of the same command line at the same time, each its own process with
 * its own bundled server (`run --shard I/N`, the plan of src/runner/shard.ts), merged into the report
 * of one run (src/runner/merge.ts), as a CI matrix and its merge job would. One process keeps one
 * core busy: the suites' thread is saturated while its server's thread idles most of the time.
 *
 * The shards send their progress over IPC (the parent shows one line), their warnings and errors go
 * to stderr once each, and Ctrl-C reaches each shard once (they run in their own process groups), so
 * that each deletes what it created and stops.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, constants as osConstants, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mergeShards, readShardReport } from '../runner/merge.js';
import type { RunResult } from '../runner/base/model.js';
import { Progress, type ProgressEvent, type ProgressSink } from '../runner/progress.js';
import { cacheFile, readCached, writeCached } from '../util/cache.js';
import { readCosts } from './shard.js';
import { packageRoot } from '../util/package-root.js';

/** Set in a shard's environment by the run that started it: relay progress over IPC instead of printing. */
export const SHARD_OF_RUN = 'LPC_SHARD_OF_RUN';

/** Shards a bundled run of the whole suite makes by default, at most. */
export const MAX_DEFAULT_JOBS = 4;

/**
 * The default number of shard processes of a bundled run: one per two cores, up to MAX_DEFAULT_JOBS.
 * One process already keeps two threads busy, the suites' and its server's (about equal work in a
 * default run; docs/decisions/core/shards.md "Both cores at home"), and a shard costs a process's start again: on
 * two cores one process is the fastest.
 */
export function defaultJobs(cores = availableParallelism()): number {
  return Math.max(1, Math.min(Math.floor(cores / 2), MAX_DEFAULT_JOBS));
}

/** The bundled runs' measured check durations, kept in the run cache: the next split over the cores
 * balances its shards by them (as `--shard-plan` does), the first by count. */
const DURATIONS = 'bundled-durations.json';

/** Remembers the checks' durations of a bundled run (one process or merged shards) for the next split;
 * the durations of checks it did not run stay as they were. */
export function rememberDurations(result: RunResult, file = cacheFile(DURATIONS)): void {
  // None yet, or unreadable: start again.
  const known = readCached<{ checks?: { id: string; durationMs: number }[] }>(file)?.checks ?? [];
  const ran = new Map(result.checks.filter((c) => c.status !== 'skipped').map((c) => [c.id, c.durationMs]));
  const checks = [...known.filter((c) => !ran.has(c.id)), ...[...ran].map(([id, durationMs]) => ({ id, durationMs }))];
  writeCached(file, JSON.stringify({ checks }));
}

/** `--shard-plan` for the shards: the remembered durations, when there are readable ones. */
function rememberedPlan(file = cacheFile(DURATIONS)): string[] {
  try {
    return readCosts(file).size > 0 ? ['--shard-plan', file] : [];
  } catch {
    return [];
  }
}

/** The signals that interrupt a run split over the cores, as they interrupt a single process. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** The exit code of a run a signal interrupted: 128 + the signal's number. */
const exitOf = (signal: NodeJS.Signals): number => 128 + (osConstants.signals[signal] ?? 0);

/** The options the run's flags carry over to each shard (the report flags are the parent's own). */
const OWN_FLAGS = new Set([
  'junit',
  'json',
  'markdown',
  'html',
  'record',
  'har',
  'baseline',
  'out',
  'seed',
  'no-progress',
  'jobs',
  'shard',
  'shard-plan',
  'list',
  'run-id',
]);

/** The parsed flags as command-line arguments again. */
function argumentsOf(values: Readonly<Record<string, string | number | boolean | string[] | undefined>>): string[] {
  return Object.entries(values).flatMap(([name, value]) => {
    if (OWN_FLAGS.has(name) || value === undefined || value === false) return [];
    if (value === true) return [`--${name}`];
    return (Array.isArray(value) ? value : [value]).flatMap((v) => [`--${name}`, String(v)]);
  });
}

/** `--record FILE`: the shards' requests, one shard after the other. */
function gatherRecords(recordFile: unknown, shards: readonly Shard[]): void {
  if (typeof recordFile !== 'string') return;
  const file = resolve(recordFile);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
  for (const s of shards) if (existsSync(s.record)) appendFileSync(file, readFileSync(s.record));
}

interface Shard {
  index: number;
  child: ChildProcess;
  json: string;
  record: string;
  /** The shard's --har file (when the run writes one). */
  har: string;
  exit: Promise<number>;
}

/** A line of the shards' stderr said once: each shard says the same warnings. */
function onceSaid(): (line: string) => void {
  const said = new Set<string>();
  return (line) => {
    if (line.trim().length === 0 || said.has(line)) return;
    said.add(line);
    process.stderr.write(`${line}\n`);
  };
}

interface ShardRun {
  readonly values: Readonly<Record<string, string | number | boolean | string[] | undefined>>;
  readonly jobs: number;
  readonly seed: number;
  readonly dir: string;
  /** The balancing options of the remembered plan (`--shard-plan`). */
  readonly plan: readonly string[];
  readonly say: (line: string) => void;
  readonly progress: Progress | undefined;
}

/** Start: shard `index` of the run, in a process of its own, its stderr relayed line by line. */
function startShard(run: ShardRun, index: number): Shard {
  const { dir, values } = run;
  const json = join(dir, `shard-${index}.json`);
  const record = join(dir, `shard-${index}.jsonl`);
  const har = join(dir, `shard-${index}.har`);
  const args = [
    'run',
    ...argumentsOf(values),
    '--seed',
    String(run.seed),
    '--shard',
    `${index}/${run.jobs}`,
    '--json',
    json,
    '--junit',
    join(dir, `shard-${index}.xml`),
    '--no-progress',
    ...run.plan,
    ...(values.record !== undefined ? ['--record', record] : []),
    ...(values.har !== undefined ? ['--har', har] : []),
  ];
  const child = fork(join(packageRoot(), 'bin/lp-conformance.js'), args, {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Its own process group: a terminal's Ctrl-C reaches the parent only, which passes it on once.
    detached: true,
    env: { ...process.env, [SHARD_OF_RUN]: '1' },
  });
  let pending = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(run.say);
  });
  child.on('message', (event: ProgressEvent) => run.progress?.add(event));
  const exit = new Promise<number>((done) =>
    child.on('exit', (code, signal) => {
      run.say(pending);
      done(code ?? (signal === 'SIGINT' ? 130 : 2));
    }),
  );
  return { index, child, json, record, har, exit };
}

/**
 * Relay: Ctrl-C or SIGTERM (CI's cancel) goes on to every shard, which stops, deletes what it created
 * and writes its report with the checks that finished; the merged reports are written from those, as
 * a single process writes its own, and the exit code is the signal's (130, 143). A second signal
 * quits at once. `release` takes the handlers off.
 */
function relaySignals(shards: readonly Shard[], say: (line: string) => void): { interrupted: () => NodeJS.Signals | undefined; release: () => void } {
  let interrupted: NodeJS.Signals | undefined;
  const onInterrupt = (signal: NodeJS.Signals): void => {
    if (interrupted === undefined) {
      interrupted = signal;
      say(
        `lp-conformance: interrupted (${signal}); stopping the shards, each deletes what it created (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit at once)`,
      );
      for (const s of STOP_SIGNALS) process.once(s, quitNow[s]);
    }
    for (const s of shards) s.child.kill(signal);
  };
  const onStop = { SIGINT: () => onInterrupt('SIGINT'), SIGTERM: () => onInterrupt('SIGTERM') };
  const quitNow = { SIGINT: () => process.exit(exitOf('SIGINT')), SIGTERM: () => process.exit(exitOf('SIGTERM')) };
  for (const s of STOP_SIGNALS) process.once(s, onStop[s]);
  return {
    interrupted: () => interrupted,
    release: () => {
      for (const s of STOP_SIGNALS) process.off(s, onStop[s]).off(s, quitNow[s]);
    },
  };
}

/** Merge: the shards' reports as one run, reported; or the exit code of a run that has none. */
async function mergeShardRuns(
  run: ShardRun,
  shards: readonly Shard[],
  codes: readonly number[],
  interrupted: NodeJS.Signals | undefined,
  report: (result: RunResult, harFiles: readonly string[]) => Promise<number>,
): Promise<number> {
  const stopped = interrupted ?? (codes.includes(143) ? 'SIGTERM' : codes.includes(130) ? 'SIGINT' : undefined);
  if (stopped === undefined) {
    const broken = shards.find((s, i) => codes[i] !== 0 && codes[i] !== 1);
    if (broken) {
      run.say(`lp-conformance: shard ${broken.index} of ${run.jobs} ended with exit code ${codes[broken.index - 1]}`);
      return 2;
    }
  }
  // Interrupted: what the shards finished, merged (the reports of an interrupted run say so).
  const reports = shards.filter((s) => stopped === undefined || existsSync(s.json)).map((s) => readShardReport(s.json));
  if (reports.length === 0) return exitOf(stopped as NodeJS.Signals);
  const { result } = mergeShards(reports);
  gatherRecords(run.values.record, shards);
  run.progress?.stop();
  return await report(
    result,
    shards.map((s) => s.har),
  );
}

/**
 * Runs the shards and merges their reports; `report` writes the merged run's reports (while the
 * shards' side files, screenshots among them and their --har files, still exist) and says the exit code. Without a merged
 * run, the exit code to end with: 2 (a shard could not run; its one line already said why) or 130
 * (interrupted).
 */
export async function runShardsAtOnce(
  options: {
    values: Readonly<Record<string, string | number | boolean | string[] | undefined>>;
    jobs: number;
    seed: number;
    progress?: ProgressSink;
  },
  report: (result: RunResult, harFiles: readonly string[]) => Promise<number>,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-shards-'));
  const progress = options.progress ? new Progress(options.progress) : undefined;
  const say = onceSaid();
  const shards: Shard[] = [];
  const signals = relaySignals(shards, say);
  try {
    // Each shard plans from the collection of the checks: made once here, read from the cache by each.
    await (await import('../runner/run.js')).collectChecks();
    const run: ShardRun = { values: options.values, jobs: options.jobs, seed: options.seed, dir, plan: rememberedPlan(), say, progress };
    for (let index = 1; index <= options.jobs; index++) shards.push(startShard(run, index));
    const codes = await Promise.all(shards.map((s) => s.exit));
    return await mergeShardRuns(run, shards, codes, signals.interrupted(), report);
  } finally {
    signals.release();
    progress?.stop();
    for (const s of shards) if (s.child.exitCode === null) s.child.kill('SIGINT');
    rmSync(dir, { recursive: true, force: true });
  }
}
