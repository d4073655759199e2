/**
 * How the commands the tool prints start (init's "Run it:", replay lines, error hints, the `serve`
 * line of a bundled run): the form that works in the shell the tool was started from.
 *   `lp-conformance …`      the command on the PATH is this package's own bin (a global install, or a
 *                           `node_modules/.bin` the shell has on its PATH);
 *   `npx lp-conformance …`  otherwise: started through npx (which puts the bin on the PATH of its
 *                           child only), from a clone (`node bin/lp-conformance.js`, `npm run`), or a
 *                           project's local install.
 */
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

export type Invocation = 'lp-conformance' | 'npx lp-conformance';

/** What the decision reads: the environment (PATH, npm's variables) and this package's bin. */
export interface InvocationContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** This package's bin/lp-conformance.js. */
  readonly bin: string;
  /** The names a bin has on the PATH (Windows adds .cmd). */
  readonly names?: readonly string[];
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The command's start for `context`. */
export function invocationOf(context: InvocationContext): Invocation {
  const { env } = context;
  // npx (npm exec) runs the bin with a PATH the user's shell does not have.
  if (env.npm_command === 'exec' || env.npm_lifecycle_event === 'npx') return 'npx lp-conformance';
  const bin = realOrSelf(context.bin);
  const names = context.names ?? (process.platform === 'win32' ? ['lp-conformance.cmd', 'lp-conformance'] : ['lp-conformance']);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const candidate = join(dir, name);
      // The first lp-conformance on the PATH is the one the shell runs: ours, or another install.
      if (existsSync(candidate)) return realOrSelf(candidate) === bin ? 'lp-conformance' : 'npx lp-conformance';
    }
  }
  return 'npx lp-conformance';
}

let decided: Invocation | undefined;

/** The start of the commands this process prints, decided once from its environment. */
export function tool(): Invocation {
  decided ??= invocationOf({ env: process.env, bin: join(packageRoot(), 'bin', 'lp-conformance.js') });
  return decided;
}
