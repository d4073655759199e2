/// <reference types="vite/client" />
/**
 * Loads every suite file (suites/**\/*.check.ts, in path order): their checks register with the
 * run's registry (registry.ts), so that the run's scheduler (scheduler.ts) can keep `--concurrency`
 * of them in flight across areas. A suite file that does not load becomes a failed check of its own,
 * named after it, so that none hides another.
 */
import { LOAD_CHECK_PREFIX } from '../../src/runner/select.js';
import { useTls } from '../../src/target/tls.js';
import { matrixConfig } from './config.js';
import { fail } from './failure.js';
import { FOUND_CHECK_FILES } from './found.js';
import { loadingFile } from './registry.js';
import { requirement } from './requirement.js';

// Keyed by their path in the repository: suites/… for the glob's, as they are for the build's found files.
const files: Readonly<Record<string, () => Promise<unknown>>> = {
  ...Object.fromEntries(Object.entries(import.meta.glob('../**/*.check.ts')).map(([path, load]) => [`suites/${path.replace(/^\.\.\//, '')}`, load])),
  ...FOUND_CHECK_FILES,
};

export async function loadSuites(): Promise<void> {
  // Every path of this worker to a target verifies its certificate as the run says (`--ca`, `--insecure`).
  useTls(matrixConfig().tls);
  for (const relative of Object.keys(files).sort()) {
    loadingFile(relative);
    try {
      await (files[relative] as () => Promise<unknown>)();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      requirement(
        { id: `${LOAD_CHECK_PREFIX}${relative.replace(/[^A-Za-z0-9]+/g, '-')}`, level: 'MUST', spec: 'lpc#harness', title: `The suite file ${relative} loads` },
        async () => fail('the suite file to load', message.split('\n')[0] ?? message),
      );
    }
  }
  loadingFile(undefined);
}
