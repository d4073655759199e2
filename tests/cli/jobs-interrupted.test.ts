// An interrupted run split over processes (`--jobs N`) keeps the promise of an interrupted single
// process (tests/run/cleanup.test.ts, tests/cli/run-schema.test.ts): Ctrl-C or CI's SIGTERM reaches every
// shard, each stops and writes what it finished, and the run writes the merged reports (marked
// interrupted, the unfinished checks skipped as such) and exits 130 or 143. `--jobs` runs against
// the bundled reference server (each shard its own); the signal goes once both shards have sent
// finished a check (their --record files, in the run's temporary folder, name a second one).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import type { RunResult } from '../../src/runner/base/model.js';
import { BIN, ROOT } from '../support/cli.js';

const schema = JSON.parse(readFileSync(join(ROOT, 'reports/run.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
ajvFormats.default(ajv);
const validateRun = ajv.compile(schema);

/** How many shards' --record files under `tmp` name at least `checks` checks: with one check at a
 * time, all but the last of them finished. */
function recording(tmp: string, checks: number): number {
  return readdirSync(tmp)
    .filter((d) => d.startsWith('lpc-shards-'))
    .flatMap((d) => {
      try {
        return readdirSync(join(tmp, d))
          .filter((f) => f.endsWith('.jsonl'))
          .map((f) => readFileSync(join(tmp, d, f), 'utf8'));
      } catch {
        return [];
      }
    })
    .filter((text) => new Set(Array.from(text.matchAll(/"check":"([^"]+)"/g), (m) => m[1])).size >= checks).length;
}

/** A bundled `--jobs 2` run, one check at a time per shard, sent `signal` once each shard finished a check. */
async function interruptedJobs(signal: 'SIGINT' | 'SIGTERM') {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-jobs-interrupted-'));
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const args = [
    'run',
    '--jobs',
    '2',
    '--record',
    join(dir, 'requests.jsonl'),
    '--only',
    'intapi.v2.templates,intapi.v2.resources,intapi.v2.users',
    '--concurrency',
    '1',
    '--runs',
    '50',
  ];
  const reports = ['--json', join(dir, 'run.json'), '--junit', join(dir, 'junit.xml'), '--markdown', join(dir, 'summary.md'), '--no-progress'];
  const child = spawn(process.execPath, [BIN, ...args, ...reports, '--seed', '3'], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  let ended = false;
  const exited = new Promise<number | null>((done) => child.on('close', done)).finally(() => (ended = true));
  // Once both shards are under way, however long their start takes on a loaded machine.
  while (!ended && recording(tmp, 2) < 2) await new Promise((r) => setTimeout(r, 50));
  child.kill(signal);
  return { code: await exited, stderr, stdout, dir };
}

describe('an interrupted --jobs run', () => {
  test.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s: exits %i and writes the merged reports of what the shards finished', async (signal, exitCode) => {
    const { code, stderr, dir } = await interruptedJobs(signal);
    expect(code, stderr).toBe(exitCode);
    expect(stderr).toMatch(new RegExp(`interrupted \\(${signal}\\); stopping the shards`));
    expect(existsSync(join(dir, 'run.json')), stderr).toBe(true);
    const result = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunResult;
    expect(validateRun(result), JSON.stringify(validateRun.errors)).toBe(true);
    expect(result.interrupted).toEqual({ signal });
    const unfinished = result.checks.filter((c) => c.status === 'skipped' && /interrupted$/.test(c.skipReason ?? ''));
    expect(unfinished.length, `${unfinished.length} of ${result.checks.length} unfinished`).toBeGreaterThan(0);
    expect(result.checks.length - unfinished.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(new RegExp(`<property name="interrupted" value="${signal}"/>`));
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(new RegExp(`INTERRUPTED by ${signal}`));
  });
});
