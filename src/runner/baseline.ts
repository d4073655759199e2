/**
 * Known-failure baseline (style.md: test262's expected-failure files, Schemathesis' baselines): a
 * team that adopts the gate on a server with known failures records them once
 * (`lp-conformance baseline --out FILE`), gives each a reason, and from then on `run --baseline FILE`
 * fails only on new failures. Known failures are still reported, as known; baseline entries whose
 * check now passes are named, to be removed from the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import type { CheckResult, Level, RunResult } from './base/model.js';

export class BaselineError extends Error {}

export interface BaselineEntry {
  id: string;
  level?: Level;
  /** Why the failure is known and accepted (filled in by the team). */
  reason?: string;
}

export interface Baseline {
  file: string;
  entries: BaselineEntry[];
}

/** Reads and checks a baseline file: every entry names a check the suite has. */
export function loadBaseline(file: string, knownIds: ReadonlySet<string>): Baseline {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BaselineError(
      `baseline ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message.split('\n')[0]}`,
    );
  }
  const failures = (doc as { failures?: unknown } | null)?.failures;
  if (!Array.isArray(failures)) throw new BaselineError(`baseline ${file}: a list under 'failures' is required`);
  const entries = failures.map((f: unknown, i): BaselineEntry => {
    const e = f as Partial<BaselineEntry> | null;
    if (typeof e?.id !== 'string' || e.id.length === 0) throw new BaselineError(`baseline ${file}: failures[${i}].id must be a check id`);
    if (e.reason !== undefined && e.reason !== null && typeof e.reason !== 'string')
      throw new BaselineError(`baseline ${file}: failures[${i}].reason must be text`);
    return { id: e.id, ...(e.level ? { level: e.level } : {}), ...(typeof e.reason === 'string' ? { reason: e.reason } : {}) };
  });
  const unknown = entries.find((e) => !knownIds.has(e.id));
  if (unknown) throw new BaselineError(`baseline ${file}: ${unknown.id} is not a check of this suite (lp-conformance run --list shows them)`);
  return { file, entries };
}

/** The run with the baseline applied: known failures marked, and the entries that now pass. */
export function applyBaseline(result: RunResult, baseline: Baseline): RunResult {
  const byId = new Map(baseline.entries.map((e) => [e.id, e]));
  const checks = result.checks.map((c): CheckResult => {
    const entry = byId.get(c.id);
    return c.status === 'failed' && entry ? { ...c, known: { baseline: baseline.file, ...(entry.reason ? { reason: entry.reason } : {}) } } : c;
  });
  const passing = baseline.entries.filter((e) => result.checks.some((c) => c.id === e.id && c.status === 'passed')).map((e) => e.id);
  return { ...result, checks, baseline: { file: baseline.file, known: checks.filter((c) => c.known).length, nowPassing: passing } };
}

/** Writes the run's failures as a baseline, each with its level and a reason to fill in. */
export function writeBaseline(result: RunResult, file: string): number {
  const failures = result.checks.filter((c) => c.status === 'failed').map((c) => ({ id: c.id, level: c.level, reason: '' }));
  const header = [
    '# lp-conformance baseline: the checks that failed when it was made.',
    '# `lp-conformance run --baseline <this file>` fails only on failures not listed here, reports the',
    '# listed ones as known, and names the entries whose check passes again (remove them).',
    '# Give each entry a reason. Made by `lp-conformance baseline` against',
    `# ${Object.values(result.targets).join(', ')} (profile ${result.profileName}, seed ${result.seed}) at ${result.startedAt}.`,
    '',
  ].join('\n');
  writeFileSync(file, `${header}${stringify({ failures })}`);
  return failures.length;
}
