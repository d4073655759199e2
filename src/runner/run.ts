/**
 * Runs the conformance suites (suites/*.check.ts) in a worker thread (suites/_harness/worker.ts, as
 * built) and turns what it sends into the run model. The target is reached only over HTTP by the
 * suites; this module never sees it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { InvariantMeta } from '../families/family.js';
import { bindingSentence, familyOfCheck, INVARIANTS } from '../families/registry.js';
import { sourceOfFrames, sourceOfInvariant } from './source.js';
import { familyAbsence } from '../profile/index.js';
import type {
  CheckMeta,
  CheckResult,
  CheckRunMeta,
  CleanupReport,
  CollectedCheck,
  DescribedCheck,
  ExchangeDigest,
  MatrixConfig,
  RunConfig,
  RunResult,
  SuitesCancel,
  SuitesMessage,
  SuitesWorkerData,
  TargetRun,
  ThreadAnswer,
  ThreadAsk,
  TlsConfig,
} from './base/model.js';
import { DEFAULT_CONCURRENCY, INTERRUPTED_NOT_RUN, violationsReceived, type InterruptSignal } from './base/model.js';
import { cacheFile, readCached, writeCached } from '../util/cache.js';
import { packageRoot } from '../util/package-root.js';
import { cleanUp, newRunId, readJournal } from './cleanup.js';
import { pacedSend } from '../target/base/pace.js';
import { Progress, type ProgressListener, type ProgressSink } from './progress.js';
import { selection } from './select.js';
import { ThreadBroker, workersOf } from './threads.js';

/** A run against one target: what its checks see (RunConfig), and how the run is driven. */
export interface RunOptions extends RunConfig {
  only?: string[];
  /** `--skip`: the checks these patterns match are left out. */
  skip?: string[];
  /** How the target's TLS certificate is verified (`--ca`, `--insecure`). */
  tls?: TlsConfig;
  /** Exactly these check ids, of those `only` selects (a shard's). */
  ids?: readonly string[];
  /** A shard's invariants that another shard of its plan reports: this one reports them only when it
   * saw them broken (for the merge), so that each shard counts its own and the shards add up to the run. */
  sharedInvariants?: readonly string[];
  /** Checks in flight at once (default 8; 1 runs them one after the other, in registration order). */
  concurrency?: number;
  /** Worker threads the checks run in (default one; workersOf). */
  workers?: number;
  /** At most this many requests per second to the target. */
  maxRps?: number;
  /** Where the progress line goes (or who follows the progress); none when absent. */
  progress?: ProgressSink | ProgressListener;
  /** Aborting it (Ctrl-C, SIGTERM; its reason names the signal) ends the run early: no further check
   * starts, what the run created is still deleted, and the result says the run was interrupted. */
  signal?: AbortSignal;
  /** The environment the suites read the credential variables from (default: the process's); the
   * process's own is never changed. */
  env?: NodeJS.ProcessEnv;
}

/** One target of a matrix run: its own profile (so its own server), seed, runs and selection. */
export interface MatrixTarget extends Omit<RunOptions, 'concurrency' | 'workers' | 'maxRps' | 'signal' | 'tls' | 'env'> {
  /** Results are filed under this key. */
  key: string;
}

export interface MatrixOptions {
  targets: MatrixTarget[];
  concurrency: number;
  maxRps?: number;
  /** Where the progress line goes (stderr for the command line), or who follows the progress (the run
   * that started this one as a shard); none when absent. */
  progress?: ProgressSink | ProgressListener;
  /** Aborting it (Ctrl-C, SIGTERM) cancels the checks not yet started; the cleanup still runs. */
  signal?: AbortSignal;
  /** Receives each check's exchange digests per target (targets with `digests`: a differential run). */
  onDigests?: (targetKey: string, checkId: string, digests: readonly ExchangeDigest[]) => void;
  /** How the targets' TLS certificates are verified (`--ca`, `--insecure`); the run model records it. */
  tls?: TlsConfig;
  /** The environment the suites' worker and the cleanup read the credential variables from
   * (default: the process's). */
  env?: NodeJS.ProcessEnv;
  /** Worker threads the checks run in (default 1; src/runner/threads.ts shares the scheduler). */
  workers?: number;
}

/** What the suites see of a target: its RunConfig, its key and its selection (a RunConfig has no
 * field that drives the run, so the rest stays in this process). */
function targetRun(t: MatrixTarget): TargetRun {
  const { only, skip, progress: _progress, ...config } = t;
  return { ...config, ...(only && only.length > 0 ? { only } : {}), ...(skip && skip.length > 0 ? { skip } : {}) };
}

/** The suites' worker as built (build/bundle.mjs bundles suites/_harness/worker.ts, the suite files
 * and what they import into suites/checks.js beside the command line's cli/): the one beside this
 * module's bundle (a build into another folder runs its own suites), else the package's dist/suites/. */
const SUITES_WORKER = (): string => {
  const beside = fileURLToPath(new URL('../suites/checks.js', import.meta.url));
  return existsSync(beside) ? beside : join(packageRoot(), 'dist', 'suites', 'checks.js');
};

/** One check of the run as the worker reported it: what it registered, then what its run found. */
interface CheckRecord extends CollectedCheck {
  results?: Record<string, CheckRunMeta>;
  /** The harness kept the check from a verdict (a throw outside its run against a target). */
  error?: string;
}

/**
 * Starts the suites' worker (`file`: suites/_harness/worker.ts as built, SUITES_WORKER): one per run
 * (or per thread of a run of several), so each run has the suites' state (registry, scheduler,
 * sessions) to itself. `onMessage` gets what it sends until its run ends (with `reply`, to answer
 * it); `done` settles then, or rejects when the worker fails or stops before it (the suites' bundle
 * does not load: `npm run build`).
 */
export function startSuites(
  file: string,
  data: SuitesWorkerData,
  onMessage: (message: SuitesMessage, reply: (answer: ThreadAnswer) => void) => void,
  env?: NodeJS.ProcessEnv,
): { done: Promise<void>; cancel: () => void; terminate: () => void } {
  const worker = new Worker(file, { workerData: data, ...(env ? { env } : {}) });
  let ended = false;
  const reply = (answer: ThreadAnswer): void => {
    if (!ended) worker.postMessage(answer);
  };
  const done = new Promise<void>((resolve, reject) => {
    const end = (error?: Error): void => {
      if (ended) return;
      ended = true;
      // Its idle keep-alive sockets would hold it: the run is over.
      void worker.terminate();
      if (error) reject(error);
      else resolve();
    };
    worker.on('message', (message: SuitesMessage) => {
      if (ended) return;
      if (message.type === 'done') return end();
      try {
        onMessage(message, reply);
      } catch (error) {
        end(error instanceof Error ? error : new Error(String(error)));
      }
    });
    worker.on('error', (error) => end(new Error(`the suites failed to run: ${error.message}`)));
    worker.on('exit', (code) => end(new Error(`the suites' worker stopped (exit code ${code}) before the run ended`)));
  });
  return {
    done,
    cancel: () => worker.postMessage({ type: 'cancel' } satisfies SuitesCancel),
    terminate: () => {
      ended = true;
      void worker.terminate();
    },
  };
}

const THREAD_ASKS = new Set<string>(['acquire', 'release', 'next-group', 'token', 'token-set', 'token-failed']);
const isThreadAsk = (message: SuitesMessage): message is ThreadAsk => THREAD_ASKS.has(message.type);

/**
 * The suites in `count` worker threads (src/runner/threads.ts shares the scheduler and the session
 * tokens between them); each message of theirs but the threads' own goes to `onMessage`. A worker
 * that fails ends the others: the run fails.
 */
function startWorkers(
  data: SuitesWorkerData,
  count: number,
  onMessage: (message: SuitesMessage) => void,
  env?: NodeJS.ProcessEnv,
): { done: Promise<void>; cancel: () => void } {
  const broker = count > 1 ? new ThreadBroker(data.matrix.concurrency) : undefined;
  const workers = Array.from({ length: count }, (_, index) =>
    startSuites(
      SUITES_WORKER(),
      { ...data, ...(broker ? { threads: { index, count } } : {}) },
      (message, reply) => {
        if (broker && isThreadAsk(message)) broker.handle(index, message, reply);
        else onMessage(message);
      },
      env,
    ),
  );
  const done = Promise.all(
    workers.map((w, index) =>
      w.done.catch((error: unknown) => {
        broker?.releaseAll(index);
        for (const other of workers) other.terminate();
        throw error;
      }),
    ),
  ).then(() => undefined);
  return { done, cancel: () => workers.forEach((w) => w.cancel()) };
}

/** Tells the progress line the run's total, the report's: the checks each target selects among those
 * collected, and its invariants (reported as checks of their own, counted done when the run ends). */
function expectChecks(
  progress: ProgressListener,
  targets: readonly MatrixTarget[],
  reported: readonly { invariants: (id: string) => boolean }[],
  checks: readonly CollectedCheck[],
): void {
  const selects = targets.map((t) => selection(t.only, t.skip, t.ids));
  progress.expectInvariants(reported.reduce((n, { invariants }) => n + INVARIANTS.filter((inv) => invariants(inv.id)).length, 0));
  for (const { check } of checks) progress.expect(selects.filter((select) => select(check.id)).length);
}

/** What the suites register depends on their files, the sources they import and the contracts they
 * read: the key of a collection is their names, sizes and times, with the package's version. */
function collectionKey(): string {
  const root = packageRoot();
  const hash = createHash('sha256').update(readFileSync(join(root, 'package.json')));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const { size, mtimeMs } = statSync(path);
        hash.update(`${path}\0${size}\0${mtimeMs}\n`);
      }
    }
  };
  for (const dir of [join(root, 'src'), join(root, 'suites'), dirname(SUITES_WORKER()), join(root, 'contracts')]) if (existsSync(dir)) walk(dir);
  return hash.digest('hex').slice(0, 16);
}

/** Every check, invariants included (they declare no use), without running anything. Kept in the
 * run cache between runs (a collection loads every suite file, which each shard of a
 * sharded run, `--list` and `--baseline` would otherwise spend again). */
export async function collectChecks(): Promise<CollectedCheck[]> {
  const cached = cacheFile(`collected-${collectionKey()}.json`);
  let checks = readCached<CollectedCheck[]>(cached);
  if (!checks) {
    checks = (await collectSuites()).map(({ frames, ...c }) => {
      const source = frames ? sourceOfFrames(c.check.id, frames) : undefined;
      return source === undefined ? c : { ...c, check: { ...c.check, source } };
    });
    // A suite file that did not load (a check of its own) is not kept: the next run tries again.
    if (!checks.some((c) => c.check.spec === 'lpc#harness')) writeCached(cached, JSON.stringify(checks));
  }
  return [
    ...checks,
    ...INVARIANTS.map((inv) => {
      const check = invariantCheck(inv);
      const source = sourceOfInvariant(inv.id);
      return { check: source === undefined ? check : { ...check, source } };
    }),
  ];
}

async function collectSuites(): Promise<CollectedCheck[]> {
  let checks: CollectedCheck[] = [];
  await startSuites(SUITES_WORKER(), { matrix: { targets: [], concurrency: 1 }, collectOnly: true }, (message) => {
    if (message.type === 'collected') checks = message.checks;
  }).done;
  return checks;
}

/** Every check with what the catalogue says of it (its binding sentence, what it sends and expects),
 * invariants included, without running anything (`explain`, the catalogue's pages). */
export async function describeChecks(): Promise<DescribedCheck[]> {
  return (await collectChecks()).map(({ check, about }) => {
    // An invariant registers no requirement: its family's table gives its binding sentence.
    const binds = about?.binds ?? bindingSentence(check.id, check.level);
    const described = { ...about, ...(binds === undefined ? {} : { binds }) };
    return Object.keys(described).length > 0 ? { ...check, about: described } : check;
  });
}

/** Every check id, level and anchor, invariants included, without running anything (`--list`). */
export async function listChecks(): Promise<CheckMeta[]> {
  return (await collectChecks()).map((c) => c.check);
}

/** The check of a record, with its source location when the check failed somewhere (mapping the
 * bundle's call sites reads its source map: a run whose checks all pass does not). */
function checkOf(record: CheckRecord): CheckMeta {
  const failed = record.error !== undefined || Object.values(record.results ?? {}).some((r) => r.failure !== undefined);
  if (!failed || record.check.source !== undefined || !record.frames) return record.check;
  const source = sourceOfFrames(record.check.id, record.frames);
  if (source !== undefined) record.check = { ...record.check, source };
  return record.check;
}

function resultOf(record: CheckRecord, target: MatrixTarget, interrupted: boolean): CheckResult | undefined {
  const check = checkOf(record);
  const found = record.results?.[target.key];
  if (!found && interrupted) return { ...check, status: 'skipped', durationMs: 0, skipReason: INTERRUPTED_NOT_RUN };
  if (!found) {
    // The check failed outside any run against a target: an error of the harness, reported as the check's.
    if (record.error === undefined) return undefined;
    const failure = {
      expected: 'the check to run to its verdict',
      received: record.error,
      replay: `${target.replayBase} --only ${check.id} --seed ${target.seed}`,
      cause: 'harness' as const,
    };
    return { ...check, status: 'failed', durationMs: 0, failure };
  }
  const durationMs = found.durationMs;
  const coverage = { requests: found.requests, ...(found.coverage ? { coverage: found.coverage } : {}), ...(found.sampled ? { sampled: found.sampled } : {}) };
  if (found.failure) return { ...check, status: 'failed', durationMs, failure: found.failure, ...coverage };
  if (found.skipReason !== undefined) {
    const outcome = { ...(found.notSetUp ? { notSetUp: found.notSetUp } : {}), ...(found.blockedBy ? { blockedBy: found.blockedBy } : {}) };
    return { ...check, status: 'skipped', durationMs, skipReason: found.skipReason, ...outcome, ...coverage };
  }
  return { ...check, status: 'passed', durationMs, ...coverage };
}

/** An invariant's report identity, without what the registry adds. */
function invariantCheck(inv: InvariantMeta): CheckMeta {
  const { notObserved: _notObserved, ...meta } = inv;
  return meta;
}

function invariantResults(metas: readonly CheckRunMeta[], select: (id: string) => boolean, target: MatrixTarget, interrupted: boolean): CheckResult[] {
  return INVARIANTS.filter((inv) => select(inv.id)).map((registered): CheckResult => {
    const inv = invariantCheck(registered);
    const applied = metas.reduce((n, m) => n + (m.applied[inv.id] ?? 0), 0);
    const absent = familyAbsence(target.profile, familyOfCheck(inv.id)?.name ?? '');
    if (applied === 0) return { ...inv, status: 'skipped', durationMs: 0, skipReason: interrupted ? INTERRUPTED_NOT_RUN : (absent ?? registered.notObserved) };
    const count = metas.reduce((n, m) => n + (m.violationCounts[inv.id] ?? 0), 0);
    const first = metas.flatMap((m) => m.violations).find((v) => v.invariant === inv.id);
    if (count === 0 || !first) return { ...inv, status: 'passed', durationMs: 0 };
    return {
      ...inv,
      status: 'failed',
      durationMs: 0,
      violations: { count, check: first.checkId },
      failure: {
        expected: first.expected,
        received: violationsReceived(count, first),
        ...(first.curl ? { curl: first.curl } : {}),
        operation: first.operation,
        replay: `${target.replayBase} --only ${first.checkId} --seed ${target.seed}`,
      },
    };
  });
}

/** Invariants are observed on the exchanges of other checks: selecting only invariants runs every
 * requirement of their families (`<family>.invariant.*` runs `<family>.*`) and reports just the invariants. */
export function runSelection(only: string[] | undefined): string[] | undefined {
  if (only === undefined || only.length === 0) return only;
  const families = only.map((p) => /^([a-z]+)\.invariant(\.|\*|$)/.exec(p)?.[1]);
  if (families.some((f) => f === undefined)) return only;
  return [...new Set(families.map((f) => `${f}.*`))];
}

/** A target of the matrix as planned: its run id, its journal, its stop file and its selection. */
type PlannedTarget = MatrixOptions['targets'][number] & { runId: string; journal: string; stopFile: string; only: string[] | undefined };

/** What a target's part of the run collects: the checks it reports, what each check's run found,
 * and which checks and invariants it selects. */
interface TargetCollection {
  readonly checks: CheckResult[];
  readonly metas: CheckRunMeta[];
  readonly select: (id: string) => boolean;
  readonly invariants: (id: string) => boolean;
}

/** Plan: every target gets a run id (its records' marker) and a journal of what its checks create. */
function planTargets(options: MatrixOptions, journalDir: string): { targets: PlannedTarget[]; matrix: MatrixConfig; perTarget: TargetCollection[] } {
  const targets = options.targets.map((t, i) => ({
    ...t,
    runId: t.runId ?? newRunId(),
    journal: t.journal ?? join(journalDir, `${i}.jsonl`),
    stopFile: join(journalDir, 'interrupted'),
    only: runSelection(t.only),
  }));
  const matrix: MatrixConfig = {
    targets: targets.map(targetRun),
    concurrency: options.concurrency,
    ...(options.maxRps ? { maxRps: options.maxRps } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
  };
  // The checks reported: those of the target's selection (its shard's, in a sharded run); the invariants
  // of its selection, observed on whatever its checks sent.
  const perTarget = options.targets.map((t) => ({
    checks: [] as CheckResult[],
    metas: [] as CheckRunMeta[],
    select: selection(t.only, t.skip, t.ids),
    invariants: selection(t.only, t.skip),
  }));
  return { targets, matrix, perTarget };
}

/** Start: the suites' workers, each check's result noted on its record as they send it. */
function startMatrix(
  options: MatrixOptions,
  plan: ReturnType<typeof planTargets>,
  progress: ProgressListener | undefined,
): { suites: ReturnType<typeof startWorkers>; records: () => CheckRecord[] } {
  let records: CheckRecord[] | undefined;
  // Every worker registers the same checks and says so first: the first to say it is heard.
  const suites = startWorkers(
    { matrix: plan.matrix, collectOnly: false },
    options.workers ?? 1,
    (message) => {
      if (message.type === 'collected') {
        if (records) return;
        records = message.checks;
        if (progress) expectChecks(progress, plan.targets, plan.perTarget, records);
      } else if (message.type === 'result') {
        const record = records?.[message.index];
        if (!record) throw new Error(`the suites sent the result of a check they did not register (${message.index})`);
        if (message.results) record.results = message.results;
        if (message.error !== undefined) record.error = message.error;
        progress?.checkDone(message.results);
      } else if (message.type === 'stray-error') {
        process.stderr.write(`lp-conformance: an error outside any check (the run goes on): ${message.message}\n`);
      }
    },
    options.env,
  );
  return { suites, records: () => records ?? [] };
}

/** Judge: each check's record becomes the result of every target that selects it. */
function collectResults(options: MatrixOptions, records: readonly CheckRecord[], perTarget: readonly TargetCollection[]): void {
  for (const record of records) {
    options.targets.forEach((target, i) => {
      const out = perTarget[i] as TargetCollection;
      const found = record.results?.[target.key];
      if (found) out.metas.push(found);
      if (found?.digests) options.onDigests?.(target.key, record.check.id, found.digests);
      const r = resultOf(record, target, options.signal?.aborted === true);
      if (r && out.select(r.id)) out.checks.push(r);
    });
  }
}

/** Clean up: the records each target's checks created are deleted. */
function cleanUpTargets(targets: readonly PlannedTarget[], env: MatrixOptions['env'], maxRps: number | undefined): Promise<(CleanupReport | undefined)[]> {
  // One schedule for every target's cleanup: targets on one server share its --max-rps.
  const send = pacedSend(maxRps);
  return Promise.all(
    targets.map(async (t) => {
      const entries = readJournal(t.journal);
      return entries.length === 0 ? undefined : await cleanUp(t.profile, entries, t.timeoutMs, t.keep === true, env, send);
    }),
  );
}

/** What the target's checks waited for, summed. */
function waitedOf(metas: readonly CheckRunMeta[]): RunResult['waited'] {
  return metas.reduce(
    (w, m) => ({
      retryAfterMs: w.retryAfterMs + m.waited.retryAfterMs,
      maxRpsMs: w.maxRpsMs + m.waited.maxRpsMs,
      retries: w.retries + m.waited.retries,
      resent: w.resent + (m.waited.resent ?? 0),
    }),
    { retryAfterMs: 0, maxRpsMs: 0, retries: 0, resent: 0 },
  );
}

/** Record: a target's run result, its invariants judged over what its checks observed. */
function targetResult(
  options: MatrixOptions,
  i: number,
  run: { started: number; durationMs: number; planned: PlannedTarget; collected: TargetCollection; cleanup: CleanupReport | undefined },
): RunResult {
  const target = options.targets[i] as MatrixOptions['targets'][number];
  const { checks, metas, invariants } = run.collected;
  const shared = new Set(target.sharedInvariants ?? []);
  checks.push(...invariantResults(metas, invariants, target, options.signal?.aborted === true).filter((c) => !shared.has(c.id) || c.status === 'failed'));
  return {
    targets: Object.fromEntries(
      Object.entries(target.profile.families).flatMap(([k, v]) => (v && typeof v === 'object' && 'baseUrl' in v ? [[k, String(v.baseUrl)]] : [])),
    ),
    profileName: target.profile.name,
    seed: target.seed,
    runs: target.runs,
    startedAt: new Date(run.started).toISOString(),
    durationMs: run.durationMs,
    checks,
    requests: metas.reduce((n, m) => n + m.requests, 0),
    concurrency: options.concurrency,
    waited: waitedOf(metas),
    runId: run.planned.runId,
    ...(run.cleanup ? { cleanup: run.cleanup } : {}),
    ...(options.signal?.aborted ? { interrupted: { signal: (options.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT') as InterruptSignal } } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
  };
}

/** Runs every selected check against every target in one run of the suites; one RunResult per target, in order. */
export async function runMatrix(options: MatrixOptions): Promise<RunResult[]> {
  const started = Date.now();
  const journalDir = mkdtempSync(join(tmpdir(), 'lpc-journal-'));
  const plan = planTargets(options, journalDir);
  const progress = options.progress === undefined ? undefined : 'checkDone' in options.progress ? options.progress : new Progress(options.progress);
  const { suites, records } = startMatrix(options, plan, progress);
  let cleanups: (CleanupReport | undefined)[] = [];
  // Ctrl-C, SIGTERM: no further check starts (each waiting one is skipped), and the records the run
  // created are still deleted.
  const cancel = (): void => {
    writeFileSync(join(journalDir, 'interrupted'), '');
    suites.cancel();
  };
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    await suites.done;
    collectResults(options, records(), plan.perTarget);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
    progress?.invariantsDone();
    progress?.stop();
    // The records each target's checks created are deleted now, also when the run failed (the
    // error then propagates after the cleanup).
    cleanups = await cleanUpTargets(plan.targets, options.env, options.maxRps);
    rmSync(journalDir, { recursive: true, force: true });
  }
  const durationMs = Date.now() - started;
  return options.targets.map((_, i) =>
    targetResult(options, i, {
      started,
      durationMs,
      planned: plan.targets[i] as PlannedTarget,
      collected: plan.perTarget[i] as TargetCollection,
      cleanup: cleanups[i],
    }),
  );
}

/** One target: the command line's run. */
export async function runSuites(options: RunOptions): Promise<RunResult> {
  const { concurrency = DEFAULT_CONCURRENCY, maxRps, progress, signal, tls, env, workers, ...target } = options;
  const [result] = await runMatrix({
    targets: [{ ...target, key: 'target' }],
    concurrency,
    ...(env ? { env } : {}),
    workers: workersOf({ concurrency, ...(maxRps ? { maxRps } : {}) }, workers),
    ...(maxRps ? { maxRps } : {}),
    ...(tls ? { tls } : {}),
    ...(progress ? { progress } : {}),
    ...(signal ? { signal } : {}),
  });
  return result as RunResult;
}
