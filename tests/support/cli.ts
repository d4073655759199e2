// Runs the built command line (dist/cli/main.js, the bundle bin/lp-conformance.js runs, as users do)
// and collects what it says: `runCli`, `runMain` and `serveCli` in command-line hosts (cli-host.mjs),
// `runShell` for a command line as a reader pastes it.
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The temporary folder, relative to the repository, when a user's TMPDIR lies inside the clone:
 * what the tests and the tool write there is not the repository's, so the tests that read the whole
 * tree (the format check, the family-name search) leave it out. Undefined when it lies elsewhere.
 */
export const TMP_IN_ROOT: string | undefined = ((rel) => (rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : rel))(
  relative(ROOT, resolve(tmpdir())),
);
export const BIN = resolve(ROOT, 'bin/lp-conformance.js');

/** How long a test waits for a command to finish before it kills it and fails: a guard against a
 * command that hangs, not a time limit. Under load (a shared machine) a run takes many times its
 * usual time; the tests assert no timing. */
export const HANG_GUARD_MS = 15 * 60_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The deadline of one exchange in the tests' commands, unless a test gives its own `--timeout`: the
 * bundled server shares the machine with the run and the other test files, and a deployed server's
 * default (10 s) failed the budget test's checks (20,000 records) at a load average of 15, and
 * `init`'s first sort of 100,000 users (an index built, four probes queued) in a fresh clone's
 * `npm test`. A test of deadlines gives its own. */
const EXCHANGE_DEADLINE_MS = 120_000;

/** The commands that exchange with a target and take `--timeout`. */
const EXCHANGING = new Set(['run', 'baseline', 'init', 'cleanup']);

/** `args` with the tests' exchange deadline, for the commands that exchange with a target. */
function withDeadline(args: readonly string[]): readonly string[] {
  const exchanges = EXCHANGING.has(args[0] ?? '');
  return exchanges && !args.some((a) => a === '--timeout' || a.startsWith('--timeout=')) ? [...args, '--timeout', String(EXCHANGE_DEADLINE_MS)] : args;
}

/** The commands `runCli` runs in a host (`cli-host.mjs`; `serveCli` runs `serve` in one too); the
 * other commands get a process of their own. A run with `--ca` or `--insecure` sets the host's global
 * dispatcher, which the next call's run puts back to Node's defaults (`useTls`). */
const HOSTED = new Set(['run', 'baseline', 'init', 'merge', 'cleanup', 'openapi']);
const hostable = (args: readonly string[]): boolean => HOSTED.has(args[0] ?? '');

/**
 * Runs the command line with `args` and collects its exit code and output: in one of this test
 * process's command-line hosts (`cli-host.mjs`, main() called in a Node process kept for the next
 * call: what bin/lp-conformance.js does, without a Node start and a load of the tool per command),
 * or, for the commands a host does not run, in a process of its own.
 */
export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const env = { ...process.env, NO_COLOR: '1', ...options.env };
  const cwd = options.cwd ?? ROOT;
  const timeoutMs = options.timeoutMs ?? HANG_GUARD_MS;
  return hostable(args) ? hostCall(withDeadline(args), env, cwd, timeoutMs).result : spawnCli(withDeadline(args), env, cwd, timeoutMs);
}

function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs: number): Promise<CliResult> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      failed(new Error(`lp-conformance ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', failed);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

interface Host {
  readonly child: ChildProcess;
  busy: boolean;
  /** What the host wrote outside any call (a crash's stack), the last 64 KiB. */
  stray: string;
}
/** This test process's hosts: as many as calls were ever in flight at once, each running one call at
 * a time (a call sets the whole process's environment, working folder and stdout). */
const hosts: Host[] = [];
let calls = 0;

function idleHost(): Host {
  const idle = hosts.find((h) => !h.busy);
  if (idle) return idle;
  const child = fork(resolve(ROOT, 'tests/support/cli-host.mjs'), [], { cwd: ROOT, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const host: Host = { child, busy: false, stray: '' };
  const keep = (d: Buffer) => (host.stray = (host.stray + d.toString()).slice(-65536));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', () => hosts.splice(hosts.indexOf(host), 1));
  // An idle host does not hold the test process open; it exits when its parent does.
  child.unref();
  child.channel?.unref();
  hosts.push(host);
  return host;
}

/** A call to a host: `result` once main() returns; `signal` sends the call a signal (as a process
 * would receive it); `onOutput` hears what it writes as it writes it (for `serve`). */
function hostCall(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeoutMs: number,
  onOutput?: (output: { stdout?: string; stderr?: string }) => void,
): { result: Promise<CliResult>; signal: (signal: NodeJS.Signals) => void } {
  const host = idleHost();
  host.busy = true;
  const id = ++calls;
  const { child } = host;
  const result = new Promise<CliResult>((done, failed) => {
    const finish = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      host.busy = false;
      child.unref();
      child.channel?.unref();
    };
    const onMessage = (message: CliResult & { id: number; output?: { stdout?: string; stderr?: string } }): void => {
      if (message.id !== id) return;
      if (message.output) return onOutput?.(message.output);
      finish();
      done({ code: message.code, stdout: message.stdout, stderr: message.stderr });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      finish();
      failed(new Error(`the command-line host ended (${signal ?? code}) during lp-conformance ${args.join(' ')}\n${host.stray}`));
    };
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          finish();
          child.kill('SIGKILL');
          failed(new Error(`lp-conformance ${args.join(' ')} did not finish within ${timeoutMs} ms (its host killed)\n${host.stray}`));
        }, timeoutMs)
      : undefined;
    child.ref();
    child.channel?.ref();
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ id, args, env, cwd, stream: onOutput !== undefined });
  });
  return { result, signal: (signal) => child.send({ signal }) };
}

/** Calls the built command line's main() on each argv in turn, in one command-line host (see
 * `runCli`): a process start costs more than all the calls together. Each call's stdout and stderr
 * are captured apart. */
export async function runMain(argvs: readonly (readonly string[])[], env: NodeJS.ProcessEnv = {}): Promise<CliResult[]> {
  const results: CliResult[] = [];
  for (const args of argvs) results.push(await hostCall(args, { ...process.env, NO_COLOR: '1', ...env }, ROOT, HANG_GUARD_MS).result);
  return results;
}

/** Starts `lp-conformance serve` on a free port, in a command-line host (see `runCli`); resolves its
 * base URL once it says it listens. `stop` sends it SIGTERM, as a terminal or CI would, and resolves
 * once it has closed. */
export function serveCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  return new Promise((done, failed) => {
    let out = '';
    let listening = false;
    const call = hostCall(['serve', '--port', '0', ...args], { ...process.env, ...env }, ROOT, Number.POSITIVE_INFINITY, (output) => {
      out += output.stdout ?? '';
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1] && !listening) {
        listening = true;
        done({
          url: m[1],
          stop: async () => {
            call.signal('SIGTERM');
            await call.result;
          },
        });
      }
    });
    call.result.then(
      (r) => listening || failed(new Error(`serve exited ${r.code}: ${r.stdout} ${r.stderr}`)),
      (error: unknown) => listening || failed(error),
    );
  });
}

/** Starts `lp-conformance run --keep-serving …` in a command-line host; resolves with what it printed
 * once it says its bundled server stays up. `stop` sends it SIGINT (Ctrl-C) and resolves with the
 * run's result once it has closed the server. */
export function keepServingCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stop: () => Promise<CliResult> }> {
  return new Promise((done, failed) => {
    let out = '';
    let up = false;
    const call = hostCall(withDeadline(['run', ...args, '--keep-serving']), { ...process.env, NO_COLOR: '1', ...env }, ROOT, HANG_GUARD_MS, (output) => {
      out += output.stdout ?? '';
      // Up once the export lines that follow the line are out (the line, then one export per variable).
      if (!up && /stays up at http:\/\/\S+[^\n]*\n(export [^\n]+\n)+$/.test(out)) {
        up = true;
        done({
          stdout: out,
          stop: async () => {
            call.signal('SIGINT');
            return call.result;
          },
        });
      }
    });
    call.result.then(
      (r) => up || failed(new Error(`run --keep-serving exited ${r.code}: ${r.stdout} ${r.stderr}`)),
      (error: unknown) => up || failed(error),
    );
  });
}

/** The bundled reference profile with `from` (which it must contain) replaced by `to`, written to `dir/name`. */
export function referenceProfileWith(dir: string, name: string, from: string, to: string): string {
  const reference = readFileSync(resolve(ROOT, 'fixtures/profiles/reference.yaml'), 'utf8');
  if (!reference.includes(from)) throw new Error(`fixtures/profiles/reference.yaml no longer says ${from}`);
  const file = join(dir, name);
  writeFileSync(file, reference.replace(from, to));
  return file;
}

/** A run of `only` against a served target described by `profile`, its reports in `dir` (run.json, junit.xml). */
export function profiledRunArgs(url: string, profile: string, only: string, dir: string): string[] {
  return ['run', '--target', url, '--profile', profile, '--only', only, '--no-progress', '--junit', join(dir, 'junit.xml'), '--json', join(dir, 'run.json')];
}

/** Runs a shell command line with bash in `cwd`: what a reader pasting it, or a CI runner, does. */
export function runShell(command: string, options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      'bash',
      ['-c', command],
      { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, timeout: options.timeoutMs ?? 180_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}
