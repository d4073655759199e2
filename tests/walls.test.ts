// The walls of DEVELOPERS.md: the reference server is an independent reading of the specification,
// and the suites reach it only over HTTP. A wrong contract and a wrong server then disagree
// visibly instead of agreeing silently.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(ROOT, dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(relative(ROOT, path));
    return /\.(ts|js|mjs)$/.test(name) ? [relative(ROOT, path)] : [];
  });
}

/** Every relative import of a file, resolved to a path under the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2] ?? '');
  return specifiers.filter((s) => s.startsWith('.')).map((s) => relative(ROOT, resolve(dirname(join(ROOT, file)), s)));
}

const under = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);

describe('walls', () => {
  test.each(sourceFiles('reference-impl'))('reference-impl/ imports nothing of the suite: %s', (file) => {
    const outside = importsOf(file).filter((p) => !under(p, 'reference-impl'));
    expect(outside).toEqual([]);
  });

  test.each(sourceFiles('suites'))('suites/ import only the harness, src/ and never the server: %s', (file) => {
    const imports = importsOf(file);
    expect(imports.filter((p) => under(p, 'reference-impl'))).toEqual([]);
    if (!under(file, 'suites/_harness')) {
      expect(imports.filter((p) => !under(p, 'suites/_harness'))).toEqual([]);
    }
  });

  test.each(sourceFiles('reporters'))('reporters/ know the run model, not vitest or HTTP: %s', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).not.toMatch(/from ['"](vitest|undici|fastify)/);
    expect(importsOf(file).filter((p) => !under(p, 'reporters') && p !== 'src/runner/model.js')).toEqual([]);
  });

  test('the scan sees the files it guards', () => {
    expect(sourceFiles('reference-impl').length).toBeGreaterThan(5);
    expect(sourceFiles('suites').length).toBeGreaterThan(5);
    expect(importsOf('suites/lists.check.ts')).toContain('suites/_harness/lists.js');
  });
});
