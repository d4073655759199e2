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
import type { SuitesCancel, SuitesMessage, SuitesWorkerData } from '../../src/runner/base/model.js';
import { loadSuites } from './all-checks.js';
import { provideMatrixConfig } from './config.js';
import { endRun, registeredChecks } from './registry.js';
import { selects } from './requirement.js';
import { joinThreads, nextGroup, sharedRun } from './threads.js';

/** How long the run's end (afterRun: a browser closing) may take before the worker ends anyway. */
const END_RUN_MS = 60_000;

const port = parentPort;
if (!port) throw new Error('the suites run in the worker that lp-conformance run starts');
const send = (message: SuitesMessage): void => port.postMessage(message);
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const { matrix, collectOnly, threads } = workerData as SuitesWorkerData;
provideMatrixConfig(matrix);
joinThreads(threads);

// An error while the suites load ends the worker: the run fails, saying so (src/runner/run.ts).
await loadSuites();
// Once they run, an error nobody handles (a rejection, an event's error without a listener: a hostile
// target's socket) would end the worker, and the results of every check with it: the runner is told,
// and the run goes on.
process.on('unhandledRejection', (reason) => send({ type: 'stray-error', message: messageOf(reason) }));
process.on('uncaughtException', (error) => send({ type: 'stray-error', message: messageOf(error) }));
const checks = registeredChecks();
send({
  type: 'collected',
  checks: checks.map(({ check, uses, about, frames }) => ({ check, ...(uses ? { uses } : {}), ...(about ? { about } : {}), ...(frames ? { frames } : {}) })),
});

if (!collectOnly) {
  const stop = new AbortController();
  port.on('message', (message: SuitesCancel) => {
    if (message.type === 'cancel') stop.abort();
  });
  const runCheck = async (index: number): Promise<void> => {
    const c = checks[index] as (typeof checks)[number];
    if (!matrix.targets.some((target) => selects(target, c.check.id))) return;
    try {
      send({ type: 'result', index, results: await c.run(stop.signal) });
    } catch (error) {
      send({ type: 'result', index, error: messageOf(error) });
    }
  };
  if (sharedRun()) await runGroups(checks, runCheck, matrix.concurrency);
  else await Promise.all(checks.map((_, index) => runCheck(index)));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([endRun().catch(() => undefined), new Promise((done) => (timer = setTimeout(done, END_RUN_MS)))]);
  clearTimeout(timer);
}
send({ type: 'done' });

/**
 * One worker of several: the checks grouped by suite file (numbered alike in every worker), each
 * group asked of the runner in turn while fewer than `concurrency` of this worker's checks are
 * waiting or running, so that the workers share the run's slots and the last groups go to whichever
 * worker is free. A group's checks are asked for one at a time under the same bound: the run's
 * scheduler grants slots in the order they were asked, so a whole group asked at once would hold
 * every other worker's checks back until that group had nearly ended, one worker busy at a time.
 */
async function runGroups(all: readonly { file?: string }[], runCheck: (index: number) => Promise<void>, concurrency: number): Promise<void> {
  const byFile = new Map<string, number[]>();
  all.forEach((c, index) => {
    const file = c.file ?? '';
    const group = byFile.get(file);
    if (group) group.push(index);
    else byFile.set(file, [index]);
  });
  const groups = [...byFile.values()];
  const running = new Set<Promise<void>>();
  const room = async (): Promise<void> => {
    while (running.size >= concurrency) await Promise.race(running);
  };
  for (;;) {
    await room();
    const group = groups[await nextGroup()];
    if (!group) break;
    for (const index of group) {
      await room();
      const done: Promise<void> = runCheck(index).finally(() => running.delete(done));
      running.add(done);
    }
  }
  await Promise.all(running);
}
