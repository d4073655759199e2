/**
 * `--har FILE` (and `--har-failures`): the run's exchanges as an HTTP Archive (HAR 1.2), which a
 * browser's network panel or an HTTP client opens. The suites' client appends each exchange as a HAR
 * entry to a log while the run goes (suites/_harness/har.ts), its secrets already replaced by their
 * variable names as in every report; when the run ends, the entries become FILE, in the order they
 * were sent. With `--har-failures`, only the entries of the checks that failed. A run split over
 * `--jobs` gathers the entries of its shards' HAR files.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Har } from 'har-format';
import type { RunResult } from '../runner/base/model.js';
import { packageRoot } from '../util/package-root.js';
import { UsageError } from './args.js';

interface HarValues {
  har?: string | undefined;
  'har-failures'?: boolean | undefined;
}

/** An entry as the suites' client writes it: its check in `_check`. */
interface LoggedEntry {
  _check: string;
  startedDateTime: string;
}

/** `--har-failures` without `--har` says nothing where to write. */
export function checkHarOptions(values: HarValues): void {
  if (values['har-failures'] && values.har === undefined)
    throw new UsageError("--har-failures keeps the failing checks' exchanges of --har FILE: give --har FILE");
}

/** The log the suites append the run's HAR entries to (in `dir`), when the run writes a HAR file. */
export function harLogOf(values: HarValues, dir: string): string | undefined {
  if (values.har === undefined) return undefined;
  const log = join(dir, 'exchanges.har.jsonl');
  writeFileSync(log, '');
  return log;
}

/** The entries of a log (one JSON line each) or of a HAR file. */
function entriesOf(file: string): LoggedEntry[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.jsonl')) return text.split('\n').flatMap((line) => (line.trim() === '' ? [] : [JSON.parse(line) as LoggedEntry]));
  return (JSON.parse(text) as { log: { entries: LoggedEntry[] } }).log.entries;
}

function toolVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Writes the HAR file `--har` names from `sources` (the suites' logs, or the shards' HAR files): every
 * entry, or with `--har-failures` those of the checks `result` failed. Says what it wrote on `print`.
 */
export function writeHar(values: HarValues, sources: readonly string[], result: RunResult, print?: { write(text: string): unknown } | null): void {
  if (values.har === undefined) return;
  const file = resolve(values.har);
  const failed = new Set(result.checks.filter((c) => c.status === 'failed').map((c) => c.id));
  const all = sources.flatMap(entriesOf);
  const entries = (values['har-failures'] ? all.filter((e) => failed.has(e._check)) : all).sort((a, b) =>
    a.startedDateTime < b.startedDateTime ? -1 : a.startedDateTime > b.startedDateTime ? 1 : 0,
  );
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'lp-conformance', version: toolVersion() },
      ...(values['har-failures'] ? { comment: 'the exchanges of the checks that failed' } : {}),
      entries,
    },
  } as unknown as Har;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(har, null, 1)}\n`);
  print?.write(
    `HAR: ${entries.length} exchange${entries.length === 1 ? '' : 's'}${values['har-failures'] ? ' of the failed checks' : ''} written to ${file}\n`,
  );
}
