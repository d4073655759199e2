// The run's scheduler (suites/_harness/scheduler.ts): at most `concurrency` jobs in flight, jobs
// whose locks conflict never in flight together, submission order kept, and every job finishes.
// Jobs are fakes: each records when it starts and ends, and is held open until the test lets it go.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { locksOf, Scheduler, SESSION, type Lock, type LockMode, type Uses } from '../../suites/_harness/scheduler.js';

/** Lets every pending callback (the scheduler's dispatch, the jobs' starts) run. */
const settle = () => new Promise<void>((done) => setImmediate(done));

/** Watches the jobs in flight: how many at most, and every moment two held locks conflicted. */
class Monitor {
  readonly inFlight = new Map<string, readonly Lock[]>();
  readonly started: string[] = [];
  readonly finished: string[] = [];
  readonly conflicts: string[] = [];
  maxInFlight = 0;

  enter(name: string, locks: readonly Lock[]): void {
    for (const [other, held] of this.inFlight) {
      for (const a of locks) {
        for (const b of held) {
          if (a.key === b.key && !(a.mode === b.mode && a.mode !== 'exclusive'))
            this.conflicts.push(`${name} (${a.key} ${a.mode}) beside ${other} (${b.mode})`);
        }
      }
    }
    this.inFlight.set(name, locks);
    this.started.push(name);
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight.size);
  }

  leave(name: string): void {
    this.inFlight.delete(name);
    this.finished.push(name);
  }
}

/** A job held open until `release(name)` (or all of them) is called. */
class Jobs {
  readonly monitor = new Monitor();
  private readonly gates = new Map<string, () => void>();
  readonly done: Promise<void>[] = [];

  constructor(readonly scheduler: Scheduler) {}

  submit(name: string, locks: readonly Lock[]): void {
    this.done.push(
      this.scheduler.run(locks, async () => {
        this.monitor.enter(name, locks);
        await new Promise<void>((open) => this.gates.set(name, open));
        this.monitor.leave(name);
      }),
    );
  }

  async release(...names: string[]): Promise<void> {
    for (const name of names) {
      const open = this.gates.get(name);
      if (!open) throw new Error(`job ${name} is not in flight`);
      this.gates.delete(name);
      open();
    }
    await settle();
  }

  running(): string[] {
    return [...this.monitor.inFlight.keys()].sort();
  }

  /** Releases whatever is in flight until every job has finished. */
  async drain(): Promise<void> {
    await settle();
    for (let guard = 0; this.gates.size > 0; guard++) {
      if (guard > 10_000) throw new Error('jobs never finished');
      await this.release(...this.gates.keys());
    }
    await Promise.all(this.done);
  }
}

const lock = (key: string, mode: LockMode): Lock => ({ key, mode });

describe('locksOf', () => {
  test('every check holds the session; a collection written and observed is exclusive', () => {
    expect(locksOf(undefined, 'S')).toEqual([lock(`S ${SESSION}`, 'write')]);
    expect(locksOf({ rotatesSession: true }, 'S')).toEqual([lock(`S ${SESSION}`, 'exclusive')]);
    expect(locksOf({ write: ['submissions'], observe: ['resources'] }, 'S')).toEqual([
      lock(`S ${SESSION}`, 'write'),
      lock('S submissions', 'write'),
      lock('S resources', 'observe'),
    ]);
    expect(locksOf({ write: ['submissions'], observe: ['submissions'] }, 'S')).toContainEqual(lock('S submissions', 'exclusive'));
  });

  test("a check holds its family's session: a new token of one family waits only for that family's checks", () => {
    expect(locksOf(undefined, 'S', 'learner')).toEqual([lock(`S ${SESSION} learner`, 'write')]);
    expect(locksOf({ rotatesSession: true }, 'S', 'learner')).toEqual([lock(`S ${SESSION} learner`, 'exclusive')]);
    const rotates = locksOf({ rotatesSession: true }, 'S', 'learner').map((l) => l.key);
    expect(locksOf(undefined, 'S', 'intapi').filter((l) => rotates.includes(l.key))).toEqual([]);
    expect(locksOf(undefined, 'S', 'learner').filter((l) => rotates.includes(l.key))).not.toEqual([]);
  });

  test('keys are scoped by the target server', () => {
    const a = locksOf({ write: ['x'] }, 'http://a').map((l) => l.key);
    const b = locksOf({ write: ['x'] }, 'http://b').map((l) => l.key);
    expect(a.filter((k) => b.includes(k))).toEqual([]);
  });
});

describe('Scheduler', () => {
  test('rejects a concurrency that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new Scheduler(bad)).toThrow(/concurrency must be a positive integer/);
  });

  test('never has more than `concurrency` jobs in flight, and does reach it', async () => {
    const jobs = new Jobs(new Scheduler(3));
    for (let i = 0; i < 20; i++) jobs.submit(`j${i}`, locksOf(undefined, 'S'));
    await settle();
    expect(jobs.running()).toHaveLength(3);
    expect(jobs.scheduler.load).toEqual({ running: 3, waiting: 17 });
    await jobs.drain();
    expect(jobs.monitor.maxInFlight).toBe(3);
    expect(jobs.monitor.finished).toHaveLength(20);
    expect(jobs.scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  test('concurrency 1 runs the jobs one by one in submission order, whatever their locks', async () => {
    const jobs = new Jobs(new Scheduler(1));
    const uses: (Uses | undefined)[] = [
      { observe: ['a'] },
      { write: ['a'] },
      { rotatesSession: true },
      undefined,
      { observe: ['a'] },
      { write: ['b'], observe: ['b'] },
      { write: ['a'] },
    ];
    uses.forEach((u, i) => jobs.submit(`j${i}`, locksOf(u, 'S')));
    await jobs.drain();
    expect(jobs.monitor.maxInFlight).toBe(1);
    expect(jobs.monitor.started).toEqual(uses.map((_, i) => `j${i}`));
  });

  test('observers of a key run together, never with a writer of it', async () => {
    const jobs = new Jobs(new Scheduler(8));
    jobs.submit('observe1', locksOf({ observe: ['resources'] }, 'S'));
    jobs.submit('observe2', locksOf({ observe: ['resources'] }, 'S'));
    jobs.submit('write', locksOf({ write: ['resources'] }, 'S'));
    jobs.submit('observe3', locksOf({ observe: ['resources'] }, 'S'));
    await settle();
    // A later observer may pass a waiting writer: its locks are free.
    expect(jobs.running()).toEqual(['observe1', 'observe2', 'observe3']);
    await jobs.release('observe1', 'observe2');
    expect(jobs.running()).toEqual(['observe3']);
    await jobs.release('observe3');
    expect(jobs.running()).toEqual(['write']);
    await jobs.drain();
    expect(jobs.monitor.conflicts).toEqual([]);
  });

  test('writers of a key run together, and observers wait for all of them', async () => {
    const jobs = new Jobs(new Scheduler(8));
    jobs.submit('write1', locksOf({ write: ['submissions'] }, 'S'));
    jobs.submit('observe', locksOf({ observe: ['submissions'] }, 'S'));
    jobs.submit('write2', locksOf({ write: ['submissions'] }, 'S'));
    await settle();
    expect(jobs.running()).toEqual(['write1', 'write2']);
    await jobs.release('write1');
    expect(jobs.running()).toEqual(['write2']);
    await jobs.release('write2');
    expect(jobs.running()).toEqual(['observe']);
    await jobs.drain();
    expect(jobs.monitor.conflicts).toEqual([]);
  });

  test('an exclusive lock runs alone on its key, and keys apart do not wait', async () => {
    const jobs = new Jobs(new Scheduler(8));
    jobs.submit('excl', [lock('k', 'exclusive')]);
    jobs.submit('write', [lock('k', 'write')]);
    jobs.submit('observe', [lock('k', 'observe')]);
    jobs.submit('excl2', [lock('k', 'exclusive')]);
    jobs.submit('other', [lock('other-key', 'exclusive')]);
    await settle();
    expect(jobs.running()).toEqual(['excl', 'other']);
    await jobs.release('excl');
    expect(jobs.running()).toEqual(['other', 'write']);
    await jobs.release('write');
    expect(jobs.running()).toEqual(['observe', 'other']);
    await jobs.release('observe');
    expect(jobs.running()).toEqual(['excl2', 'other']);
    await jobs.drain();
    expect(jobs.monitor.conflicts).toEqual([]);
  });

  test('a session rotation excludes every other job on its server, not those of another server', async () => {
    const jobs = new Jobs(new Scheduler(8));
    jobs.submit('a-plain', locksOf(undefined, 'A'));
    jobs.submit('a-rotate', locksOf({ rotatesSession: true }, 'A'));
    jobs.submit('a-write', locksOf({ write: ['submissions'] }, 'A'));
    jobs.submit('a-observe', locksOf({ observe: ['resources'] }, 'A'));
    jobs.submit('b-plain', locksOf(undefined, 'B'));
    jobs.submit('b-write', locksOf({ write: ['submissions'] }, 'B'));
    await settle();
    // Jobs on A that do not rotate share the session with each other; the rotation waits for them.
    expect(jobs.running()).toEqual(['a-observe', 'a-plain', 'a-write', 'b-plain', 'b-write']);
    // A job submitted after the rotation whose locks are free starts before it.
    jobs.submit('a-late', locksOf(undefined, 'A'));
    await settle();
    expect(jobs.running()).toContain('a-late');
    await jobs.release('a-plain', 'a-write', 'a-observe');
    expect(jobs.running()).toEqual(['a-late', 'b-plain', 'b-write']);
    await jobs.release('a-late');
    expect(jobs.running()).toEqual(['a-rotate', 'b-plain', 'b-write']);
    jobs.submit('a-during', locksOf({ observe: ['x'] }, 'A'));
    jobs.submit('b-during', locksOf({ rotatesSession: true }, 'C'));
    await settle();
    expect(jobs.running()).toEqual(['a-rotate', 'b-during', 'b-plain', 'b-write']);
    await jobs.release('a-rotate');
    expect(jobs.running()).toContain('a-during');
    await jobs.drain();
    expect(jobs.monitor.conflicts).toEqual([]);
    expect(jobs.monitor.finished).toHaveLength(9);
  });

  test('observe and write of the same key in one job exclude other writers and observers', async () => {
    const jobs = new Jobs(new Scheduler(8));
    jobs.submit('both', locksOf({ write: ['q'], observe: ['q'] }, 'S'));
    jobs.submit('write', locksOf({ write: ['q'] }, 'S'));
    jobs.submit('observe', locksOf({ observe: ['q'] }, 'S'));
    await settle();
    expect(jobs.running()).toEqual(['both']);
    await jobs.release('both');
    expect(jobs.running()).toEqual(['write']);
    await jobs.drain();
    expect(jobs.monitor.conflicts).toEqual([]);
  });

  test('a job that throws releases its slot and locks', async () => {
    const scheduler = new Scheduler(1);
    await expect(scheduler.run([lock('k', 'exclusive')], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(scheduler.run([lock('k', 'exclusive')], () => Promise.resolve(7))).resolves.toBe(7);
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  test('random jobs all finish, and at every moment the limit and the locks hold', async () => {
    const collections = ['resources', 'submissions', 'templates', 'questionBanks'];
    const usesArb = fc.record(
      {
        write: fc.subarray(collections),
        observe: fc.subarray(collections),
        rotatesSession: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    const jobArb = fc.record({
      uses: fc.option(usesArb, { nil: undefined }),
      scope: fc.constantFrom('http://a', 'http://b'),
      // Steps of the event loop the job stays in flight, and whether it fails.
      ticks: fc.nat({ max: 4 }),
      fails: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(jobArb, { minLength: 1, maxLength: 40 }), async (concurrency, specs) => {
        const scheduler = new Scheduler(concurrency);
        const monitor = new Monitor();
        const runs = specs.map((spec, i) => {
          const locks = locksOf(spec.uses, spec.scope);
          return scheduler
            .run(locks, async () => {
              monitor.enter(`j${i}`, locks);
              for (let t = 0; t < spec.ticks; t++) await settle();
              monitor.leave(`j${i}`);
              if (spec.fails) throw new Error(`j${i} fails`);
            })
            .catch(() => undefined);
        });
        let timer: NodeJS.Timeout | undefined;
        const deadlock = new Promise<'deadlock'>((done) => (timer = setTimeout(() => done('deadlock'), 10_000)));
        const outcome = await Promise.race([Promise.all(runs).then(() => 'finished' as const), deadlock]);
        clearTimeout(timer);
        expect(outcome).toBe('finished');
        expect(monitor.finished).toHaveLength(specs.length);
        expect(monitor.maxInFlight).toBeLessThanOrEqual(concurrency);
        expect(monitor.conflicts).toEqual([]);
        expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
      }),
      { numRuns: 150 },
    );
  });
});
