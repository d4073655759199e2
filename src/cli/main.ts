/**
 * lp-conformance command line.
 *   run    run the conformance suites against a target (default: the bundled reference server)
 *   serve  start the bundled reference server
 * Exit codes: 0 every failing-level check passed; 1 a check failed; 2 usage, configuration or an
 * unreachable target, always with one line on stderr and never a stack trace.
 */
import { rmSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { FAMILIES, familyAbsence, loadProfile, redactor, resolveSecrets, withTarget } from '../profile/index.js';
import { relayProgress, type ProgressListener, type ProgressSink } from '../runner/progress.js';
import { MissingCredentialsError } from '../target/secrets.js';
import { tlsConfigOf, useTls } from '../target/tls.js';
import { sandboxEnvironment, sandboxOfEnvironment, startBundled, type BundledServer } from '../runner/bundled.js';
import { BASELINE, checkOutputs, CLEANUP, closestName, COMMANDS, commandHelp, helpAsked, parseCommand, RUN, SERVE, toolHelp, UsageError } from './args.js';
import { checkUrlsGiven, reachFamilies } from './preflight.js';
import { tool } from './invocation.js';
import { tolerateClosedPipes } from './closed-pipe.js';
import { setupMistake } from './mistakes.js';
import { faultsOf, runStages, variantOf, type RunHost, type RunValues } from './run.js';

/*
 * The heavy parts are imported where a command needs them: the runner, the reference
 * server (fastify, oidc-provider), the mail sink (smtp-server) and the reporters. Loading them all
 * took 0.8 s before the first line of any command, a bad flag's answer included.
 */
const referenceServer = () => import('../../reference-impl/index.js');

/** The signals that interrupt a run: Ctrl-C, and SIGTERM, with which CI cancels a job or ends it at its timeout. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Where a run's progress goes: to the run that started it as a shard (over IPC), or a line on stderr. */
function progressOf(quiet: boolean): { progress?: ProgressSink | ProgressListener } {
  const send = process.send?.bind(process);
  if (process.env.LPC_SHARD_OF_RUN === '1' && send) return { progress: relayProgress((event) => void send(event)) };
  return quiet ? {} : { progress: process.stderr };
}

/**
 * Ctrl-C or SIGTERM (how CI cancels a job) while the checks run: no further check starts, the records
 * the run created are deleted, the reports are written with the checks that finished, then exit 130
 * or 143 (128 + the signal's number); a second signal stops at once.
 */
function signalInterrupts(keep: boolean): RunHost['interrupts'] {
  return (stop) => {
    const stopNow = (signal: NodeJS.Signals) => () => process.exit(128 + (osConstants.signals[signal] ?? 0));
    const onSignal = (signal: 'SIGINT' | 'SIGTERM'): void => {
      process.stderr.write(
        `lp-conformance: interrupted (${signal}); stopping the checks and ${keep ? 'keeping' : 'deleting'} what the run created (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit at once)\n`,
      );
      stop(signal);
      for (const s of STOP_SIGNALS) {
        process.removeListener(s, onStop[s]);
        process.once(s, stopNow(s));
      }
    };
    const onStop = { SIGINT: () => onSignal('SIGINT'), SIGTERM: () => onSignal('SIGTERM') };
    for (const s of STOP_SIGNALS) process.once(s, onStop[s]);
    // A shard of a run split over the cores stops as on Ctrl-C when the run that started it is gone.
    if (process.env.LPC_SHARD_OF_RUN === '1') process.once('disconnect', () => process.kill(process.pid, 'SIGINT'));
    return () => {
      for (const s of STOP_SIGNALS) process.removeListener(s, onStop[s]);
    };
  };
}

/** Resolves at Ctrl-C or SIGTERM: either signal stops a server kept up; the other's listener goes
 * too (a process that serves again listens anew). */
function untilStopped(): Promise<void> {
  return new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** `lp-conformance run` and `baseline`: the options parsed, then the run's stages (run.ts) with the
 * process's environment, stdout, stderr and signals. */
async function run(argv: string[], command: 'run' | 'baseline' = 'run'): Promise<number> {
  const spec = command === 'baseline' ? BASELINE : RUN;
  // `run` has every option of `baseline` but --out, which its table does not accept.
  const { values, help } = parseCommand(spec, argv) as { values: RunValues; help: boolean };
  if (helpAsked(spec, help)) return 0;
  const outcome = await runStages(values, {
    command,
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    ...progressOf(values['no-progress'] === true),
    color: !values['no-color'] && process.stdout.isTTY === true && !process.env.NO_COLOR,
    junitByDefault: true,
    stepSummary: process.env.GITHUB_STEP_SUMMARY || undefined,
    interrupts: signalInterrupts(values.keep === true),
    untilStopped,
  });
  return outcome.exitCode;
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
  const { pacedSend } = await import('../target/base/pace.js');
  const send = pacedSend(values['max-rps']);
  let found;
  try {
    found = await findLeftovers(profile, timeoutMs, send);
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
  const outcome = await deleteRecords(profile, found, timeoutMs, send);
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
    if ('none' in listed)
      throw new UsageError(`'${listed.none}' selects no fault; closest: ${listed.closest.join(', ')} (${tool()} serve --list-faults lists them all)`);
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
        // The ids of new records as a run's bundled server makes them with the same --seed.
        ...(values.seed === undefined ? {} : { ids: reference.seededIds(values.seed) }),
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
  await untilStopped();
  await server.close();
  // The file says how to reach a server that no longer listens: it goes with it.
  if (values.env !== undefined) rmSync(values.env, { force: true });
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  tolerateClosedPipes();
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
          `unknown command '${command}'${near ? `; did you mean ${near}?` : ''} (${COMMANDS.map((c) => c.name).join(', ')}; ${tool()} --help shows them)`,
        );
      }
    }
  } catch (error) {
    const mistake = setupMistake(error);
    if (mistake) {
      // One line, or one per problem (the records --check-profile did not find).
      for (const line of mistake.lines) process.stderr.write(`lp-conformance: ${line}\n`);
      return 2;
    }
    process.stderr.write(`lp-conformance: internal error: ${(error as Error).message?.split('\n')[0] ?? String(error)}\n`);
    return 2;
  }
}
