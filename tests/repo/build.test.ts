// The suites as a run loads them (dist/suites/, build/bundle.mjs): vite's import.meta.glob is expanded
// by the build, so a pattern it expanded wrongly would drop suite files, blockers or invariants from
// every run without a word. The bundle names what it loads; here it is compared with the sources.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../support/cli.js';

const bundle = readFileSync(join(ROOT, 'dist', 'suites', 'checks.js'), 'utf8');
const sources = (pattern: string): string[] => globSync(pattern, { cwd: join(ROOT, 'suites') }).sort();
/** The keys of the object a glob became, as the bundle spells them (relative to suites/_harness). */
const keys = (suffix: string): string[] =>
  [...new Set([...bundle.matchAll(new RegExp(`"(\\.{1,2}/[\\w./-]+${suffix.replace('.', '\\.')})":`, 'g'))].map((m) => m[1] ?? ''))].sort();

describe('the suites bundle', () => {
  test('loads every suite file, lazily, in path order', () => {
    const expected = sources('**/*.check.ts').map((f) => `../${f}`);
    expect(expected.length).toBeGreaterThan(30);
    expect(keys('.check.ts')).toEqual(expected);
    // Lazy: each file is loaded by its init function when all-checks.ts reaches it, not when the bundle loads.
    expect(bundle).toMatch(/"\.\.\/intapi\/auth\.check\.ts": \(\) => Promise\.resolve\(\)\.then\(\(\) => \(init_/);
  });

  test.each(['blockers', 'invariants'])("takes every family's %s module", (name) => {
    const expected = sources(`_harness/*/${name}.ts`).map((f) => f.replace(/^_harness\//, './'));
    expect(expected.length).toBeGreaterThan(0);
    expect(keys(`/${name}.ts`)).toEqual(expected);
  });

  test('has no import.meta.glob left for the run to fail on', () => {
    expect(bundle).not.toContain('import.meta.glob');
  });
});
