// Runs the built command line (bin/lp-conformance.js, as users do) and collects what it says.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = resolve(ROOT, 'bin/lp-conformance.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      failed(new Error(`lp-conformance ${args.join(' ')} did not finish within ${options.timeoutMs ?? 120_000} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.on('error', failed);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** Starts `lp-conformance serve` on a free port; resolves its base URL once it says it listens. */
export function serveCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        const stop = () =>
          new Promise<void>((stopped) => {
            child.once('close', () => stopped());
            child.kill('SIGTERM');
          });
        done({ url: m[1], child, stop });
      }
    });
    child.on('close', (code) => failed(new Error(`serve exited ${code}: ${out} ${err}`)));
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

/** The command lines of `calls` run one after the other by `main` in ONE node process (each run
 * costs a process start otherwise): what each wrote to stdout and stderr, and its exit code. For
 * calls that fail or answer before any run starts (usage, `--help`, set-up errors). */
export function runCliCalls(calls: readonly (readonly string[])[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult[]> {
  const script = `
    const { main } = await import(${JSON.stringify(resolve(ROOT, 'dist/src/cli/main.js'))});
    const calls = JSON.parse(process.argv[1]);
    const results = [];
    const out = process.stdout.write.bind(process.stdout);
    for (const argv of calls) {
      const result = { code: null, stdout: '', stderr: '' };
      process.stdout.write = (chunk) => ((result.stdout += String(chunk)), true);
      process.stderr.write = (chunk) => ((result.stderr += String(chunk)), true);
      try {
        result.code = await main(argv);
      } finally {
        delete process.stdout.write;
        delete process.stderr.write;
      }
      results.push(result);
    }
    out(JSON.stringify(results), () => process.exit(0));
  `;
  return new Promise((done, failed) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify(calls)],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env }, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) failed(new Error(`${error.message}\n${stderr}`));
        else done(JSON.parse(stdout) as CliResult[]);
      },
    );
  });
}
