// The JSON report's published schema (reports/run.schema.json): every --json report is valid
// against it, a passing run and a failing one, and the schema itself compiles under ajv 2020.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { ROOT, runCli } from './support/cli.js';

const schema = JSON.parse(readFileSync(join(ROOT, 'reports/run.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
ajvFormats.default(ajv);
const validate = ajv.compile(schema);

async function report(args: string[]): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-schema-'));
  const json = join(dir, 'run.json');
  const r = await runCli(['run', '--seed', '3', '--runs', '5', '--no-progress', '--junit', join(dir, 'junit.xml'), '--json', json, ...args]);
  expect(r.code, r.stderr).not.toBe(2);
  return JSON.parse(readFileSync(json, 'utf8'));
}

describe('the JSON report follows reports/run.schema.json', () => {
  test('a passing run, with coverage and request counts', async () => {
    const run = await report(['--only', 'intapi.v2.templates']);
    expect(validate(run), JSON.stringify(validate.errors)).toBe(true);
  });

  test('a failing run: failures with their replay, and a transport-free verdict', async () => {
    const run = (await report(['--faults', 'sort-ignored', '--only', 'intapi.v2.templates.list.sort'])) as { checks: { status: string }[] };
    expect(run.checks.some((c) => c.status === 'failed')).toBe(true);
    expect(validate(run), JSON.stringify(validate.errors)).toBe(true);
  });

  test('the schema rejects what the model forbids', () => {
    expect(
      validate({
        targets: {},
        profileName: 'x',
        seed: 1,
        runs: 1,
        startedAt: '2026-01-01T00:00:00Z',
        durationMs: 0,
        requests: 0,
        checks: [{ id: 'intapi.x.y', level: 'MUST', spec: 's', title: 't', area: 'a', status: 'failed', durationMs: 0 }],
      }),
    ).toBe(false);
  });
});
