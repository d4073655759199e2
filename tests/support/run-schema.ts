// The published schema of the JSON report (reports/run.schema.json), compiled once per test file under
// ajv's strict mode: `expectValidReport` is what every test of a --json report asserts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { expect } from 'vitest';
import { ROOT } from './cli.js';

export const RUN_SCHEMA_FILE = join(ROOT, 'reports/run.schema.json');
export const runSchema = JSON.parse(readFileSync(RUN_SCHEMA_FILE, 'utf8')) as { properties: { schemaVersion: { const: number } } };
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
ajvFormats.default(ajv);
export const validateReport = ajv.compile(runSchema);

/** The report is valid against the published schema (the errors, if not, in the message). */
export function expectValidReport(report: unknown, what = 'the report'): void {
  expect(validateReport(report), `${what}: ${JSON.stringify(validateReport.errors?.slice(0, 5))}`).toBe(true);
}
