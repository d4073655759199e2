/**
 * The user's own cache folder, outside the package (which may not be writable): what a run would
 * otherwise compute again from the same files at every start (cachedJson, the collection of the
 * checks), and what runs remember for the next (the bundled runs' check durations).
 *
 * Where: `LPC_CACHE_DIR` when set, else `$XDG_CACHE_HOME/lp-conformance`, else
 * `~/.cache/lp-conformance` (docs/cache.md). Nothing in it changes a verdict: deleting it only
 * costs the next run the same work again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { packageRoot } from './package-root.js';

/** The cache folder of every installation: `LPC_CACHE_DIR`, else the per-user cache directory. */
export function cacheBase(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LPC_CACHE_DIR) return resolve(env.LPC_CACHE_DIR);
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'lp-conformance');
  const home = homedir();
  // A user without a home folder (some CI containers) still gets a folder of their own.
  return home ? join(home, '.cache', 'lp-conformance') : join(tmpdir(), `lp-conformance-cache-${process.getuid?.() ?? 'user'}`);
}

// One subfolder per installation (the package's folder): two installations on one machine (a
// checkout and an installed copy, two CI jobs) remember apart what their own files give. Read at
// each call, so that a process that sets LPC_CACHE_DIR (a test) is obeyed.
let installation: string | undefined;
const cacheRoot = (): string => join(cacheBase(), (installation ??= createHash('sha256').update(packageRoot()).digest('hex').slice(0, 12)));

/** A file of the run cache (kept between runs of this installation). */
export const cacheFile = (name: string): string => join(cacheRoot(), name);

/** The JSON a cache file holds; undefined when there is none yet, or it cannot be read. */
export function readCached<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Writes `text` to a cache file whole or not at all (another run may read it meanwhile); a cache
 * that cannot be written only costs the next run the same work. */
export function writeCached(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  } catch {
    // Not kept: computed again next time.
  }
}

/** `value` as JSON text when JSON gives it back unchanged (no undefined, Date, Map, cycle, …). */
function faithfulJson(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value);
    return text !== undefined && isDeepStrictEqual(JSON.parse(text), value) ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What `compute` makes of `inputs` (texts), kept as JSON in the cache folder under a hash of `kind`
 * and the inputs: the next call with the same inputs reads it instead. A value JSON would not give
 * back unchanged is not kept; `compute` throwing keeps nothing; a cache that cannot be read or
 * written is computed around.
 */
export function cachedJson<T>(kind: string, inputs: readonly string[], compute: () => T): T {
  const hash = createHash('sha256').update(kind);
  for (const input of inputs) hash.update('\0').update(input);
  const file = join(cacheRoot(), 'json', `${kind}-${hash.digest('hex')}.json`);
  const cached = readCached<T>(file);
  if (cached !== undefined) return cached;
  const value = compute();
  const text = faithfulJson(value);
  if (text !== undefined) writeCached(file, text);
  return value;
}
