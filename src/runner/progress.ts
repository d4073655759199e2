/**
 * Progress of a long run on stderr (the report goes to stdout and files): checks done of total,
 * failures so far, requests per second, elapsed and estimated time. On a terminal one live line,
 * rewritten in place at most every 200 ms and cleared at the end; without a terminal (a CI log) one
 * line every 10 seconds, so a short run prints nothing.
 */
import type { CheckRunMeta } from './model.js';

export interface ProgressSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

const LIVE_EVERY_MS = 200;
const LOG_EVERY_MS = 10_000;

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export class Progress {
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
    for (const r of Object.values(results ?? {})) {
      this.done++;
      this.requests += r.requests;
      if (r.failure) this.failed++;
    }
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
