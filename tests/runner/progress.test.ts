// The progress line of long runs (src/runner/progress.ts): live on a terminal, periodic in a log.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { Progress } from '../../src/runner/progress.js';
import type { CheckRunMeta } from '../../src/runner/base/model.js';

const meta = (requests: number, failed = false): Record<string, CheckRunMeta> => ({
  target: {
    requests,
    durationMs: 1,
    waited: { retryAfterMs: 0, maxRpsMs: 0, retries: 0 },
    violations: [],
    violationCounts: {},
    applied: {},
    ...(failed ? { failure: { expected: 'x', received: 'y', replay: 'r' } } : {}),
  },
});

describe('progress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('on a terminal: one line rewritten in place, with done/total, failures, rate and time left; cleared at the end', () => {
    const out: string[] = [];
    let now = 0;
    const p = new Progress({ isTTY: true, write: (s: string) => out.push(s) }, () => now);
    p.expect(4);
    now = 1000;
    p.checkDone(meta(100));
    now = 2000;
    p.checkDone(meta(100, true));
    expect(out.at(-1)).toBe('\r\u001b[2Klp-conformance: 2/4 checks, 1 failed, 100 requests/s, 2s elapsed, about 2s left');
    p.stop();
    expect(out.at(-1)).toBe('\r\u001b[2K');
  });

  test('without a terminal: nothing for a short run, then one line every 10 s, ending in a newline', () => {
    const out: string[] = [];
    let now = 0;
    const p = new Progress({ isTTY: false, write: (s: string) => out.push(s) }, () => now);
    p.expect(3);
    p.checkDone(meta(10));
    expect(out).toEqual([]);
    now = 10_000;
    vi.advanceTimersByTime(10_000);
    expect(out).toEqual(['lp-conformance: 1/3 checks, 0 failed, 1 requests/s, 10s elapsed, about 20s left\n']);
    p.stop();
    vi.advanceTimersByTime(30_000);
    expect(out).toHaveLength(1);
  });
});
