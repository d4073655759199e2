// The package as a user's project gets it (`npm run test:package`, not part of `npm test`: packing
// and installing take about half a minute): `npm pack` makes the tarball, which `npm ci` installs
// into an empty project in a temporary folder, its dependencies from the npm cache that installed
// this checkout (the registry only for what the cache lacks); from there
// (a) the project's own vitest run imports both entry points, starts the reference server and runs a
//     selection of checks against it (fixtures/package-consumer/test/),
// (b) tsc type-checks a file using both APIs against the package's declarations, library checks
//     included (fixtures/package-consumer/uses.ts).
// vitest and typescript are the project's tools, not the package's: they are linked from this
// checkout, as a project would have its own.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HANG_GUARD_MS, ROOT } from '../support/cli.js';

interface Done {
  code: number | null;
  output: string;
}

/** The environment of the commands: this test run's own variables (vitest's, npm's script ones) left out. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|npm_|TEST$|NODE_ENV$)/i.test(name)));

function exec(command: string, args: readonly string[], cwd: string): Promise<Done> {
  return new Promise((done, failed) => {
    const child = spawn(command, args, { cwd, env: { ...ENV, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.on('error', failed);
    child.on('close', (code) => {
      clearTimeout(guard);
      done({ code, output });
    });
  });
}

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'lpc-package-'));
const project = join(work, 'project');
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface LockEntry {
  dev?: boolean;
  link?: boolean;
  [field: string]: unknown;
}

/** The project's lockfile: the tarball, and the dependencies this checkout's lockfile resolved for it
 * (its entries that are not development-only), so that `npm ci` installs exactly those. */
function projectLock(tarball: string): object {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
    bin: object;
    engines: object;
  };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const resolved = `file:${tarball}`;
  const packages: Record<string, object> = {
    '': { name: 'project', dependencies: { 'lp-conformance': resolved } },
    'node_modules/lp-conformance': { version: manifest.version, resolved, dependencies: manifest.dependencies, bin: manifest.bin, engines: manifest.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path.startsWith('node_modules/') && !entry.dev && !entry.link) packages[path] = entry;
  return { name: 'project', lockfileVersion: 3, requires: true, packages };
}

beforeAll(async () => {
  const packed = await exec(NPM, ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], ROOT);
  expect(packed.code, packed.output).toBe(0);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? 'none');
  cpSync(join(ROOT, 'fixtures', 'package-consumer'), project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'project', private: true, type: 'module', dependencies: { 'lp-conformance': `file:${tarball}` } }, null, 2),
  );
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(projectLock(tarball), null, 2));
  const installed = await exec(NPM, ['ci', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], project);
  expect(installed.code, installed.output).toBe(0);
  for (const tool of ['vitest', 'typescript', '@types/node']) {
    mkdirSync(dirname(join(project, 'node_modules', tool)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', tool), join(project, 'node_modules', tool), 'dir');
  }
});

describe('the packed package, installed in an empty project', () => {
  test("runs the project's vitest tests of both entry points", async () => {
    const tested = await exec(process.execPath, [join('node_modules', 'vitest', 'vitest.mjs'), 'run'], project);
    expect(tested.code, tested.output).toBe(0);
    expect(tested.output).toMatch(/Tests +3 passed/);
  });

  test('type-checks a file that uses both APIs', async () => {
    const checked = await exec(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project);
    expect(checked.code, checked.output).toBe(0);
  });

  test('the command line stays as it was', async () => {
    const help = await exec(process.execPath, [join('node_modules', 'lp-conformance', 'bin', 'lp-conformance.js'), '--version'], project);
    expect(help).toEqual({ code: 0, output: 'lp-conformance 0.1.0\n' });
  });
});
