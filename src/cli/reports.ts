/**
 * The reports of a run the command line made (`run`, `baseline`, `merge`, a bundled run split over the
 * machine's cores): every report asked for, written by reporters/write.ts from one run model and one
 * verdict, the console summary on stdout, and the exit code of that verdict. The library's run()
 * writes only the reports it is given paths for, and prints the summary only where it is asked to.
 */
import { packageFilesBase } from '../util/repository.js';
import { resolve } from 'node:path';
import type { RunResult } from '../runner/base/model.js';
import { UsageError } from './args.js';

/** Where the reports go: `--junit` (default reports/junit.xml), `--json`, `--markdown`, `--html`. */
export interface ReportOptions {
  junit?: string | undefined;
  json?: string | undefined;
  markdown?: string | undefined;
  html?: string | undefined;
  /** `--record FILE`, written by the run: named with the reports. */
  record?: string | undefined;
}

/** Where the console summary is printed. */
export interface Printer {
  write(text: string): unknown;
}

export interface ReportWriting {
  strict: boolean;
  color: boolean;
  redact?: (text: string) => string;
  /** The JUnit report at reports/junit.xml when no path names it (default true: the command line's). */
  junitByDefault?: boolean;
  /** A file the Markdown summary is appended to (default: $GITHUB_STEP_SUMMARY, when set). */
  stepSummary?: string | undefined;
  /** The console summary in full (`--verbose`): every area's counts, every skipped check. */
  verbose?: boolean;
  /** Where the summary goes (default stdout); null prints nothing. */
  print?: Printer | null;
}

/** A report that could not be written after the run: exit 2 with this one line, once the summary
 * and the other reports are out. */
export class ReportWriteError extends UsageError {}

/** Writes every report asked for (JUnit always, unless `junitByDefault` is false), prints the
 * summary and one line per report written; the exit code of the verdict. A report that cannot be
 * written is a ReportWriteError once the rest is done. */
export async function writeRunReports(result: RunResult, files: ReportOptions, options: ReportWriting): Promise<number> {
  const junitGiven = files.junit ?? ((options.junitByDefault ?? true) ? 'reports/junit.xml' : undefined);
  const stepSummary = 'stepSummary' in options ? options.stepSummary : process.env.GITHUB_STEP_SUMMARY || undefined;
  const print = options.print === undefined ? process.stdout : options.print;
  const links = packageFilesBase();
  const common = {
    strict: options.strict,
    color: options.color,
    verbose: options.verbose ?? false,
    ...(options.redact ? { redact: options.redact } : {}),
    ...(links ? { links } : {}),
  };
  const junit = junitGiven === undefined ? undefined : resolve(junitGiven);
  const { writeReports } = await import('../../reporters/write.js');
  const { summary, verdict, reports } = writeReports(
    result,
    {
      ...(junit !== undefined ? { junit } : {}),
      ...(files.json !== undefined ? { json: files.json } : {}),
      ...(files.markdown !== undefined ? { markdown: files.markdown } : {}),
      ...(files.html !== undefined ? { html: files.html } : {}),
      // GitHub Actions' job summary: appended, as other steps may write to it too.
      ...(stepSummary ? { stepSummary } : {}),
    },
    common,
  );
  const written = [
    ...(files.record !== undefined ? [{ kind: 'Request record', path: resolve(files.record) }] : []),
    ...reports.filter((r) => r.error === undefined),
  ];
  print?.write(`${summary}\n${written.map((r) => `${r.kind}: ${r.path}\n`).join('')}`);
  const failed = reports.filter((r) => r.error !== undefined);
  if (failed[0]) {
    const more =
      failed.length > 1
        ? `; nor ${failed
            .slice(1)
            .map((r) => `the ${r.kind} ${r.path}`)
            .join(', ')}`
        : '';
    throw new ReportWriteError(
      `the ${failed[0].kind} ${failed[0].path} could not be written (${failed[0].error ?? ''})${more}; the summary and the other reports were`,
    );
  }
  return verdict.exitCode;
}
