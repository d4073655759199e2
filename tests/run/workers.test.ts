// A run in two worker threads (`--workers 2`: one scheduler, the collection locks and the session
// tokens shared over both) against the bundled server gives every check the verdict a run in one
// gives: the checks of several suite files, of both families that hold collection locks and rotate
// sessions, with the same seed.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.js';

const ONLY = ['intapi.v2.groups.*', 'intapi.versions.*', 'intapi.auth.*', 'scim.sort.*', 'scim.groups.*', 'scim.auth.*'];

interface RunJson {
  checks: { id: string; status: string }[];
  requests: number;
}

async function run(workers: number): Promise<{ code: number | null; run: RunJson }> {
  const dir = mkdtempSync(join(tmpdir(), `lpc-workers-${workers}-`));
  const only = ONLY.flatMap((p) => ['--only', p]);
  const cli = await runCli([
    'run',
    '--seed',
    '3',
    // Few property runs: the verdicts compared are those of the same requests, whatever their number.
    '--runs',
    '5',
    '--workers',
    String(workers),
    '--no-progress',
    '--json',
    join(dir, 'run.json'),
    '--junit',
    join(dir, 'junit.xml'),
    ...only,
  ]);
  return { code: cli.code, run: JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunJson };
}

let one: Awaited<ReturnType<typeof run>>;
let two: Awaited<ReturnType<typeof run>>;

beforeAll(async () => {
  one = await run(1);
  two = await run(2);
});

describe('--workers 2 against --workers 1', () => {
  test('both runs pass, with the same checks and the same verdict for each', () => {
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    const verdicts = (r: RunJson) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));
    expect(Object.keys(verdicts(one.run)).length).toBeGreaterThan(100);
    expect(verdicts(two.run)).toEqual(verdicts(one.run));
  });

  test('about the same requests (a list walk pages through what the checks beside it created)', () => {
    expect(Math.abs(two.run.requests - one.run.requests)).toBeLessThanOrEqual(one.run.requests * 0.05);
  });
});
