// The runner's side of the suites' worker (src/runner/run.ts startSuites): what a worker sends reaches
// the run in order, the run ends when the worker says so, and a worker that fails or stops before
// that fails the run with a line saying so instead of leaving it waiting. Real worker threads, from
// small scripts written here; the suites' own worker is what every run of the other tests starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { SuitesMessage, ThreadAnswer } from '../../src/runner/base/model.js';
import { ThreadBroker, workersOf } from '../../src/runner/threads.js';
import { startSuites } from '../../src/runner/run.js';

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

describe('the runner of several worker threads (src/runner/threads.ts)', () => {
  /** A worker's answers, in the order they came. */
  const answersOf = () => {
    const got: ThreadAnswer[] = [];
    return { got, reply: (a: ThreadAnswer) => void got.push(a) };
  };
  const settle = () => new Promise((done) => setImmediate(done));

  test("one scheduler for every worker: a lock held in one keeps another's check waiting, the slots are shared", async () => {
    const broker = new ThreadBroker(2);
    const [a, b] = [answersOf(), answersOf()];
    broker.handle(0, { type: 'acquire', id: 1, locks: [{ key: 's users', mode: 'observe' }] }, a.reply);
    broker.handle(1, { type: 'acquire', id: 1, locks: [{ key: 's users', mode: 'write' }] }, b.reply);
    broker.handle(1, { type: 'acquire', id: 2, locks: [{ key: 's groups', mode: 'write' }] }, b.reply);
    await settle();
    expect(a.got.map((g) => g.id)).toEqual([1]);
    expect(b.got.map((g) => g.id)).toEqual([2]);
    // Both slots are taken: a third check waits for one, wherever it runs.
    broker.handle(0, { type: 'acquire', id: 2, locks: [{ key: 's groups', mode: 'write' }] }, a.reply);
    await settle();
    expect(a.got).toHaveLength(1);
    broker.handle(0, { type: 'release', id: 1 });
    await settle();
    await settle();
    expect(b.got.map((g) => g.id)).toEqual([2, 1]);
    broker.handle(1, { type: 'release', id: 2 });
    await settle();
    await settle();
    expect(a.got.map((g) => g.id)).toEqual([1, 2]);
  });

  test('a session token is fetched by one worker and handed to the others; a rotation makes every later grant say so', async () => {
    const broker = new ThreadBroker(4);
    const [a, b] = [answersOf(), answersOf()];
    broker.handle(0, { type: 'token', id: 7, key: 'server intapi' }, a.reply);
    broker.handle(1, { type: 'token', id: 8, key: 'server intapi' }, b.reply);
    expect(a.got).toEqual([{ type: 'token', id: 7, fetch: true }]);
    expect(b.got).toEqual([]);
    const token = { env: 'LPC_TOKEN', value: 'first' };
    broker.handle(0, { type: 'token-set', key: 'server intapi', token, rotated: false });
    expect(b.got).toEqual([{ type: 'token', id: 8, token }]);
    broker.handle(1, { type: 'acquire', id: 9, locks: [] }, b.reply);
    await settle();
    expect(b.got.at(-1)).toEqual({ type: 'granted', id: 9, epoch: 0 });
    broker.handle(0, { type: 'token-set', key: 'server intapi', token: { ...token, value: 'second' }, rotated: true });
    broker.handle(1, { type: 'acquire', id: 10, locks: [] }, b.reply);
    broker.handle(1, { type: 'token', id: 11, key: 'server intapi' }, b.reply);
    await settle();
    expect(b.got.slice(-2)).toEqual([
      { type: 'token', id: 11, token: { ...token, value: 'second' } },
      { type: 'granted', id: 10, epoch: 1 },
    ]);
  });

  test('a failed token exchange hands the exchange to the next worker that asked', () => {
    const broker = new ThreadBroker(4);
    const [a, b, c] = [answersOf(), answersOf(), answersOf()];
    broker.handle(0, { type: 'token', id: 1, key: 'k' }, a.reply);
    broker.handle(1, { type: 'token', id: 2, key: 'k' }, b.reply);
    broker.handle(2, { type: 'token', id: 3, key: 'k' }, c.reply);
    broker.handle(0, { type: 'token-failed', key: 'k' });
    expect(b.got).toEqual([{ type: 'token', id: 2, fetch: true }]);
    expect(c.got).toEqual([]);
  });

  test('groups of checks are handed out once each, in order, over all workers', () => {
    const broker = new ThreadBroker(4);
    const [a, b] = [answersOf(), answersOf()];
    broker.handle(0, { type: 'next-group', id: 1 }, a.reply);
    broker.handle(1, { type: 'next-group', id: 1 }, b.reply);
    broker.handle(0, { type: 'next-group', id: 2 }, a.reply);
    expect([...a.got, ...b.got].map((g) => (g.type === 'group' ? g.group : -1)).sort()).toEqual([0, 1, 2]);
  });

  test('one thread unless more are asked for; one for checks one by one or a paced run', () => {
    expect(workersOf({ concurrency: 8 })).toBe(1);
    expect(workersOf({ concurrency: 8 }, 2)).toBe(2);
    expect(workersOf({ concurrency: 1 }, 2)).toBe(1);
    expect(workersOf({ concurrency: 1 })).toBe(1);
    expect(workersOf({ concurrency: 8, maxRps: 10 })).toBe(1);
  });
});
