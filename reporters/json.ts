/**
 * Run model -> the JSON report (`--json FILE`), the published contract `reports/run.schema.json`:
 * the run model (src/runner/base/model.ts) whole (no field is cut: Expected, Received and the curl as the
 * check made them), with the schema's version and the run's verdict (verdict.ts) first. Attachments
 * are named as the report's own copies (side-files.ts).
 *
 * The schema is changed deliberately, never by drift: a field the model gains is a field the schema
 * gains, and every change to the schema bumps SCHEMA_VERSION (tests/cli/run-schema.test.ts holds both
 * to it; the packed-package test in fixtures/package-consumer/ asserts it as a consumer would).
 */
import type { RunResult } from '../src/runner/base/model.js';
import { attachmentsOf, type SideFileIndex } from './failure-block.js';
import { verdictOf, type Verdict } from './verdict.js';

/** The version of `reports/run.schema.json` this report follows: its `schemaVersion` const. */
export const SCHEMA_VERSION = 4;

/** What the JSON report holds of the verdict: everything the reports and the exit code agree on. */
export type ReportVerdict = Pick<Verdict, 'outcome' | 'failOn' | 'exitCode' | 'headline' | 'tally' | 'caveats'> & { counts: Verdict['counts'] };

/** The JSON report: the run model with its schema's version and its verdict. */
export type JsonReport = { schemaVersion: typeof SCHEMA_VERSION; verdict: ReportVerdict } & RunResult;

export function jsonReport(result: RunResult, options: { strict?: boolean; side?: SideFileIndex } = {}): JsonReport {
  const { outcome, failOn, exitCode, headline, tally, caveats, counts } = verdictOf(result, options);
  const side = options.side;
  const checks = side
    ? result.checks.map((check) => {
        const files = side.get(check.id);
        return check.failure?.attachments && files
          ? { ...check, failure: { ...check.failure, attachments: attachmentsOf(check, files).map((a) => a.path) } }
          : check;
      })
    : result.checks;
  return { schemaVersion: SCHEMA_VERSION, verdict: { outcome, failOn, exitCode, headline, tally, caveats, counts }, ...result, checks };
}

export function renderJson(result: RunResult, options: { strict?: boolean; side?: SideFileIndex } = {}): string {
  return `${JSON.stringify(jsonReport(result, options), null, 2)}\n`;
}
