// The walls of DEVELOPERS.md: the reference server is an independent reading of the specification,
// and the suites reach it only over HTTP. A wrong contract and a wrong server then disagree
// visibly instead of agreeing silently.
import { describe, expect, test } from 'vitest';
import { COMPUTED, importsOf, packagesOf, sourceFiles, specifiersOf } from './support/imports.js';

const under = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);

/**
 * What of src/ the harness may import (DEVELOPERS.md "Layout and walls"), as resolved paths:
 * directories end in `/`, files are named as imported (`.js`).
 */
const HARNESS_MAY_IMPORT_FROM_SRC = [
  'src/profile/',
  'src/target/',
  'src/checks/',
  'src/util/',
  'src/runner/model.js',
  'src/runner/task-meta.js',
  'src/runner/select.js',
  // The player checks' one way to start a browser (it imports nothing of src/).
  'src/browser/chromium.js',
] as const;

const allowedForHarness = (path: string): boolean => HARNESS_MAY_IMPORT_FROM_SRC.some((a) => (a.endsWith('/') ? path.startsWith(a) : path === a));

/** The source file behind an import path written with `.js`. */
const sourceOf = (path: string): string => path.replace(/\.js$/, '.ts');

describe('the import scanner', () => {
  test('sees every form of import and re-export', () => {
    const text = [
      "import a from './a.js';",
      "import './side-effect.js';",
      'import "./double-quoted.js";',
      "import type { T } from './type-only.js';",
      "import * as ns from './namespace.js';",
      'import {\n  one,\n  two,\n} from "./multi-line.js";',
      "export { b } from './re-export.js';",
      "export * from './star.js';",
      "export * as star from './star-as.js';",
      "export type * from './type-star.js';",
      "const lazy = await import('./dynamic.js');",
      "type L = import('./type-import.js').T;",
      'const name = "./x.js"; const c = await import(name);',
      "export const notAModule = 'from nowhere';",
      "import { parse } from 'yaml';",
    ].join('\n');
    expect(specifiersOf(text)).toEqual([
      './a.js',
      './side-effect.js',
      './double-quoted.js',
      './type-only.js',
      './namespace.js',
      './multi-line.js',
      './re-export.js',
      './star.js',
      './star-as.js',
      './type-star.js',
      './dynamic.js',
      './type-import.js',
      COMPUTED,
      'yaml',
    ]);
  });

  test('sees the files it guards and their imports', () => {
    expect(sourceFiles('reference-impl').length).toBeGreaterThan(5);
    expect(sourceFiles('suites').length).toBeGreaterThan(5);
    expect(importsOf('suites/intapi/lists.check.ts')).toContain('suites/_harness/intapi/lists.js');
    // a bare side-effect import of the harness
    expect(importsOf('suites/_harness/requirement.ts')).toContain('src/runner/task-meta.js');
    // a re-export
    expect(importsOf('src/profile/index.ts')).toContain('src/profile/secrets.js');
  });
});

describe('walls', () => {
  test.each(sourceFiles('reference-impl'))('reference-impl/ imports nothing of the suite: %s', (file) => {
    expect(importsOf(file).filter((p) => !under(p, 'reference-impl'))).toEqual([]);
  });

  test.each(sourceFiles('suites').filter((f) => !under(f, 'suites/_harness')))('suites/ import only the harness: %s', (file) => {
    expect(importsOf(file).filter((p) => !under(p, 'suites/_harness'))).toEqual([]);
  });

  test.each(sourceFiles('suites/_harness'))('the harness imports itself and only the allowed part of src/: %s', (file) => {
    expect(importsOf(file).filter((p) => !under(p, 'suites/_harness') && !allowedForHarness(p))).toEqual([]);
  });

  test('what the harness may import of src/ imports only more of the same (never the server or the runner)', () => {
    const allowedFiles = sourceFiles('src').filter((f) => allowedForHarness(f.replace(/\.ts$/, '.js')));
    expect(allowedFiles.length).toBeGreaterThan(5);
    const outside = allowedFiles.flatMap((f) =>
      importsOf(f)
        .filter((p) => !allowedForHarness(p))
        .map((p) => `${f} -> ${p}`),
    );
    expect(outside).toEqual([]);
  });

  test('every entry of the allowed set exists and is used', () => {
    const used = sourceFiles('suites/_harness').flatMap(importsOf);
    for (const entry of HARNESS_MAY_IMPORT_FROM_SRC) {
      const hits = used.filter((p) => (entry.endsWith('/') ? p.startsWith(entry) : p === entry));
      expect(hits.length, entry).toBeGreaterThan(0);
      if (!entry.endsWith('/')) expect(sourceFiles('src')).toContain(sourceOf(entry));
    }
  });

  test.each(sourceFiles('reporters'))('reporters/ know the run model, not vitest or HTTP: %s', (file) => {
    expect(packagesOf(file).filter((p) => /^(vitest|undici|fastify)(\/|$)/.test(p))).toEqual([]);
    expect(importsOf(file).filter((p) => !under(p, 'reporters') && p !== 'src/runner/model.js')).toEqual([]);
  });
});
