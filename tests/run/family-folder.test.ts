// A family from a folder of its own (DEVELOPERS.md "A family from a folder of its own"): a build whose
// LPC_FAMILY_DIRS names the fixture family's folder runs its check end to end, against the bundled
// reference server with that family mounted, and its fault fails the check; and no file outside the
// folder (and this test) names the family, so adding it touched no generic file.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { HANG_GUARD_MS, ROOT, TMP_IN_ROOT, type CliResult } from '../support/cli.js';

const NAME = 'kudos';
const FOLDER = `tests/fixtures/families/${NAME}`;
const CHECK = `${NAME}.totals.number`;
/** The build's own folder, inside the package (the command line finds the package's contracts and
 * profiles from where it runs), beside what other builds cache. */
const BUILD = join(ROOT, 'node_modules', '.cache', 'lpc-family-folder');

interface RunJson {
  checks: { id: string; status: string }[];
}

/** The command line of the build in BUILD, run as bin/lp-conformance.js runs dist/'s. */
function runBuilt(args: readonly string[]): Promise<CliResult> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [join(ROOT, 'tests', 'support', 'built-main.mjs'), join(BUILD, 'cli', 'main.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.on('error', failed);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** A run of the family's checks on the bundled server (one process: `--jobs` children run bin/'s build). */
async function runFamily(dir: string, name: string, extra: readonly string[] = []): Promise<{ cli: CliResult; run: RunJson }> {
  const json = join(dir, `${name}.json`);
  const cli = await runBuilt(['run', '--only', `${NAME}.`, '--jobs', '1', '--json', json, '--junit', join(dir, `${name}.xml`), ...extra]);
  if (!existsSync(json)) throw new Error(`no JSON report (exit ${cli.code}):\n${cli.stdout}\n${cli.stderr}`);
  return { cli, run: JSON.parse(readFileSync(json, 'utf8')) as RunJson };
}

describe('a family from a folder of its own', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lpc-family-folder-'));
    rmSync(BUILD, { recursive: true, force: true });
    await promisify(execFile)(process.execPath, [join(ROOT, 'build', 'bundle.mjs')], {
      cwd: ROOT,
      env: { ...process.env, LPC_FAMILY_DIRS: FOLDER, LPC_BUILD_DIR: BUILD },
      timeout: HANG_GUARD_MS,
    });
  }, HANG_GUARD_MS);

  test('its check runs end to end and passes on the bundled server', async () => {
    const { cli, run } = await runFamily(dir, 'pass');
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(new RegExp(`target ${NAME} +http://127\\.0\\.0\\.1:\\d+/${NAME}`));
    expect(run.checks.map(({ id, status }) => ({ id, status }))).toEqual([{ id: CHECK, status: 'passed' }]);
  });

  test('its fault, the negative control of the check, fails it, and the failure names the check file', async () => {
    const { cli, run } = await runFamily(dir, 'fault', ['--faults', `${NAME}.total-text`]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(1);
    expect(run.checks.map(({ id, status }) => ({ id, status }))).toEqual([{ id: CHECK, status: 'failed' }]);
    expect(cli.stdout).toMatch(new RegExp(`Defined: +${FOLDER}/checks/totals\\.check\\.ts:\\d+ `));
  });

  test('no file outside its folder and this test names it, in any case form', () => {
    const skipped = new Set(['.git', 'node_modules', 'dist', 'reports', 'coverage', '.stryker-tmp']);
    const walk = (at: string): string[] =>
      readdirSync(join(ROOT, at)).flatMap((name) => {
        const path = at === '' ? name : `${at}/${name}`;
        if (skipped.has(name) || path === FOLDER || path === TMP_IN_ROOT) return [];
        return statSync(join(ROOT, path)).isDirectory() ? walk(path) : [path];
      });
    const self = relative(ROOT, import.meta.filename);
    const naming = walk('').filter((file) => file !== self && readFileSync(join(ROOT, file), 'utf8').toLowerCase().includes(NAME));
    expect(naming).toEqual([]);
  });
});
