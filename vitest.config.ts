// Tests of lp-conformance itself (`npm test`). The conformance suites in suites/ are not run by
// this config: they need a target and are run by `lp-conformance run` (src/runner).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Tests that spawn whole conformance runs: two at a time within a file on a 2-core machine.
    maxConcurrency: 2,
    // Three files at a time: most of a test file's time is spent waiting for a conformance run in a
    // child process, so a third worker keeps both cores busy (measured: 187 s against 284 s with
    // vitest's default on 2 cores).
    maxWorkers: 3,
  },
});
