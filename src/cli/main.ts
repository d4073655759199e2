/**
 * lp-conformance command line.
 *   run    run the conformance suites against a target (default: the bundled reference server)
 *   serve  start the bundled reference server
 * Exit codes: 0 every failing-level check passed; 1 a check failed; 2 usage, configuration or an
 * unreachable target, always with one line on stderr and never a stack trace.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from 'node:net';
import { constants as osConstants } from 'node:os';
import {
  baseUrlOf,
  FAMILIES,
  loadProfile,
  ProfileError,
  redactor,
  resolveSecrets,
  withTarget,
  withVariantExpectations,
  type Profile,
} from '../profile/index.js';
import { applyBaseline, BaselineError, loadBaseline, writeBaseline } from '../runner/baseline.js';
import { newRunId } from '../runner/marker.js';
import { DEFAULT_CONCURRENCY, type RunResult } from '../runner/model.js';
import { relayProgress, type ProgressListener, type ProgressSink } from '../runner/progress.js';
import type { CompareServer } from '../runner/compare.js';
import { CredentialsError, MissingCredentialsError } from '../target/secrets.js';
import { sandboxEnvironment, sandboxOfEnvironment, startBundled, type BundledServer } from '../runner/bundled.js';
import { preflight, SetupError } from './preflight.js';

/*
 * The heavy parts are imported where a command needs them: the runner (vitest), the reference
 * server (fastify, oidc-provider), the mail sink (smtp-server) and the reporters. Loading them all
 * took 0.8 s before the first line of any command, a bad flag's answer included.
 */
const referenceServer = () => import('../../reference-impl/index.js');
const runner = () => import('../runner/run.js');

/** The signals that interrupt a run: Ctrl-C, and SIGTERM, with which CI cancels a job or ends it at its timeout. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** A problem with how the tool was called or configured: exit 2 with this one line. */
class UsageError extends Error {}

/** Where each family is under the target URL (`--target`), as the help says it. */
const TARGET_LAYOUT = FAMILIES.flatMap((f) => {
  const at = f.profile.baseUrl;
  return at === undefined ? [] : [`${f.title}: URL${'suffix' in at ? at.suffix : ''}`];
}).join(', ');

const HELP = `lp-conformance: conformance suite for the learning platform's APIs

Usage:
  lp-conformance run [options]     run the suites (default target: the bundled reference server)
  lp-conformance baseline --out FILE [run options]
                                   run, then write the failing checks as a known-failure baseline
  lp-conformance merge [--junit FILE] [--json FILE] [--markdown FILE] [--html FILE] REPORT.json…
                                   the reports and exit code of one run from the --json reports of
                                   its shards (run --shard I/N), each shard once
  lp-conformance serve [options]   start the bundled reference server
  lp-conformance openapi [options] write the profile's OpenAPI 3.1 document (YAML) to stdout
  lp-conformance cleanup --target URL [--profile FILE] [--dry-run]
                                   delete the records earlier runs left behind where the API can
                                   (names starting lpc-<run id>-; a run deletes its own when it ends);
                                   --dry-run lists them and deletes nothing

run options:
  --target URL      the target's base URL (${TARGET_LAYOUT})
  --profile FILE    target profile (YAML); default: the bundled server's profile
  --junit FILE      JUnit report path (default reports/junit.xml)
  --json FILE       also write the run as JSON (schema: reports/run.schema.json in the package)
  --markdown FILE   also write a Markdown summary (and append it to $GITHUB_STEP_SUMMARY when set)
  --html FILE       also write a self-contained HTML report (filters by status and level; no network)
  --record FILE     write every request (check, case, method, url, headers, body; secrets as \${VAR}) as JSON lines
  --seed N          run seed (default: random, printed)
  --runs N          property runs per check (default 100)
  --only PATTERN    check-id prefix or glob; repeatable or comma-separated
  --path PATH       fast-check path to replay (with --only naming one check)
  --replay-path P   fast-check commands replay path (model-based checks print it in their replay line)
  --list            list every check id, level and spec anchor, without running
  --strict          SHOULD-level failures fail the run too (the same as --fail-on should)
  --fail-on LEVEL   must (default: MUST and PROFILE failures fail the run) or should (SHOULD too)
  --baseline FILE   known failures (from lp-conformance baseline): only new failures fail the run
  --read-only       send no write (only reads, and the families' token exchanges); checks that must write are skipped
  --keep            delete nothing the run created (a failure's curl then finds the records it names;
                    lp-conformance cleanup removes them later)
  --run-id ID       the run's id, 6 hex digits, in its records' marker lpc-<id>- (default: random; replay
                    lines repeat it)
  --include-slow    also run the checks that wait more than 60 s for the target (the rule-based enrollment
                    check waits up to records.ruleEnrollment.withinMs, 10 minutes by default)
  --timeout MS      deadline of one exchange, for the whole answer (default 10000)
  --concurrency N   checks in flight at once (default 8; 1 runs them one by one, in order)
  --max-rps N       at most N requests per second to the target (a 429's Retry-After is always honoured)
  --faults LIST     faults to enable in the bundled server (negative controls), comma-separated
  --scale N         bundled server: N users, resources and submissions (0..2000000; default: the seed)
  --variant NAME    the bundled server as another kind of real server (serve --list-variants), judged
                    with that variant's expectations for its family (fixtures/profiles/<family>-<variant>.yaml)
  --no-color        no ANSI colours in the console summary
  --no-progress     no progress on stderr (default: a live line on a terminal, else a line every 10 s)
  --compare URL     also send the same seeded requests to the server at URL (or 'bundled': the bundled
                    reference server) and report each check's first difference as compare.<check id>
  --compare-profile FILE  profile of the --compare server (default: the target's; with 'bundled' the reference)
  --shard I/N       run shard I of N of the selected checks (a CI matrix job); checks that would disturb
                    each other on one server share a shard; merge the shards' --json reports
  --shard-plan FILE an earlier run's --json report: balance the shards by its checks' durations
  --jobs N          bundled server: split the run over N processes, each with its own server (default:
                    the whole suite over one process per two cores, at most 4)

serve options:
  --port N          port (default 8080; 0 = any free port)
  --host HOST       interface (default 127.0.0.1)
  --faults LIST     faults to enable, comma-separated (see --list-faults)
  --scale N         N users, resources and submissions (0..2000000; default: the seed data only)
  --variant NAME    another kind of real server (a legitimate configuration, not a fault)
  --list-faults     list the fault names and exit
  --list-variants   list the variants, what each does, and exit

openapi options:
  --profile FILE    target profile (YAML): its paths, statuses and list parameters; default: the bundled server's
  --target URL      the document's server URL (default: the profile's target URL)

Exit codes: 0 passed, 1 a check failed, 2 usage, configuration or unreachable target.`;

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, not '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${name} must be from ${min} to ${max}, not ${value}`);
  return n;
}

function splitList(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

async function variantOf(value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const { VARIANTS } = await referenceServer();
  if (!Object.hasOwn(VARIANTS, value)) throw new UsageError(`unknown variant '${value}' (${Object.keys(VARIANTS).join(', ')})`);
  return value;
}

async function faultsOf(values: string[] | undefined): Promise<string[]> {
  const faults = splitList(values);
  if (faults.length === 0) return faults;
  const known = new Set((await referenceServer()).allFaults());
  const unknown = faults.find((f) => !known.has(f));
  if (unknown) throw new UsageError(`unknown fault '${unknown}' (lp-conformance serve --list-faults lists them)`);
  return faults;
}

/** Whether `--only` can select checks of a family: no pattern, a pattern of that family, or one
 * that begins with a wildcard. */
function selectsFamily(only: readonly string[], family: string): boolean {
  return only.length === 0 || only.some((p) => p.startsWith(`${family}.`) || p === family || /^[*?[]/.test(p) || family.startsWith(p.replace(/[*?].*$/, '')));
}

/** Reachable means it accepts a connection: what it then answers (or fails to) is for the checks to judge. */
async function ensureReachable(url: string, timeoutMs: number): Promise<void> {
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  await new Promise<void>((done, failed) => {
    const socket = connect({ host, port: Number(port || (protocol === 'https:' ? 443 : 80)), timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      done();
    });
    socket.once('timeout', () => {
      socket.destroy();
      failed(new UsageError(`target ${url} is unreachable (no connection within ${timeoutMs} ms)`));
    });
    socket.once('error', (e: NodeJS.ErrnoException) => failed(new UsageError(`target ${url} is unreachable (${e.code ?? e.message})`)));
  });
}

/** Every selected family's base URL accepts a connection (each origin tried once). */
async function ensureFamiliesReachable(profile: Profile, selects: (family: string) => boolean, timeoutMs: number): Promise<void> {
  const urls = FAMILIES.filter((f) => f.profile.baseUrl !== undefined && selects(f.name)).map((f) => baseUrlOf(profile, f.name));
  const origins = new Map<string, string>();
  for (const url of urls) if (!origins.has(new URL(url).origin)) origins.set(new URL(url).origin, url);
  for (const url of origins.values()) await ensureReachable(url, timeoutMs);
}

/** Shard processes of a bundled run (`--jobs N`): by default one per core (at most four) for the whole
 * suite, one for a selection (`--only`), a replay, a `--scale`d server or checks run one by one. */
async function jobsOf(
  value: string | undefined,
  run: { bundled: boolean; sharded: boolean; only: string[]; concurrency: number; scale: number; oneCheck: boolean; compare: boolean },
): Promise<number> {
  if (value !== undefined) {
    const jobs = integer('jobs', value, 1, 1, 64);
    if (jobs > 1 && !run.bundled)
      throw new UsageError('--jobs applies to the bundled reference server only (no --target/--profile); a CI matrix runs --shard I/N');
    if (jobs > 1 && run.sharded) throw new UsageError('--jobs splits a run into shards itself: no --shard');
    if (jobs > 1 && (run.compare || run.oneCheck)) throw new UsageError('--jobs does not combine with --compare, --path or --replay-path');
    return jobs;
  }
  if (!run.bundled || run.sharded || run.compare || run.oneCheck || run.only.length > 0 || run.scale > 0 || run.concurrency === 1) return 1;
  return (await import('./parallel.js')).defaultJobs();
}

/** Where a run's progress goes: to the run that started it as a shard (over IPC), or a line on stderr. */
function progressOf(quiet: boolean): { progress?: ProgressSink | ProgressListener } {
  const send = process.send?.bind(process);
  if (process.env.LPC_SHARD_OF_RUN === '1' && send) return { progress: relayProgress((event) => void send(event)) };
  return quiet ? {} : { progress: process.stderr };
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
    async select(profile: Profile, only: string[]) {
      const { collectChecks, runSelection } = await runner();
      const { INVARIANTS } = await import('../families/registry.js');
      const invariants = new Set(INVARIANTS.map((i) => i.id));
      const { idMatcher } = await import('../runner/select.js');
      const runs = idMatcher(runSelection(only));
      const executed = (await collectChecks())
        .filter((c) => !invariants.has(c.check.id) && runs(c.check.id))
        .map((c) => ({ id: c.check.id, area: c.check.area, ...(c.uses ? { uses: c.uses } : {}) }));
      // Each shard of a bundled run has its bundled server of its own: nothing it does reaches another.
      return shardSelection({ executed, reported: idMatcher(only), profile, ...spec, sharedServer: !bundled, ...(costs ? { costs } : {}) });
    },
  };
}

async function run(argv: string[], command: 'run' | 'baseline' = 'run'): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      target: { type: 'string' },
      profile: { type: 'string' },
      junit: { type: 'string' },
      json: { type: 'string' },
      markdown: { type: 'string' },
      baseline: { type: 'string' },
      out: { type: 'string' },
      'fail-on': { type: 'string' },
      'read-only': { type: 'boolean' },
      'include-slow': { type: 'boolean' },
      keep: { type: 'boolean' },
      'run-id': { type: 'string' },
      html: { type: 'string' },
      record: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      only: { type: 'string', multiple: true },
      path: { type: 'string' },
      'replay-path': { type: 'string' },
      list: { type: 'boolean' },
      strict: { type: 'boolean' },
      timeout: { type: 'string' },
      concurrency: { type: 'string' },
      'max-rps': { type: 'string' },
      faults: { type: 'string', multiple: true },
      scale: { type: 'string' },
      variant: { type: 'string' },
      'no-color': { type: 'boolean' },
      'no-progress': { type: 'boolean' },
      compare: { type: 'string' },
      'compare-profile': { type: 'string' },
      shard: { type: 'string' },
      'shard-plan': { type: 'string' },
      jobs: { type: 'string' },
    },
  });
  const color = !values['no-color'] && process.stdout.isTTY === true && !process.env.NO_COLOR;
  if (command === 'baseline' && values.out === undefined) throw new UsageError('baseline needs --out FILE: where to write the failing checks');
  if (command === 'run' && values.out !== undefined) throw new UsageError('--out belongs to `lp-conformance baseline`');
  const failOn = values['fail-on'];
  if (failOn !== undefined && failOn !== 'must' && failOn !== 'should') throw new UsageError(`--fail-on must be must or should, not '${failOn}'`);
  if (failOn === 'must' && values.strict) throw new UsageError('--fail-on must contradicts --strict (which is --fail-on should)');
  // --fail-on should is --strict: SHOULD failures fail the run too; must (the default) says so.
  const strict = (values.strict ?? false) || failOn === 'should';
  let profile = loadProfile(values.profile);
  const bundled = values.target === undefined && values.profile === undefined;
  const sharding = await shardOptions(values, bundled);
  if (values.list) {
    const [{ listChecks }, { formatList }] = await Promise.all([runner(), import('../../reporters/console.js')]);
    const checks = await listChecks();
    const shard = sharding ? await sharding.select(profile, splitList(values.only)) : undefined;
    process.stdout.write(`${formatList(shard ? checks.filter((c) => shard.ids.includes(c.id)) : checks)}\n`);
    return 0;
  }
  const seed = integer('seed', values.seed, Math.floor(Math.random() * 2 ** 31), -(2 ** 31), 2 ** 31 - 1);
  const runs = integer('runs', values.runs, 100, 1, 1_000_000);
  const timeoutMs = integer('timeout', values.timeout, 10_000, 1, 3_600_000);
  const concurrency = integer('concurrency', values.concurrency, DEFAULT_CONCURRENCY, 1, 256);
  const maxRps = values['max-rps'] === undefined ? undefined : integer('max-rps', values['max-rps'], 0, 1, 100_000);
  const only = splitList(values.only);
  const runIdGiven = values['run-id'];
  if (runIdGiven !== undefined && !/^[0-9a-f]{6}$/.test(runIdGiven)) throw new UsageError(`--run-id must be 6 lower-case hex digits, not '${runIdGiven}'`);
  // The run's id, in its records' marker lpc-<id>-: a replay line repeats it, so that it sends the same bytes.
  const runId = runIdGiven ?? newRunId();
  if (values.path && only.length !== 1) throw new UsageError('--path replays one check: give exactly one --only');
  if (values.path && !/^\d+(:\d+)*$/.test(values.path)) throw new UsageError(`--path must look like 4:1:0, not '${values.path}'`);
  const faults = await faultsOf(values.faults);
  if (faults.length > 0 && !bundled) throw new UsageError('--faults applies to the bundled reference server only (no --target/--profile)');
  if (values.scale !== undefined && !bundled) throw new UsageError('--scale applies to the bundled reference server only (no --target/--profile)');
  const variant = await variantOf(values.variant);
  if (variant !== undefined && !bundled) throw new UsageError('--variant applies to the bundled reference server only (no --target/--profile)');
  if (variant !== undefined) profile = withVariantExpectations(profile, variant);
  const reference = bundled ? await referenceServer() : undefined;
  const scale = integer('scale', values.scale, 0, 0, reference?.MAX_SCALE ?? 0);
  if (values.target !== undefined) {
    let url: URL;
    try {
      url = new URL(values.target);
    } catch {
      throw new UsageError(`--target must be an http(s) URL, not '${values.target}'`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target must be an http(s) URL, not '${values.target}'`);
    profile = withTarget(profile, values.target);
  }
  if (values['compare-profile'] !== undefined && values.compare === undefined) throw new UsageError('--compare-profile needs --compare');
  if (values.compare !== undefined && values.compare !== 'bundled' && !/^https?:\/\/[^/?#\s]+/.test(values.compare)) {
    throw new UsageError(`--compare must be an http(s) URL or 'bundled', not '${values.compare}'`);
  }
  if (sharding && values.compare !== undefined) throw new UsageError('--shard does not combine with --compare');
  // Shards against one server must not share a marker: records made once per server are named by it.
  if (runIdGiven !== undefined && (sharding || (values.jobs !== undefined && values.jobs !== '1')))
    throw new UsageError('--run-id names one run: each shard makes its own (no --run-id with --shard or --jobs)');
  if (sharding && values.path) throw new UsageError('--path replays one check: no --shard');
  // A shard runs its plan's checks: its families are those of its checks.
  const shard = sharding ? await sharding.select(profile, only) : undefined;
  const selects = (family: string): boolean => (shard ? shard.selects(family) : selectsFamily(only, family));

  const jobs = await jobsOf(values.jobs, {
    bundled,
    sharded: sharding !== undefined,
    only,
    concurrency,
    scale,
    oneCheck: values.path !== undefined || values['replay-path'] !== undefined || runIdGiven !== undefined,
    compare: values.compare !== undefined,
  });

  const { listChecks, runSuites } = await runner();
  // A baseline is configuration: read and checked before any server is contacted.
  const baseline = values.baseline === undefined ? undefined : loadBaseline(resolve(values.baseline), new Set((await listChecks()).map((c) => c.id)));
  // What every run ends with: the baseline applied, the reports written, the verdict's exit code.
  const finish = async (ran: RunResult, reportProfile: Profile): Promise<number> => {
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
      throw new UsageError(`--only ${only.join(',')} selects no check (lp-conformance run --list shows them)`);
    }
    // Failure texts are redacted where they are made; the reporters redact again as defence in depth.
    const redact = redactor(resolveSecrets(reportProfile).values);
    const exitCode = await (await import('./reports.js')).writeRunReports(result, values, { strict, redact, color });
    // A bundled run's durations balance the next split of a bundled run over the cores.
    if (bundled && !shard && !result.interrupted && scale === 0 && faults.length === 0) (await import('./parallel.js')).rememberDurations(result);
    if (result.interrupted) {
      const signal = result.interrupted.signal as NodeJS.Signals;
      const finished = result.checks.filter((check) => check.status !== 'skipped' || !/interrupted$/.test(check.skipReason ?? '')).length;
      const c = result.cleanup;
      const left = c ? Object.values(c.families).reduce((n, f) => n + f.left, 0) : 0;
      process.stderr.write(
        `lp-conformance: interrupted (${signal}) after ${finished} of ${result.checks.length} checks; the reports hold what they found` +
          `${c ? `; ${c.deleted + c.gone} records the run created deleted, ${left} left (the summary says which)` : ''}\n`,
      );
      return 128 + (osConstants.signals[signal] ?? 0);
    }
    if (command === 'baseline') {
      const out = resolve(values.out ?? '');
      mkdirSync(dirname(out), { recursive: true });
      const n = writeBaseline(result, out);
      process.stdout.write(`Baseline: ${n} failing check${n === 1 ? '' : 's'} written to ${out}; give each a reason.\n`);
      return 0;
    }
    return exitCode;
  };
  if (jobs > 1) {
    // Each shard has its own bundled server and sandbox; this process starts none.
    const { runShardsAtOnce } = await import('./parallel.js');
    return runShardsAtOnce({ values, jobs, seed, ...(values['no-progress'] ? {} : { progress: process.stderr }) }, (merged) => finish(merged, profile));
  }
  // The bundled server accepts a fresh sandbox of credentials, put where the profile names them; its
  // new ids follow the run seed, so a seeded run repeats exactly.
  const sandbox = reference ? reference.freshSandbox() : undefined;
  if (sandbox) Object.assign(process.env, sandboxEnvironment(profile, sandbox));
  let server: BundledServer | undefined;
  let comparing: CompareServer | undefined;
  const warn = (line: string): void => void process.stderr.write(`lp-conformance: warning: ${line}\n`);
  let attachments: string | undefined;
  try {
    if (reference && sandbox) {
      server = await startBundled({
        profile,
        sandbox,
        selects,
        server: {
          faults,
          ids: reference.seededIds(seed),
          ruleBatchMs: reference.BUNDLED_RULE_BATCH_MS,
          scale,
          ...(variant ? reference.variantOptions(variant) : {}),
        },
      });
      profile = server.profile;
    } else {
      await ensureFamiliesReachable(profile, selects, Math.min(timeoutMs, 10_000));
    }
    // Before any check: each selected family's credentials and set-up (a refusal is exit 2, one line,
    // not hundreds of failed checks). Families the run does not select are not contacted.
    await preflight(profile, { selects, timeoutMs, warn });
    const compare = values.compare === undefined ? undefined : await import('../runner/compare.js');
    if (values.compare !== undefined && compare) {
      const compareProfile = values['compare-profile'] !== undefined || values.compare === 'bundled' ? loadProfile(values['compare-profile']) : profile;
      comparing = await compare.compareServer(values.compare, {
        profile: compareProfile,
        seed,
        selects,
        ...(values.compare === 'bundled' && sandbox ? { sandbox, scale } : {}),
      });
      if (values.compare !== 'bundled') await ensureFamiliesReachable(comparing.profile, selects, Math.min(timeoutMs, 10_000));
      await preflight(comparing.profile, { selects, timeoutMs, warn: (line) => warn(`--compare server: ${line}`) }).catch((error: unknown) => {
        if (error instanceof SetupError) throw new SetupError(`--compare server: ${error.message}`);
        throw error;
      });
    }

    // --runs too: a run's count shows in verdicts (coverage), and a replay repeats the run.
    const replayBase = [
      'lp-conformance run',
      values.target ? `--target ${values.target}` : '',
      values.profile ? `--profile ${values.profile}` : '',
      faults.length ? `--faults ${faults.join(',')}` : '',
      scale ? `--scale ${scale}` : '',
      variant ? `--variant ${variant}` : '',
      values.runs !== undefined ? `--runs ${runs}` : '',
      values['include-slow'] ? '--include-slow' : '',
      `--run-id ${runId}`,
      values.compare ? `--compare ${values.compare}` : '',
      values['compare-profile'] ? `--compare-profile ${values['compare-profile']}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const replay = { ...(values.path ? { path: values.path } : {}), ...(values['replay-path'] ? { replayPath: values['replay-path'] } : {}) };
    const record = values.record === undefined ? undefined : resolve(values.record);
    if (record) {
      mkdirSync(dirname(record), { recursive: true });
      writeFileSync(record, '');
    }
    // The screenshots of failures, until the reports copy them beside themselves.
    attachments = mkdtempSync(join(tmpdir(), 'lpc-attachments-'));
    const runOptions = {
      attachmentsDir: attachments,
      profile,
      seed,
      runs,
      runId,
      only,
      ...(shard ? { ids: shard.ids } : {}),
      ...replay,
      replayBase,
      timeoutMs,
      concurrency,
      ...(maxRps ? { maxRps } : {}),
      ...(record ? { record } : {}),
      ...progressOf(values['no-progress'] === true),
      ...(values['read-only'] ? { readOnly: true } : {}),
      ...(values['include-slow'] ? { includeSlow: true } : {}),
    };
    // Ctrl-C or SIGTERM (how CI cancels a job): no further check starts, the records the run created
    // are deleted, the reports are written with the checks that finished, then exit 130 or 143
    // (128 + the signal's number); a second signal stops at once.
    const interrupted = new AbortController();
    const stopNow = (signal: NodeJS.Signals) => () => process.exit(128 + (osConstants.signals[signal] ?? 0));
    const onSignal = (signal: NodeJS.Signals): void => {
      process.stderr.write(
        `lp-conformance: interrupted (${signal}); stopping the checks and ${values.keep ? 'keeping' : 'deleting'} what the run created (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit at once)\n`,
      );
      interrupted.abort(signal);
      for (const s of STOP_SIGNALS) {
        process.removeListener(s, onStop[s]);
        process.once(s, stopNow(s));
      }
    };
    const onStop = { SIGINT: () => onSignal('SIGINT'), SIGTERM: () => onSignal('SIGTERM') };
    for (const s of STOP_SIGNALS) process.once(s, onStop[s]);
    // A shard of a run split over the cores stops as on Ctrl-C when the run that started it is gone.
    if (process.env.LPC_SHARD_OF_RUN === '1') process.once('disconnect', () => process.kill(process.pid, 'SIGINT'));
    let ran;
    try {
      const driven = { ...runOptions, signal: interrupted.signal, ...(values.keep ? { keep: true } : {}) };
      ran = comparing && compare ? await compare.runCompare({ ...driven, compareProfile: comparing.profile }) : await runSuites(driven);
    } finally {
      for (const s of STOP_SIGNALS) process.removeListener(s, onStop[s]);
    }
    return await finish(ran, profile);
  } finally {
    if (attachments) rmSync(attachments, { recursive: true, force: true });
    await comparing?.close();
    await server?.close();
  }
}

/** `lp-conformance cleanup`: deletes the records of earlier runs (run markers) that the families can find. */
async function cleanup(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: { target: { type: 'string' }, profile: { type: 'string' }, timeout: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  });
  if (values.target === undefined && values.profile === undefined) throw new UsageError('cleanup needs --target URL (or --profile FILE naming the target)');
  const timeoutMs = integer('timeout', values.timeout, 10_000, 1, 3_600_000);
  let profile = loadProfile(values.profile);
  if (values.target !== undefined) profile = withTarget(profile, values.target);
  await ensureFamiliesReachable(profile, (name) => FAMILIES.some((f) => f.name === name && f.cleanup), Math.min(timeoutMs, 10_000));
  const { deleteRecords, findLeftovers } = await import('../runner/cleanup.js');
  let found;
  try {
    found = await findLeftovers(profile, timeoutMs);
  } catch (error) {
    if (error instanceof MissingCredentialsError) throw new UsageError(`cleanup: the ${error.family} credentials are missing (${error.message})`);
    throw new UsageError(`cleanup: cannot list the records of earlier runs (${redactor(resolveSecrets(profile).values)((error as Error).message)})`);
  }
  if (values['dry-run']) {
    const lines = found.map((e) => `  ${e.label} (id ${e.id})`);
    process.stdout.write(
      `lp-conformance cleanup --dry-run: ${found.length} record${found.length === 1 ? '' : 's'} of earlier runs would be deleted${found.length > 0 ? ':' : ''}\n` +
        `${lines.map((l) => `${l}\n`).join('')}`,
    );
    return 0;
  }
  const outcome = await deleteRecords(profile, found, timeoutMs);
  process.stdout.write(
    `lp-conformance cleanup: ${found.length} record${found.length === 1 ? '' : 's'} of earlier runs found, ${outcome.deleted} deleted` +
      `${outcome.gone > 0 ? `, ${outcome.gone} already gone` : ''}${outcome.failed.length > 0 ? `, ${outcome.failed.length} not deleted: ${outcome.failed[0]}` : ''}\n`,
  );
  return outcome.failed.length > 0 ? 1 : 0;
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      faults: { type: 'string', multiple: true },
      scale: { type: 'string' },
      variant: { type: 'string' },
      'list-faults': { type: 'boolean' },
      'list-variants': { type: 'boolean' },
    },
  });
  const { allFaults, createReferenceServer, MAX_SCALE, SANDBOX, sandboxOptions, variantOptions, VARIANTS } = await referenceServer();
  if (values['list-faults']) {
    process.stdout.write(`${allFaults().join('\n')}\n`);
    return 0;
  }
  if (values['list-variants']) {
    process.stdout.write(
      `${Object.entries(VARIANTS)
        .map(([name, v]) => `${name}  ${v.description}`)
        .join('\n')}\n`,
    );
    return 0;
  }
  const variant = await variantOf(values.variant);
  const port = integer('port', values.port, 8080, 0, 65535);
  const host = values.host ?? '127.0.0.1';
  // The documented sandbox, where the reference profile's credential variables do not say otherwise.
  const reference = loadProfile();
  const sandbox = sandboxOfEnvironment(reference, resolveSecrets(reference).values, SANDBOX);
  const server = createReferenceServer({
    ...sandboxOptions(sandbox),
    faults: await faultsOf(values.faults),
    scale: integer('scale', values.scale, 0, 0, MAX_SCALE),
    ...(variant ? variantOptions(variant) : {}),
  });
  let url: string;
  try {
    url = await server.listen({ port, host });
  } catch (error) {
    throw new UsageError(`cannot listen on ${host}:${port} (${(error as { code?: string }).code ?? String(error)})`);
  }
  process.stdout.write(`listening on ${url}\n`);
  await new Promise<void>((done) => {
    const stop = () => void server.close().then(done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await run(rest);
      case 'baseline':
        return await run(rest, 'baseline');
      case 'serve':
        return await serve(rest);
      case 'openapi':
        return (await import('./openapi.js')).openapiCommand(rest);
      case 'merge':
        return await (await import('./merge.js')).mergeCommand(rest);
      case 'cleanup':
        return await cleanup(rest);
      case '--version':
      case '-v':
        process.stdout.write('lp-conformance 0.1.0\n');
        return 0;
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(`${HELP}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${command}' (run, baseline, merge, serve, openapi or cleanup; --help shows the options)`);
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ProfileError ||
      error instanceof CredentialsError ||
      error instanceof SetupError ||
      error instanceof BaselineError ||
      (error instanceof Error && error.name === 'MergeError')
    ) {
      process.stderr.write(`lp-conformance: ${error.message}\n`);
      return 2;
    }
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`lp-conformance: ${(error as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    process.stderr.write(`lp-conformance: internal error: ${(error as Error).message?.split('\n')[0] ?? String(error)}\n`);
    return 2;
  }
}
