/**
 * `lp-conformance run` (and `baseline`) as named stages, shared by the command line (main.ts) and the
 * library's run() (src/api/run.ts):
 *   validate  the options into a plan: every set-up mistake is a UsageError before anything starts;
 *   build     the bundled server, the compare server and the preflight of each selected family;
 *   send      the checks (one process; or shards over the cores, each with its own server);
 *   judge     the shard's record, the baseline, an empty selection;
 *   record    the reports, the remembered durations, the baseline file and the exit code.
 * What differs between the two hosts (where the summary and warnings go, where credentials are read,
 * what interrupts a run, whether reports/junit.xml is written unasked) is the `RunHost`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { familyAbsence, loadProfile, parseProfile, redactor, resolveSecrets, withTarget, withVariantExpectations, type Profile } from '../profile/index.js';
import { applyBaseline, loadBaseline, writeBaseline, type Baseline } from '../runner/baseline.js';
import { sandboxEnvironment, sandboxOfEnvironment, startBundled, type BundledServer, type Sandbox } from '../runner/bundled.js';
import type { CompareServer } from '../runner/compare.js';
import { newRunId } from '../runner/base/marker.js';
import { DEFAULT_CONCURRENCY, type RunResult, type TlsConfig } from '../runner/base/model.js';
import type { ProgressListener, ProgressSink } from '../runner/progress.js';
import { selection, selectsFamily } from '../runner/select.js';
import { tlsConfigOf, useTls } from '../target/tls.js';
import { BASELINE, checkOutputs, closestName, REPLAYED, RUN, splitList, UsageError, type Values } from './args.js';
import { checkUrlsGiven, preflight, SetupError } from './preflight.js';
import { checkHarOptions, harLogOf, writeHar } from './har.js';
import { tool } from './invocation.js';
import type { Printer } from './reports.js';

/*
 * The heavy parts are imported where a stage needs them: the runner, the reference server (fastify,
 * oidc-provider), the mail sink (smtp-server) and the reporters.
 */
const referenceServer = () => import('../../reference-impl/index.js');
const runner = () => import('../runner/run.js');

/** The options of `run` and `baseline`, as the option table parses them (`run` has every option of
 * `baseline` but --out, which its table does not accept). */
export type RunValues = Values<typeof BASELINE.options>;

/** What stops a run early, as the run model names it. */
export type Interrupt = 'SIGINT' | 'SIGTERM';

/** Who runs the stages, and where what they say goes. */
export interface RunHost {
  readonly command: 'run' | 'baseline';
  /** The profile as a document (what its YAML parses to), instead of `--profile FILE`. */
  readonly profileDocument?: unknown;
  /** Where the credential variables are read; never changed (a bundled run lays its sandbox over a copy). */
  readonly env: NodeJS.ProcessEnv;
  /** Where the console summary and the baseline's line go; null: nowhere. */
  readonly stdout: Printer | null;
  /** Where warnings and the interrupted line go; null: nowhere. */
  readonly stderr: Printer | null;
  readonly progress?: ProgressSink | ProgressListener;
  readonly color: boolean;
  /** reports/junit.xml when no --junit names the JUnit report (the command line's). */
  readonly junitByDefault: boolean;
  /** A file the Markdown summary is appended to (`$GITHUB_STEP_SUMMARY`). */
  readonly stepSummary?: string | undefined;
  /** Installs what interrupts the checks once they are sent (the signals; an AbortSignal): each calls
   * `stop`; returns their removal. */
  readonly interrupts: (stop: (reason: Interrupt) => void) => () => void;
  /** Set-up is abandoned when this aborts before the checks are sent (the library's AbortSignal). */
  readonly signal?: AbortSignal;
  /** `--keep-serving`: resolves when the bundled server, kept up after the run, is to stop (Ctrl-C);
   * absent: the host keeps no server up (the library's). */
  readonly untilStopped?: () => Promise<void>;
}

/** What a run ends with: its exit code and, unless it only listed the checks, its run model. */
export interface RunOutcome {
  readonly exitCode: number;
  readonly result?: RunResult;
  /** --fail-on should (or --strict): SHOULD failures fail the run too. */
  readonly strict: boolean;
}

/** `--only a,b --skip c select` (or `--only a selects`), as given, for messages. */
function patternsText(only: readonly string[], skip: readonly string[]): string {
  const given = [only.length > 0 ? `--only ${only.join(',')}` : '', skip.length > 0 ? `--skip ${skip.join(',')}` : ''].filter(Boolean);
  return given.length === 1 ? `${given[0]} selects` : `${given.join(' ') || 'the patterns'} select`;
}

export async function variantOf(value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const { VARIANTS } = await referenceServer();
  if (!Object.hasOwn(VARIANTS, value)) throw new UsageError(`unknown variant '${value}' (${Object.keys(VARIANTS).join(', ')})`);
  return value;
}

export async function faultsOf(values: string[] | undefined): Promise<string[]> {
  const faults = splitList(values);
  if (faults.length === 0) return faults;
  const names = (await referenceServer()).allFaults();
  const known = new Set(names);
  const unknown = faults.find((f) => !known.has(f));
  if (unknown) {
    // A name given without its family's prefix is matched against the names without theirs too.
    const bare = new Map(names.map((n) => [n.slice(n.indexOf('.') + 1), n]));
    const near = closestName(unknown, names) ?? bare.get(closestName(unknown, [...bare.keys()]) ?? '');
    throw new UsageError(`unknown fault '${unknown}'${near ? `; did you mean ${near}?` : ''} (${tool()} serve --list-faults lists them)`);
  }
  return faults;
}

/** Shard processes of a bundled run (`--jobs N`): by default one per core (at most four) for the whole
 * suite, one for a selection (`--only`), a replay, a `--scale`d server or checks run one by one. */
async function jobsOf(
  value: number | undefined,
  run: { bundled: boolean; sharded: boolean; only: string[]; concurrency: number; scale: number; oneCheck: boolean; compare: boolean; keepServing: boolean },
): Promise<number> {
  if (value !== undefined) {
    if (value > 1 && !run.bundled)
      throw new UsageError('--jobs applies to the bundled reference server only (no --target/--profile); a CI matrix runs --shard I/N');
    if (value > 1 && run.sharded) throw new UsageError('--jobs splits a run into shards itself: no --shard');
    if (value > 1 && (run.compare || run.oneCheck)) throw new UsageError('--jobs does not combine with --compare, --path or --replay-path');
    return value;
  }
  if (!run.bundled || run.sharded || run.compare || run.oneCheck || run.keepServing || run.only.length > 0 || run.scale > 0 || run.concurrency === 1) return 1;
  return (await import('./parallel.js')).defaultJobs();
}

/** `--shard I/N` and `--shard-plan FILE`, checked before anything runs; `select` plans the shard of a
 * selection (collecting the checks, as `--list` does). */
async function shardOptions(values: { shard?: string; 'shard-plan'?: string }, bundled: boolean) {
  if (values.shard === undefined) {
    if (values['shard-plan'] !== undefined) throw new UsageError('--shard-plan needs --shard I/N');
    return undefined;
  }
  const [{ parseShard }, { readCosts, shardSelection, ShardError }] = await Promise.all([import('../runner/shard.js'), import('./shard.js')]);
  const spec = parseShard(values.shard);
  if (!spec) throw new UsageError(`--shard must be I/N with 1 <= I <= N (the shard's number, of how many), not '${values.shard}'`);
  let costs: Map<string, number> | undefined;
  try {
    costs = values['shard-plan'] === undefined ? undefined : readCosts(resolve(values['shard-plan']));
  } catch (error) {
    if (error instanceof ShardError) throw new UsageError(error.message);
    throw error;
  }
  return {
    ...spec,
    async select(profile: Profile, only: string[], skip: string[]) {
      const { collectChecks, runSelection } = await runner();
      const { INVARIANTS } = await import('../families/registry.js');
      const invariants = new Set(INVARIANTS.map((i) => i.id));
      const runs = selection(runSelection(only), skip);
      const executed = (await collectChecks())
        .filter((c) => !invariants.has(c.check.id) && runs(c.check.id))
        .map((c) => ({ id: c.check.id, area: c.check.area, ...(c.uses ? { uses: c.uses } : {}) }));
      // Each shard of a bundled run has its bundled server of its own: nothing it does reaches another.
      return shardSelection({ executed, reported: selection(only, skip), profile, ...spec, sharedServer: !bundled, ...(costs ? { costs } : {}) });
    },
  };
}

type Sharding = NonNullable<Awaited<ReturnType<typeof shardOptions>>>;
type Shard = Awaited<ReturnType<Sharding['select']>>;

/** The replay line's start: `lp-conformance run` (as invocation.ts prints it) and the options it repeats (REPLAYED), each as
 * the option table spells it and as given (a list as one comma-separated value). */
export function replayBaseOf(values: Readonly<Record<string, unknown>>): string {
  const options = REPLAYED.flatMap((name) => {
    const value = values[name];
    if (value === undefined || value === false) return [];
    if (RUN.options[name].type === 'boolean') return [`--${name}`];
    const text = Array.isArray(value) ? splitList(value as string[]).join(',') : String(value);
    return text === '' ? [] : [`--${name} ${text}`];
  });
  return [`${tool()} run`, ...options].join(' ');
}

// ---------------------------------------------------------------------------------------------
// validate

/** What the options select, read before anything else (`--list` needs no more). */
interface Selected {
  readonly values: RunValues;
  readonly host: RunHost;
  readonly strict: boolean;
  readonly profile: Profile;
  readonly only: string[];
  readonly skip: string[];
  /** No --target and no --profile: the bundled reference server. */
  readonly bundled: boolean;
  readonly sharding: Sharding | undefined;
}

/** Everything a run needs, checked. */
interface Plan extends Selected {
  readonly tls: TlsConfig | undefined;
  readonly seed: number;
  readonly runs: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly runId: string;
  readonly faults: string[];
  readonly variant: string | undefined;
  readonly scale: number;
  readonly shard: Shard | undefined;
  readonly selects: (family: string) => boolean;
  readonly jobs: number;
  readonly baseline: Baseline | undefined;
  /** `--keep-serving`: the bundled server stays up after the run until the host says stop. */
  readonly keepServing: boolean;
}

function profileOf(values: RunValues, host: RunHost): Profile {
  if (host.profileDocument === undefined) return loadProfile(values.profile);
  return parseProfile(JSON.stringify(host.profileDocument), values.profile ?? '(profile object)', { positions: false });
}

async function selectionOf(values: RunValues, host: RunHost): Promise<Selected> {
  if (host.command === 'baseline' && values.out === undefined) throw new UsageError('baseline needs --out FILE: where to write the failing checks');
  const failOn = values['fail-on'];
  if (failOn === 'must' && values.strict) throw new UsageError('--fail-on must contradicts --strict (which is --fail-on should)');
  // --fail-on should is --strict: SHOULD failures fail the run too; must (the default) says so.
  const strict = (values.strict ?? false) || failOn === 'should';
  const profile = profileOf(values, host);
  const bundled = values.target === undefined && values.profile === undefined && host.profileDocument === undefined;
  const sharding = await shardOptions(values, bundled);
  return { values, host, strict, profile, only: splitList(values.only), skip: splitList(values.skip), bundled, sharding };
}

/** `--list`: the checks the options select, without running. */
async function listStage(s: Selected): Promise<number> {
  const [{ listChecks }, { formatList }] = await Promise.all([runner(), import('../../reporters/console.js')]);
  const shard = s.sharding ? await s.sharding.select(s.profile, s.only, s.skip) : undefined;
  const selected = selection(s.only, s.skip);
  const checks = (await listChecks()).filter((c) => (shard ? shard.ids.includes(c.id) : selected(c.id)));
  if (checks.length === 0) throw new UsageError(`${patternsText(s.only, s.skip)} no check (${tool()} run --list shows them all)`);
  s.host.stdout?.write(`${formatList(checks)}\n`);
  return 0;
}

/** The numbers and the run id: each checked, each with its default. */
function settingsOf(values: RunValues) {
  const runIdGiven = values['run-id'];
  if (runIdGiven !== undefined && !/^[0-9a-f]{6}$/.test(runIdGiven)) throw new UsageError(`--run-id must be 6 lower-case hex digits, not '${runIdGiven}'`);
  return {
    seed: values.seed ?? Math.floor(Math.random() * 2 ** 31),
    runs: values.runs ?? 100,
    timeoutMs: values.timeout ?? 10_000,
    concurrency: values.concurrency ?? DEFAULT_CONCURRENCY,
    // The run's id, in its records' marker lpc-<id>-: a replay line repeats it, so that it sends the same bytes.
    runId: runIdGiven ?? newRunId(),
  };
}

/** --faults, --scale and --variant: the bundled server's, checked against its catalogue. */
async function bundledOptionsOf(values: RunValues, bundled: boolean) {
  const faults = await faultsOf(values.faults);
  if (faults.length > 0 && !bundled) throw new UsageError('--faults applies to the bundled reference server only (no --target/--profile)');
  if (values.scale !== undefined && !bundled) throw new UsageError('--scale applies to the bundled reference server only (no --target/--profile)');
  const variant = await variantOf(values.variant);
  if (variant !== undefined && !bundled) throw new UsageError('--variant applies to the bundled reference server only (no --target/--profile)');
  return { faults, variant, scale: values.scale ?? 0 };
}

/** --path replays one check. */
function checkPath(values: RunValues, only: readonly string[]): void {
  if (values.path && only.length !== 1) throw new UsageError('--path replays one check: give exactly one --only');
  if (values.path && !/^\d+(:\d+)*$/.test(values.path)) throw new UsageError(`--path must look like 4:1:0, not '${values.path}'`);
}

/** What a run split into shards does not combine with. */
function checkSharding(values: RunValues, sharded: boolean): void {
  if (sharded && values.compare !== undefined) throw new UsageError('--shard does not combine with --compare');
  // Shards against one server must not share a marker: records made once per server are named by it.
  if (values['run-id'] !== undefined && (sharded || (values.jobs !== undefined && values.jobs !== 1)))
    throw new UsageError('--run-id names one run: each shard makes its own (no --run-id with --shard or --jobs)');
  if (sharded && values.path) throw new UsageError('--path replays one check: no --shard');
}

/** The profile aimed at --target, or (with a profile and no --target) the profile's own URLs, checked. */
function aimedProfile(values: RunValues, profile: Profile, bundled: boolean, selects: (family: string) => boolean): Profile {
  if (values.target !== undefined) {
    let url: URL;
    try {
      url = new URL(values.target);
    } catch {
      throw new UsageError(`--target must be an http(s) URL, not '${values.target}'`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target must be an http(s) URL, not '${values.target}'`);
    return withTarget(profile, values.target);
  }
  if (!bundled) checkUrlsGiven(profile, selects);
  return profile;
}

/** `--keep-serving`: a bundled run, in this process, by a host that can wait for Ctrl-C. */
function keepServingOf(values: RunValues, host: RunHost, bundled: boolean): boolean {
  if (values['keep-serving'] !== true) return false;
  if (!bundled) throw new UsageError('--keep-serving keeps the bundled reference server up: no --target/--profile');
  if (!host.untilStopped) throw new UsageError('--keep-serving is for the command line, which waits for Ctrl-C');
  if ((values.jobs ?? 1) > 1) throw new UsageError('--keep-serving keeps one bundled server up: no --jobs above 1');
  if (values.compare !== undefined) throw new UsageError('--keep-serving does not combine with --compare');
  return true;
}

function checkCompare(values: RunValues): void {
  if (values['compare-profile'] !== undefined && values.compare === undefined) throw new UsageError('--compare-profile needs --compare');
  if (values.compare !== undefined && values.compare !== 'bundled' && !/^https?:\/\/[^/?#\s]+/.test(values.compare)) {
    throw new UsageError(`--compare must be an http(s) URL or 'bundled', not '${values.compare}'`);
  }
}

async function validate(s: Selected): Promise<Plan> {
  const { values, host, only, skip, bundled, sharding } = s;
  // Where the run writes, and the certificates it trusts, are checked before anything runs.
  checkOutputs(host.command === 'baseline' ? BASELINE : RUN, values, [
    ...(values.junit === undefined && host.junitByDefault ? [['--junit', 'reports/junit.xml'] as const] : []),
    ...(host.stepSummary ? [['$GITHUB_STEP_SUMMARY', host.stepSummary] as const] : []),
  ]);
  const tls = tlsConfigOf(values);
  useTls(tls);
  const settings = settingsOf(values);
  if (values['max-rps'] !== undefined && (values.workers ?? 1) > 1) throw new UsageError('--max-rps paces one worker thread: no --workers above 1');
  checkHarOptions(values);
  checkPath(values, only);
  const server = await bundledOptionsOf(values, bundled);
  let profile = server.variant !== undefined ? withVariantExpectations(s.profile, server.variant) : s.profile;
  checkSharding(values, sharding !== undefined);
  // A shard runs its plan's checks: its families are those of its checks. A family the profile says
  // the target does not have is neither contacted nor set up.
  const shard = sharding ? await sharding.select(profile, only, skip) : undefined;
  const selects = (family: string): boolean =>
    (shard ? shard.selects(family) : selectsFamily(only, skip, family)) && familyAbsence(profile, family) === undefined;
  profile = aimedProfile(values, profile, bundled, selects);
  checkCompare(values);
  const jobs = await jobsOf(values.jobs, {
    bundled,
    sharded: sharding !== undefined,
    only,
    concurrency: settings.concurrency,
    scale: server.scale,
    oneCheck: values.path !== undefined || values['replay-path'] !== undefined || values['run-id'] !== undefined,
    compare: values.compare !== undefined,
    keepServing: values['keep-serving'] === true,
  });
  // A baseline is configuration: read and checked before any server is contacted.
  const baseline =
    values.baseline === undefined ? undefined : loadBaseline(resolve(values.baseline), new Set((await (await runner()).listChecks()).map((c) => c.id)));
  return { ...s, profile, tls, ...settings, ...server, shard, selects, jobs, baseline, keepServing: keepServingOf(values, host, bundled) };
}

// ---------------------------------------------------------------------------------------------
// build

/** What the run talks to, started and tried: close() stops it all. */
interface Setup {
  /** The profile aimed at the target (the bundled server's URL and parts when bundled). */
  readonly profile: Profile;
  /** Where the suites read the credentials: the host's environment, with a bundled run's sandbox over it. */
  readonly env: NodeJS.ProcessEnv;
  readonly comparing: CompareServer | undefined;
  readonly compare: typeof import('../runner/compare.js') | undefined;
  /** The bundled server: where it listens, and the variables (with their values) that reach it. */
  readonly served: { readonly url: string; readonly env: Readonly<Record<string, string>> } | undefined;
  close(): Promise<void>;
}

/** Abandons set-up when the host's signal has aborted (its reason is the rejection). */
function stillWanted(host: RunHost): void {
  if (host.signal?.aborted) throw host.signal.reason instanceof Error ? host.signal.reason : new DOMException('The run was aborted', 'AbortError');
}

/** The bundled server accepts a fresh sandbox of credentials, put where the profile names them; its
 * new ids follow the run seed, so a seeded run repeats exactly. */
async function startServer(plan: Plan, sandbox: Sandbox): Promise<BundledServer> {
  const reference = await referenceServer();
  return startBundled({
    profile: plan.profile,
    sandbox,
    selects: plan.selects,
    server: {
      faults: plan.faults,
      ids: reference.seededIds(plan.seed),
      ruleBatchMs: reference.BUNDLED_RULE_BATCH_MS,
      scale: plan.scale,
      ...(plan.variant ? reference.variantOptions(plan.variant) : {}),
    },
  });
}

/** The --compare server, and its preflight. */
async function startCompare(plan: Plan, profile: Profile, env: NodeJS.ProcessEnv, sandbox: Sandbox | undefined, warn: (line: string) => void) {
  const { values } = plan;
  if (values.compare === undefined) return { compare: undefined, comparing: undefined };
  const compare = await import('../runner/compare.js');
  const compareProfile = values['compare-profile'] !== undefined || values.compare === 'bundled' ? loadProfile(values['compare-profile']) : profile;
  const comparing = await compare.compareServer(values.compare, {
    profile: compareProfile,
    seed: plan.seed,
    selects: plan.selects,
    env,
    ...(values.compare === 'bundled' && sandbox ? { sandbox, scale: plan.scale } : {}),
  });
  try {
    await preflight(comparing.profile, { selects: plan.selects, timeoutMs: plan.timeoutMs, env, warn: (line) => warn(`--compare server: ${line}`) });
  } catch (error) {
    await comparing.close();
    if (error instanceof SetupError) throw new SetupError(`--compare server: ${error.message}`);
    throw error;
  }
  return { compare, comparing };
}

function warner(host: RunHost): (line: string) => void {
  return (line) => void host.stderr?.write(`lp-conformance: warning: ${line}\n`);
}

async function build(plan: Plan): Promise<Setup> {
  const { host, values, selects, timeoutMs } = plan;
  const reference = plan.bundled ? await referenceServer() : undefined;
  // A server kept up for pasted curls accepts what `serve` accepts (the documented sandbox, or this
  // shell's values of its variables): the export lines it prints hold no fresh secret.
  const sandbox =
    plan.keepServing && reference
      ? sandboxOfEnvironment(plan.profile, resolveSecrets(plan.profile, host.env).values, reference.SANDBOX)
      : reference?.freshSandbox();
  const env = sandbox ? { ...host.env, ...sandboxEnvironment(plan.profile, sandbox) } : host.env;
  const warn = warner(host);
  const servers: { close(): Promise<void> }[] = [];
  const close = async (): Promise<void> => {
    for (const server of servers.reverse()) await server.close();
  };
  try {
    const server = sandbox ? await startServer(plan, sandbox) : undefined;
    if (server) servers.push(server);
    const profile = server ? server.profile : plan.profile;
    stillWanted(host);
    // Before any check: each selected family's URL, credentials and set-up (a refusal, an unreachable
    // URL, a TLS error or a target that is not the API is exit 2, one line, not hundreds of failed
    // checks). Families the run does not select are not contacted.
    await preflight(profile, { selects, timeoutMs, warn, env });
    if (values['check-profile']) await (await import('./check-profile.js')).checkProfileRecords(profile, { selects, timeoutMs, warn, env });
    stillWanted(host);
    const { compare, comparing } = await startCompare(plan, profile, env, sandbox, warn);
    if (comparing) servers.push(comparing);
    stillWanted(host);
    const served = server && sandbox ? { url: server.url, env: { ...sandboxEnvironment(plan.profile, sandbox), ...server.env } } : undefined;
    return { profile, env, compare, comparing, served, close };
  } catch (error) {
    await close();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// send

/** The invariants another shard of the plan reports (shard.ts `invariantFamilies`). None for a shard
 * of a `--jobs` run: its parent merges every shard's verdicts (an invariant the owner's exchanges never
 * exercise is judged on another shard's) and prints only the merged summary. */
async function sharedInvariantsOf(shard: Shard): Promise<string[]> {
  const [{ INVARIANTS, familyOfCheck }, { SHARD_OF_RUN }] = await Promise.all([import('../families/registry.js'), import('./parallel.js')]);
  if (process.env[SHARD_OF_RUN] === '1') return [];
  return INVARIANTS.filter((inv) => !shard.invariantFamilies.includes(familyOfCheck(inv.id)?.name ?? '')).map((inv) => inv.id);
}

/** The options of the suites' run: the plan's, aimed at the set-up's profile. */
async function suitesOptions(plan: Plan, setup: Setup, attachmentsDir: string, record: string | undefined) {
  const { values } = plan;
  return {
    attachmentsDir,
    profile: setup.profile,
    seed: plan.seed,
    runs: plan.runs,
    runId: plan.runId,
    only: plan.only,
    ...(plan.skip.length > 0 ? { skip: plan.skip } : {}),
    ...(plan.tls ? { tls: plan.tls } : {}),
    ...(plan.shard ? { ids: plan.shard.ids, sharedInvariants: await sharedInvariantsOf(plan.shard) } : {}),
    ...(values.path ? { path: values.path } : {}),
    ...(values['replay-path'] ? { replayPath: values['replay-path'] } : {}),
    // --runs too: a run's count shows in verdicts (coverage), and a replay repeats the run.
    replayBase: replayBaseOf({ ...values, 'run-id': plan.runId }),
    timeoutMs: plan.timeoutMs,
    concurrency: plan.concurrency,
    ...(values.workers !== undefined ? { workers: values.workers } : {}),
    ...(values['max-rps'] ? { maxRps: values['max-rps'] } : {}),
    ...(record ? { record } : {}),
    ...(plan.host.progress ? { progress: plan.host.progress } : {}),
    ...(values['read-only'] ? { readOnly: true } : {}),
    ...(values['include-slow'] ? { includeSlow: true } : {}),
    env: setup.env,
  };
}

/** `--record FILE`: made empty before the run appends to it. */
function recordFile(values: RunValues): string | undefined {
  const record = values.record === undefined ? undefined : resolve(values.record);
  if (record) {
    mkdirSync(dirname(record), { recursive: true });
    writeFileSync(record, '');
  }
  return record;
}

/** Runs the checks against the set-up's target. The host's interrupts (Ctrl-C, SIGTERM, an
 * AbortSignal) start no further check: the records the run created are deleted, the result holds the
 * checks that finished and says the run was interrupted. */
async function send(plan: Plan, setup: Setup, attachmentsDir: string, harLog?: string): Promise<RunResult> {
  const { runSuites } = await runner();
  const options = { ...(await suitesOptions(plan, setup, attachmentsDir, recordFile(plan.values))), ...(harLog ? { har: harLog } : {}) };
  const interrupted = new AbortController();
  const remove = plan.host.interrupts((reason) => interrupted.abort(reason));
  try {
    const driven = { ...options, signal: interrupted.signal, ...(plan.values.keep ? { keep: true } : {}) };
    const { compare, comparing } = setup;
    return comparing && compare ? await compare.runCompare({ ...driven, compareProfile: comparing.profile }) : await runSuites(driven);
  } finally {
    remove();
  }
}

// ---------------------------------------------------------------------------------------------
// judge

/** The run as reported: a shard's record, the baseline applied; an empty selection is a UsageError. */
async function judge(plan: Plan, ran: RunResult): Promise<RunResult> {
  const { shard, baseline } = plan;
  const sharded = shard
    ? {
        ...ran,
        shard: (await import('./shard.js')).shardRecord(
          shard,
          ran.checks.map((c) => c.id),
        ),
      }
    : ran;
  const result = baseline ? applyBaseline(sharded, baseline) : sharded;
  // An empty shard of a plan that has checks is no error: its report says so to the merge.
  if ((shard ? shard.record.checks === 0 : result.checks.length === 0) && !result.interrupted) {
    throw new UsageError(`${patternsText(plan.only, plan.skip)} no check (${tool()} run --list shows them)`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// record

/** What the host is told of an interrupted run; its exit code (128 + the signal's number). */
function interruptedExit(host: RunHost, result: RunResult): number {
  const signal = (result.interrupted?.signal ?? 'SIGINT') as NodeJS.Signals;
  const finished = result.checks.filter((check) => check.status !== 'skipped' || !/interrupted$/.test(check.skipReason ?? '')).length;
  const c = result.cleanup;
  const left = c ? Object.values(c.families).reduce((n, f) => n + f.left, 0) : 0;
  host.stderr?.write(
    `lp-conformance: interrupted (${signal}) after ${finished} of ${result.checks.length} checks; the reports hold what they found` +
      `${c ? `; ${c.deleted + c.gone} records the run created deleted, ${left} left (the summary says which)` : ''}\n`,
  );
  return 128 + (osConstants.signals[signal] ?? 0);
}

/** The reports written, the durations remembered, the baseline file: the run's exit code. */
async function record(plan: Plan, result: RunResult, reportProfile: Profile, env: NodeJS.ProcessEnv): Promise<number> {
  const { host, values } = plan;
  // Failure texts are redacted where they are made; the reporters redact again as defence in depth.
  const redact = redactor(resolveSecrets(reportProfile, env).values);
  const exitCode = await (
    await import('./reports.js')
  ).writeRunReports(result, values, {
    strict: plan.strict,
    redact,
    color: host.color,
    junitByDefault: host.junitByDefault,
    stepSummary: host.stepSummary,
    print: host.stdout,
    verbose: values.verbose === true,
  });
  // A bundled run's durations balance the next split of a bundled run over the cores.
  if (plan.bundled && !plan.shard && !result.interrupted && plan.scale === 0 && plan.faults.length === 0)
    (await import('./parallel.js')).rememberDurations(result);
  if (result.interrupted) return interruptedExit(host, result);
  if (host.command === 'baseline') {
    const out = resolve(values.out ?? '');
    let n: number;
    try {
      mkdirSync(dirname(out), { recursive: true });
      n = writeBaseline(result, out);
    } catch (error) {
      // The summary and the reports are out: one line says what was not written.
      throw new UsageError(
        `the baseline ${out} could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)}); the summary and the reports were`,
      );
    }
    host.stdout?.write(`Baseline: ${n} failing check${n === 1 ? '' : 's'} written to ${out}; give each a reason.\n`);
    return 0;
  }
  return exitCode;
}

// ---------------------------------------------------------------------------------------------
// after the run: the bundled server again, for the failures' curls

/** The variables the failures' curls read (`${NAME}`), in order, but those a curl sets itself (`LPC_TOKEN=$(…)`). */
function curlVariables(result: RunResult): string[] {
  const curls = result.checks.flatMap((c) => (c.status === 'failed' && c.failure?.curl !== undefined ? [c.failure.curl] : []));
  const set = new Set(curls.flatMap((curl) => [...curl.matchAll(/(?:^|\s)([A-Za-z_]\w*)=\$\(/g)].map((m) => m[1])));
  const read = curls.flatMap((curl) => [...curl.matchAll(/\$\{([A-Za-z_]\w*)\}/g)].map((m) => m[1] ?? ''));
  return [...new Set(read)].filter((name) => name !== '' && !set.has(name));
}

/** The loopback ports the failures' curls send to, in order: one bundled server each (a shard's, with --jobs). */
function curlPorts(result: RunResult): string[] {
  const ports = result.checks.flatMap((c) => [...(c.failure?.curl ?? '').matchAll(/'https?:\/\/127\.0\.0\.1:(\d+)[/'?]/g)].map((m) => m[1] ?? ''));
  return [...new Set(ports)].filter((port) => port !== '');
}

/** `serve` with the run's seed, the port, the run's faults, scale and variant: the same server as the run's. */
function serveLine(plan: Plan, port: string): string {
  const options = [
    `--seed ${plan.seed}`,
    `--port ${port}`,
    ...(plan.faults.length > 0 ? [`--faults ${plan.faults.join(',')}`] : []),
    ...(plan.scale > 0 ? [`--scale ${plan.scale}`] : []),
    ...(plan.variant ? [`--variant ${plan.variant}`] : []),
  ];
  return `${tool()} serve ${options.join(' ')}`;
}

/** A bundled run's failures name a server that is gone (one per shard with --jobs): the line that
 * starts the same one again, with the `--env` file to source where the curls are pasted. */
function servedAgain(plan: Plan, result: RunResult): string {
  if (!plan.bundled || result.interrupted) return '';
  const ports = curlPorts(result);
  const names = curlVariables(result);
  const sets = names.length > 0 ? ` (it sets ${names.join(', ')})` : '';
  return ports
    .map((port, i) => {
      const file = ports.length === 1 ? 'lpc-serve.env' : `lpc-serve-${port}.env`;
      const which =
        ports.length === 1
          ? "The failures' curls name a server that is gone"
          : `The curls to port ${port} (${i + 1} of ${ports.length} servers) name a server that is gone`;
      return `${which}; the same one: ${serveLine(plan, port)} --env ${file}, then \`. ./${file}\` where the curls are pasted${sets}; or run again with --keep-serving\n`;
    })
    .join('');
}

/**
 * After a bundled run: with --keep-serving the run's own server stays up until the host says stop,
 * and the export lines of the variables the curls read are printed, so that a curl pastes as
 * printed; without it, the failures say how to start the same server again.
 */
async function afterRun(plan: Plan, setup: Setup, result: RunResult): Promise<void> {
  const { served } = setup;
  const out = plan.host.stdout;
  if (plan.keepServing && plan.host.untilStopped && served && !result.interrupted) {
    const { exportLines } = await import('./sandbox.js');
    const names = curlVariables(result).filter((n) => n in served.env);
    const env = Object.fromEntries((names.length > 0 ? names : Object.keys(served.env)).map((n) => [n, served.env[n] ?? '']));
    out?.write(
      `The bundled server stays up at ${served.url} until Ctrl-C (SIGINT or SIGTERM); in the shell where a failure's curl is pasted:\n${exportLines(env)}`,
    );
    await plan.host.untilStopped();
    return;
  }
  out?.write(servedAgain(plan, result));
}

// ---------------------------------------------------------------------------------------------
// The stages in order.

/** Each shard has its own bundled server and sandbox; this process starts none. */
async function runShards(plan: Plan): Promise<RunOutcome> {
  const { runShardsAtOnce } = await import('./parallel.js');
  let result: RunResult | undefined;
  const progress = plan.host.progress && !('checkDone' in plan.host.progress) ? { progress: plan.host.progress } : {};
  const exitCode = await runShardsAtOnce({ values: plan.values, jobs: plan.jobs, seed: plan.seed, ...progress }, async (merged, harFiles) => {
    result = await judge(plan, merged);
    const exitCode = await record(plan, result, plan.profile, plan.host.env);
    writeHar(plan.values, harFiles, result, plan.host.stdout);
    plan.host.stdout?.write(servedAgain(plan, result));
    return exitCode;
  });
  return { exitCode, strict: plan.strict, ...(result ? { result } : {}) };
}

/** Validate, build, send, judge, record: `lp-conformance run` (or `baseline`) with these options. */
export async function runStages(values: RunValues, host: RunHost): Promise<RunOutcome> {
  const selected = await selectionOf(values, host);
  if (values.list) return { exitCode: await listStage(selected), strict: selected.strict };
  const plan = await validate(selected);
  if (plan.jobs > 1) return runShards(plan);
  stillWanted(host);
  const setup = await build(plan);
  // The screenshots of failures, until the reports copy them beside themselves.
  let attachments: string | undefined;
  try {
    attachments = mkdtempSync(join(tmpdir(), 'lpc-attachments-'));
    // --har: the suites' log of the exchanges, gathered into the HAR file after the reports (har.ts).
    const harLog = harLogOf(plan.values, attachments);
    const result = await judge(plan, await send(plan, setup, attachments, harLog));
    const exitCode = await record(plan, result, setup.profile, setup.env);
    if (harLog) writeHar(plan.values, [harLog], result, plan.host.stdout);
    await afterRun(plan, setup, result);
    return { exitCode, result, strict: plan.strict };
  } finally {
    if (attachments) rmSync(attachments, { recursive: true, force: true });
    await setup.close();
  }
}
