/**
 * Writes every report a run asked for, from one run model and one verdict (verdict.ts): the JUnit
 * report (always), the JSON, Markdown and HTML reports (when asked), the Markdown summary appended to
 * GitHub Actions' job summary (when set), each with its side files beside it (side-files.ts: the
 * reproductions too long to show, the uncut failures, the attachments), and returns the console
 * summary. The command line (`run`, `baseline`; an interrupted run too) calls it; so can any command
 * that makes a run model (a merge of shards).
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SIDE_FOLDER, type RunResult } from '../src/runner/base/model.js';
import { formatSummary } from './console.js';
import type { SideFileIndex } from './failure-block.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJUnit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { writeSideFiles } from './side-files.js';
import type { Redact } from './text.js';
import { verdictOf, type Verdict } from './verdict.js';

export interface ReportFiles {
  /** Always given by the command line; the library's run() may ask for none. */
  junit?: string;
  json?: string;
  markdown?: string;
  html?: string;
  /** A file the Markdown summary is appended to (`$GITHUB_STEP_SUMMARY`). */
  stepSummary?: string;
}

export interface WriteOptions {
  /** Where the package's files are read, for links to a check's source and catalogue entry: the
   * versioned address of its repository (`https://…/blob/v<version>/`); paths from the package root without it. */
  links?: string;
  strict?: boolean;
  redact?: Redact;
  /** ANSI colours in the console summary. */
  color?: boolean;
  /** Where paths in the reports are named from (default: the process's working directory). */
  cwd?: string;
  /** The console summary in full (every area's counts, every skipped check); default true. */
  verbose?: boolean;
}

/** A report written, or one that could not be: its kind (`JUnit report`), its file, and why it failed. */
export interface ReportWritten {
  readonly kind: string;
  readonly path: string;
  readonly error?: string;
}

export interface WriteOutcome {
  summary: string;
  verdict: Verdict;
  /** Every report and side-file folder, in the order written; those that failed carry `error`. */
  reports: ReportWritten[];
}

export function writeReports(result: RunResult, files: ReportFiles, options: WriteOptions = {}): WriteOutcome {
  const { strict = false, redact } = options;
  const reports: ReportWritten[] = [];
  const side = new Map<string, SideFileIndex>();
  // One set of side files per folder: reports in the same folder name the same files. A folder that
  // cannot take them leaves its reports without them (each report is still written).
  const sideOf = (file: string): SideFileIndex => {
    const dir = dirname(resolve(file));
    let index = side.get(dir);
    if (!index) {
      index = new Map();
      try {
        index = writeSideFiles(result, dir, { strict, ...(redact ? { redact } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
        if (hasFiles(index)) reports.push({ kind: 'Side files', path: join(dir, SIDE_FOLDER) });
      } catch (error) {
        reports.push({ kind: 'Side files', path: join(dir, SIDE_FOLDER), error: reasonOf(error) });
      }
      side.set(dir, index);
    }
    return index;
  };
  // Each report on its own: one that cannot be written loses neither the others nor the summary.
  const write = (kind: string, file: string, render: (index: SideFileIndex) => string): void => {
    const path = resolve(file);
    try {
      const text = render(sideOf(path));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      reports.push({ kind, path });
    } catch (error) {
      reports.push({ kind, path, error: reasonOf(error) });
    }
  };
  const common = { strict, ...(redact ? { redact } : {}), ...(options.links ? { links: options.links } : {}) };
  if (files.junit !== undefined) write('JUnit report', files.junit, (index) => renderJUnit(result, { ...common, side: index }));
  if (files.json !== undefined) write('JSON report', files.json, (index) => renderJson(result, { strict, side: index }));
  if (files.markdown !== undefined) write('Markdown report', files.markdown, (index) => renderMarkdown(result, { ...common, side: index }));
  // The console summary and the job summary name the side files of the JUnit report's folder, else
  // those of the first other report's; with no report at all there are none.
  const first = files.junit ?? files.json ?? files.markdown ?? files.html;
  const beside = first === undefined ? {} : { side: sideOf(first) };
  if (files.stepSummary !== undefined) {
    // Beside the Markdown report when there is one, else the JUnit report's.
    const stepSummary = resolve(files.stepSummary);
    try {
      appendFileSync(stepSummary, renderMarkdown(result, { ...common, ...(files.markdown !== undefined ? { side: sideOf(files.markdown) } : beside) }));
    } catch (error) {
      reports.push({ kind: 'Job summary', path: stepSummary, error: reasonOf(error) });
    }
  }
  if (files.html !== undefined) write('HTML report', files.html, (index) => renderHtml(result, { ...common, side: index }));
  const summary = formatSummary(result, { ...common, color: options.color ?? false, verbose: options.verbose ?? true, ...beside });
  return { summary, verdict: verdictOf(result, { strict }), reports };
}

function hasFiles(index: SideFileIndex): boolean {
  return [...index.values()].some((f) => f.script !== undefined || f.text !== undefined || f.attachments.length > 0);
}

function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message?.split('\n')[0] ?? String(error);
}
