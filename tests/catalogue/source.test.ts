// Every check names where it is defined: a line of the package's sources that spells its id (the id
// as a string, a template literal that makes it, or the table row holding its last segments).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { collectChecks } from '../../src/runner/run.js';
import { spells } from '../../src/runner/source.js';
import { ROOT, runCli } from '../support/cli.js';

let checks: Awaited<ReturnType<typeof collectChecks>> = [];
beforeAll(async () => {
  checks = await collectChecks();
});

const lineAt = (source: string): string => {
  const [file = '', line = '0'] = source.split(':');
  return readFileSync(join(ROOT, file), 'utf8').split('\n')[Number(line) - 1] ?? '';
};

describe('source locations', () => {
  test('every check of run --list resolves to a line that spells its id', async () => {
    const listed = (await runCli(['run', '--list'])).stdout
      .split('\n')
      .filter((l) => /^[a-z]+\.[a-z0-9]/.test(l))
      .map((l) => l.split(/\s+/)[0] ?? '');
    expect(listed.length).toBeGreaterThan(300);
    const byId = new Map(checks.map((c) => [c.check.id, c.check]));
    const unresolved = listed.filter((id) => {
      const source = byId.get(id)?.source;
      return source === undefined || !/^(suites|src)\/.+\.ts:\d+$/.test(source) || spells(lineAt(source), id) === 0;
    });
    expect(unresolved).toEqual([]);
  });

  test('a check written with its id as a string names that line', () => {
    const check = checks.find((c) => c.check.id === 'intapi.v2.groups.update.unknown-id-404')?.check;
    expect(check?.source).toMatch(/^suites\/intapi\/groups\.check\.ts:\d+$/);
    expect(lineAt(check?.source ?? '')).toContain("'intapi.v2.groups.update.unknown-id-404'");
  });

  test('a check a table generates names the row that holds its rule', () => {
    const check = checks.find((c) => c.check.id === 'intapi.v2.users.list.params.offset-not-integer')?.check;
    expect(check?.source).toMatch(/^suites\/_harness\/intapi\/lists\.ts:\d+$/);
    expect(lineAt(check?.source ?? '')).toContain("'params.offset-not-integer'");
  });

  test('spells: a template whose ${…} parts stand for any text, but one that spells almost nothing names no check', () => {
    expect(spells('  id: `${P}.questions.list.status-200`,', 'intapi.v2.evaluations.questions.list.status-200')).toBeGreaterThan(0);
    expect(spells('  { id: `${prefix}.${rule}` }', 'intapi.v2.x.y')).toBe(0);
    expect(spells("  id: 'intapi.v2.other',", 'intapi.v2.x.y')).toBe(0);
  });
});
