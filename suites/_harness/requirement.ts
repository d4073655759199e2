/**
 * requirement(): the identity of a check and its one verdict (style.md, "Identity of a check").
 * Registers the check with the run's registry (registry.ts) with its metadata (so `--list` needs no
 * run), and at run time returns its requests, invariant violations and structured failure for the
 * runner (src/runner).
 */
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import {
  type CheckRunMeta,
  type Failure,
  INTERRUPTED_NOT_RUN,
  INTERRUPTED_STOPPED,
  type Level,
  type Sampled,
  SLOW_CHECK_MS,
} from '../../src/runner/base/model.js';
import { bindingSentence, sessionOfCheck } from '../../src/families/registry.js';
import { familyAbsence, type Profile } from '../../src/profile/index.js';
import { selection } from '../../src/runner/select.js';
import { matrixConfig, type RunConfig, type TargetRun } from './config.js';
import { CheckFailure } from './failure.js';
import { CoverageTally } from './coverage.js';
import { Client, exchangeOf, InterruptedSkip, ReadOnlySkip, Recorder } from './http.js';
import { noteAnswer } from './journal.js';
import { ownerOf } from './blockers.js';
import { BlockedSignal, isOutcome, NotSetUpSignal } from './outcomes.js';
import { register } from './registry.js';
import { locksOf, type Uses } from './scheduler.js';
import { checkScheduler, type CheckScheduler } from './threads.js';
import { MissingCredentialsError, serverKey, sessionSecrets, type Secrets } from '../../src/target/secrets.js';

export interface RequirementMeta {
  /** Frozen once released, never reused. */
  id: string;
  level: Level;
  /** `spec#<heading-slug>`, `public-facts#<slug>` or `rfc7644#section-…`. */
  spec: string;
  /** A full sentence of at most 100 characters. */
  title: string;
  /** The check may wait long for the target (`t.waitsUpTo`): `--list` says so. */
  slow?: true;
  /** For a MUST check: the sentence of the specification or RFC that binds the server to the rule,
   * quoted with its section (`RFC 7644 §3.5.2.2: "…"`). A failure shows it after what was expected,
   * so that a reader sees the sentence the server broke (docs/decisions/<family>/levels.md). Without
   * it, the family's table of binding sentences gives it (Family.binds). */
  binds?: string;
  /** What the check sends, in words, for its catalogue entry (`explain`); derived from its id and
   * operation when absent. */
  sends?: string;
  /** What it expects of the answer, in words, for its catalogue entry; its title when absent. */
  expects?: string;
}

export interface PropertyOptions<T> {
  /** Values run first (they count among the runs). */
  examples?: T[];
  /** At most this many runs, whatever --runs says: a property each of whose runs leaves a record the
   * target cannot delete runs what its proof needs (bounds.ts), not --runs. */
  maxRuns?: number;
}

export interface CheckContext {
  readonly http: Client;
  readonly profile: Profile;
  readonly config: RunConfig;
  readonly secrets: Secrets;
  /** The check's own fast-check seed (`checkSeed(config.seed, id)`): what samples outside a property are drawn from. */
  readonly seed: number;
  /** Runs a fast-check property with the check's seed and the run's --runs; a failure is shrunk. */
  property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options?: PropertyOptions<T>): Promise<void>;
  /** Ends the check as skipped (e.g. the profile names no record it needs). */
  skip(reason: string): never;
  /** Inside a `property` predicate: this run's input or answer is degenerate (an empty page, a
   * filter selecting every item or none, one item to sort) and does not count. Does not throw.
   * A check whose runs are mostly degenerate fails as not exercised (coverage.ts). */
  degenerate(reason: string): void;
  /** Inside a `property` predicate: records a distinct outcome of this run (e.g. `filter-selected-proper-subset`). */
  outcome(label: string): void;
  /** Skips the check with the reason when the target's data is too small to exercise the rule
   * (e.g. fewer than 2 items to sort), whatever the profile says. */
  requireData(condition: boolean, reason: string): void;
  /** A fresh v4-form GUID drawn from the check's seeded source: the n-th call of a property case
   * (or of the check outside its properties) is a function of the check's seed, the run id, the
   * case and n, so a replay (which repeats --run-id) draws the same ids, and a run with an earlier
   * run's seed draws others. Never one of the low fixed ids of seeded records. */
  uuid(): string;
  /** Records that the check judged a sample of a collection of `collection` items, having read
   * `read` of them (budget.ts); the report keeps the largest collection. */
  sampled(collection: number, read: number): void;
  /** The check is about to wait up to `ms` for the target (`why` names where the wait comes from):
   * over SLOW_CHECK_MS, it is skipped unless the run includes slow checks (`--include-slow`). Only
   * for a check registered `slow`. */
  waitsUpTo(ms: number, why: string): void;
}

/** fast-check's `RunExecution.mergePaths`: a path relative to a replayed `--path`, made absolute. */
function mergePaths(offset: string, path: string): string {
  if (offset.length === 0) return path;
  const offsetItems = offset.split(':');
  const items = path.split(':');
  return [...offsetItems.slice(0, -1), `${Number(offsetItems.at(-1)) + Number(items[0])}`, ...items.slice(1)].join(':');
}

/**
 * The fast-check path of each run of a property, as fast-check counts it (its RunnerIterator): runs
 * are numbered from 0; after a failure the numbering restarts among that value's shrinks, and the
 * failure's index joins the path. So the case of a failing run is its counterexample path, and a
 * replay with `--path` names its first run exactly as the original run named it.
 */
class CaseTracker {
  private failedAt: string | undefined;
  private index = -1;
  private current = '';
  constructor(private readonly base: string) {}
  next(): string {
    this.index++;
    this.current = this.failedAt === undefined ? `${this.index}` : `${this.failedAt}:${this.index}`;
    return mergePaths(this.base, this.current);
  }
  failed(): void {
    this.failedAt = this.current;
    this.index = -1;
  }
}

const UUID_V4 = fc.noBias(fc.uuid({ version: 4 }));

/** A v4-form GUID drawn by fast-check from FNV-1a of (seed, key); never one of the low fixed ids
 * of seeded records (00000000-0000-4000-8000-…), which the reference server gives its own. */
function guidOf(seed: number, key: string): string {
  for (let retry = 0; ; retry++) {
    const [id] = fc.sample(UUID_V4, { seed: checkSeed(seed, retry === 0 ? key : `${key}#retry${retry}`), numRuns: 1 });
    if (id !== undefined && !id.startsWith('00000000-0000-')) return id;
  }
}

/** The check's seeded GUIDs: per case, a counter; each GUID a function of (check seed, run id, case,
 * n). The run id is in it because a GUID often names a record the check creates: a run with the seed
 * of an earlier run against the same server (a nightly gate with a pinned --seed) must not create
 * what that run created (409); a replay repeats the run id (its --run-id), so it draws the same. */
class SeededGuids {
  private readonly counters = new Map<string, number>();
  constructor(
    private readonly seed: number,
    private readonly runId: string,
  ) {}
  next(kase: string): string {
    const n = this.counters.get(kase) ?? 0;
    this.counters.set(kase, n + 1);
    return guidOf(this.seed, `${this.runId}#${kase}#${n}`);
  }
}

/** The GUID a run sends for a GUID that a property drew to name a new record (a create's own id):
 * a function of the drawn GUID and the run id, for the reason SeededGuids gives. */
export function runOwnGuid(drawn: string, runId: string | undefined): string {
  return guidOf(0, `${runId ?? ''}#${drawn}`);
}

class SkipSignal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

// Segments are lower-case words, except field names, which keep the specification's spelling.
const ID = /^[a-z0-9]+(\.[a-zA-Z0-9_-]+)+$/;

/** The report area of a check: family and version, then the resource (`<family>.v2.<resource>`). */
export function areaOf(id: string): string {
  const parts = id.split('.');
  const depth = /^v\d+$/.test(parts[1] ?? '') ? 3 : 2;
  // A two-part id (`<family>.<rule>`) is its family's area.
  return parts.slice(0, Math.min(depth, parts.length - 1)).join('.');
}

/** The per-check fast-check seed: FNV-1a of `<run seed>:<check id>`, so checks are independent
 * and `--only <id> --seed <run seed>` reproduces the same values. */
export function checkSeed(runSeed: number, id: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${runSeed}:${id}`) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h | 0;
}

/** JSON of a counterexample with long strings abbreviated (the curl carries the exact body). */
export function showCounterexample(value: unknown): string {
  // fast-check command sequences print themselves (each command's toString), as the replay shows them.
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && value.toString !== Object.prototype.toString) return String(value);
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'string' && v.length > 60) return `${v.slice(0, 24)}…(${[...v].length} chars)`;
      if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
      return v;
    }) ?? 'undefined'
  );
}

function transportMessage(error: unknown, timeoutMs: number): string {
  const e = error as { code?: string; message?: string; name?: string; cause?: { code?: string } };
  switch (e.code ?? e.cause?.code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `no complete answer within ${timeoutMs} ms (${e.code ?? e.cause?.code})`;
    case 'LPC_DEADLINE':
      return e.message ?? `no complete answer within ${timeoutMs} ms`;
    case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
      return 'an answer larger than the 8 MiB the suite reads';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'LPC_TARGET_DOWN':
      return e.message ?? 'the target stopped answering';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `the connection was closed mid-exchange (${e.code ?? e.cause?.code})`;
    default:
      return `${e.name ?? 'Error'}: ${e.message ?? String(error)}`;
  }
}

interface PropertyFailure {
  counterexample: string;
  seedReplay: string;
}

function replayCommand(config: RunConfig, id: string, path?: string, replayPath?: string): string {
  return `${config.replayBase} --only ${id} --seed ${config.seed}${path ? ` --path ${path}` : ''}${replayPath ? ` --replay-path ${replayPath}` : ''}`;
}

/** fast-check prints a command sequence's own replay path inside its counterexample. */
function commandsReplayPath(counterexample: string): string | undefined {
  return /\/\*replayPath="([^"]+)"\*\//.exec(counterexample)?.[1];
}

function toFailure(error: unknown, meta: RequirementMeta, ctx: { config: RunConfig; http: Client; secrets: Secrets }, prop?: PropertyFailure): Failure {
  const { secrets, config } = ctx;
  const replay = prop?.seedReplay ?? replayCommand(config, meta.id);
  if (error instanceof CheckFailure) {
    return {
      expected: secrets.redact(meta.binds === undefined || error.notExercised ? error.expected : `${error.expected} (${meta.binds})`),
      received: secrets.redact(error.received),
      ...(prop ? { counterexample: secrets.redact(prop.counterexample) } : {}),
      ...(error.exchange ? { curl: ctx.http.curlOf(error.exchange), operation: error.exchange.operation } : {}),
      replay,
      ...(error.attachments ? { attachments: error.attachments } : {}),
    };
  }
  const exchange = exchangeOf(error);
  // An error with an exchange or an error code is the target's (no answer, a broken one, no token);
  // any other is the suite's own.
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (!exchange && typeof code !== 'string') {
    return {
      expected: 'the check to run to its verdict',
      received: secrets.redact(`an error in the suite itself: ${transportMessage(error, config.timeoutMs)}`),
      ...(prop ? { counterexample: secrets.redact(prop.counterexample) } : {}),
      replay,
      cause: 'harness',
    };
  }
  return {
    cause: 'transport',
    expected: 'an HTTP answer the check can judge',
    received: secrets.redact(transportMessage(error, config.timeoutMs)),
    ...(prop ? { counterexample: secrets.redact(prop.counterexample) } : {}),
    ...(exchange ? { curl: ctx.http.curlOf(exchange), operation: exchange.operation } : {}),
    replay,
  };
}

/** The predicate, run once per distinct input: an input that already passed passes again without
 * being sent (the check writes nothing, so its requests and the answers would be the same). Runs that
 * fast-check draws again are free; the coverage counts distinct inputs. */
function onceEach<T>(predicate: (value: T) => Promise<void>): (value: T) => Promise<void> {
  const passed = new Set<string>();
  return async (value) => {
    const key = fc.stringify(value);
    if (passed.has(key)) return;
    await predicate(value);
    passed.add(key);
  };
}

let scheduler: CheckScheduler | undefined;
const selectors = new Map<TargetRun, (id: string) => boolean>();

/** Whether a target of the run selects the check (its --only and --skip patterns, and its shard's ids). */
export function selects(target: TargetRun, id: string): boolean {
  let select = selectors.get(target);
  if (!select) selectors.set(target, (select = selection(target.only, target.skip, target.ids)));
  return select(id);
}

/** Whether the run was interrupted (the runner's stop file exists); looked up at most every 200 ms. */
const stopChecks = new Map<string, { at: number; stopped: boolean }>();
export function interruptedRun(config: RunConfig): boolean {
  const file = config.stopFile;
  if (!file) return false;
  const now = Date.now();
  const seen = stopChecks.get(file);
  if (seen && (seen.stopped || now - seen.at < 200)) return seen.stopped;
  const stopped = existsSync(file);
  stopChecks.set(file, { at: now, stopped });
  return stopped;
}

/** The result of a check the run did not start because it was interrupted. */
function interrupted(): CheckRunMeta {
  return {
    requests: 0,
    durationMs: 0,
    violations: [],
    violationCounts: {},
    applied: {},
    waited: { retryAfterMs: 0, maxRpsMs: 0, retries: 0, resent: 0 },
    skipReason: INTERRUPTED_NOT_RUN,
  };
}

/** A failure (or a refused set-up) on an answer whose rule another check owns (blockers.ts) is that
 * check's to report: this one ends "blocked by" it. */
function ownedElsewhere(error: unknown, id: string, config: RunConfig): unknown {
  const exchange = error instanceof CheckFailure || error instanceof NotSetUpSignal ? error.exchange : undefined;
  const owner = exchange ? ownerOf(id, exchange, config.profile) : undefined;
  return owner === undefined || !exchange ? error : new BlockedSignal(owner, `${exchange.operation} answered ${exchange.status}`, exchange);
}

/** What one check's run against one target accumulates while its body runs: read by its verdict. */
interface CheckRunState {
  readonly started: number;
  readonly recorder: Recorder;
  readonly coverage: CoverageTally;
  /** Properties the body ran so far (a later one names its cases apart). */
  properties: number;
  propertyFailure?: PropertyFailure;
  sampled?: Sampled;
}

/** The check's HTTP client against the target: its declared uses, the run's limits and sinks. */
function checkClient(uses: Uses | undefined, config: RunConfig, secrets: Secrets, recorder: Recorder, signal?: AbortSignal): Client {
  const { maxRps } = matrixConfig();
  return new Client(config.profile, secrets, recorder, {
    timeoutMs: config.timeoutMs,
    ...(uses ? { uses } : {}),
    ...(maxRps ? { maxRps } : {}),
    ...(config.record ? { record: config.record } : {}),
    ...(config.har ? { har: config.har } : {}),
    ...(config.readOnly ? { readOnly: true } : {}),
    ...(signal ? { signal } : {}),
    stopped: () => interruptedRun(config),
    onAnswer: (req, res) => noteAnswer(config, req, res),
  });
}

/** `t.property`: one fast-check property under the check's seed; a counterexample is kept in `state`
 * for the failure's replay line, and an outcome signal ends the property without shrinking. */
function propertyRunner(
  meta: RequirementMeta,
  uses: Uses | undefined,
  config: RunConfig,
  http: Client,
  seed: number,
  state: CheckRunState,
): CheckContext['property'] {
  // A check that writes nothing sends the same requests for the same input, and gets the same
  // answers from a target that follows the specification: an input that passed once is not sent again.
  const readOnly = !(uses?.write && uses.write.length > 0);
  const { coverage } = state;
  return async (arb, predicate, options) => {
    // A check with several properties names the cases of the later ones apart (`p2/4:0`).
    const prefix = state.properties++ === 0 ? '' : `p${state.properties}/`;
    const cases = new CaseTracker(config.path ?? '');
    const wrapped = readOnly ? onceEach(coverage.wrap(predicate)) : coverage.wrap(predicate);
    // A run that could not set up, or met a broken rule another check owns, ends the property:
    // fast-check's shrinking then meets the same outcome at once, without a request.
    let outcome: NotSetUpSignal | BlockedSignal | undefined;
    const run = async (value: Parameters<typeof predicate>[0]) => {
      if (outcome) throw outcome;
      http.caseId = `${prefix}${cases.next()}`;
      try {
        await wrapped(value);
      } catch (error) {
        if (isOutcome(error)) outcome = error;
        if (!fc.PreconditionFailure.isFailure(error)) cases.failed();
        throw error;
      } finally {
        http.caseId = undefined;
      }
    };
    const details = await fc.check(fc.asyncProperty(arb, run), {
      seed,
      numRuns: Math.min(config.runs, options?.maxRuns ?? config.runs),
      ...(config.path ? { path: config.path } : {}),
      ...(options?.examples ? { examples: options.examples.map((e) => [e] as [typeof e]) } : {}),
    });
    // A write refused by --read-only is no counterexample: the check is skipped.
    if (details.failed && (details.errorInstance instanceof ReadOnlySkip || details.errorInstance instanceof InterruptedSkip)) throw details.errorInstance;
    if (details.failed && isOutcome(details.errorInstance)) throw details.errorInstance;
    if (details.failed) {
      const counterexample = showCounterexample(details.counterexample?.[0]);
      state.propertyFailure = {
        counterexample,
        seedReplay: replayCommand(config, meta.id, details.counterexamplePath ?? undefined, commandsReplayPath(counterexample)),
      };
      throw details.errorInstance;
    }
    // A replay (--path) makes one run on purpose: no verdict on its coverage.
    const shortfall = config.path ? undefined : coverage.shortfall();
    if (shortfall?.single)
      throw new SkipSignal(
        `not exercised in its only run (${shortfall.received}): one run does not judge the coverage; more runs, or more data in the target, would`,
      );
    if (shortfall) throw Object.assign(new CheckFailure(shortfall.expected, shortfall.received), { notExercised: true as const });
  };
}

/** The `t` a check's body is given. */
function checkContext(meta: RequirementMeta, uses: Uses | undefined, config: RunConfig, http: Client, secrets: Secrets, state: CheckRunState): CheckContext {
  const seed = checkSeed(config.seed, meta.id);
  const guids = new SeededGuids(seed, config.runId ?? '');
  return {
    http,
    profile: config.profile,
    config,
    secrets,
    seed,
    property: propertyRunner(meta, uses, config, http, seed, state),
    skip(reason) {
      throw new SkipSignal(reason);
    },
    degenerate(reason) {
      state.coverage.markDegenerate(reason);
    },
    outcome(label) {
      state.coverage.outcome(label);
    },
    requireData(condition, reason) {
      if (!condition) throw new SkipSignal(`not exercised, the target's data is too small: ${reason}`);
    },
    uuid() {
      return guids.next(http.caseId ?? '');
    },
    sampled(collection, read) {
      if (!state.sampled || collection > state.sampled.collection) state.sampled = { collection, read };
    },
    waitsUpTo(ms, why) {
      if (!meta.slow) throw new Error(`harness: check ${meta.id} waits (t.waitsUpTo) without slow in its metadata`);
      if (ms > SLOW_CHECK_MS && !config.includeSlow)
        throw new SkipSignal(`slow: it waits up to ${ms} ms (${why}), more than the ${SLOW_CHECK_MS} ms of a run without --include-slow`);
    },
  };
}

/** What the run found, without a verdict yet: requests, violations, waits, coverage. */
function runMetaOf(state: CheckRunState): CheckRunMeta {
  const { recorder, coverage, sampled } = state;
  return {
    requests: recorder.requests,
    durationMs: performance.now() - state.started,
    violations: recorder.violations,
    violationCounts: recorder.countsByInvariant(),
    applied: recorder.applied,
    waited: { ...recorder.waited },
    ...(coverage.used ? { coverage: coverage.summary() } : {}),
    ...(sampled ? { sampled } : {}),
    ...(recorder.digests ? { digests: recorder.digests } : {}),
  };
}

/** The verdict of a body that threw: a skip of its kind, blocked by another check, or a failure. */
function thrownVerdict(
  thrown: unknown,
  meta: RequirementMeta,
  run: { config: RunConfig; http: Client; secrets: Secrets; signal?: AbortSignal },
  state: CheckRunState,
): CheckRunMeta {
  const { config } = run;
  const error = ownedElsewhere(thrown, meta.id, config);
  const found = runMetaOf(state);
  if (error instanceof SkipSignal) return { ...found, skipReason: error.reason };
  if (error instanceof NotSetUpSignal) return { ...found, skipReason: error.message, notSetUp: error.detail };
  if (error instanceof BlockedSignal) return { ...found, skipReason: error.why, blockedBy: error.by };
  if (error instanceof ReadOnlySkip) return { ...found, skipReason: `not run: ${error.message}` };
  if (error instanceof InterruptedSkip || run.signal?.aborted || interruptedRun(config)) return { ...found, skipReason: INTERRUPTED_STOPPED };
  if (error instanceof MissingCredentialsError) return { ...found, skipReason: `not run: the family's credentials are missing (${error.message})` };
  return { ...found, failure: toFailure(error, meta, { config, http: run.http, secrets: run.secrets }, state.propertyFailure) };
}

/** Runs one check against one target; what it found, for the runner. Never throws. */
async function runAgainst(
  meta: RequirementMeta,
  uses: Uses | undefined,
  body: (t: CheckContext) => Promise<void>,
  config: RunConfig,
  signal?: AbortSignal,
): Promise<CheckRunMeta> {
  const state: CheckRunState = {
    started: performance.now(),
    recorder: new Recorder(meta.id, config.digests === true),
    coverage: new CoverageTally(),
    properties: 0,
  };
  const secrets = sessionSecrets(config.profile, config.timeoutMs);
  const http = checkClient(uses, config, secrets, state.recorder, signal);
  try {
    // A family the profile says the target does not have: nothing of it is sent.
    const absent = familyAbsence(config.profile, meta.id.slice(0, meta.id.indexOf('.')));
    if (absent !== undefined) throw new SkipSignal(absent);
    await body(checkContext(meta, uses, config, http, secrets, state));
  } catch (thrown) {
    return thrownVerdict(thrown, meta, { config, http, secrets, ...(signal ? { signal } : {}) }, state);
  }
  return runMetaOf(state);
}

/** The call sites that led to a registration, innermost first, as the running code names them
 * (`file:line:column` of the built bundle): the runner maps them to the suite's sources
 * (src/runner/source.ts), so every check names the line that defines it. */
function registrationFrames(): string[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 12;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, requirement);
  Error.stackTraceLimit = limit;
  return (holder.stack ?? '')
    .split('\n')
    .slice(1)
    .flatMap((line) => /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?\s*$/.exec(line)?.[1] ?? []);
}

/**
 * Registers one check. `uses` declares what the check does to shared state (scheduler.ts): the
 * collections it writes or observes whole, and whether it asks for a new session token. The check
 * runs once per target of the run that selects it, each run as one job of the run's scheduler;
 * results are the registered check's, by target key (registry.ts).
 */
export function requirement(declared: RequirementMeta, body: (t: CheckContext) => Promise<void>, uses?: Uses): void {
  if (!ID.test(declared.id)) throw new Error(`check id ${declared.id} is not of the form family.area.name`);
  if (declared.title.length > 100) throw new Error(`check ${declared.id}: title longer than 100 characters`);
  if (declared.binds !== undefined && declared.level !== 'MUST')
    throw new Error(`check ${declared.id}: binds names the sentence of a MUST; its level is ${declared.level}`);
  const binds = bindingSentence(declared.id, declared.level, declared.binds);
  const meta: RequirementMeta = { ...declared, ...(binds === undefined ? {} : { binds }) };
  const { binds: _binds, sends, expects, ...identity } = meta;
  const about = { ...(binds === undefined ? {} : { binds }), ...(sends === undefined ? {} : { sends }), ...(expects === undefined ? {} : { expects }) };

  register({
    check: { ...identity, area: areaOf(meta.id) },
    ...(uses ? { uses } : {}),
    ...(Object.keys(about).length > 0 ? { about } : {}),
    frames: registrationFrames(),
    run: async (signal) => {
      const matrix = matrixConfig();
      scheduler ??= checkScheduler(matrix.concurrency);
      const jobs = matrix.targets.filter((target) => selects(target, meta.id));
      const results: Record<string, CheckRunMeta> = {};
      await Promise.all(
        jobs.map(async (target) => {
          const scope = serverKey(target.profile);
          // An interrupted run (Ctrl-C: the worker aborts every check's signal) starts no further
          // check: each waiting one is skipped as soon as its turn comes.
          results[target.key] = await (scheduler as CheckScheduler).run(locksOf(uses, scope, sessionOfCheck(meta.id)), () =>
            signal.aborted || interruptedRun(target) ? Promise.resolve(interrupted()) : runAgainst(meta, uses, body, target, signal),
          );
        }),
      );
      return results;
    },
  });
}
