// The plumbing of `npm run mutation` (mutation/run.mjs) on a tiny project (tests/support/mutation-tiny):
// Stryker's command runner judges each mutant of one rule by one check, a mutant of the rule is
// killed, and the mutant listed in its equivalents file is counted apart, not as a survivor.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'lpc-mutation-test-'));

interface Row {
  file: string;
  mutants: number;
  killed: number;
  survived: number;
  equivalent: number;
  survivors: { mutator: string; original: string; replacement: string }[];
}
let stdout = '';
let tallied = '';
let rows: Row[] = [];

beforeAll(async () => {
  const run = await promisify(execFile)(process.execPath, ['mutation/run.mjs', '--config', 'tests/support/mutation-tiny/families.json', '--out', out], {
    cwd: ROOT,
  });
  stdout = run.stdout;
  const again = await promisify(execFile)(process.execPath, ['mutation/run.mjs', '--config', 'tests/support/mutation-tiny/families.json', '--tally', out], {
    cwd: ROOT,
  });
  tallied = again.stdout;
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { families: { family: string; files: Row[] }[] };
  rows = summary.families[0]?.files ?? [];
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run mutation', () => {
  test('a mutant of the rule (count <= 100 made count < 100) is killed by the check', () => {
    const [row] = rows;
    expect(row?.file).toBe('rule.mjs');
    expect(row?.killed).toBeGreaterThan(0);
    const kinds = (row?.survivors ?? []).map((s) => `${s.original} -> ${s.replacement}`);
    expect(kinds).not.toContain('count <= 100 -> count < 100');
  });

  test('the mutant listed in the equivalents file is counted apart, the others of the counter survive', () => {
    const [row] = rows;
    expect(row?.equivalent).toBe(1);
    const kinds = (row?.survivors ?? []).map((s) => `${s.original} -> ${s.replacement}`);
    // The same mutant of the same code on the next line is not the line the entry names (`within`).
    expect(kinds.filter((k) => k === 'calls > 1000 -> calls >= 1000')).toHaveLength(1);
    expect(kinds).toContain('calls > 1000 -> calls <= 1000');
    expect(row?.mutants).toBe((row?.killed ?? 0) + (row?.survived ?? 0) + (row?.equivalent ?? 0));
  });

  test('Stryker wrote its JSON and HTML reports, and the table gives the score without the equivalent', () => {
    const report = JSON.parse(readFileSync(join(out, 'tiny', 'mutation.json'), 'utf8')) as { files: Record<string, unknown> };
    expect(Object.keys(report.files)).toEqual(['rule.mjs']);
    expect(readFileSync(join(out, 'tiny', 'mutation.html'), 'utf8')).toContain('<html');
    const [row] = rows;
    const score = Math.round((1000 * (row?.killed ?? 0)) / ((row?.killed ?? 0) + (row?.survived ?? 0))) / 10;
    expect(stdout).toContain(`| tiny | \`rule.mjs\` | ${row?.mutants} | ${row?.killed} | ${row?.survived} | 0 | 1 | ${score} % |`);
  });

  test('--tally counts the saved report again: the same table, without running a mutant', () => {
    expect(tallied).toContain('| tiny | `rule.mjs` |');
    expect(stdout).toContain(tallied.trim());
  });
});
