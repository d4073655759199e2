// Negative controls: a check that no fault can make fail is not yet a check. For every fault of
// the reference server, the suite runs against the server with that fault on: the checks the fault
// must break fail, and nothing fails outside what the fault may break (tests/negative-controls.expectations.ts).
// And every check id is in some fault's mustFail.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { listFaults } from '../reference-impl/index.js';
import { idMatcher } from '../src/runner/select.js';
import { controlFor } from './negative-controls.expectations.js';
import { runCli } from './support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'lpc-negative-'));
let ids: string[] = [];

beforeAll(async () => {
  const r = await runCli(['run', '--list']);
  ids = r.stdout.split('\n').filter((l) => /^intapi\./.test(l)).map((l) => l.split(/\s+/)[0] ?? '');
  expect(ids.length).toBeGreaterThan(300);
});

/** The check ids the patterns name; a pattern that names none is an error in the table. */
function resolve(patterns: readonly string[]): string[] {
  const dead = patterns.filter((p) => !ids.some(idMatcher([p])));
  if (dead.length > 0) throw new Error(`patterns that name no check: ${dead.join(', ')}`);
  return ids.filter(idMatcher(patterns));
}

/** Runs the suite against the bundled server with one fault; the ids of the failed checks. */
async function failedWith(fault: string, only: readonly string[], runs: number): Promise<string[]> {
  const json = join(dir, `${fault.replace(/[^\w.-]/g, '_')}.json`);
  const args = ['run', '--faults', fault, '--seed', '11', '--runs', String(runs), '--junit', join(dir, `${fault.replace(/[^\w.-]/g, '_')}.xml`), '--json', json];
  const r = await runCli([...args, ...only.flatMap((o) => ['--only', o])], { timeoutMs: 600_000 });
  expect(r.code, `${fault}: ${r.stderr}`).not.toBe(2);
  const run = JSON.parse(readFileSync(json, 'utf8')) as { checks: { id: string; status: string }[] };
  return run.checks.filter((c) => c.status === 'failed').map((c) => c.id);
}

describe('every fault makes its checks fail, and nothing else', () => {
  test.concurrent.each(listFaults())('%s', async (fault) => {
    const control = controlFor(fault);
    const must = resolve(control.mustFail);
    const may = new Set([...must, ...resolve(control.mayFail ?? [])]);
    const failed = await failedWith(fault, control.scope ?? [], control.runs ?? 25);
    expect(must.filter((id) => !failed.includes(id)), `${fault}: checks that did not fail`).toEqual([]);
    expect(failed.filter((id) => !may.has(id)), `${fault}: checks that failed and should not have`).toEqual([]);
  }, 600_000);
});

describe('every check has a negative control', () => {
  test("each listed check id is in some fault's mustFail", () => {
    const covered = new Set(listFaults().flatMap((f) => resolve(controlFor(f).mustFail)));
    expect(ids.filter((id) => !covered.has(id))).toEqual([]);
  });
});
