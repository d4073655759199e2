/**
 * The run model: what one conformance run found, independent of HTTP.
 * The runner builds it from what the suites' worker sends (SuitesMessage); reporters (JUnit, console) only read it.
 * It also holds the run configuration the runner hands the suites (RunConfig, MatrixConfig).
 */
import type { OperationId } from '../../profile/base/routes.js';
import type { Profile } from '../../profile/base/types.js';

/** Checks in flight at once when --concurrency is not given. */
export const DEFAULT_CONCURRENCY = 8;

/** MUST / SHOULD / MAY keep the specification's (or RFC's) keyword; PROFILE marks a behaviour the
 * specification leaves "not shown" and the target profile declares. MAY never fails a run. */
export type Level = 'MUST' | 'SHOULD' | 'MAY' | 'PROFILE';
export const LEVELS: readonly Level[] = ['MUST', 'PROFILE', 'SHOULD', 'MAY'];

/** Static identity of a check: frozen once released. */
export interface CheckMeta {
  /** Stable id, `<family>.<area>.<rule>` (`<family>.v2.submissions.create.title.above-max`). */
  id: string;
  level: Level;
  /** Anchor into the specification, e.g. `spec#integration-api-submission-v2`. */
  spec: string;
  /** One full sentence of at most 100 characters. */
  title: string;
  /** Report grouping (one JUnit testsuite per area), e.g. `<family>.v2.submissions`. */
  area: string;
  /** The check may wait long (for a target's batch): when its wait exceeds SLOW_CHECK_MS it runs only
   * in a run that includes slow checks (`--include-slow`), and is skipped, saying so, otherwise. */
  slow?: true;
  /** Where the check is defined: `path:line` (from the package root) of the line holding its id, or
   * of the table row that generates it (src/runner/source.ts). */
  source?: string;
}

/** What a check's entry in the catalogue (`explain`, docs/checks.md) says of it beside its identity:
 * not part of a run's results. */
export interface CheckAbout {
  /** For a MUST check: the sentence of the specification or RFC that binds the server to the rule,
   * quoted with its section (the check's own, or its family's table of binding sentences). */
  binds?: string;
  /** What the check sends, in words (`a PUT of a submission whose title is 256 characters long`). */
  sends?: string;
  /** What it expects of the answer, in words (`422 naming title in validations`). */
  expects?: string;
}

/** A check with what the catalogue says of it (`describeChecks`). */
export interface DescribedCheck extends CheckMeta {
  about?: CheckAbout;
}

/** The link to a file of the package (`path` or `path:line`, from the package root): under `base`, the
 * versioned address of the package's repository (src/util/repository.ts), else the path itself, a
 * line as `#L<line>` (`prefix` before a path: `../` from docs/). */
export function fileLink(location: string, base?: string, prefix = ''): string {
  const m = /^(.*?)(?::(\d+))?$/.exec(location);
  const path = m?.[1] ?? location;
  const line = m?.[2] === undefined ? '' : `#L${m[2]}`;
  return `${base ?? prefix}${path}${line}`;
}

/** The anchor of a check's or a fault's row in the catalogue (docs/checks.md, docs/faults.md). */
export const catalogueAnchor = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '-');

/** A check's entry in the catalogue the package ships (its docs/checks.md, of the version that ran),
 * as a path from the package root. */
export const catalogueEntry = (id: string): string => `docs/checks.md#${catalogueAnchor(id)}`;

/**
 * What a check does to shared state of its target server (`requirement(meta, body, uses)`): the
 * run's scheduler keeps apart the checks that would disturb each other (suites/_harness/scheduler.ts),
 * and a sharded run puts them in one shard (src/runner/shard.ts).
 */
export interface Uses {
  /** Collections the check writes (creates or updates records in). */
  write?: readonly string[];
  /** Collections the check reads whole and judges as a whole. */
  observe?: readonly string[];
  /** The check asks the target for a new session token (which revokes the one in use). */
  rotatesSession?: boolean;
}

/** The longest wait a check makes in a run that does not include slow checks (`--include-slow`). */
export const SLOW_CHECK_MS = 60_000;

/** What a failed check tells its reader. Every string is already redacted (no secret values). */
export interface Failure {
  /** One line: what the rule demands. */
  expected: string;
  /** One line (or a short block): what the target did. */
  received: string;
  /** The shrunk counterexample as JSON text, when the check is a property. */
  counterexample?: string;
  /** A copy-pasteable curl reproducing the failing request, secrets as ${VAR_NAME}. */
  curl?: string;
  /** The command line that replays exactly this failure. */
  replay: string;
  /** The request that failed, `METHOD URL`. */
  operation?: string;
  /** Absent when the check reached its verdict (expected/received of its rule); `transport` when the
   * target gave no answer to judge (timeout, reset, too large); `harness` for an error of the suite. */
  cause?: 'transport' | 'harness';
  /** Files the check saved to show the failure (a screenshot of a page). In the run
   * model, where the check saved them (a folder of the run's); the reports copy each beside
   * themselves and name the copy (the JUnit report as `[[ATTACHMENT|path]]`, the HTML page embeds it). */
  attachments?: string[];
}

export type CheckStatus = 'passed' | 'failed' | 'skipped';

export interface CheckResult extends CheckMeta {
  status: CheckStatus;
  durationMs: number;
  /** HTTP requests the check made (invariants: none of their own). */
  requests?: number;
  failure?: Failure;
  /** A failure the run's baseline lists: reported, but it does not fail the run. */
  known?: { baseline: string; reason?: string };
  /** Why a check was skipped (e.g. the profile does not name a record it needs; INTERRUPTED_NOT_RUN
   * and INTERRUPTED_STOPPED for the checks an interrupted run did not finish). */
  skipReason?: string;
  /** Skipped because a request that makes the check's fixture was refused: it neither
   * passes nor fails its rule. */
  notSetUp?: NotSetUpCause;
  /** Skipped because a rule the check depends on, owned by this check id, is broken (its verdict says so). */
  blockedBy?: string;
  /** How much of the rule a property check's runs exercised; absent for checks without a property. */
  coverage?: Coverage;
  /** Present when the check worked on a sample of a large collection (suites/_harness/budget.ts). */
  sampled?: Sampled;
  /** A failed invariant: how many exchanges broke it, and the check that sent the first of them
   * (the earliest in registration order); its failure describes that first one. */
  violations?: { count: number; check: string };
}

/** A failed invariant's Received: the count, then where the first violation was and what it was. */
export function violationsReceived(count: number, first: { operation: string; checkId: string; received: string }): string {
  return `${violationsLead(count, first)}${first.received}`;
}

/** What violationsReceived puts before the first violation's own text. */
export function violationsLead(count: number, first: { operation: string; checkId: string }): string {
  return `${count} violation${count === 1 ? '' : 's'}; first at ${first.operation} in check ${first.checkId}: `;
}

/** A fixture request the target refused: what a "not set up" check names. */
export interface NotSetUpCause {
  /** Method and path of the refused request, ids as `{id}` (`POST /v2/Users`). */
  request: string;
  /** The answer: status and the start of the body. */
  answer: string;
  /** What the request was to make (`a user to work on`). */
  what: string;
  /** The cause, the same for every check refused alike: request and status (and the machine word
   * of the family's error body), e.g. `POST /v2/Users answered 409 uniqueness`. */
  key: string;
}

/** A check that met a collection larger than the harness's threshold judged a sample of it. */
export interface Sampled {
  /** Size of the largest collection the check sampled (as far as its pages of 1000 reach). */
  collection: number;
  /** Items of that collection the check read as its window (the rest was not read). */
  read: number;
}

/** What a property check's runs exercised (suites/_harness/coverage.ts). */
export interface Coverage {
  /** Property runs made (the shrinking of a failure is not counted). */
  runs: number;
  /** Runs whose input or answer was degenerate (an empty page, a filter selecting all or nothing,
   * one item to sort): they prove nothing about the rule and do not count. */
  degenerate: number;
  /** The distinct outcomes the runs recorded (e.g. `filter-selected-proper-subset`), sorted. */
  outcomes: string[];
  /** Degenerate runs by reason. */
  degenerateReasons: Record<string, number>;
}

/** One violation of an invariant, as seen by the client while running some check. */
export interface InvariantViolation {
  /** Invariant check id, `<family>.invariant.<rule>`. */
  invariant: string;
  /** The check that made the request. */
  checkId: string;
  /** `METHOD URL` of the exchange. */
  operation: string;
  expected: string;
  received: string;
  curl?: string;
}

export interface RunResult {
  /** Base URL of each family, by family name. */
  targets: Record<string, string>;
  profileName: string;
  seed: number;
  runs: number;
  startedAt: string;
  durationMs: number;
  /** Every selected check, invariants included, in report order. */
  checks: CheckResult[];
  /** Number of HTTP requests made by the suites. */
  requests: number;
  /** Checks in flight at once (--concurrency). */
  concurrency?: number;
  /** Time the checks spent waiting for the target's rate limits, summed over checks. */
  waited?: Waited;
  /** With --baseline: the file, the failures it knew, and its entries whose check now passes. */
  baseline?: { file: string; known: number; nowPassing: string[] };
  /** The run's id (its records' marker is `lpc-<runId>-`). */
  runId?: string;
  /** What became of the records the run created, when it ended (cleanup.ts): the totals of what was
   * deleted, and per family what was created, deleted and left. */
  cleanup?: CleanupReport;
  /** The run was stopped by a signal before every check finished: the checks it did not finish are
   * skipped with INTERRUPTED_NOT_RUN or INTERRUPTED_STOPPED as their reason (markInterrupted). */
  interrupted?: { signal: InterruptSignal };
  /** `--ca` or `--insecure`: how the run verified the targets' TLS certificates. */
  tls?: TlsConfig;
  /** The run is one shard of a sharded run (`run --shard I/N`): which, of which plan (shard.ts). */
  shard?: ShardOfPlan;
  /** The run is the merge of a sharded run's shards (`lp-conformance merge`, or a bundled run split
   * over the machine's cores): what each shard was, in shard order. */
  shards?: ShardRun[];
}

/** One shard of a plan, as its report records it: enough for a merge to check that the shards it is
 * given are the whole plan, each once, and to put their checks back in a single run's order. */
export interface ShardOfPlan {
  /** I of `--shard I/N`, from 1. */
  index: number;
  /** N of `--shard I/N`. */
  count: number;
  /** The plan's digest: every shard of one plan records the same (shard.ts, `planDigest`). */
  plan: string;
  /** Whether the plan's shards share one target server (checks that would disturb each other are in
   * one shard), or each has a server of its own (the bundled server of each shard: cost alone decides). */
  sharedServer: boolean;
  /** Checks the whole plan reports, invariants excluded (every shard's together). */
  checks: number;
  /** For each check of the report that is not an invariant, in turn: its position in the whole plan's
   * order, which is a single run's. */
  positions: number[];
}

/** What a merged run records of each of its shards. */
export interface ShardRun {
  index: number;
  runId?: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  requests: number;
  /** Checks of the shard, invariants excluded. */
  checks: number;
}

/** How the run verified its targets' TLS certificates, when not by Node's CAs alone. */
export interface TlsConfig {
  /** Absolute path of a PEM file of CA certificates trusted besides Node's (`--ca`). */
  readonly ca?: string;
  /** No certificate was verified (`--insecure`): every report says so. */
  readonly insecure?: true;
}

/** The folder beside a report that holds its side files (the reporters write them; a merge of
 * shards finds each shard's there). */
export const SIDE_FOLDER = 'failures';

/** The signals that stop a run early (Ctrl-C; a CI's cancel or time-out). */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** The skip reason of a check an interrupted run never started. */
export const INTERRUPTED_NOT_RUN = 'not run: the run was interrupted';
/** The skip reason of a check an interrupted run stopped before its verdict. */
export const INTERRUPTED_STOPPED = 'stopped: the run was interrupted';

/** Whether the run's interruption is why this check has no verdict. */
export function isInterrupted(check: CheckResult): boolean {
  return check.status === 'skipped' && (check.skipReason === INTERRUPTED_NOT_RUN || check.skipReason === INTERRUPTED_STOPPED);
}

/**
 * The run model of a run that `signal` stopped, as the command line hands it to its reporters: the
 * checks that finished keep their verdicts, and every check of `selected` (the run's selection, its
 * invariants included) that the runner returned no result for is added, skipped as not run.
 */
export function markInterrupted(result: RunResult, signal: InterruptSignal, selected: readonly CheckMeta[] = []): RunResult {
  const have = new Set(result.checks.map((c) => c.id));
  const unfinished = selected
    .filter((c) => !have.has(c.id))
    .map((c): CheckResult => ({ ...c, status: 'skipped', durationMs: 0, skipReason: INTERRUPTED_NOT_RUN }));
  return { ...result, checks: [...result.checks, ...unfinished], interrupted: { signal } };
}

/** What became of the records a run created (cleanup.ts). */
export interface CleanupReport {
  /** Records deleted, over every family. */
  deleted: number;
  /** Records already gone (404) when the cleanup came to them: a check deleted them itself. */
  gone: number;
  /** Records whose deletion failed, each with the reason; `lp-conformance cleanup` removes them later. */
  failed: string[];
  /** `--keep`: nothing was deleted, so that a failure's curl finds the records it names. */
  kept?: true;
  /** Per family (by name), what the run created and what became of it. */
  families: Record<string, FamilyLeftovers>;
}

export interface FamilyLeftovers {
  /** Records the run created, by collection. */
  created: Record<string, number>;
  deleted: number;
  gone: number;
  /** Records still on the target: not deletable, kept (`--keep`), or whose deletion failed. */
  left: number;
  /** Why records were left without trying: the family's API has no delete operation, or `--keep`. */
  leftBecause?: string;
}

export interface Waited {
  /** Waiting out 429 answers (Retry-After). */
  retryAfterMs: number;
  /** Pacing to --max-rps. */
  maxRpsMs: number;
  /** Requests sent again after a 429. */
  retries: number;
  /** Safe requests (GET, HEAD, OPTIONS) sent again, once, on another connection, after the target
   * closed theirs without an answer (RFC 9112 §9.3.1); absent from reports written before it was kept. */
  resent?: number;
}

/** Levels whose failures fail the run (exit 1). SHOULD joins them under --strict. */
export function failsRun(level: Level, strict = false): boolean {
  return level === 'MUST' || level === 'PROFILE' || (strict && level === 'SHOULD');
}

/** What one check's run against one target found: the suites send it to the runner (SuitesMessage). */
export interface CheckRunMeta {
  requests: number;
  /** Wall time of the check's own run (not its wait for the scheduler). */
  durationMs: number;
  waited: Waited;
  /** The first few violations of each invariant seen by this check. */
  violations: InvariantViolation[];
  /** All violations by invariant id. */
  violationCounts: Record<string, number>;
  /** Exchanges subject to each invariant, by invariant id. */
  applied: Record<string, number>;
  failure?: Failure;
  skipReason?: string;
  notSetUp?: NotSetUpCause;
  blockedBy?: string;
  coverage?: Coverage;
  sampled?: Sampled;
  /** Every exchange of the check, in order, when the run config asks for them (`digests`, a
   * differential run: src/runner/compare.ts). */
  digests?: ExchangeDigest[];
}

/** What a differential run (`--compare`) keeps of one exchange: enough to compare two servers'
 * answers to the same request, nothing of the body but its verdict and the listed ids. */
export interface ExchangeDigest {
  /** Operation id, e.g. `submissions.list`. */
  op: string;
  method: string;
  /** The request as sent (path and query, then the body after a space): compared with server-assigned
   * ids named consistently (compare.ts). */
  request: string;
  /** HTTP status; 0 when no answer came (timeout, reset). */
  status: number;
  /** The contract the body was judged against (a 2xx body its operation's, a 4xx body its family's error). */
  contract?: string;
  /** Whether the body was valid against `contract`. */
  valid?: boolean;
  /** For a list answer: the listed items' ids, in order. */
  items?: string[];
  /** For an envelope list answer: its `totalItems`. */
  total?: number;
  /** Every GUID in the answer body, in order of first appearance (to name server-assigned ids). */
  guids: string[];
  /** The exchange's curl, secrets as ${VAR}. */
  curl: string;
}

/** The run configuration the runner provides to the suites (suites/_harness/config.ts). */
/** What one check sees of the run: the target it runs against and how. */
/** A record a run created, as the run's journal holds it (cleanup.ts). */
export interface JournalEntry {
  /** The operation that deletes it (its family deletes it); absent when the API has none. */
  deleteOp?: OperationId;
  id: string;
  /** What it is, for the summary (`<kind> <name>`). */
  label: string;
  /** Its family and collection; by default those of `deleteOp`. */
  family?: string;
  collection?: string;
  /** A check deleted it itself (a line after the one that noted its creation). */
  deleted?: true;
}

/** What the runner deleted of the records a run created (cleanup.ts). */
export interface CleanupOutcome {
  deleted: number;
  /** Already gone (404): a check deleted it itself. */
  gone: number;
  /** Records that could not be deleted, with the reason (the target's answer). */
  failed: string[];
}

export interface RunConfig {
  profile: Profile;
  /** The run's seed; every check derives its own fast-check seed from it and its id. */
  seed: number;
  /** fast-check runs per property check. */
  runs: number;
  /** fast-check path to replay (with --only naming one check). */
  path?: string;
  /** fast-check commands replayPath, for model-based checks (printed in their counterexample). */
  replayPath?: string;
  /** The command line that repeats this run, without --only/--seed/--path (for replay lines). */
  replayBase: string;
  /** Per-request deadline in milliseconds, for the whole answer: a hanging target fails the check, not the tool. */
  timeoutMs: number;
  /** Appends every request of the run to this file as a JSON line (`--record`). */
  record?: string;
  /** Appends every exchange of the run to this file as a HAR 1.2 entry, one JSON line each (`--har`). */
  har?: string;
  /** Send no write but the families' token exchanges (`--read-only`): a check that must write is skipped. */
  readOnly?: boolean;
  /** Run the slow checks whose wait exceeds SLOW_CHECK_MS too (`--include-slow`); otherwise they are skipped. */
  includeSlow?: boolean;
  /** Keep a digest of every exchange in the check's meta (`--compare`). */
  digests?: boolean;
  /** The run's id: every record the run creates carries the marker `lpc-<runId>-` where the API has
   * a free-text field (runMatrix draws one when absent). */
  runId?: string;
  /** Where the checks note each record they create, one JSON line each; the runner has each
   * record's family delete those its API can delete when the run ends, and counts the others (cleanup.ts). */
  journal?: string;
  /** `--keep`: the records the run creates stay as the checks made them: the runner deletes none,
   * and the checks leave none small (a family's helpers leave what they are done with small). */
  keep?: boolean;
  /** A file the runner creates when the run is interrupted (Ctrl-C): the suites' worker then starts no
   * further check and sends no further request (a file, because the worker is another thread). */
  stopFile?: string;
  /** Where the checks save the files that show a failure (screenshots): a folder of the run's, which
   * the reports copy from (each beside itself). Absent: a temporary folder. */
  attachmentsDir?: string;
}

/** One target of a run: a RunConfig, the checks it selects, and the key its results are filed under. */
export interface TargetRun extends RunConfig {
  key: string;
  /** `--only` patterns; undefined selects every check. */
  only?: readonly string[];
  /** `--skip` patterns: the checks they match are left out. */
  skip?: readonly string[];
  /** Exactly these check ids, of those `only` selects (a shard of a plan); undefined: no such limit. */
  ids?: readonly string[];
}

export interface MatrixConfig {
  targets: readonly TargetRun[];
  /** Checks in flight at once, over all targets. */
  concurrency: number;
  /** At most this many requests per second to one target server (undefined: no limit). */
  maxRps?: number;
  /** How targets' TLS certificates are verified (`--ca`, `--insecure`); absent: Node's defaults. */
  tls?: TlsConfig;
}

/** A check as the suites registered it, without running anything: its identity and what it declared
 * it does to shared state (a shard plan reads both). */
export interface CollectedCheck {
  check: CheckMeta;
  uses?: Uses;
  /** What the catalogue says of it beside its identity (`explain`, docs/checks.md). */
  about?: CheckAbout;
  /** The call sites that registered it, innermost first, as the suites' bundle runs (`file:line:column`). */
  frames?: readonly string[];
}

/** What the runner gives the suites' worker (suites/_harness/worker.ts) when it starts it. */
export interface SuitesWorkerData {
  matrix: MatrixConfig;
  /** Load the suites and say what they register, but run nothing (`--list`, a shard plan). */
  collectOnly: boolean;
  /** This worker's place among the run's worker threads (absent: the run's only one). */
  threads?: { index: number; count: number };
}

/** A lock of the run's scheduler (src/util/scheduler.ts), as a worker asks for it. */
export interface LockRequest {
  key: string;
  mode: 'observe' | 'write' | 'exclusive';
}

/** A session token of a family, as the worker threads of a run share it. */
export interface SharedToken {
  env: string;
  value: string;
  preamble?: string;
}

/** What a worker of a run of several threads asks the runner (src/runner/threads.ts): the slot and
 * locks of a check, their release, the next group of checks to run, and the run's session tokens
 * (a new token revokes the previous one, so the workers share one per family and server). */
export type ThreadAsk =
  | { type: 'acquire'; id: number; locks: LockRequest[] }
  | { type: 'release'; id: number }
  | { type: 'next-group'; id: number }
  | { type: 'token'; id: number; key: string }
  | { type: 'token-set'; key: string; token: SharedToken; rotated: boolean }
  | { type: 'token-failed'; key: string };

/** The runner's answers: `epoch` counts the session tokens replaced so far (a worker that saw fewer
 * forgets the tokens it holds); a token, or `fetch` (this worker makes the token exchange). */
export type ThreadAnswer =
  | { type: 'granted'; id: number; epoch: number }
  | { type: 'group'; id: number; group: number }
  | { type: 'token'; id: number; token?: SharedToken; fetch?: true };

/** What the suites' worker sends the runner, in this order: what the suite files registered, each
 * selected check's results as it ends, then the end of the run. */
export type SuitesMessage =
  | { type: 'collected'; checks: CollectedCheck[] }
  /** The check at `index` of the collected ones ended: its results by target key, or the error of
   * the harness that kept it from a verdict. */
  | { type: 'result'; index: number; results?: Record<string, CheckRunMeta>; error?: string }
  /** An error no check caught (a rejection or an exception nobody handles): the run goes on. */
  | { type: 'stray-error'; message: string }
  | ThreadAsk
  | { type: 'done' };

/** What the runner sends the suites' worker: stop starting checks (Ctrl-C, SIGTERM). */
export interface SuitesCancel {
  type: 'cancel';
}
