/**
 * The suites' side of a run: the module the runner (src/runner/run.ts) starts in a worker thread of
 * its own, as built (dist/suites/checks.js, build/bundle.mjs). It loads every suite file, tells the
 * runner what they registered, starts every check the run selects at once (the run's scheduler holds
 * them to `--concurrency`), sends each check's results as it ends, and ends the run (afterRun).
 *
 * A worker per run: the suites' state (the registry, the scheduler, sessions, the global dispatcher
 * `useTls` sets) is the run's own, also when one process makes several runs (the negative controls).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SuitesCancel, SuitesMessage, SuitesWorkerData } from '../../src/runner/model.js';
import { loadSuites } from './all-checks.js';
import { provideMatrixConfig } from './config.js';
import { endRun, registeredChecks } from './registry.js';
import { selects } from './requirement.js';

/** How long the run's end (afterRun: a browser closing) may take before the worker ends anyway. */
const END_RUN_MS = 60_000;

const port = parentPort;
if (!port) throw new Error('the suites run in the worker that lp-conformance run starts');
const send = (message: SuitesMessage): void => port.postMessage(message);
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const { matrix, collectOnly } = workerData as SuitesWorkerData;
provideMatrixConfig(matrix);

// An error while the suites load ends the worker: the run fails, saying so (src/runner/run.ts).
await loadSuites();
// Once they run, an error nobody handles (a rejection, an event's error without a listener: a hostile
// target's socket) would end the worker, and the results of every check with it: the runner is told,
// and the run goes on.
process.on('unhandledRejection', (reason) => send({ type: 'stray-error', message: messageOf(reason) }));
process.on('uncaughtException', (error) => send({ type: 'stray-error', message: messageOf(error) }));
const checks = registeredChecks();
send({ type: 'collected', checks: checks.map(({ check, uses, frames }) => ({ check, ...(uses ? { uses } : {}), ...(frames ? { frames } : {}) })) });

if (!collectOnly) {
  const stop = new AbortController();
  port.on('message', (message: SuitesCancel) => {
    if (message.type === 'cancel') stop.abort();
  });
  await Promise.all(
    checks.map(async (c, index) => {
      if (!matrix.targets.some((target) => selects(target, c.check.id))) return;
      try {
        send({ type: 'result', index, results: await c.run(stop.signal) });
      } catch (error) {
        send({ type: 'result', index, error: messageOf(error) });
      }
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([endRun().catch(() => undefined), new Promise((done) => (timer = setTimeout(done, END_RUN_MS)))]);
  clearTimeout(timer);
}
send({ type: 'done' });
