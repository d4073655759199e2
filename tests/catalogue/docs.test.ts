// Every file of the repository made from the code, by one generator: the pages of src/docs/
// (docs/cli.md, docs/profile.md), the catalogue (docs/checks.md, every check of run --list;
// docs/faults.md, every fault of serve --list-faults) and src/cli/catalogue.json (which checks each
// fault makes fail, from the negative controls' expectations, for `explain`). They are what the
// code gives, as a manifest is: one test fails when a committed copy differs. `npm run docs` runs
// this file with LPC_WRITE_DOCS=1, which writes them instead of comparing.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { allFaults, faultCatalogue } from '../../reference-impl/index.js';
import { catalogue, checksPage, type ControlsFile, faultsPage } from '../../src/cli/catalogue.js';
import { GENERATED_PAGES } from '../../src/docs/index.js';
import { describeChecks } from '../../src/runner/run.js';
import { idMatcher } from '../../src/runner/select.js';
import { ROOT, runCli } from '../support/cli.js';
import { controlFor } from '../controls/expectations.js';

const WRITE = process.env.LPC_WRITE_DOCS === '1';

/** The generated files, path from the repository root → content. */
let generated: Record<string, string> = {};

/** The generated files whose committed copy differs (or is missing). */
function staleFiles(files: Record<string, string>, read: (path: string) => string | undefined): string[] {
  return Object.entries(files)
    .filter(([path, content]) => read(path) !== content)
    .map(([path]) => path);
}

const readCommitted = (path: string): string | undefined => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : undefined);

/** What the generator writes: every file made from the code, path → content. */
async function generate(): Promise<Record<string, string>> {
  const checks = await describeChecks();
  const ids = checks.map((c) => c.id);
  const mustFail: Record<string, string[]> = {};
  for (const fault of allFaults()) mustFail[fault] = ids.filter(idMatcher(controlFor(fault).mustFail));
  const controls: ControlsFile = { mustFail };
  const entries = catalogue(checks, faultCatalogue(), controls);
  const pages = await Promise.all(GENERATED_PAGES.map(async (page) => [page.path, `${await page.render()}\n`] as const));
  return {
    ...Object.fromEntries(pages),
    'src/cli/catalogue.json': `${JSON.stringify(controls, null, 1)}\n`,
    'docs/checks.md': checksPage(entries.checks),
    'docs/faults.md': faultsPage(entries.faults),
  };
}

beforeAll(async () => {
  generated = await generate();
  if (WRITE) for (const [path, content] of Object.entries(generated)) writeFileSync(join(ROOT, path), content);
});

describe('the files made from the code', () => {
  test('the committed files are what npm run docs writes', () => {
    expect(Object.keys(generated)).toEqual(
      expect.arrayContaining(['docs/cli.md', 'docs/profile.md', 'docs/checks.md', 'docs/faults.md', 'src/cli/catalogue.json']),
    );
    expect(staleFiles(generated, readCommitted), 'run `npm run docs` and commit what it writes').toEqual([]);
  });

  test('an edited page is stale', () => {
    for (const page of ['docs/checks.md', 'docs/cli.md']) {
      const edited = (path: string): string | undefined => (path === page ? `${readCommitted(path) ?? ''}| a row by hand |\n` : readCommitted(path));
      expect(staleFiles(generated, edited)).toEqual([page]);
    }
  });

  test('docs/checks.md has exactly the rows of run --list, each with a source and at least one fault', async () => {
    const listed = (await runCli(['run', '--list'])).stdout
      .split('\n')
      .filter((l) => /^[a-z]+\.[a-z0-9]/.test(l))
      .map((l) => l.split(/\s+/)[0] ?? '');
    const rows = (generated['docs/checks.md'] ?? '').split('\n').filter((l) => l.startsWith('| <a id='));
    expect(rows.map((r) => /`([^`]+)`/.exec(r)?.[1])).toEqual(listed);
    expect(rows.filter((r) => !/\| \[(suites|src)\/[^\]]+:\d+\]/.test(r))).toEqual([]);
    expect(rows.filter((r) => r.endsWith('|  |'))).toEqual([]);
  });

  test('docs/faults.md has exactly the rows of serve --list-faults, each with a description and a check', async () => {
    const listed = (await runCli(['serve', '--list-faults'])).stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => l.split(/\s+/)[0] ?? '');
    const rows = (generated['docs/faults.md'] ?? '').split('\n').filter((l) => l.startsWith('| <a id='));
    expect(rows.map((r) => /`([^`]+)`/.exec(r)?.[1])).toEqual(listed);
    expect(rows.filter((r) => / \|  \|/.test(r) || r.endsWith('|  |'))).toEqual([]);
  });
});
