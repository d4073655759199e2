/**
 * The command line's options, declared once per command: each option's name, type, what it accepts
 * and its help text. From these tables come the parser (`parseCommand`), each command's `--help`
 * and the tool's `--help`. Adding a command or an option is one entry here.
 *
 * The parser is ours rather than node:util parseArgs, which reads `--runs -5` as two options
 * ("argument is ambiguous"), names no close option for a typo, and says nothing of what a value
 * may be. Here:
 * - `--name value` and `--name=value`; a value may start with `-` (`--runs -5`, `--seed -3`), so
 *   that a bad number is said as one; only a token starting `--` is never taken as a value;
 * - an unknown option names the closest one of the command (edit distance, fastest-levenshtein) or
 *   the command it belongs to;
 * - a value is checked against the option's type (integers and their range, choices) and a bad one
 *   names the option and what it accepts;
 * - `--help` (or `-h`) anywhere asks for the command's help.
 */
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FAMILIES } from '../profile/index.js';
import { closestName } from '../util/closest.js';
import { tool } from './invocation.js';

export { closestName };

/** A problem with how the tool was called or configured: exit 2 with this one line. */
export class UsageError extends Error {}

export interface OptionSpec {
  readonly type: 'string' | 'boolean' | 'integer';
  /** The value's name in the help (`FILE`, `URL`, `N`). */
  readonly value?: string;
  /** Given more than once, the values add up (and each may be a comma-separated list). */
  readonly multiple?: true;
  /** An integer's range. */
  readonly min?: number;
  readonly max?: number;
  /** The values a string may take. */
  readonly choices?: readonly string[];
  /** A file the command writes: tried (created and removed, with any folder it needs) before the command starts. */
  readonly output?: true;
  /** The help text: the first line beside the option, further lines below it. */
  readonly help: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export interface CommandSpec {
  readonly name: string;
  /** The arguments after the command's name in its usage line. */
  readonly usage: string;
  /** What the command does, one line. */
  readonly summary: string;
  readonly options: OptionTable;
  /** The arguments it takes besides options (`REPORT.json…`), if any: read in order, as given. */
  readonly positionals?: string;
  /** Lines after the options in the command's help. */
  readonly notes?: string;
}

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['type'] extends 'integer'
    ? number
    : S extends { multiple: true }
      ? string[]
      : string;

/** The parsed options of a table: each present only when given. */
export type Values<T extends OptionTable> = { -readonly [K in keyof T]?: ValueOf<T[K]> };

// ---------------------------------------------------------------------------------------------
// The options, shared where commands share them.

/** Where each family is under the target URL, as the help says it. */
const TARGET_LAYOUT = FAMILIES.flatMap((f) => {
  const at = f.profile.baseUrl;
  return at === undefined ? [] : [`${f.title}: URL${'suffix' in at ? at.suffix : ''}`];
}).join(', ');

const TARGET = { type: 'string', value: 'URL', help: `the target's base URL (${TARGET_LAYOUT})` } as const;
const PROFILE = { type: 'string', value: 'FILE', help: "target profile (YAML); default: the bundled server's profile" } as const;
const TIMEOUT = { type: 'integer', value: 'MS', min: 1, max: 3_600_000, help: 'deadline of one exchange, for the whole answer (default 10000)' } as const;
/** --max-rps: the run's checks and its cleanup, and the cleanup command, are paced by it. */
const MAX_RPS = {
  type: 'integer',
  value: 'N',
  min: 1,
  max: 100_000,
  help: "at most N requests per second to the target (a 429's Retry-After is always honoured)",
} as const;
const FAULTS = { type: 'string', value: 'LIST', multiple: true, help: 'faults to enable in the bundled server (negative controls), comma-separated' } as const;
const SCALE = {
  type: 'integer',
  value: 'N',
  min: 0,
  max: 2_000_000,
  help: "bundled server: N users, resources and submissions (default: the seed's)",
} as const;
const SEED = { type: 'integer', value: 'N', min: -(2 ** 31), max: 2 ** 31 - 1, help: 'run seed (default: random, printed)' } as const;
const TLS = {
  ca: {
    type: 'string',
    value: 'FILE',
    help: "PEM certificates of the CAs to trust besides Node's (a self-signed target's own certificate);\nNODE_EXTRA_CA_CERTS=FILE works too",
  },
  insecure: { type: 'boolean', help: "do not verify the target's TLS certificate (every report says so)" },
} as const;

const RUN_OPTIONS = {
  target: { ...TARGET, help: `${TARGET.help};\ndefault: the bundled reference server` },
  profile: PROFILE,
  junit: { type: 'string', value: 'FILE', output: true, help: 'JUnit report path (default reports/junit.xml)' },
  json: { type: 'string', value: 'FILE', output: true, help: 'also write the run as JSON (schema: reports/run.schema.json in the package)' },
  markdown: { type: 'string', value: 'FILE', output: true, help: 'also write a Markdown summary (and append it to $GITHUB_STEP_SUMMARY when set)' },
  html: { type: 'string', value: 'FILE', output: true, help: 'also write a self-contained HTML report (filters by status and level; no network)' },
  record: {
    type: 'string',
    value: 'FILE',
    output: true,
    help: 'write every request (check, case, method, url, headers, body; secrets as ${VAR}) as JSON lines',
  },
  har: {
    type: 'string',
    value: 'FILE',
    output: true,
    help: "write the run's exchanges as HAR 1.2 (a browser's network panel opens it; secrets as ${VAR})",
  },
  'har-failures': { type: 'boolean', help: 'with --har: only the exchanges of the checks that failed' },
  seed: SEED,
  runs: { type: 'integer', value: 'N', min: 1, max: 1_000_000, help: 'property runs per check (default 100)' },
  only: { type: 'string', value: 'PATTERN', multiple: true, help: 'check-id prefix or glob; repeatable or comma-separated' },
  skip: {
    type: 'string',
    value: 'PATTERN',
    multiple: true,
    help: 'leave out the checks it matches (prefix or glob, as --only); repeatable or comma-separated',
  },
  path: { type: 'string', value: 'PATH', help: 'fast-check path to replay (with --only naming one check)' },
  'replay-path': { type: 'string', value: 'P', help: 'fast-check commands replay path (model-based checks print it in their replay line)' },
  list: { type: 'boolean', help: 'list the checks (those --only and --skip select) with level and spec anchor, without running' },
  strict: { type: 'boolean', help: 'SHOULD-level failures fail the run too (the same as --fail-on should)' },
  'fail-on': {
    type: 'string',
    value: 'LEVEL',
    choices: ['must', 'should'],
    help: 'must (default: MUST and PROFILE failures fail the run) or should (SHOULD too)',
  },
  baseline: { type: 'string', value: 'FILE', help: 'known failures (from lp-conformance baseline): only new failures fail the run' },
  'read-only': { type: 'boolean', help: "send no write (only reads, and the families' token exchanges); checks that must write are skipped" },
  keep: {
    type: 'boolean',
    help: "delete nothing the run created (a failure's curl then finds the records it names;\nlp-conformance cleanup removes them later)",
  },
  'run-id': { type: 'string', value: 'ID', help: "the run's id, 6 hex digits, in its records' marker lpc-<id>- (default: random; replay\nlines repeat it)" },
  'include-slow': {
    type: 'boolean',
    help: 'also run the checks that wait more than 60 s for the target (the rule-based enrollment\ncheck waits up to records.ruleEnrollment.withinMs, 10 minutes by default)',
  },
  'check-profile': {
    type: 'boolean',
    help: 'before any check, read each record id of the profile once; ids the target does not\nhave exit 2, one line each',
  },
  timeout: TIMEOUT,
  concurrency: { type: 'integer', value: 'N', min: 1, max: 256, help: 'checks in flight at once (default 8; 1 runs them one by one, in order)' },
  workers: {
    type: 'integer',
    value: 'N',
    min: 1,
    max: 64,
    help: "worker threads the checks run in, sharing the run's --concurrency and locks (default 1;\nalways 1 with --concurrency 1 or --max-rps)",
  },
  'max-rps': MAX_RPS,
  ...TLS,
  faults: FAULTS,
  scale: SCALE,
  variant: {
    type: 'string',
    value: 'NAME',
    help: "the bundled server as another kind of real server (serve --list-variants), judged\nwith that variant's expectations for its family (fixtures/profiles/<family>-<variant>.yaml)",
  },
  'keep-serving': {
    type: 'boolean',
    help: "bundled server: after the run, keep it up on its port until Ctrl-C (SIGINT or SIGTERM),\nand print the export lines with which the failures' curls paste as printed",
  },
  verbose: {
    type: 'boolean',
    help: 'the console summary in full: the counts of every area and every skipped check\n(default: a short summary; the reports always hold it all)',
  },
  'no-color': { type: 'boolean', help: 'no ANSI colours in the console summary' },
  'no-progress': { type: 'boolean', help: 'no progress on stderr (default: a live line on a terminal, else a line every 10 s)' },
  compare: {
    type: 'string',
    value: 'URL',
    help: "also send the same seeded requests to the server at URL (or 'bundled': the bundled\nreference server) and report each check's first difference as compare.<check id>",
  },
  'compare-profile': { type: 'string', value: 'FILE', help: "profile of the --compare server (default: the target's; with 'bundled' the reference)" },
  shard: {
    type: 'string',
    value: 'I/N',
    help: "run shard I of N of the selected checks (a CI matrix job); checks that would disturb\neach other on one server share a shard; merge the shards' --json reports",
  },
  'shard-plan': { type: 'string', value: 'FILE', help: "an earlier run's --json report: balance the shards by its checks' durations" },
  jobs: {
    type: 'integer',
    value: 'N',
    min: 1,
    max: 64,
    help: 'bundled server: split the run over N processes, each with its own server (default:\nthe whole suite over one process per two cores, at most 4)',
  },
} as const satisfies OptionTable;

/** The options a failure's replay line repeats, as given, in this order: what makes a run send the
 * same requests to the same server (`--only`, `--seed` and the paths follow per failure). */
export const REPLAYED = [
  'target',
  'profile',
  'faults',
  'scale',
  'variant',
  'runs',
  'include-slow',
  'run-id',
  'compare',
  'compare-profile',
] as const satisfies readonly (keyof typeof RUN_OPTIONS)[];

const EXIT_CODES = 'Exit codes: 0 passed, 1 a check failed, 2 usage, configuration or set-up (one line on stderr),\n130/143 interrupted (SIGINT/SIGTERM).';

export const RUN = {
  name: 'run',
  usage: '[options]',
  summary: 'run the suites (default target: the bundled reference server)',
  options: RUN_OPTIONS,
  notes: EXIT_CODES,
} as const satisfies CommandSpec;

export const BASELINE = {
  name: 'baseline',
  usage: '--out FILE [run options]',
  summary: 'run, then write the failing checks as a known-failure baseline',
  options: { out: { type: 'string', value: 'FILE', output: true, help: 'where to write the baseline (required)' }, ...RUN_OPTIONS },
  notes: 'It exits 0 once the baseline is written.',
} as const satisfies CommandSpec;

export const MERGE = {
  name: 'merge',
  usage: '[--junit FILE] [--json FILE] [--markdown FILE] [--html FILE] REPORT.json…',
  summary: 'the reports and exit code of one run from the --json reports of its shards\n(run --shard I/N), each shard once',
  positionals: 'REPORT.json…',
  options: {
    junit: RUN_OPTIONS.junit,
    json: { ...RUN_OPTIONS.json, help: 'also write the merged run as JSON' },
    markdown: RUN_OPTIONS.markdown,
    html: RUN_OPTIONS.html,
    'no-color': RUN_OPTIONS['no-color'],
    verbose: RUN_OPTIONS.verbose,
  },
  notes: EXIT_CODES,
} as const satisfies CommandSpec;

export const SERVE = {
  name: 'serve',
  usage: '[options] | --list-faults [PATTERN…]',
  summary: 'start the bundled reference server (a sandbox); it prints its credentials',
  positionals: 'PATTERN…',
  options: {
    port: { type: 'integer', value: 'N', min: 0, max: 65535, help: 'port (default 8080; 0 = any free port)' },
    host: { type: 'string', value: 'HOST', help: 'interface (default 127.0.0.1)' },
    env: {
      type: 'string',
      value: 'FILE',
      output: true,
      help: 'also write its credentials and mailbox as shell export lines to FILE, once it listens\n(`. ./FILE` in the shell that runs lp-conformance)',
    },
    faults: { ...FAULTS, help: 'faults to enable, comma-separated (see --list-faults)' },
    scale: { ...SCALE, help: 'N users, resources and submissions (default: the seed data only)' },
    variant: { type: 'string', value: 'NAME', help: 'another kind of real server (a legitimate configuration, not a fault)' },
    seed: {
      ...SEED,
      help: "the ids of the records it creates follow N, as a run's bundled server's do with run --seed N\n(a bundled run with failures prints the serve line that repeats its server)",
    },
    'id-seed': {
      type: 'integer',
      value: 'N',
      min: 0,
      max: 2 ** 31 - 1,
      help: "derive every seeded record's id from N, so that no profile knows them\n(default: the fixed ids the bundled profile names)",
    },
    'list-faults': {
      type: 'boolean',
      help: 'list the faults (those PATTERN selects, as --only: a prefix or a glob) with what each breaks\nand the checks it makes fail, and exit',
    },
    'list-variants': { type: 'boolean', help: 'list the variants, what each does, and exit' },
  },
} as const satisfies CommandSpec;

export const INIT = {
  name: 'init',
  usage: '--target URL [--out FILE] [options]',
  summary: 'read the target and write a commented profile of it: its records, found through its API,\nand its choices, probed with reads',
  options: {
    target: { ...TARGET, help: "the target's base URL (as run's); credentials from the same variables as run" },
    profile: {
      ...PROFILE,
      help: 'start from this profile (its paths, credential variables, base URLs); what it\nnames and init cannot find is kept',
    },
    out: { type: 'string', value: 'FILE', output: true, help: 'where to write the profile (default: stdout); --force replaces an existing file' },
    force: { type: 'boolean', help: 'replace the --out file when it exists' },
    name: { type: 'string', value: 'NAME', help: "the profile's name (default: the target's host)" },
    'probe-writes': {
      type: 'boolean',
      help: 'also probe what only a write shows (statuses of create and update, refused bodies,\nPATCH answers); what it creates is named lpc-<run id>-… and reported',
    },
    timeout: TIMEOUT,
    ...TLS,
  },
} as const satisfies CommandSpec;

export const OPENAPI = {
  name: 'openapi',
  usage: '[options]',
  summary: "write the profile's OpenAPI 3.1 document (YAML) to stdout",
  options: {
    profile: { ...PROFILE, help: "target profile (YAML): its paths, statuses and list parameters; default: the bundled server's" },
    target: { ...TARGET, help: "the document's server URL (default: the profile's target URL)" },
  },
} as const satisfies CommandSpec;

export const CLEANUP = {
  name: 'cleanup',
  usage: '--target URL [--profile FILE] [--max-rps N] [--dry-run]',
  summary:
    'delete the records earlier runs left behind where the API can (names starting lpc-<run id>-;\na run deletes its own when it ends); --dry-run lists them and deletes nothing',
  options: {
    target: TARGET,
    profile: PROFILE,
    timeout: TIMEOUT,
    'max-rps': MAX_RPS,
    'dry-run': { type: 'boolean', help: 'list the records, delete nothing' },
    ...TLS,
  },
} as const satisfies CommandSpec;

export const EXPLAIN = {
  name: 'explain',
  usage: '[--json] PATTERN…',
  summary:
    'what the checks a pattern selects (an id, a prefix or a glob, as --only) enforce: rule, anchor and\nthe sentence it binds, what they send and expect, the profile fields that change them, the line\nthat defines them, the faults that prove they can fail and the variants they pass on',
  positionals: 'PATTERN…',
  options: {
    json: { type: 'boolean', help: 'write the entries as JSON' },
  },
} as const satisfies CommandSpec;

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly CommandSpec[] = [INIT, RUN, BASELINE, MERGE, SERVE, OPENAPI, CLEANUP, EXPLAIN];

// ---------------------------------------------------------------------------------------------
// Help.

function optionLines(options: OptionTable): string[] {
  const heads = Object.entries(options).map(([name, spec]) => `  --${name}${spec.value ? ` ${spec.value}` : ''}`);
  const width = Math.max(...heads.map((h) => h.length)) + 2;
  return Object.values(options).flatMap((spec, i) => {
    const [first = '', ...more] = spec.help.split('\n');
    const head = heads[i] ?? '';
    const lines = head.length + 2 > width ? [head, `${' '.repeat(width)}${first}`] : [`${head.padEnd(width)}${first}`];
    return [...lines, ...more.map((line) => `${' '.repeat(width)}${line}`)];
  });
}

/** `lp-conformance <command> --help`. */
export function commandHelp(command: CommandSpec): string {
  return [
    `lp-conformance ${command.name} ${command.usage}`,
    `  ${command.summary.split('\n').join('\n  ')}`,
    '',
    'Options:',
    ...optionLines(command.options),
    '  --help            this help',
    ...(command.notes ? ['', command.notes] : []),
  ].join('\n');
}

/** Prints the command's `--help` when it was asked for; whether it was. */
export function helpAsked(command: CommandSpec, help: boolean): boolean {
  if (help) process.stdout.write(`${commandHelp(command)}\n`);
  return help;
}

/** `lp-conformance --help`: every command and its options. */
export function toolHelp(): string {
  const usage = COMMANDS.map((c) => `  lp-conformance ${c.name} ${c.usage}\n      ${c.summary.split('\n').join('\n      ')}`);
  const options = COMMANDS.filter((c) => c !== BASELINE).map((c) => [`${c.name} options:`, ...optionLines(c.options)].join('\n'));
  return [
    "lp-conformance: conformance suite for the learning platform's APIs",
    '',
    'Usage:',
    ...usage,
    '',
    "`lp-conformance <command> --help` shows one command's options.",
    '',
    ...options.flatMap((o) => [o, '']),
    EXIT_CODES,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Parsing.

function unknownOption(command: CommandSpec, flag: string): UsageError {
  const name = flag.replace(/^-+/, '');
  const here = `lp-conformance ${command.name}`;
  const hint = `${tool()} ${command.name} --help`;
  if (!flag.startsWith('--')) return new UsageError(`unknown option '${flag}' for ${here}: options start with -- (${hint} lists them)`);
  const elsewhere = COMMANDS.find((c) => c !== command && name in c.options);
  if (elsewhere) return new UsageError(`--${name} is an option of lp-conformance ${elsewhere.name}, not of ${command.name} (${hint} lists its own)`);
  const near = closestName(name, [...Object.keys(command.options), 'help']);
  return new UsageError(`unknown option '--${name}' for ${here}${near ? `; did you mean --${near}?` : ''} (${hint} lists them)`);
}

function integerOf(name: string, spec: OptionSpec, text: string): number {
  const range = `${spec.min ?? '-∞'} to ${spec.max ?? '∞'}`;
  if (!/^-?\d+$/.test(text)) throw new UsageError(`--${name} must be an integer from ${range}, not '${text}'`);
  const n = Number(text);
  if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max))
    throw new UsageError(`--${name} must be from ${range}, not ${text}`);
  return n;
}

/** The command's options from `argv`, each checked against its spec; `help` when --help was asked for. */
export function parseCommand<C extends CommandSpec>(
  command: C,
  argv: readonly string[],
): { values: Values<C['options']>; help: boolean; positionals: string[] } {
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (command.positionals && !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      throw new UsageError(
        `unexpected argument '${arg}' for lp-conformance ${command.name}: every value follows its option (${tool()} ${command.name} --help)`,
      );
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    const spec = arg.startsWith('--') ? command.options[name] : undefined;
    if (!spec) {
      // After --help, an unknown option does not hide the help asked for.
      if (help) continue;
      throw unknownOption(command, eq > 0 ? arg.slice(0, eq) : arg);
    }
    if (spec.type === 'boolean') {
      if (eq > 0) throw new UsageError(`--${name} takes no value (it is a switch), not '${arg.slice(eq + 1)}'`);
      values[name] = true;
      continue;
    }
    let text: string;
    if (eq > 0) text = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name} needs a value: ${spec.value ?? 'a value'}, ${spec.help.split('\n')[0]}`);
      text = next;
      i++;
    }
    if (spec.choices && !spec.choices.includes(text)) throw new UsageError(`--${name} must be ${spec.choices.join(' or ')}, not '${text}'`);
    if (spec.type === 'integer') values[name] = integerOf(name, spec, text);
    else if (spec.multiple) values[name] = [...((values[name] as string[] | undefined) ?? []), text];
    else values[name] = text;
  }
  return { values: values as Values<C['options']>, help, positionals };
}

/** A comma-separated, repeatable option's values, trimmed, empty ones left out. */
export function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/**
 * Each output file of the command (its options marked `output`) can be written: its folder exists or
 * is made, and the file is not a folder and is writable. Checked before the command starts, so that
 * a run does not end in an error where its reports should have been.
 */
export function checkOutputs(
  command: CommandSpec,
  values: Readonly<Record<string, unknown>>,
  extra: readonly (readonly [flag: string, file: string])[] = [],
): void {
  const given = Object.entries(command.options).flatMap(([name, spec]) =>
    spec.output && typeof values[name] === 'string' ? [[`--${name}`, values[name] as string] as const] : [],
  );
  for (const [flag, file] of [...given, ...extra]) checkWritable(flag, file);
}

/**
 * Tried by opening it: an existing file for writing (not truncated), a new one by creating it (and the
 * folders it needs), then removing what was made. Write permission alone says nothing to root, for whom
 * /sys or /proc still refuse a new file.
 */
function checkWritable(flag: string, file: string): void {
  const path = resolve(file);
  const problem = (why: string) => new UsageError(`${flag} ${file}: ${why}`);
  const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) throw problem('is a folder; give a file name');
    try {
      closeSync(openSync(path, 'r+'));
    } catch (error) {
      throw problem(`cannot be written (${code(error)})`);
    }
    return;
  }
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  if (!statSync(dir).isDirectory()) throw problem(`${dir} is a file, not a folder`);
  let made: string | undefined;
  try {
    made = mkdirSync(dirname(path), { recursive: true });
    closeSync(openSync(path, 'wx'));
    rmSync(path);
  } catch (error) {
    throw problem(`cannot be written (${code(error)})`);
  } finally {
    if (made !== undefined) rmSync(made, { recursive: true, force: true });
  }
}
