// The house plan (ARCHITECTURE.md) holds: `npm run lint:deps` (dependency-cruiser with
// .dependency-cruiser.cjs) checks the imports of the whole tree in `npm test`; this file proves its
// rules catch what they forbid (on fixtures/architecture, a tree that breaks each once), and that no
// generic file names a family, in code or in words.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { beforeAll, describe, expect, test } from 'vitest';
import { FAMILIES } from '../../src/families/registry.js';
import { ROOT } from '../support/cli.js';

const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

async function cruised(baseDir: string): Promise<ICruiseResult> {
  const options = { ...config.options, ruleSet: { forbidden: config.forbidden }, baseDir, validate: true, tsConfig: undefined };
  const result = await cruise(['src', 'suites', 'reference-impl', 'reporters'], options as never);
  return result.output as ICruiseResult;
}

describe('the dependency rules', () => {
  let broken: ICruiseResult;
  beforeAll(async () => {
    broken = await cruised(join(ROOT, 'fixtures/architecture'));
  });

  const caught = (rule: string): string[] => broken.summary.violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} -> ${v.to}`);

  test.each([
    ['core-names-no-family', 'src/runner/run.ts -> src/families/alpha/index.ts'],
    ['harness-core-names-no-family', 'suites/_harness/generic.ts -> suites/_harness/alpha/helper.ts'],
    ['server-core-names-no-family', 'reference-impl/http/headers.ts -> reference-impl/alpha/index.ts'],
    ['families-keep-apart', 'src/families/alpha/index.ts -> src/families/beta/index.ts'],
    ['families-keep-apart', 'reference-impl/alpha/index.ts -> reference-impl/beta/index.ts'],
    ['families-register-not-look-up', 'src/families/beta/index.ts -> src/families/index.ts'],
    ['server-is-independent', 'reference-impl/alpha/index.ts -> src/runner/run.ts'],
    ['checks-go-through-the-harness', 'suites/alpha/a.check.ts -> reference-impl/alpha/index.ts'],
    ['harness-imports-its-part-of-src', 'suites/_harness/generic.ts -> src/runner/run.ts'],
    ['src-never-the-suites', 'src/runner/run.ts -> suites/alpha/a.check.ts'],
    ['reporters-know-the-run-model', 'reporters/report.ts -> src/runner/run.ts'],
    ['vitest-tests-lp-conformance-only', 'src/runner/run.ts -> node_modules/vitest/'],
    ['base-builds-on-base', 'src/profile/base/types.ts -> src/profile/index.ts'],
  ])('%s catches %s', (rule, edge) => {
    // A package is caught at the file its import resolves to, under its folder.
    expect(caught(rule).map((e) => e.replace(/(node_modules\/[^/]+\/).*$/, '$1').replace(/^(.* -> )(?:\.\.\/)+/, '$1'))).toContain(edge);
  });

  test('no-circular catches a circle', () => {
    expect(broken.summary.violations.some((v) => v.rule.name === 'no-circular' && v.from === 'reference-impl/alpha/index.ts')).toBe(true);
  });

  test('no-circular-folders catches a circle of folders that no file circle makes', () => {
    // src/util/strings.ts imports src/target/name.ts, src/target/client.ts imports src/util/pad.ts.
    expect(caught('no-circular-folders')).toContain('src/util -> src/target');
    expect(broken.summary.violations.some((v) => v.rule.name === 'no-circular' && /^src\/(util|target)\//.test(v.from))).toBe(false);
  });
});

/** Every source file of the generic layers: src/ outside the family folders (the registration
 * src/families/index.ts names them all, as its job), the harness's own files, the reference
 * server's http/, store/ and rules/, and the reporters. */
function genericFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir)).flatMap((name) => {
      const path = join(dir, name);
      return statSync(join(ROOT, path)).isDirectory() ? walk(path) : /\.ts$/.test(name) ? [relative('.', path)] : [];
    });
  return [
    ...walk('src'),
    ...walk('suites/_harness'),
    ...walk('reference-impl/http'),
    ...walk('reference-impl/store'),
    ...walk('reference-impl/rules'),
    ...walk('reporters'),
  ].filter((f) => !/^src\/families\/([^/]+\/|index\.ts$)/.test(f) && !/^suites\/_harness\/[^/]+\//.test(f));
}

describe('the core names no family', () => {
  test('no generic file says the name or the title of a registered family, in code or comments', () => {
    const files = genericFiles();
    expect(files.length).toBeGreaterThan(40);
    const words = FAMILIES.flatMap((f) => [f.name, f.title]);
    const pattern = new RegExp(`\\b(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`, 'i');
    const found = files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  test('nor a name of one in an identifier: camelCase, PascalCase or SCREAMING_CASE (scimToken, ScimFilter, SCIM_FAULTS)', () => {
    const found = genericFiles().flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (identifierForms.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  test('the identifier forms catch what they are for', () => {
    for (const said of ['scimToken', 'isScim', 'ScimFilterSupport', 'SCIM_FAULTS', 'DEFAULT_SCIM', 'learnerApi', 'LearnerSession', 'INTAPI_X'])
      expect(identifierForms.test(said), said).toBe(true);
    for (const said of ['description', 'displayer', 'players', 'learners', 'scimmy', 'Scimitar']) expect(identifierForms.test(said), said).toBe(false);
  });
});

/** A registered family's name inside an identifier: its lower-case form starting a camelCase or
 * snake_case word (`scimToken`), its PascalCase form after a lower-case letter or at a word's start
 * (`isScim`, `ScimFilter`), its upper-case form between non-letters (`SCIM_FAULTS`). Whole words are
 * the test above's. */
const identifierForms = new RegExp(
  FAMILIES.map((f) => f.name)
    .flatMap((name) => {
      const pascal = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      return [
        `\\b${name}(?=[A-Z0-9_])`,
        `(?:\\b|(?<=[a-z0-9_]))${pascal}(?![a-z])`,
        `(?<![A-Za-z])${name.toUpperCase()}(?=_|[0-9])|(?<=_)${name.toUpperCase()}(?![A-Za-z])`,
      ];
    })
    .join('|'),
);
