/**
 * What a report cannot hold goes beside it, in `<report folder>/failures/`, one set of files per
 * failed check (named by its id), so that every report stays readable and every reproduction runs:
 * - `<id>.sh`: the reproduction whole, when its curl is longer than MAX_INLINE_CURL. Each request body
 *   is a file of its own (`<id>.<n>.body`, sent with `curl --data-binary @file`: byte for byte, and no
 *   command line grows past the system's argument limit); the script finds them beside itself.
 *   Secrets stay `${VAR}`: the script reads them from the environment, as the inline curls do.
 * - `<id>.txt`: the failure uncut, when Expected, Received or the counterexample is longer than
 *   PREVIEW_CHARS (the reports show a preview that names this file).
 * - `<id>.<n>.png`: the failure's attachments (screenshots), copied from where the run saved them.
 * Reports name these files by their path from the working directory of the run (absolute outside
 * it): what a reader in that directory pastes, and what CI platforms resolve attachments against.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, isAbsolute, join, relative } from 'node:path';
import { SIDE_FOLDER, type CheckResult, type RunResult } from '../src/runner/base/model.js';
import { failureOf, formatFailureBlock, MAX_INLINE_CURL, NO_PAINT, PREVIEW_CHARS, type SideFileIndex, type SideFiles } from './failure-block.js';
import { escapeUnsafe, makeCleaner, type Redact } from './text.js';

export interface SideFileOptions {
  strict?: boolean;
  redact?: Redact;
  /** The directory paths are named from (default: the process's). */
  cwd?: string;
}

/** Images a report may embed, by extension. */
const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };
/** Larger images are named, not embedded. */
const MAX_EMBEDDED_BYTES = 5 * 1024 * 1024;

/** A check id as a file name: ids are `[a-z0-9.-_]`; anything else (a hand-edited run) becomes `_`. */
export function fileNameOf(id: string): string {
  return id
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 200);
}

/** `--data-raw '<body>'` as renderCurl (src/target/base/curl.ts) writes it: POSIX single quotes, a quote as `'\''`. */
const DATA_RAW = /--data-raw '((?:[^']|'\\'')*)'/g;

/** The reproduction as a script: `curl` as the check printed it, each body read from a file beside it. */
export function reproductionScript(check: CheckResult, curl: string, bodyName: (n: number) => string): { script: string; bodies: string[] } {
  const bodies: string[] = [];
  const command = curl.replace(DATA_RAW, (_, quoted: string) => {
    bodies.push(quoted.replaceAll(`'\\''`, `'`));
    return `--data-binary @"$here/${bodyName(bodies.length)}"`;
  });
  const script = [
    '#!/usr/bin/env bash',
    // Comment lines: the id and title on one line each, whatever they hold.
    `# lp-conformance: the request that failed ${check.id.replace(/\s+/g, ' ')}, whole.`,
    `# ${check.title.replace(/\s+/g, ' ')}`,
    '# Secrets are read from the environment (export the variables named below first); request bodies',
    '# are the files beside this script. Run it from anywhere: bash <path of this file>',
    'set -u',
    'here=$(dirname "$0")',
    command,
    '',
  ].join('\n');
  return { script, bodies };
}

/** Writes the side files of `result` beside a report in `dir`; returns what each failed check's report names. */
export function writeSideFiles(result: RunResult, dir: string, options: SideFileOptions = {}): SideFileIndex {
  const redact = options.redact ?? ((text: string) => text);
  const cwd = options.cwd ?? process.cwd();
  const folder = join(dir, SIDE_FOLDER);
  const whole = (text: string): string => escapeUnsafe(redact(text));
  const named = (path: string): string => {
    const rel = relative(cwd, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };
  const write = (name: string, content: string): string => {
    mkdirSync(folder, { recursive: true });
    const path = join(folder, name);
    writeFileSync(path, content);
    return named(path);
  };
  const index = new Map<string, SideFiles>();
  for (const check of result.checks) {
    if (check.status !== 'failed') continue;
    const failure = failureOf(check);
    const base = fileNameOf(check.id);
    const files: SideFiles = { attachments: [] };
    (failure.attachments ?? []).forEach((source, i) => {
      if (!existsSync(source) || !statSync(source).isFile()) return;
      mkdirSync(folder, { recursive: true });
      const ext = extname(source).toLowerCase();
      const copy = join(folder, `${base}.${i + 1}${ext}`);
      if (copy !== source) copyFileSync(source, copy);
      const type = IMAGE_TYPES[ext];
      const embed = type !== undefined && statSync(copy).size <= MAX_EMBEDDED_BYTES;
      files.attachments.push({ path: named(copy), ...(embed ? { dataUri: `data:${type};base64,${readFileSync(copy).toString('base64')}` } : {}) });
    });
    const curl = failure.curl === undefined ? undefined : whole(failure.curl);
    if (curl !== undefined && curl.length > MAX_INLINE_CURL) {
      const { script, bodies } = reproductionScript(check, curl, (n) => `${base}.${n}.body`);
      bodies.forEach((body, i) => write(`${base}.${i + 1}.body`, body));
      files.script = write(`${base}.sh`, script);
    }
    if ([failure.expected, failure.received, failure.counterexample].some((text) => text !== undefined && whole(text).length > PREVIEW_CHARS)) {
      const uncut = makeCleaner({ redact, maxFieldChars: Number.POSITIVE_INFINITY, maxLineChars: Number.POSITIVE_INFINITY });
      const block = formatFailureBlock(check, { clean: uncut, paint: NO_PAINT, strict: options.strict ?? false, side: files, whole: true });
      files.text = write(`${base}.txt`, `${block}\n`);
    }
    if (files.script !== undefined || files.text !== undefined || files.attachments.length > 0) index.set(check.id, files);
  }
  return index;
}
