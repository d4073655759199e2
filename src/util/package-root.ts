import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The installed package's root (where suites/, contracts/ and fixtures/ are), found from this
 * module whether it runs from src/ (vitest, tsc --noEmit) or from dist/src/. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'lp-conformance') {
      return (root = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('lp-conformance: cannot find the package root (package.json)');
    dir = parent;
  }
}
