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
import { constants as osConstants } from 'node:os';
import {
  FAMILIES,
  familyAbsence,
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
import { selection, selectsFamily } from '../runner/select.js';
import { relayProgress, type ProgressListener, type ProgressSink } from '../runner/progress.js';
import type { CompareServer } from '../runner/compare.js';
import { CredentialsError, MissingCredentialsError } from '../target/secrets.js';
import { TlsConfigError, tlsConfigOf, useTls } from '../target/tls.js';
import { sandboxEnvironment, sandboxOfEnvironment, startBundled, type BundledServer } from '../runner/bundled.js';
import {
  BASELINE,
  checkOutputs,
  CLEANUP,
  closestName,
  COMMANDS,
  commandHelp,
  helpAsked,
  parseCommand,
  RUN,
  SERVE,
  splitList,
  toolHelp,
  UsageError,
  type Values,
} from './args.js';
import { checkUrlsGiven, preflight, reachFamilies, SetupError } from './preflight.js';

/*
 * The heavy parts are imported where a command needs them: the runner, the reference
 * server (fastify, oidc-provider), the mail sink (smtp-server) and the reporters. Loading them all
 * took 0.8 s before the first line of any command, a bad flag's answer included.
 */
const referenceServer = () => import('../../reference-impl/index.js');
const runner = () => import('../runner/run.js');

/** The signals that interrupt a run: Ctrl-C, and SIGTERM, with which CI cancels a job or ends it at its timeout. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** `--only a,b --skip c select` (or `--only a selects`), as given, for messages. */
function patternsText(only: readonly string[], skip: readonly string[]): string {
  const given = [only.length > 0 ? `--only ${only.join(',')}` : '', skip.length > 0 ? `--skip ${skip.join(',')}` : ''].filter(Boolean);
  return given.length === 1 ? `${given[0]} selects` : `${given.join(' ') || 'the patterns'} select`;
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

/** Shard processes of a bundled run (`--jobs N`): by default one per core (at most four) for the whole
 * suite, one for a selection (`--only`), a replay, a `--scale`d server or checks run one by one. */
async function jobsOf(
  value: number | undefined,
  run: { bundled: boolean; sharded: boolean; only: string[]; concurrency: number; scale: number; oneCheck: boolean; compare: boolean },
): Promise<number> {
  if (value !== undefined) {
    if (value > 1 && !run.bundled)
      throw new UsageError('--jobs applies to the bundled reference server only (no --target/--profile); a CI matrix runs --shard I/N');
    if (value > 1 && run.sharded) throw new UsageError('--jobs splits a run into shards itself: no --shard');
    if (value > 1 && (run.compare || run.oneCheck)) throw new UsageError('--jobs does not combine with --compare, --path or --replay-path');
    return value;
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

async function run(argv: string[], command: 'run' | 'baseline' = 'run'): Promise<number> {
  const spec = command === 'baseline' ? BASELINE : RUN;
  // `run` has every option of `baseline` but --out, which its table does not accept.
  const { values, help } = parseCommand(spec, argv) as { values: Values<typeof BASELINE.options>; help: boolean };
  if (helpAsked(spec, help)) return 0;
  const color = !values['no-color'] && process.stdout.isTTY === true && !process.env.NO_COLOR;
  if (command === 'baseline' && values.out === undefined) throw new UsageError('baseline needs --out FILE: where to write the failing checks');
  const failOn = values['fail-on'];
  if (failOn === 'must' && values.strict) throw new UsageError('--fail-on must contradicts --strict (which is --fail-on should)');
  // --fail-on should is --strict: SHOULD failures fail the run too; must (the default) says so.
  const strict = (values.strict ?? false) || failOn === 'should';
  let profile = loadProfile(values.profile);
  const only = splitList(values.only);
  const skip = splitList(values.skip);
  const selected = selection(only, skip);
  const bundled = values.target === undefined && values.profile === undefined;
  const sharding = await shardOptions(values, bundled);
  if (values.list) {
    const [{ listChecks }, { formatList }] = await Promise.all([runner(), import('../../reporters/console.js')]);
    const shard = sharding ? await sharding.select(profile, only, skip) : undefined;
    const checks = (await listChecks()).filter((c) => (shard ? shard.ids.includes(c.id) : selected(c.id)));
    if (checks.length === 0) throw new UsageError(`${patternsText(only, skip)} no check (lp-conformance run --list shows them all)`);
    process.stdout.write(`${formatList(checks)}\n`);
    return 0;
  }
  // Where the run writes, and the certificates it trusts, are checked before anything runs.
  checkOutputs(spec, values, [
    ...(values.junit === undefined ? [['--junit', 'reports/junit.xml'] as const] : []),
    ...(process.env.GITHUB_STEP_SUMMARY ? [['$GITHUB_STEP_SUMMARY', process.env.GITHUB_STEP_SUMMARY] as const] : []),
  ]);
  const tls = tlsConfigOf(values);
  useTls(tls);
  const seed = values.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runs = values.runs ?? 100;
  const timeoutMs = values.timeout ?? 10_000;
  const concurrency = values.concurrency ?? DEFAULT_CONCURRENCY;
  const maxRps = values['max-rps'];
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
  const scale = values.scale ?? 0;
  if (sharding && values.compare !== undefined) throw new UsageError('--shard does not combine with --compare');
  // Shards against one server must not share a marker: records made once per server are named by it.
  if (runIdGiven !== undefined && (sharding || (values.jobs !== undefined && values.jobs !== 1)))
    throw new UsageError('--run-id names one run: each shard makes its own (no --run-id with --shard or --jobs)');
  if (sharding && values.path) throw new UsageError('--path replays one check: no --shard');
  // A shard runs its plan's checks: its families are those of its checks. A family the profile says
  // the target does not have is neither contacted nor set up.
  const shard = sharding ? await sharding.select(profile, only, skip) : undefined;
  const selects = (family: string): boolean =>
    (shard ? shard.selects(family) : selectsFamily(only, skip, family)) && familyAbsence(profile, family) === undefined;

  if (values.target !== undefined) {
    let url: URL;
    try {
      url = new URL(values.target);
    } catch {
      throw new UsageError(`--target must be an http(s) URL, not '${values.target}'`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target must be an http(s) URL, not '${values.target}'`);
    profile = withTarget(profile, values.target);
  } else if (!bundled) {
    checkUrlsGiven(profile, selects);
  }
  if (values['compare-profile'] !== undefined && values.compare === undefined) throw new UsageError('--compare-profile needs --compare');
  if (values.compare !== undefined && values.compare !== 'bundled' && !/^https?:\/\/[^/?#\s]+/.test(values.compare)) {
    throw new UsageError(`--compare must be an http(s) URL or 'bundled', not '${values.compare}'`);
  }
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
      throw new UsageError(`${patternsText(only, skip)} no check (lp-conformance run --list shows them)`);
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
    }
    // Before any check: each selected family's URL, credentials and set-up (a refusal, an unreachable
    // URL, a TLS error or a target that is not the API is exit 2, one line, not hundreds of failed
    // checks). Families the run does not select are not contacted.
    await preflight(profile, { selects, timeoutMs, warn });
    if (values['check-profile']) await (await import('./check-profile.js')).checkProfileRecords(profile, { selects, timeoutMs, warn });
    const compare = values.compare === undefined ? undefined : await import('../runner/compare.js');
    if (values.compare !== undefined && compare) {
      const compareProfile = values['compare-profile'] !== undefined || values.compare === 'bundled' ? loadProfile(values['compare-profile']) : profile;
      comparing = await compare.compareServer(values.compare, {
        profile: compareProfile,
        seed,
        selects,
        ...(values.compare === 'bundled' && sandbox ? { sandbox, scale } : {}),
      });
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
      ...(skip.length > 0 ? { skip } : {}),
      ...(tls ? { tls } : {}),
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
  const { values, help } = parseCommand(CLEANUP, argv);
  if (helpAsked(CLEANUP, help)) return 0;
  if (values.target === undefined && values.profile === undefined) throw new UsageError('cleanup needs --target URL (or --profile FILE naming the target)');
  const timeoutMs = values.timeout ?? 10_000;
  useTls(tlsConfigOf(values));
  let profile = loadProfile(values.profile);
  const cleans = (name: string): boolean => FAMILIES.some((f) => f.name === name && f.cleanup) && familyAbsence(profile, name) === undefined;
  if (values.target !== undefined) profile = withTarget(profile, values.target);
  else checkUrlsGiven(profile, cleans);
  await reachFamilies(profile, cleans, timeoutMs);
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

/** `lp-conformance serve`: the bundled reference server as a sandbox, with what its families start
 * beside it (a mail sink), printing every credential it accepts as export lines (and `--env FILE`). */
async function serve(argv: string[]): Promise<number> {
  const { values, help, positionals } = parseCommand(SERVE, argv);
  if (helpAsked(SERVE, help)) return 0;
  const reference = await referenceServer();
  if (values['list-faults']) {
    const listed = (await import('./catalogue.js')).faultLines(positionals, reference.faultCatalogue());
    if ('none' in listed) throw new UsageError(`'${listed.none}' selects no fault; closest: ${listed.closest.join(', ')} (serve --list-faults lists them all)`);
    process.stdout.write(`${listed.lines.join('\n')}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}': only --list-faults takes a pattern`);
  if (values['list-variants']) {
    process.stdout.write(
      `${Object.entries(reference.VARIANTS)
        .map(([name, v]) => `${name}  ${v.description}`)
        .join('\n')}\n`,
    );
    return 0;
  }
  const variant = await variantOf(values.variant);
  checkOutputs(SERVE, values);
  const port = values.port ?? 8080;
  const host = values.host ?? '127.0.0.1';
  // The documented sandbox, where the reference profile's credential variables do not say otherwise.
  const profile = loadProfile();
  const sandbox = sandboxOfEnvironment(profile, resolveSecrets(profile).values, reference.SANDBOX);
  let server: BundledServer;
  try {
    server = await startBundled({
      profile,
      sandbox,
      selects: () => true,
      server: {
        faults: await faultsOf(values.faults),
        scale: values.scale ?? 0,
        ...(variant ? reference.variantOptions(variant) : {}),
        ...(values['id-seed'] === undefined ? {} : { idSeed: values['id-seed'] }),
      },
      listen: { port, host },
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === undefined) throw error;
    throw new UsageError(`cannot listen on ${host}:${port} (${code})`);
  }
  const { sandboxText, writeEnvFile } = await import('./sandbox.js');
  const env = { ...sandboxEnvironment(profile, sandbox), ...server.env };
  if (values.env !== undefined) writeEnvFile(values.env, server.url, env);
  process.stdout.write(sandboxText(server.url, env, server.says, values.env));
  await new Promise<void>((done) => {
    // Either signal stops it; the other's listener goes too (a process that serves again listens anew).
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().then(done);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  // The file says how to reach a server that no longer listens: it goes with it.
  if (values.env !== undefined) rmSync(values.env, { force: true });
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
      case 'init':
        return await (await import('./init.js')).initCommand(rest);
      case 'merge':
        return await (await import('./merge.js')).mergeCommand(rest);
      case 'cleanup':
        return await cleanup(rest);
      case 'explain':
        return await (await import('./explain.js')).explainCommand(rest);
      case '--version':
      case '-v':
        process.stdout.write('lp-conformance 0.1.0\n');
        return 0;
      case 'help': {
        // `lp-conformance help run` is `lp-conformance run --help`.
        const topic = COMMANDS.find((c) => c.name === rest[0]);
        process.stdout.write(`${topic ? commandHelp(topic) : toolHelp()}\n`);
        return 0;
      }
      case undefined:
      case '--help':
      case '-h':
        process.stdout.write(`${toolHelp()}\n`);
        return command === undefined ? 2 : 0;
      default: {
        const near = closestName(
          command,
          COMMANDS.map((c) => c.name),
        );
        throw new UsageError(
          `unknown command '${command}'${near ? `; did you mean ${near}?` : ''} (${COMMANDS.map((c) => c.name).join(', ')}; lp-conformance --help shows them)`,
        );
      }
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ProfileError ||
      error instanceof CredentialsError ||
      error instanceof SetupError ||
      error instanceof TlsConfigError ||
      error instanceof BaselineError ||
      (error instanceof Error && error.name === 'MergeError')
    ) {
      // One line, or one per problem (the records --check-profile did not find).
      for (const line of error instanceof SetupError ? error.lines : [error.message]) process.stderr.write(`lp-conformance: ${line}\n`);
      return 2;
    }
    process.stderr.write(`lp-conformance: internal error: ${(error as Error).message?.split('\n')[0] ?? String(error)}\n`);
    return 2;
  }
}
