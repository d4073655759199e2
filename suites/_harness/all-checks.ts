/// <reference types="vite/client" />
/**
 * The one module vitest runs: it loads every suite file (suites/**\/*.check.ts, in path order), so
 * that all their checks are tests of one file and the run's scheduler (scheduler.ts) can keep
 * `--concurrency` of them in flight across areas; vitest runs one file's tests at a time only.
 * A suite file that does not load becomes a failed check of its own, named after it, so that none
 * hides another.
 */
import { useTls } from '../../src/target/tls.js';
import { matrixConfig } from './config.js';
import { fail } from './failure.js';
import { requirement } from './requirement.js';

// Every path of this worker to a target verifies its certificate as the run says (`--ca`, `--insecure`).
useTls(matrixConfig().tls);

const files = import.meta.glob('../**/*.check.ts');

for (const path of Object.keys(files).sort()) {
  const relative = `suites/${path.replace(/^\.\.\//, '')}`;
  try {
    await (files[path] as () => Promise<unknown>)();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    requirement(
      { id: `lpc.harness.load.${relative.replace(/[^A-Za-z0-9]+/g, '-')}`, level: 'MUST', spec: 'lpc#harness', title: `The suite file ${relative} loads` },
      async () => fail('the suite file to load', message.split('\n')[0] ?? message),
    );
  }
}
