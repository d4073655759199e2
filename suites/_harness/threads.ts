/**
 * A worker's side of a run in several worker threads (src/runner/threads.ts keeps what is one for
 * the run): the scheduler's slots and locks, the next group of checks to run, and the session
 * tokens, each asked of the runner over the worker's port. A run in one worker asks nothing: its
 * scheduler is its own (scheduler.ts).
 */
import { parentPort } from 'node:worker_threads';
import type { LockRequest, SharedToken, ThreadAnswer, ThreadAsk } from '../../src/runner/base/model.js';
import { forgetSessions, shareSessions, type SessionBroker } from '../../src/target/secrets.js';
import { Scheduler, type Lock } from './scheduler.js';

/** What runs a check once its slot and locks are free (the run's scheduler, here or the runner's). */
export interface CheckScheduler {
  run<T>(locks: readonly Lock[], fn: () => Promise<T>): Promise<T>;
}

let threads: { index: number; count: number } | undefined;
let pending = new Map<number, (answer: ThreadAnswer) => void>();
let nextId = 0;
let epoch = 0;

function ask<A extends ThreadAnswer>(message: ThreadAsk & { id: number }): Promise<A> {
  return new Promise((answered) => {
    pending.set(message.id, answered as (answer: ThreadAnswer) => void);
    tell(message);
  });
}

function tell(message: ThreadAsk): void {
  if (!parentPort) throw new Error('harness: the worker threads of a run talk over their port');
  parentPort.postMessage(message);
}

/** The slots and locks of the runner's scheduler. */
class SharedScheduler implements CheckScheduler {
  async run<T>(locks: readonly Lock[], fn: () => Promise<T>): Promise<T> {
    const id = nextId++;
    const granted = await ask<ThreadAnswer & { type: 'granted' }>({ type: 'acquire', id, locks: locks as LockRequest[] });
    // A check elsewhere replaced a session token (it held the session alone): the tokens held here are revoked.
    if (granted.epoch !== epoch) {
      epoch = granted.epoch;
      forgetSessions();
    }
    try {
      return await fn();
    } finally {
      tell({ type: 'release', id });
    }
  }
}

/** The runner hands each token out once: the first worker to need it makes the exchange. */
const sessionBroker: SessionBroker = {
  async token(key, exchange) {
    const answer = await ask<ThreadAnswer & { type: 'token' }>({ type: 'token', id: nextId++, key });
    if (answer.token) return answer.token;
    try {
      const token = await exchange();
      tell({ type: 'token-set', key, token: sharedToken(token), rotated: false });
      return token;
    } catch (error) {
      tell({ type: 'token-failed', key });
      throw error;
    }
  },
  rotated(key, token) {
    tell({ type: 'token-set', key, token: sharedToken(token), rotated: true });
  },
};

function sharedToken(token: SharedToken): SharedToken {
  return { env: token.env, value: token.value, ...(token.preamble !== undefined ? { preamble: token.preamble } : {}) };
}

/** Joins the run's worker threads (`given`: this worker's place, from its worker data). */
export function joinThreads(given: { index: number; count: number } | undefined): void {
  threads = given && given.count > 1 ? given : undefined;
  if (!threads) return;
  pending = new Map();
  parentPort?.on('message', (answer: ThreadAnswer | { type: string }) => {
    const id = (answer as { id?: unknown }).id;
    if (typeof id !== 'number' || answer.type === 'cancel') return;
    const answered = pending.get(id);
    pending.delete(id);
    answered?.(answer as ThreadAnswer);
  });
  shareSessions(sessionBroker);
}

/** Whether this worker is one of several. */
export function sharedRun(): boolean {
  return threads !== undefined;
}

/** The run's scheduler as this worker reaches it. */
export function checkScheduler(concurrency: number): CheckScheduler {
  return threads ? new SharedScheduler() : new Scheduler(concurrency);
}

/** The next group of checks for this worker to run (groups are numbered alike in every worker). */
export async function nextGroup(): Promise<number> {
  const answer = await ask<ThreadAnswer & { type: 'group' }>({ type: 'next-group', id: nextId++ });
  return answer.group;
}
