// A matrix run (runMatrix: several targets, one vitest run, one scheduler) keeps each target's
// results its own: a fault of one server fails checks of that target only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './support/cli.js';

interface MatrixResult {
  targets: Record<string, { checks: number; requests: number; failed: { id: string; cause?: string }[] }>;
}

function controlsRun(plan: unknown): Promise<MatrixResult> {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-matrix-'));
  const planFile = join(dir, 'plan.json');
  const resultFile = join(dir, 'result.json');
  writeFileSync(planFile, JSON.stringify(plan));
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'tests/support/controls-run.mjs'), planFile, resultFile], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return failed(new Error(`controls-run exited ${code}: ${stderr.slice(-2000)}`));
      done(JSON.parse(readFileSync(resultFile, 'utf8')) as MatrixResult);
    });
  });
}

describe('runMatrix', () => {
  test("each target's failures are its own", async () => {
    const only = ['intapi.auth', 'intapi.v2.templates'];
    const result = await controlsRun({
      concurrency: 8,
      targets: [
        { key: 'missing-key', fault: 'accept-missing-api-key', seed: 3, runs: 3, only },
        { key: 'clean', seed: 3, runs: 3, only },
        { key: 'wrong-key', fault: 'accept-wrong-api-key', seed: 3, runs: 3, only },
      ],
    });
    const failed = (key: string) => (result.targets[key]?.failed ?? []).map((f) => f.id).sort();
    const missingKey = failed('missing-key');
    const wrongKey = failed('wrong-key');
    // Every target ran the whole selection.
    const checks = result.targets.clean?.checks ?? 0;
    expect(checks).toBeGreaterThan(20);
    expect(result.targets['missing-key']?.checks).toBe(checks);
    expect(result.targets['wrong-key']?.checks).toBe(checks);
    expect(failed('clean')).toEqual([]);
    expect(missingKey.length).toBeGreaterThan(0);
    expect(missingKey.every((id) => id.startsWith('intapi.auth.missing-key-401.'))).toBe(true);
    expect(wrongKey.length).toBeGreaterThan(0);
    expect(wrongKey.every((id) => id.startsWith('intapi.auth.wrong-key-401.'))).toBe(true);
    // One verdict per probe (resources v1 and v2, submissions, templates, question banks) on each.
    expect(missingKey.length).toBeGreaterThanOrEqual(5);
    expect(wrongKey.map((id) => id.replace('wrong-key', 'missing-key'))).toEqual(missingKey);
  }, 180_000);
});
