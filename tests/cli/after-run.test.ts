// What a user meets after a run: the reproductions paste as printed (a bundled run says how to start
// its server again, or keeps it up until Ctrl-C), the commands the tool prints start the way the tool
// was started, every report written is named, and a report path is tried before any check runs.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { invocationOf } from '../../src/cli/invocation.js';
import { BIN, keepServingCli, runCli, serveCli, type CliResult } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'lpc-after-run-'));
const FAULT = 'intapi.crash-on-unknown-submission';
const CHECK = 'intapi.v2.submissions.get.unknown-id-404';

/** The failure's `Reproduce:` block as printed, its continuation lines as they are (what a reader selects and pastes). */
function reproduction(stdout: string): string {
  const block = /^ {2}Reproduce: {2}([\s\S]*?)\n {2}Replay:/m.exec(stdout)?.[1];
  if (block === undefined) throw new Error(`no Reproduce: block in\n${stdout}`);
  return block;
}

/** Runs `script` with `sh -c` in a shell that has only a PATH: what a reader's new terminal has. */
function sh(script: string): Promise<CliResult> {
  return new Promise((done) => {
    execFile('sh', ['-c', script], { cwd: dir, env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('the commands the tool prints start as the tool was started (invocation.ts)', () => {
  const bin = join(dir, 'package', 'bin', 'lp-conformance.js');
  mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
  writeFileSync(bin, '#!/usr/bin/env node\n');
  chmodSync(bin, 0o755);
  const global = join(dir, 'global-bin');
  mkdirSync(global);
  symlinkSync(bin, join(global, 'lp-conformance'));
  const other = join(dir, 'other-bin');
  mkdirSync(other);
  writeFileSync(join(other, 'lp-conformance'), '#!/bin/sh\n');

  test('installed on the PATH (a global install links its bin): lp-conformance', () => {
    expect(invocationOf({ env: { PATH: ['/usr/bin', global].join(delimiter) }, bin })).toBe('lp-conformance');
  });
  test('from a clone or a local install, the bin on no PATH: npx lp-conformance', () => {
    expect(invocationOf({ env: { PATH: '/usr/bin' }, bin })).toBe('npx lp-conformance');
    expect(invocationOf({ env: {}, bin })).toBe('npx lp-conformance');
  });
  test('another install first on the PATH is not this one: npx lp-conformance', () => {
    expect(invocationOf({ env: { PATH: [other, global].join(delimiter) }, bin })).toBe('npx lp-conformance');
  });
  test('started through npx (its PATH is not the shell’s): npx lp-conformance', () => {
    expect(invocationOf({ env: { PATH: global, npm_command: 'exec' }, bin })).toBe('npx lp-conformance');
  });
  test('this package: its bin/lp-conformance.js', () => {
    expect(existsSync(BIN)).toBe(true);
  });
});

describe("a bundled run's reproductions paste as printed", () => {
  test("--keep-serving: the run's server stays up; a failure's curl, pasted with the printed exports, gets the failure's answer", async () => {
    const served = await keepServingCli(['--faults', FAULT, '--only', CHECK, '--seed', '5', '--no-progress', '--junit', join(dir, 'kept.xml')]);
    const exports = served.stdout.match(/^export \w+=.*$/gm) ?? [];
    expect(exports.map((e) => e.split('=')[0])).toEqual(expect.arrayContaining(['export LPC_API_KEY', 'export LPC_PASSWORD']));
    const pasted = await sh(`${exports.join('\n')}\n${reproduction(served.stdout)}`);
    const result = await served.stop();
    expect(pasted.stdout, pasted.stderr).toMatch(/^HTTP\/1\.1 500 /m);
    expect(pasted.stdout).toContain('System.NullReferenceException');
    expect(result.code, result.stderr).toBe(1);
  });

  test('without it, one line gives the serve command of the same server and its --env file: started as printed, the curl pastes', async () => {
    const files = { json: join(dir, 'gone.json'), markdown: join(dir, 'gone.md'), html: join(dir, 'gone.html'), record: join(dir, 'gone.jsonl') };
    const run = await runCli(
      ['run', '--faults', FAULT, '--only', CHECK, '--seed', '5', '--no-progress', '--junit', join(dir, 'gone.xml')].concat(
        ...Object.entries(files).map(([flag, file]) => [`--${flag}`, file]),
      ),
    );
    expect(run.code, run.stderr).toBe(1);
    // Every report written, one line each, after the summary.
    for (const [kind, file] of [
      ['JUnit report', join(dir, 'gone.xml')],
      ['JSON report', files.json],
      ['Markdown report', files.markdown],
      ['HTML report', files.html],
      ['Request record', files.record],
    ])
      expect(run.stdout).toContain(`\n${kind}: ${file}\n`);
    const line =
      /the same one: (?:npx )?lp-conformance serve (.+?) --env lpc-serve\.env, then `\. \.\/lpc-serve\.env` where the curls are pasted \(it sets ([^)]+)\)/.exec(
        run.stdout,
      );
    expect(line, run.stdout).not.toBeNull();
    const args = (line?.[1] ?? '').split(' ');
    const port = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(reproduction(run.stdout))?.[1];
    expect(args).toEqual(['--seed', '5', '--port', port, '--faults', FAULT]);
    expect(line?.[2]).toContain('LPC_API_KEY');
    const envFile = join(dir, 'lpc-serve.env');
    const server = await serveCli([...args, '--env', envFile]);
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      const pasted = await sh(`. ${envFile}\n${reproduction(run.stdout)}`);
      expect(pasted.stdout, pasted.stderr).toMatch(/^HTTP\/1\.1 500 /m);
    } finally {
      await server.stop();
    }
  });
});

describe('every report said, every path honest', () => {
  test.each([
    ['--json', '/sys/lpc-x.json'],
    ['--junit', '/proc/lpc-x.xml'],
  ])('%s %s cannot be created: exit 2, one line, before any check (even as root)', async (flag, file) => {
    const r = await runCli(['run', '--only', CHECK, '--no-progress', flag, file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^lp-conformance: ${flag} ${file}: cannot be written \\((EACCES|ENOENT|EPERM|EROFS)\\)\\n$`));
    expect(r.stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });

  test('a path tried for a run that is then refused is left as it was: no file, no folder', async () => {
    const file = join(dir, 'refused', 'deep', 'run.json');
    const r = await runCli(['run', '--only', CHECK, '--no-progress', '--json', file, '--run-id', 'nothex']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--run-id must be 6 lower-case hex digits');
    expect(existsSync(join(dir, 'refused'))).toBe(false);
  });

  test('a report that cannot be written after the run loses neither the summary nor the other reports: exit 2, one line naming it', async () => {
    // The Markdown report's folder is where the JSON report is then written: tried before, both could be.
    const json = join(dir, 'late', 'run.json');
    const markdown = join(json, 'run.md');
    const junit = join(dir, 'late.xml');
    const r = await runCli(['run', '--only', CHECK, '--no-progress', '--junit', junit, '--json', json, '--markdown', markdown]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^lp-conformance: 1 check, 1 passed/m);
    expect(r.stdout).toContain(`JUnit report: ${junit}\nJSON report: ${json}\n`);
    expect(r.stdout).not.toContain('Markdown report:');
    expect(r.stderr).toMatch(
      new RegExp(`^lp-conformance: the Markdown report ${markdown} could not be written \\(\\w+\\); the summary and the other reports were\\n$`),
    );
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ checks: [{ id: CHECK, status: 'passed' }] });
    expect(readFileSync(junit, 'utf8')).toContain(CHECK);
  });
});

describe('the console summary', () => {
  test('short by default (the slowest areas); --verbose prints the counts of every area', async () => {
    const args = ['run', '--only', 'intapi.v2.templates.get', '--no-progress', '--runs', '5', '--junit', join(dir, 'short.xml')];
    const [short, verbose] = [await runCli(args), await runCli([...args, '--verbose'])];
    expect(short.code, short.stderr).toBe(0);
    expect(short.stdout).toMatch(/^Slowest areas: intapi\.v2\.templates \d+\.\ds \(1 area; every area's counts: --verbose or the reports\)$/m);
    expect(short.stdout).not.toMatch(/^MUST$/m);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stdout).toMatch(/^MUST\n {2}intapi\.v2\.templates +\d+ passed/m);
    expect(verbose.stdout).not.toContain('Slowest areas');
  });
});
