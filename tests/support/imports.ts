// The import scanner of tests/walls.test.ts: every module specifier a source text names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from './cli.js';

/** An import whose specifier is not a string literal (`import(name)`): the walls cannot see where it goes. */
export const COMPUTED = '<computed dynamic import>';

// `import x from '…'`, `import { a } from '…'`, `import type …`, bare `import '…'`,
// `export { a } from '…'`, `export * from '…'`, `export type * from '…'`, and `import('…')`.
const STATIC = /\b(?:import|export)\s*(?:type\b\s*)?(?:[^'"`;()]*?\bfrom\s*)?(['"])([^'"]+)\1/g;
const DYNAMIC = /\bimport\s*\(\s*(?:(['"`])([^'"`$]+)\1\s*\)|(?=[^\s)]))/g;

/** Every module specifier in a text, in order of appearance; a computed `import(x)` as COMPUTED. */
export function specifiersOf(text: string): string[] {
  const found: { at: number; specifier: string }[] = [];
  for (const m of text.matchAll(STATIC)) found.push({ at: m.index, specifier: m[2] ?? '' });
  for (const m of text.matchAll(DYNAMIC)) found.push({ at: m.index, specifier: m[2] ?? COMPUTED });
  return found.sort((a, b) => a.at - b.at).map((f) => f.specifier);
}

export function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(ROOT, dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(relative(ROOT, path));
    return /\.(ts|js|mjs)$/.test(name) ? [relative(ROOT, path)] : [];
  });
}

/** Every relative import of a file, resolved to a path under the repository root (`.js` as written);
 * a computed dynamic import stays COMPUTED. Package imports (`vitest`, `node:fs`) are left out. */
export function importsOf(file: string): string[] {
  return specifiersOf(readFileSync(join(ROOT, file), 'utf8'))
    .filter((s) => s === COMPUTED || s.startsWith('.'))
    .map((s) => (s === COMPUTED ? s : relative(ROOT, resolve(dirname(join(ROOT, file)), s))));
}

/** Package (bare) imports of a file: `vitest`, `undici`, `node:fs`. */
export function packagesOf(file: string): string[] {
  return specifiersOf(readFileSync(join(ROOT, file), 'utf8')).filter((s) => s !== COMPUTED && !s.startsWith('.') && !s.startsWith('/'));
}
