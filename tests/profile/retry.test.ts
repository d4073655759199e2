// honouring429 (src/target/base/retry.ts): shared by the suites' client and the session's log-in.
import { describe, expect, test, vi } from 'vitest';
import { honouring429, MAX_ATTEMPTS_429, MAX_RETRY_AFTER_MS } from '../../src/target/base/retry.js';

const answer = (statusCode: number, retryAfter?: string) => ({ statusCode, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } });

describe('honouring429', () => {
  test('waits out each Retry-After and sends again until the answer is not 429', async () => {
    vi.useFakeTimers();
    try {
      const answers = [answer(429, '1'), answer(429, '2'), answer(200)];
      const attempt = vi.fn(async () => answers.shift() ?? answer(500));
      const waits: number[] = [];
      const done = honouring429(attempt, (ms) => waits.push(ms));
      await vi.runAllTimersAsync();
      expect((await done).statusCode).toBe(200);
      expect(attempt).toHaveBeenCalledTimes(3);
      expect(waits).toEqual([1000, 2000]);
    } finally {
      vi.useRealTimers();
    }
  });

  test(`gives up after ${MAX_ATTEMPTS_429} attempts, and does not wait longer than ${MAX_RETRY_AFTER_MS} ms`, async () => {
    vi.useFakeTimers();
    try {
      const always = vi.fn(async () => answer(429, '0'));
      const done = honouring429(always);
      await vi.runAllTimersAsync();
      expect((await done).statusCode).toBe(429);
      expect(always).toHaveBeenCalledTimes(MAX_ATTEMPTS_429);
      const tooLong = vi.fn(async () => answer(429, String(MAX_RETRY_AFTER_MS / 1000 + 1)));
      expect((await honouring429(tooLong)).statusCode).toBe(429);
      expect(tooLong).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
