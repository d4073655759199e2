// The runner's side of the suites' worker (src/runner/run.ts startSuites): what a worker sends reaches
// the run in order, the run ends when the worker says so, and a worker that fails or stops before
// that fails the run with a line saying so instead of leaving it waiting. Real worker threads, from
// small scripts written here; the suites' own worker is what every run of the other tests starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { SuitesMessage } from '../src/runner/base/model.js';
import { startSuites } from '../src/runner/run.js';

const dir = mkdtempSync(join(tmpdir(), 'lpc-worker-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker script of `body`, with `port` (its parentPort) and `data` (its workerData) in scope. */
function workerOf(name: string, body: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { parentPort as port, workerData as data } from 'node:worker_threads';\n${body}\n`);
  return file;
}

const data = { matrix: { targets: [], concurrency: 1 }, collectOnly: false };
const check = { check: { id: 'x.y.z', level: 'MUST' as const, spec: 'spec#x', title: 'T', area: 'x.y' } };

describe("the suites' worker, as the runner starts it", () => {
  test('gets its configuration; what it sends arrives in order; the run ends when it says done', async () => {
    const file = workerOf(
      'sends',
      `port.postMessage({ type: 'collected', checks: [${JSON.stringify(check)}] });
       port.postMessage({ type: 'result', index: 0, results: { target: { requests: data.matrix.concurrency } } });
       port.postMessage({ type: 'done' });
       // A worker the run is done with is ended, whatever it still holds open.
       setInterval(() => undefined, 1000);`,
    );
    const got: SuitesMessage[] = [];
    await startSuites(file, { ...data, matrix: { targets: [], concurrency: 7 } }, (m) => got.push(m)).done;
    expect(got.map((m) => m.type)).toEqual(['collected', 'result']);
    expect(got[1]).toMatchObject({ index: 0, results: { target: { requests: 7 } } });
  });

  test('a cancel reaches it (Ctrl-C: it stops starting checks)', async () => {
    const file = workerOf('cancel', `port.on('message', (m) => { if (m.type === 'cancel') port.postMessage({ type: 'done' }); });`);
    const run = startSuites(file, data, () => undefined);
    run.cancel();
    await expect(run.done).resolves.toBeUndefined();
  });

  test('one that stops before the run ends fails the run, with its exit code', async () => {
    const file = workerOf('exits', `port.postMessage({ type: 'collected', checks: [] }); process.exit(3);`);
    await expect(startSuites(file, data, () => undefined).done).rejects.toThrow("the suites' worker stopped (exit code 3) before the run ended");
  });

  test('one that throws while it loads fails the run with its message', async () => {
    const file = workerOf('throws', `throw new Error('the bundle is broken');`);
    await expect(startSuites(file, data, () => undefined).done).rejects.toThrow('the suites failed to run: the bundle is broken');
  });

  test('a message the run cannot take fails the run instead of being lost', async () => {
    const file = workerOf('bad', `port.postMessage({ type: 'result', index: 5 }); setInterval(() => undefined, 1000);`);
    const run = startSuites(file, data, (m) => {
      if (m.type === 'result') throw new Error(`no check ${m.index}`);
    });
    await expect(run.done).rejects.toThrow('no check 5');
  });
});
