/**
 * What `lp-conformance serve` says of its sandbox: where it listens, what its families started beside
 * it, and every credential it accepts as shell export lines, the variables the bundled profile reads
 * (`serve --env FILE` writes the same lines to FILE), so that a run against it in a shell that has
 * them executes every check.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { shellQuote } from '../target/base/curl.js';

/** `export NAME=value` lines, values quoted for the shell where they need it. */
export function exportLines(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([name, value]) => `export ${name}=${/^[\w@%+=:,./-]+$/.test(value) ? value : shellQuote(value)}\n`)
    .join('');
}

/** The shell line that reads `file` (a path, relative or not). */
export function sourceLine(file: string): string {
  return `. ${file.startsWith('/') ? file : `./${file}`}`;
}

/** The lines `serve` prints once it listens; its first says where, as it always has. */
export function sandboxText(url: string, env: Readonly<Record<string, string>>, says: readonly string[], envFile?: string): string {
  return (
    `listening on ${url}\n` +
    says.map((line) => `${line}\n`).join('') +
    `# Its credentials, for every API it serves (the documented sandbox's, or this shell's values of these\n` +
    `# variables where they were set): export them in the shell that runs lp-conformance${envFile ? ` (they are in ${envFile}: ${sourceLine(envFile)})` : ''}.\n` +
    exportLines(env)
  );
}

/** Writes the export lines to `file` at once (a shell sourcing it never reads half of it). */
export function writeEnvFile(file: string, url: string, env: Readonly<Record<string, string>>): void {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `# lp-conformance serve at ${url}: its credentials (${sourceLine(file)}); removed when it stops\n${exportLines(env)}`, {
    mode: 0o600,
  });
  renameSync(temporary, path);
}
