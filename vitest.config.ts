// Tests of lp-conformance itself (`npm test`). The conformance suites in suites/ are not run by
// this config: they need a target and are run by `lp-conformance run` (src/runner).
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files, started first so that the shorter ones fill the cores around them. The
 * negative controls above all: their time is one conformance run in their beforeAll, which vitest's
 * cache does not count as the file's duration (it would start them last), and a fresh clone (CI)
 * has no cache at all. Measured on 2 cores; a file missing here only starts later.
 */
const LONGEST_FIRST = [
  'tests/negative-controls.test.ts',
  'tests/cli.test.ts',
  'tests/static.test.ts',
  'tests/init.test.ts',
  'tests/rate-limits.test.ts',
  'tests/budget.test.ts',
  'tests/soak.test.ts',
  'tests/gate.test.ts',
  'tests/reports.test.ts',
  'tests/replay.test.ts',
  'tests/hostile-target.test.ts',
  'tests/ci-examples.test.ts',
  'tests/coverage.test.ts',
  'tests/positive-controls.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order (longest by its cache, else largest).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Files that test modules in the test's own process (the harness, the profile, the reference server,
 * the reporters, the runner's parts; three of them also start a command line): they share one module
 * graph per worker thread instead of a new process and a new import of the reference server per file
 * (much less CPU than a process per file). None of them changes process-wide state another could
 * see: no environment variable, global or module mock; fake timers are put back after each test.
 */
const IN_PROCESS = [
  'tests/harness/**/*.test.ts',
  'tests/profile/**/*.test.ts',
  'tests/reference-impl/**/*.test.ts',
  'tests/reporters/**/*.test.ts',
  'tests/{architecture,build,cache,controls-messages,dead-code,docs,runner-progress,runner-worker,tool-client}.test.ts',
];

/** Run by their own script: `npm run test:package` (vitest.package.config.ts). */
const APART = ['tests/package/**'];

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'in-process', include: IN_PROCESS, pool: 'threads', isolate: false } },
      // The other files (command lines, served targets, the negative controls) in forks, which share
      // their module graph too, and so the command-line hosts of tests/support/cli.ts `runCli`: a host
      // serves every file of its fork instead of a new Node and a new load of the tool per file. None
      // of these files changes process-wide state either.
      { extends: true, test: { name: 'end-to-end', include: ['tests/**/*.test.ts'], exclude: [...IN_PROCESS, ...APART], isolate: false } },
    ],
    // Guards against a test that hangs, not time limits (tests/support/cli.ts HANG_GUARD_MS): on a
    // loaded machine a test takes many times its usual time.
    testTimeout: 15 * 60_000,
    // A fresh, empty run cache (LPC_CACHE_DIR) for each `npm test`.
    globalSetup: ['tests/support/fresh-cache.ts'],
    hookTimeout: 15 * 60_000,
    // Tests that spawn whole conformance runs: two at a time within a file on a 2-core machine.
    maxConcurrency: 2,
    // Three files at a time: most of a test file's time is spent waiting for a conformance run in a
    // child process, so a third worker keeps both cores busy (faster than vitest's default on 2 cores;
    // docs/measuring.md says how to measure it).
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
  },
});
