// ESLint 9 flat config: a small rule set (DEVELOPERS.md "Lint and format"). Formatting is
// Prettier's business (`npm run format:check`), not ESLint's.
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig([
  // fixtures/architecture: a tree made to break the import rules (tests/architecture.test.ts), never built.
  globalIgnores(['dist/', 'node_modules/', 'reports/', 'coverage/', 'fixtures/architecture/', '**/.stryker-tmp/']),
  {
    files: ['**/*.{js,mjs,ts}'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'max-len': [
        'error',
        { code: 200, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreComments: false },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // A promise nobody awaits loses its failure: a check that passes without having run.
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // Output of the tool goes through its writers (src/cli, reporters/), never console.*.
    files: ['src/**', 'reference-impl/**', 'reporters/**', 'suites/**'],
    ignores: ['src/cli/**'],
    rules: { 'no-console': 'error' },
  },
]);
