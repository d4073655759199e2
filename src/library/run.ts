/**
 * `import { run } from 'lp-conformance'`: the command line's `run` as a function. It takes what
 * `lp-conformance run` takes, as one typed object, runs the same stages (src/cli/run.ts) and resolves
 * to the run as the JSON report holds it (reports/run.schema.json). A set-up mistake, which the
 * command line answers with exit 2, is a RunError with the same line.
 *
 * Unlike the command line it writes no report unless given its path (no reports/junit.xml), prints
 * nothing unless given an `output`, never changes process.env (a bundled run's sandbox credentials
 * go to the suites in a copy) and installs no signal handler: an AbortSignal interrupts it instead.
 */
import type { AnyFaultName, VariantName } from '../../reference-impl/index.js';
import { jsonReport, type JsonReport } from '../../reporters/json.js';
import { parseCommand, RUN } from '../cli/args.js';
import { setupMistake, type MistakeKind } from '../cli/mistakes.js';
import type { Printer } from '../cli/reports.js';
import { runStages, type Interrupt, type RunHost } from '../cli/run.js';
import type { ProgressSink } from '../runner/progress.js';

/** A fault of the bundled reference server (`lp-conformance serve --list-faults`). */
export type FaultName = AnyFaultName;
export type { VariantName };

/** The run, as the JSON report (`--json`) holds it: the run model with its verdict and schema version. */
export type RunReport = JsonReport;

/** A profile as a document: what its YAML file parses to (the profile reference: docs/profile.md). */
export type ProfileDocument = Readonly<Record<string, unknown>>;

/** Where the reports go; each is written only when its path is given. */
export interface ReportPaths {
  junit?: string;
  json?: string;
  markdown?: string;
  html?: string;
  /** The run's exchanges as HAR 1.2, secrets as `${VAR}` (`--har`). */
  har?: string;
}

export interface RunOptions {
  /** The target's base URL (`--target`); default: the bundled reference server, started for the run. */
  target?: string;
  /** The target's profile: a YAML file's path (`--profile`), or the document itself. */
  profile?: string | ProfileDocument;
  /** Check-id prefixes or globs to run (`--only`). */
  only?: string | readonly string[];
  /** Check-id prefixes or globs to leave out (`--skip`). */
  skip?: string | readonly string[];
  /** The run seed (`--seed`; default random, in the result): the same seed sends the same requests. */
  seed?: number;
  /** Property runs per check (`--runs`, default 100). */
  runs?: number;
  /** Checks in flight at once (`--concurrency`, default 8). */
  concurrency?: number;
  /** Worker threads the checks run in (`--workers`, default 1). */
  workers?: number;
  /** Deadline of one exchange in milliseconds (`--timeout`, default 10000). */
  timeoutMs?: number;
  /** At most this many requests per second to the target (`--max-rps`). */
  maxRps?: number;
  /** A known-failure baseline file (`--baseline`): only new failures fail the verdict. */
  baseline?: string;
  /** `should`: SHOULD failures fail the verdict too (`--fail-on`, default `must`). */
  failOn?: 'must' | 'should';
  /** Faults to switch on in the bundled reference server (`--faults`): negative controls. */
  faults?: readonly FaultName[];
  /** The bundled reference server as another kind of real server (`--variant`). */
  variant?: VariantName;
  /** The bundled server's size: N users, resources and submissions (`--scale`). */
  scale?: number;
  /** Send no write (`--read-only`). */
  readOnly?: boolean;
  /** Delete nothing the run created (`--keep`). */
  keep?: boolean;
  /** Also run the checks that wait long for the target (`--include-slow`). */
  includeSlow?: boolean;
  /** The run's id, 6 hex digits, in its records' marker (`--run-id`). */
  runId?: string;
  /** The reports to write; none by default. */
  reports?: ReportPaths;
  /** Every request as JSON lines, secrets as `${VAR}` (`--record`). */
  record?: string;
  /** With `reports.har`: only the exchanges of the checks that failed (`--har-failures`). */
  harFailures?: boolean;
  /** Where the profile's credential variables are read (default process.env, which is never changed). */
  env?: NodeJS.ProcessEnv;
  /** Aborting it before the checks start rejects with its reason, once what was started is stopped;
   * during the checks it interrupts the run as SIGTERM does the command line (no further check starts,
   * what the run created is deleted) and the result says `interrupted`. */
  signal?: AbortSignal;
  /** Where the console summary and the warnings go (default: nowhere). */
  output?: Printer;
  /** Where the progress line goes (default: nowhere); a terminal stream gets the live line. */
  progress?: ProgressSink;
}

/** A set-up mistake: what `lp-conformance run` answers with exit 2 and the same line(s). */
export class RunError extends Error {
  override readonly name = 'RunError';
  /** The command line's exit code for it. */
  readonly exitCode = 2;
  constructor(
    /** What kind of mistake: a usage or profile mistake, missing credentials, a target that cannot be
     * reached or is not the API, a TLS option or a baseline that cannot be used. */
    readonly kind: MistakeKind,
    /** The command line's lines (one, or one per problem). */
    readonly lines: readonly string[],
    options?: ErrorOptions,
  ) {
    super(lines.join('\n'), options);
  }
}

const list = (value: string | readonly string[] | undefined): string[] => (value === undefined ? [] : [typeof value === 'string' ? value : value.join(',')]);

/** The options as the command line would be given them: the option table checks them as it checks
 * the command line's, with its messages. */
function argvOf(options: RunOptions): string[] {
  const given: [string, string | number | boolean | undefined][] = [
    ['target', options.target],
    ['profile', typeof options.profile === 'string' ? options.profile : undefined],
    ['seed', options.seed],
    ['runs', options.runs],
    ['concurrency', options.concurrency],
    ['workers', options.workers],
    ['timeout', options.timeoutMs],
    ['max-rps', options.maxRps],
    ['baseline', options.baseline],
    ['fail-on', options.failOn],
    ['variant', options.variant],
    ['scale', options.scale],
    ['run-id', options.runId],
    ['read-only', options.readOnly],
    ['keep', options.keep],
    ['include-slow', options.includeSlow],
    ['record', options.record],
    ['har-failures', options.harFailures],
    ...Object.entries(options.reports ?? {}),
    ...list(options.only).map((v): [string, string] => ['only', v]),
    ...list(options.skip).map((v): [string, string] => ['skip', v]),
    ...list(options.faults).map((v): [string, string] => ['faults', v]),
  ];
  return given.flatMap(([name, value]) => (value === undefined || value === false ? [] : value === true ? [`--${name}`] : [`--${name}=${value}`]));
}

/** The AbortSignal as the run's interrupt: its abort stops the checks as SIGTERM does (or SIGINT,
 * when that is its reason). */
function abortInterrupts(signal: AbortSignal | undefined): RunHost['interrupts'] {
  return (stop) => {
    if (!signal) return () => undefined;
    const onAbort = (): void => stop((signal.reason === 'SIGINT' ? 'SIGINT' : 'SIGTERM') satisfies Interrupt);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  };
}

/** Runs the conformance checks once; the run as the JSON report holds it. */
export async function run(options: RunOptions = {}): Promise<RunReport> {
  try {
    const { values } = parseCommand(RUN, argvOf(options));
    const outcome = await runStages(
      // One process: a library's run starts no shard processes of its own.
      { ...values, jobs: 1 },
      {
        command: 'run',
        ...(options.profile !== undefined && typeof options.profile !== 'string' ? { profileDocument: options.profile } : {}),
        env: options.env ?? process.env,
        stdout: options.output ?? null,
        stderr: options.output ?? null,
        ...(options.progress ? { progress: options.progress } : {}),
        color: false,
        junitByDefault: false,
        interrupts: abortInterrupts(options.signal),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    if (!outcome.result) throw new Error('the run ended without a result');
    return jsonReport(outcome.result, { strict: outcome.strict });
  } catch (error) {
    const mistake = setupMistake(error);
    if (mistake) throw new RunError(mistake.kind, mistake.lines, { cause: error });
    throw error;
  }
}
