/**
 * The runner's side of a run in several worker threads (one process, one target server or
 * several): every worker loads the suites, and runs the groups of checks (a suite file each) it
 * asks for, one group after the other, so that the checks of a file, which may share a record made
 * once per server, run in one worker. What must be one for the whole run lives here:
 * - the scheduler (src/util/scheduler.ts): a worker asks for a check's slot and locks before it
 *   starts it and releases them when it ends, so `--concurrency` and the collection locks hold
 *   over all workers;
 * - the session tokens: a new token revokes the previous one, so the first worker to need a
 *   family's token makes the token exchange and the others are handed its token; a check that
 *   rotates the session (it holds the session key alone) hands the new one on, and every later
 *   grant tells the workers to forget the tokens they hold.
 */
import { Scheduler } from '../util/scheduler.js';
import type { SharedToken, ThreadAnswer, ThreadAsk } from './base/model.js';

/** The number of worker threads of a run: the `requested`, by default one. Several (`--workers N`) share the scheduler and the
 * session tokens; against the bundled server, which answers on the process's main thread, a second
 * worker has not shortened a default run (the server's thread is the busy one), so more are asked
 * for, not assumed. One always for a run of checks one by one (`--concurrency 1`: registration
 * order) or paced to `--max-rps`. */
export function workersOf(run: { concurrency: number; maxRps?: number }, requested?: number): number {
  if (run.concurrency === 1 || run.maxRps !== undefined) return 1;
  return Math.max(1, Math.min(requested ?? 1, run.concurrency));
}

/** A token, or the word to make the token exchange. */
type TokenAnswer = { token: SharedToken } | { fetch: true };

interface TokenState {
  token?: SharedToken;
  /** The answers of workers waiting while one makes the token exchange. */
  waiting?: ((answer: TokenAnswer) => void)[];
}

export class ThreadBroker {
  private readonly scheduler: Scheduler;
  private readonly releases = new Map<string, () => void>();
  private readonly tokens = new Map<string, TokenState>();
  private nextGroup = 0;
  private epoch = 0;

  constructor(concurrency: number) {
    this.scheduler = new Scheduler(concurrency);
  }

  /** Handles a worker's ask (`worker`: its index); `reply` answers that worker. */
  handle(worker: number, ask: ThreadAsk, reply: (answer: ThreadAnswer) => void = () => undefined): void {
    switch (ask.type) {
      case 'acquire':
        void this.scheduler.run(
          ask.locks,
          () =>
            new Promise<void>((released) => {
              this.releases.set(`${worker} ${ask.id}`, released);
              reply({ type: 'granted', id: ask.id, epoch: this.epoch });
            }),
        );
        return;
      case 'release': {
        const key = `${worker} ${ask.id}`;
        this.releases.get(key)?.();
        this.releases.delete(key);
        return;
      }
      case 'next-group':
        reply({ type: 'group', id: ask.id, group: this.nextGroup++ });
        return;
      case 'token':
        this.token(ask.key, (answer) => reply({ type: 'token', id: ask.id, ...answer }));
        return;
      case 'token-set':
        this.tokenSet(ask.key, ask.token, ask.rotated);
        return;
      case 'token-failed':
        this.tokenFailed(ask.key);
        return;
    }
  }

  /** The checks of a worker that ended without releasing them (it failed) release their locks. */
  releaseAll(worker: number): void {
    for (const [key, released] of this.releases) {
      if (!key.startsWith(`${worker} `)) continue;
      released();
      this.releases.delete(key);
    }
  }

  private token(key: string, answer: (a: TokenAnswer) => void): void {
    const state = this.tokens.get(key);
    if (state?.token) return answer({ token: state.token });
    if (state?.waiting) {
      state.waiting.push(answer);
      return;
    }
    // This worker makes the token exchange; the others wait for its token.
    this.tokens.set(key, { waiting: [] });
    answer({ fetch: true });
  }

  private tokenSet(key: string, token: SharedToken, rotated: boolean): void {
    const waiting = this.tokens.get(key)?.waiting ?? [];
    this.tokens.set(key, { token });
    if (rotated) this.epoch++;
    for (const answer of waiting) answer({ token });
  }

  private tokenFailed(key: string): void {
    const waiting = this.tokens.get(key)?.waiting ?? [];
    const [next, ...rest] = waiting;
    if (!next) {
      this.tokens.delete(key);
      return;
    }
    // The next worker that asked tries the exchange itself (and fails as the first did, or not).
    this.tokens.set(key, { waiting: rest });
    next({ fetch: true });
  }
}
