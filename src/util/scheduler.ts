/**
 * The run's scheduler: at most `concurrency` checks in flight, and checks that would disturb each
 * other never in flight together.
 *
 * A check declares what it does to shared state (`Uses`): the collections it writes, the
 * collections it observes whole (a walk, a total, a count before and after), and whether it
 * rotates the session token. Each becomes a lock on a key (scoped by the target server, so that
 * checks against different servers never wait for each other) in one of three modes:
 * - `observe`: shared with other observers, excluded from writers (a walk must see a still list);
 * - `write`: shared with other writers (each creates its own records), excluded from observers;
 * - `exclusive`: alone on the key (a check that both writes and observes it, or rotates the token).
 * Every check holds its session's key in `write` mode (it uses that family's token: its own family's,
 * or the one its family is a page of); a check that asks for a new token holds it `exclusive`, so no
 * request of another check is in flight with the token it revokes. Sessions are per family: a new
 * token of one family waits only for the checks that send that family's token, not for every check of
 * the target (the client refuses a token of another family's session, suites/_harness/http.ts).
 *
 * Locks are taken all at once when a check starts and released when it ends, so no check waits
 * while holding one: no deadlock. Waiting checks start in the order they were submitted whenever
 * their locks are free, so `concurrency 1` runs the checks in registration order, one by one.
 *
 * A run in several worker threads has one scheduler, in the runner's thread (src/runner/threads.ts):
 * each worker asks it for a check's slot and locks, so no two checks that must not overlap do, in
 * whichever worker they run.
 */
import type { Uses } from '../runner/base/model.js';

export type { Uses };

export type LockMode = 'observe' | 'write' | 'exclusive';

export interface Lock {
  key: string;
  mode: LockMode;
}

/** The session key every check holds: the token in use, followed by the family whose session it is. */
export const SESSION = 'session';

/** The locks a check takes on one target server (`scope`, its base URL). `session` is the family
 * whose session token the check sends (src/families/registry.ts sessionOfCheck); a check without
 * one holds the bare session key, which no family's new token waits for. */
export function locksOf(uses: Uses | undefined, scope: string, session?: string): Lock[] {
  const modes = new Map<string, LockMode>();
  const add = (key: string, mode: LockMode) => {
    const had = modes.get(key);
    modes.set(key, had === undefined || had === mode ? mode : 'exclusive');
  };
  add(session === undefined ? SESSION : `${SESSION} ${session}`, uses?.rotatesSession ? 'exclusive' : 'write');
  for (const c of uses?.write ?? []) add(c, 'write');
  for (const c of uses?.observe ?? []) add(c, 'observe');
  return [...modes].map(([key, mode]) => ({ key: `${scope} ${key}`, mode }));
}

interface Held {
  mode: LockMode;
  count: number;
}

interface Waiting {
  locks: readonly Lock[];
  start: () => void;
  next: Waiting | undefined;
  prev: Waiting | undefined;
}

export class Scheduler {
  private running = 0;
  private readonly held = new Map<string, Held>();
  /** The waiting checks in submission order, a linked list: a run submits every check at once
   * (tens of thousands for the negative controls), and each leaves it from wherever it is when it
   * starts, which cost seconds of the run as an array. */
  private first: Waiting | undefined;
  private last: Waiting | undefined;
  private waiting = 0;

  constructor(readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`scheduler: concurrency must be a positive integer, not ${concurrency}`);
  }

  /** Runs `fn` once a slot and every lock are free; releases them when it settles. */
  async run<T>(locks: readonly Lock[], fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      const w: Waiting = { locks, start, next: undefined, prev: this.last };
      if (this.last) this.last.next = w;
      else this.first = w;
      this.last = w;
      this.waiting++;
      this.dispatch();
    });
    try {
      return await fn();
    } finally {
      this.release(locks);
      this.dispatch();
    }
  }

  /** Checks in flight and waiting, for progress reports. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  private free(lock: Lock): boolean {
    const h = this.held.get(lock.key);
    return h === undefined || (h.mode === lock.mode && lock.mode !== 'exclusive');
  }

  private unlink(w: Waiting): void {
    if (w.prev) w.prev.next = w.next;
    else this.first = w.next;
    if (w.next) w.next.prev = w.prev;
    else this.last = w.prev;
    this.waiting--;
  }

  private dispatch(): void {
    for (let w = this.first; w && this.running < this.concurrency; w = w.next) {
      if (!w.locks.every((l) => this.free(l))) continue;
      this.unlink(w);
      for (const l of w.locks) {
        const h = this.held.get(l.key);
        if (h) h.count++;
        else this.held.set(l.key, { mode: l.mode, count: 1 });
      }
      this.running++;
      w.start();
    }
  }

  private release(locks: readonly Lock[]): void {
    this.running--;
    for (const l of locks) {
      const h = this.held.get(l.key);
      if (h && --h.count === 0) this.held.delete(l.key);
    }
  }
}
