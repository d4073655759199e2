/**
 * Progress of a long run on stderr (the report goes to stdout and files): checks done of total,
 * failures so far, requests per second, elapsed and estimated time. On a terminal one live line,
 * rewritten in place at most every 200 ms and cleared at the end; without a terminal (a CI log) one
 * line every 10 seconds, so a short run prints nothing.
 */
import type { CheckRunMeta } from './base/model.js';

export interface ProgressSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** What a run tells whoever follows its progress: the checks it will make, each check that ended. */
export interface ProgressListener {
  expect(checks: number): void;
  /** Invariants the run will report: checks of the total, judged when the run ends. */
  expectInvariants(invariants: number): void;
  /** The run ended: its invariants are judged. */
  invariantsDone(): void;
  checkDone(results: Record<string, CheckRunMeta> | undefined): void;
  stop(): void;
}

/** One step of a run's progress, as a shard's run sends it to the run that started it (over IPC): the
 * checks it will make, or checks that ended (with their requests and failures). */
export type ProgressEvent =
  | { expect: number }
  | { done: number; failed: number; requests: number }
  // The invariants a shard will report, and their end: every shard of a run selects the same, and the
  // merged run reports them once.
  | { invariants: number }
  | { invariantsDone: true };

/** A listener that sends each step as a ProgressEvent (`send`: the IPC channel to the parent run). */
export function relayProgress(send: (event: ProgressEvent) => void): ProgressListener {
  return {
    expect: (checks) => send({ expect: checks }),
    expectInvariants: (n) => send({ invariants: n }),
    invariantsDone: () => send({ invariantsDone: true }),
    checkDone: (results) => {
      const ended = Object.values(results ?? {});
      send({ done: ended.length, failed: ended.filter((r) => r.failure).length, requests: ended.reduce((n, r) => n + r.requests, 0) });
    },
    stop: () => undefined,
  };
}

const LIVE_EVERY_MS = 200;
const LOG_EVERY_MS = 10_000;

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export class Progress implements ProgressListener {
  private total = 0;
  private done = 0;
  private failed = 0;
  private requests = 0;
  private readonly started: number;
  private last = 0;
  private shown = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: ProgressSink,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    // Without a terminal a line is due every 10 s even while no check ends (one long check).
    if (!sink.isTTY) {
      this.timer = setInterval(() => this.print(), LOG_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Checks the run will make (tests × the targets that select them). */
  expect(checks: number): void {
    this.total += checks;
  }

  private invariants = 0;

  /** Invariants the run will report: checks of the total, judged when the run ends. */
  expectInvariants(invariants: number): void {
    this.invariants += invariants;
    this.total += invariants;
  }

  /** The run ended: its invariants are judged. */
  invariantsDone(): void {
    this.done += this.invariants;
    this.invariants = 0;
  }

  /** One check ended, with what it found against each target. */
  checkDone(results: Record<string, CheckRunMeta> | undefined): void {
    const ended = Object.values(results ?? {});
    this.add({ done: ended.length, failed: ended.filter((r) => r.failure).length, requests: ended.reduce((n, r) => n + r.requests, 0) });
  }

  /** A step of another run's progress (a shard's, relayed). */
  add(event: ProgressEvent): void {
    if ('expect' in event) {
      this.expect(event.expect);
      return;
    }
    if ('invariants' in event) {
      // Counted once, however many shards report them.
      if (event.invariants > this.invariants) this.expectInvariants(event.invariants - this.invariants);
      return;
    }
    if ('invariantsDone' in event) {
      this.invariantsDone();
      return;
    }
    this.done += event.done;
    this.failed += event.failed;
    this.requests += event.requests;
    if (this.sink.isTTY && this.now() - this.last >= LIVE_EVERY_MS) this.print();
  }

  line(): string {
    const elapsed = this.now() - this.started;
    const rate = elapsed > 0 ? (this.requests * 1000) / elapsed : 0;
    const eta = this.done > 0 && this.total > this.done ? `, about ${clock((elapsed * (this.total - this.done)) / this.done)} left` : '';
    return `lp-conformance: ${this.done}/${this.total} checks, ${this.failed} failed, ${rate.toFixed(0)} requests/s, ${clock(elapsed)} elapsed${eta}`;
  }

  private print(): void {
    this.last = this.now();
    if (this.sink.isTTY) {
      this.sink.write(`\r\u001b[2K${this.line()}`);
      this.shown = true;
    } else {
      this.sink.write(`${this.line()}\n`);
    }
  }

  /** The run is over: stop the periodic line and clear the live one. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.shown) this.sink.write('\r\u001b[2K');
  }
}
