// Runs tests/support/controls-run.mjs (a matrix run: one reference server per fault, in one
// process) with a plan, and reads what it found. Used by the negative controls and the matrix test.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from './cli.js';

export interface TargetPlan {
  key: string;
  /** The fault of the target's server; none for a sound server. */
  fault?: string;
  /** A variant of the server's SCIM (SCIM_VARIANTS): a legitimate configuration. */
  variant?: string;
  /** The target's profile file; default: the reference profile. */
  profile?: string;
  /** The server holds the SCIM seed (2,500 users of other clients) whatever its fault. */
  scimSeed?: boolean;
  seed: number;
  runs: number;
  only?: readonly string[];
}

export interface Found {
  failed: { id: string; cause?: string; received?: string }[];
  skipped: { id: string; reason?: string; notSetUp?: { key: string }; blockedBy?: string }[];
  checks: number;
  requests: number;
}

export interface ControlsResult {
  durationMs: number;
  requests: number;
  targets: Record<string, Found>;
}

export function runControls(plan: { concurrency: number; targets: TargetPlan[] }, timeoutMs = 1_200_000): Promise<ControlsResult> {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-controls-'));
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
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', failed);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return failed(new Error(`controls-run exited ${code}: ${stderr.slice(-2000)}`));
      done(JSON.parse(readFileSync(resultFile, 'utf8')) as ControlsResult);
    });
  });
}
