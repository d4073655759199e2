/**
 * The reports of a run the command line made (`run`, `baseline`, `merge`, a bundled run split over the
 * machine's cores): every report asked for, written by reporters/write.ts from one run model and one
 * verdict, the console summary on stdout, and the exit code of that verdict.
 */
import { resolve } from 'node:path';
import type { RunResult } from '../runner/base/model.js';

/** Where the reports go: `--junit` (default reports/junit.xml), `--json`, `--markdown`, `--html`. */
export interface ReportOptions {
  junit?: string | undefined;
  json?: string | undefined;
  markdown?: string | undefined;
  html?: string | undefined;
}

/** Writes every report asked for (JUnit always), prints the summary; the exit code of the verdict. */
export async function writeRunReports(
  result: RunResult,
  files: ReportOptions,
  options: { strict: boolean; color: boolean; redact?: (text: string) => string },
): Promise<number> {
  const junit = resolve(files.junit ?? 'reports/junit.xml');
  const { writeReports } = await import('../../reporters/write.js');
  const { summary, verdict } = writeReports(
    result,
    {
      junit,
      ...(files.json !== undefined ? { json: files.json } : {}),
      ...(files.markdown !== undefined ? { markdown: files.markdown } : {}),
      ...(files.html !== undefined ? { html: files.html } : {}),
      // GitHub Actions' job summary: appended, as other steps may write to it too.
      ...(process.env.GITHUB_STEP_SUMMARY ? { stepSummary: process.env.GITHUB_STEP_SUMMARY } : {}),
    },
    { strict: options.strict, color: options.color, ...(options.redact ? { redact: options.redact } : {}) },
  );
  process.stdout.write(`${summary}\nJUnit report: ${junit}\n`);
  return verdict.exitCode;
}
