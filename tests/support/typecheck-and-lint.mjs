#!/usr/bin/env node
// The typecheck and the linter of `npm test` (tests/repo/static.test.ts) over ONE TypeScript program:
// `tsc -p tsconfig.json --noEmit` and `eslint .` each build the whole program and its type checker,
// which costs the same work twice. Here TypeScript's API builds it once from tsconfig.json, reports
// its diagnostics as tsc does, and ESLint's API lints with it (typescript-eslint's
// `parserOptions.programs`, which takes the place of eslint.config.js's projectService; the rules and
// the files linted are the config's own). `npm run typecheck` and `npm run lint` stay the tools
// themselves; their verdicts are the same. Exit 0 when both pass, 1 with their reports otherwise.
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const configFile = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root, undefined, join(root, 'tsconfig.json'));
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
const diagnostics = [...(configFile.error ? [configFile.error] : []), ...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
if (diagnostics.length > 0) process.stdout.write(`typecheck (tsc -p tsconfig.json):\n${ts.formatDiagnostics(diagnostics, host)}\n`);

const eslint = new ESLint({
  cwd: root,
  overrideConfig: { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
});
const results = await eslint.lintFiles(['.']);
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
if (problems > 0) process.stdout.write(`lint (eslint .):\n${await (await eslint.loadFormatter('stylish')).format(results)}\n`);
process.exitCode = diagnostics.length > 0 || problems > 0 ? 1 : 0;
