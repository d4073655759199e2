// The tally behind t.degenerate() / t.outcome(): runs, degenerate runs, outcomes, and the
// "not exercised" threshold (suites/_harness/coverage.ts).
import { describe, expect, test } from 'vitest';
import { CoverageTally, MAX_DEGENERATE_SHARE, requiredRuns } from '../../suites/_harness/coverage.js';

async function tally(runs: number, degenerateEvery: (i: number) => string | undefined): Promise<CoverageTally> {
  const t = new CoverageTally();
  const predicate = t.wrap(async (i: number) => {
    const reason = degenerateEvery(i);
    if (reason) t.markDegenerate(reason);
    t.outcome(reason ? 'none' : `outcome-${i % 3}`);
  });
  for (let i = 0; i < runs; i++) await predicate(i);
  return t;
}

describe('coverage tally', () => {
  test('the threshold is a half, and N of M runs must exercise the rule', () => {
    expect(MAX_DEGENERATE_SHARE).toBe(0.5);
    expect(requiredRuns(100)).toBe(50);
    expect(requiredRuns(25)).toBe(13);
    expect(requiredRuns(1)).toBe(1);
  });

  test('counts runs, degenerate runs by reason, and distinct outcomes', async () => {
    const t = await tally(10, (i) => (i < 3 ? 'empty page' : undefined));
    expect(t.summary()).toEqual({ runs: 10, degenerate: 3, outcomes: ['none', 'outcome-0', 'outcome-1', 'outcome-2'], degenerateReasons: { 'empty page': 3 } });
    expect(t.shortfall()).toBeUndefined();
  });

  test('exactly half degenerate passes; one more fails as not exercised with the figures and reasons', async () => {
    expect((await tally(100, (i) => (i < 50 ? 'empty page' : undefined))).shortfall()).toBeUndefined();
    const short = (await tally(100, (i) => (i < 40 ? 'empty page' : i < 51 ? 'filter selects every item' : undefined))).shortfall();
    expect(short?.expected).toBe('at least 50 of 100 runs exercise the rule (not exercised otherwise)');
    expect(short?.received).toBe('51 of 100 runs were degenerate: empty page (40); filter selects every item (11)');
    expect((await tally(25, (i) => (i < 13 ? 'one item to sort' : undefined))).shortfall()?.received).toMatch(/^13 of 25 runs/);
    expect(short?.single).toBe(false);
  });

  test('a single degenerate run is a shortfall of one run only (the check is skipped, not failed); two of two are not', async () => {
    expect(await (await tally(1, () => 'empty page')).shortfall()).toEqual({
      expected: 'at least 1 of 1 runs exercise the rule (not exercised otherwise)',
      received: '1 of 1 runs were degenerate: empty page (1)',
      single: true,
    });
    expect((await tally(1, () => undefined)).shortfall()).toBeUndefined();
    expect((await tally(2, () => 'empty page')).shortfall()?.single).toBe(false);
  });

  test('a run marked twice counts once, with its first reason', async () => {
    const t = new CoverageTally();
    await t.wrap(async () => {
      t.markDegenerate('first');
      t.markDegenerate('second');
    })(0);
    expect(t.summary()).toMatchObject({ runs: 1, degenerate: 1, degenerateReasons: { first: 1 } });
  });

  test('the shrinking after a failed run is not counted', async () => {
    const t = new CoverageTally();
    const predicate = t.wrap(async (i: number) => {
      t.markDegenerate('empty page');
      if (i >= 2) throw new Error('property failed');
    });
    for (let i = 0; i < 6; i++) await predicate(i).catch(() => undefined);
    expect(t.summary()).toMatchObject({ runs: 3, degenerate: 3 });
  });

  test('outside a property predicate, degenerate() and outcome() are suite bugs', () => {
    const t = new CoverageTally();
    expect(() => t.markDegenerate('x')).toThrow(/inside a t.property predicate/);
    expect(() => t.outcome('x')).toThrow(/inside a t.property predicate/);
    expect(t.used).toBe(false);
  });
});
