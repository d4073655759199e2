// Tests of lp-conformance itself (`npm test`). The conformance suites in suites/ are not run by
// this config: they need a target and are run by `lp-conformance run` (src/runner).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Tests that spawn whole conformance runs: two at a time on a 2-core machine.
    maxConcurrency: 2,
  },
});
