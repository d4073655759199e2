// The static checks of `npm test`: the typecheck, the linter, the house plan's import rules and the
// format check (also `npm run typecheck`, `npm run lint`, `npm run lint:deps`, `npm run format:check`). They run as test files do, beside
// them, instead of one after the other before the first test starts: CPU that the other files' runs
// leave room for. The typecheck and the linter share one TypeScript program
// (tests/support/typecheck-and-lint.mjs) instead of building it twice.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, TMP_IN_ROOT } from '../support/cli.js';

/** Runs `script` (a path under the repository) with node. */
function tool(script: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [resolve(ROOT, script), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', failed);
    child.on('close', (code) => done({ code, output }));
  });
}

// Concurrent: each tool is a child process of its own, mostly on one core, and the typecheck alone
// outlasts the other two together; one after the other they held this file's worker about as long again.
describe.concurrent('static checks', () => {
  test.each([
    ['the typecheck and the linter (tsc -p tsconfig.json, eslint .)', 'tests/support/typecheck-and-lint.mjs', []],
    [
      'the import rules (depcruise src suites reference-impl reporters)',
      'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
      ['src', 'suites', 'reference-impl', 'reporters', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
    ],
    [
      'the format check (prettier --check .)',
      'node_modules/prettier/bin/prettier.cjs',
      ['--check', '.', ...(TMP_IN_ROOT === undefined ? [] : [`!${TMP_IN_ROOT}/**`])],
    ],
  ])('%s passes', async (_name, script, args) => {
    const { code, output } = await tool(script, args);
    expect(code, output).toBe(0);
  });
});
