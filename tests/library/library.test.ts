// The library's run() (src/library/run.ts) as a server's own tests would call it, from the build
// (dist/cli/library.js, the package's main entry): a fault's failing checks as data, the same the
// command line reports for the same seed; two runs in one process alike, the process ending by
// itself; a set-up mistake as a RunError with the command line's line; an AbortSignal as SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type * as Library from '../../src/library/index.js';
import type * as Server from '../../src/library/reference-server.js';
import { tool } from '../../src/cli/invocation.js';
import { replayBaseOf } from '../../src/cli/run.js';
import { HANG_GUARD_MS, ROOT, runCli } from '../support/cli.js';

const entry = (name: string): string => pathToFileURL(join(ROOT, 'dist', 'cli', `${name}.js`)).href;
const { run, RunError } = (await import(entry('library'))) as typeof Library;
const { startReferenceServer } = (await import(entry('reference-server'))) as typeof Server;

const dir = mkdtempSync(join(tmpdir(), 'lpc-library-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fault and the checks of its area, a few runs each: a short run that the fault fails. */
const SELECTION = { only: 'intapi.v2.templates.list', faults: ['intapi.sort-ignored'] as Library.FaultName[], seed: 11, runs: 5 };
const statuses = (report: { checks: readonly { id: string; status: string }[] }) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
const failed = (report: { checks: readonly { id: string; status: string }[] }) => report.checks.filter((c) => c.status === 'failed').map((c) => c.id);

describe('run()', () => {
  test("returns a fault's failing checks as data, those the command line reports for the same seed", async () => {
    const before = { ...process.env };
    const report = await run(SELECTION);
    expect(process.env).toEqual(before);
    expect(failed(report)).toContain('intapi.v2.templates.list.sort.ascending');
    expect(report.verdict.exitCode).toBe(1);
    expect(report.seed).toBe(SELECTION.seed);

    const json = join(dir, 'cli.json');
    const cli = await runCli([
      'run',
      '--only',
      SELECTION.only,
      '--faults',
      'intapi.sort-ignored',
      '--seed',
      '11',
      '--runs',
      '5',
      '--json',
      json,
      '--junit',
      join(dir, 'junit.xml'),
    ]);
    expect(cli.code).toBe(1);
    const reported = JSON.parse(readFileSync(json, 'utf8')) as Library.RunReport;
    expect(statuses(report)).toEqual(statuses(reported));
    expect(report.verdict.headline).toBe(reported.verdict.headline);
  });

  test('answers a set-up mistake with a RunError holding the line the command line prints', async () => {
    const error = await run({ runs: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunError);
    const cli = await runCli(['run', '--runs', '0']);
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim()).toBe(`lp-conformance: ${(error as Error).message}`);
    expect(error).toMatchObject({ kind: 'usage', exitCode: 2 });

    await expect(run({ faults: ['no-such-fault' as Library.FaultName] })).rejects.toThrow("unknown fault 'no-such-fault'");
    await expect(run({ profile: { name: 'x', families: 3 } })).rejects.toMatchObject({ kind: 'profile' });
  });

  test('writes the reports it is given the paths of', async () => {
    const reports = { json: join(dir, 'asked.json') };
    const report = await run({ ...SELECTION, only: 'intapi.v2.templates.list.sort.ascending', reports });
    expect(JSON.parse(readFileSync(reports.json, 'utf8'))).toMatchObject({ schemaVersion: report.schemaVersion, seed: report.seed });
  });

  test('an AbortSignal that aborts during the checks interrupts the run as SIGTERM does; one aborted before rejects', async () => {
    const stop = new AbortController();
    // The live progress line is first written when a check ends: the run is then under way.
    const progress = { isTTY: true, write: () => stop.abort() };
    const report = await run({ only: 'intapi.v2.templates', seed: 3, runs: 5, concurrency: 1, signal: stop.signal, progress });
    expect(report.interrupted).toEqual({ signal: 'SIGTERM' });
    expect(report.checks.some((c) => c.status === 'skipped' && /interrupted$/.test(c.skipReason ?? ''))).toBe(true);

    const aborted = AbortSignal.abort(new Error('not wanted'));
    await expect(run({ ...SELECTION, signal: aborted })).rejects.toThrow('not wanted');
  });

  test('against a reference server started beside it, with the profile and credentials it gives', async () => {
    const server = await startReferenceServer({ faults: ['intapi.sort-ignored'] });
    try {
      const report = await run({ profile: server.profile, env: server.env, only: 'intapi.v2.templates.list.sort', seed: 2, runs: 5 });
      expect(failed(report)).toContain('intapi.v2.templates.list.sort.ascending');
      expect(Object.keys(report.targets).length).toBeGreaterThan(0);
      expect(Object.values(report.targets)).toContain(server.url);
    } finally {
      await server.close();
    }
  });

  test('twice in one process: the same result for the same seed, nothing written, and the process ends by itself', async () => {
    const cwd = mkdtempSync(join(dir, 'twice-'));
    const script = join(cwd, 'twice.mjs');
    writeFileSync(
      script,
      `import { run } from ${JSON.stringify(entry('library'))};
const before = JSON.stringify(process.env);
const options = ${JSON.stringify({ ...SELECTION, runId: 'abc123' })};
const one = await run(options);
const two = await run(options);
const digest = (r) => r.checks.map((c) => [c.id, c.status, c.failure?.received ?? null]);
process.stdout.write(JSON.stringify({ same: JSON.stringify(digest(one)) === JSON.stringify(digest(two)), failed: digest(one).filter((c) => c[1] === 'failed').length, env: JSON.stringify(process.env) === before }));
`,
    );
    // No process.exit(): the child ends only when nothing (server, timer, socket, worker) is left open.
    const child = spawn(process.execPath, [script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    const code = await new Promise<number | null>((done) => child.on('close', done));
    clearTimeout(guard);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(JSON.parse(out)).toEqual({ same: true, failed: expect.any(Number), env: true });
    expect((JSON.parse(out) as { failed: number }).failed).toBeGreaterThan(0);
    // Nothing written where it ran: no reports/junit.xml unless asked.
    expect(readdirSync(cwd)).toEqual(['twice.mjs']);
  });
});

describe('the replay line', () => {
  test('repeats the options that make a run send the same requests, in their order', () => {
    expect(replayBaseOf({ target: 'https://x.test', runs: 5, seed: 3, faults: ['a,b', 'c'], 'include-slow': true, 'run-id': 'abc123', junit: 'j.xml' })).toBe(
      `${tool()} run --target https://x.test --faults a,b,c --runs 5 --include-slow --run-id abc123`,
    );
  });
});
