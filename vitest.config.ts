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
  'tests/controls/negative.test.ts',
  'tests/cli/cli.test.ts',
  'tests/repo/static.test.ts',
  'tests/cli/init.test.ts',
  'tests/run/rate-limits.test.ts',
  'tests/run/budget.test.ts',
  'tests/run/soak.test.ts',
  'tests/cli/gate.test.ts',
  'tests/cli/reports.test.ts',
  'tests/cli/replay.test.ts',
  'tests/run/hostile-target.test.ts',
  'tests/cli/ci-examples.test.ts',
  'tests/run/coverage.test.ts',
  'tests/controls/positive.test.ts',
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
 * The pool is decided by folder: tests/<layer>/<family>/, each layer's folder either in process or
 * end to end.
 *
 * In process: the folders whose files test modules in the test's own process (the harness, the
 * profile, the reference server, the reporters, the runner's and the target client's parts, the
 * repository's own rules; a few also start a command line or a tool as a child). They share one module
 * graph per worker thread instead of a new process and a new import of the reference server per file
 * (much less CPU than a process per file). None of them changes process-wide state another could
 * see: no environment variable, global or module mock; fake timers are put back after each test.
 *
 * End to end, every other folder (tests/cli, tests/run, tests/controls, tests/catalogue,
 * tests/library): command lines, served targets, whole conformance runs.
 */
const IN_PROCESS = ['harness', 'profile', 'reference-impl', 'reporters', 'repo', 'runner', 'target'].map((layer) => `tests/${layer}/**/*.test.ts`);

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
