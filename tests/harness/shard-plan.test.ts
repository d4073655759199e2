// Shard plans (src/runner/shard.ts): every check in exactly one shard; checks that would disturb each
// other against one server (a writer and an observer of a collection, the users of a session the
// shards cannot share) in the same shard; a check's area whole; balanced by measured cost, not by
// count; the same inputs give the same plan and digest. Properties over generated suites of checks.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseShard, planShards, unitsOf, type PlanInput, type PlannedCheck } from '../../src/runner/shard.js';

const COLLECTIONS = ['submissions', 'templates', 'questions', 'users'];

const check = (id: string, area: string, uses?: PlannedCheck['uses']): PlannedCheck => ({ id, area, ...(uses ? { uses } : {}) });

/** A suite of checks of two families, each in an area, some writing, observing or rotating a session. */
const suites = fc
  .array(
    fc.record({
      family: fc.constantFrom('alpha', 'beta'),
      area: fc.integer({ min: 0, max: 6 }),
      write: fc.subarray(COLLECTIONS, { maxLength: 2 }),
      observe: fc.subarray(COLLECTIONS, { maxLength: 1 }),
      cost: fc.integer({ min: 0, max: 5000 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((rows) =>
    rows.map((r, i) => ({
      check: check(`${r.family}.area${r.area}.c${i}`, `${r.family}.area${r.area}`, {
        ...(r.write.length ? { write: r.write.map((c) => `${r.family}.${c}`) } : {}),
        ...(r.observe.length ? { observe: r.observe.map((c) => `${r.family}.${c}`) } : {}),
      }),
      cost: r.cost,
    })),
  );

function input(rows: { check: PlannedCheck; cost: number }[], count: number, over: Partial<PlanInput> = {}): PlanInput {
  return {
    checks: rows.map((r) => r.check),
    count,
    sharedServer: true,
    sessionOf: (id) => id.split('.')[0],
    unsharedSessions: new Set(),
    costs: new Map(rows.map((r) => [r.check.id, r.cost])),
    ...over,
  };
}

/** The shard of each check id. */
function shardOf(plan: ReturnType<typeof planShards>): Map<string, number> {
  return new Map(plan.shards.flatMap((ids, i) => ids.map((id) => [id, i] as const)));
}

describe('a shard plan', () => {
  test('puts every check in exactly one shard, each shard in registration order', () => {
    fc.assert(
      fc.property(suites, fc.integer({ min: 1, max: 5 }), (rows, count) => {
        const plan = planShards(input(rows, count));
        expect(plan.shards).toHaveLength(count);
        const all = plan.shards.flat();
        expect(all.sort()).toEqual(rows.map((r) => r.check.id).sort());
        const order = new Map(rows.map((r, i) => [r.check.id, i]));
        for (const ids of plan.shards) expect(ids.map((id) => order.get(id))).toEqual([...ids.map((id) => order.get(id))].sort((a, b) => a! - b!));
      }),
    );
  });

  test('against one server, never puts a writer and an observer of a collection in different shards', () => {
    fc.assert(
      fc.property(suites, fc.integer({ min: 2, max: 5 }), (rows, count) => {
        const of = shardOf(planShards(input(rows, count)));
        for (const w of rows) {
          for (const o of rows) {
            const clash = (w.check.uses?.write ?? []).some((c) => o.check.uses?.observe?.includes(c));
            if (clash) expect(of.get(w.check.id), `${w.check.id} writes what ${o.check.id} observes`).toBe(of.get(o.check.id));
          }
        }
      }),
    );
  });

  test('keeps each area whole, and a session the shards cannot share in one shard with every check that uses it', () => {
    fc.assert(
      fc.property(suites, fc.integer({ min: 2, max: 5 }), (rows, count) => {
        const of = shardOf(planShards(input(rows, count, { unsharedSessions: new Set(['beta']) })));
        const shardsOf = (pick: (c: PlannedCheck) => boolean) => new Set(rows.filter((r) => pick(r.check)).map((r) => of.get(r.check.id)));
        for (const area of new Set(rows.map((r) => r.check.area))) expect(shardsOf((c) => c.area === area).size).toBe(1);
        expect(shardsOf((c) => c.id.startsWith('beta.')).size).toBeLessThanOrEqual(1);
      }),
    );
  });

  test('with a server per shard, joins nothing but areas', () => {
    const rows = [
      check('alpha.a.w', 'alpha.a', { write: ['x'] }),
      check('alpha.b.o', 'alpha.b', { observe: ['x'] }),
      check('beta.c.r', 'beta.c', { rotatesSession: true }),
    ];
    const units = unitsOf({ checks: rows, sharedServer: false, sessionOf: (id) => id.split('.')[0], unsharedSessions: new Set(['alpha', 'beta']) });
    expect(units).toEqual([[0], [1], [2]]);
    const shared = unitsOf({ checks: rows, sharedServer: true, sessionOf: (id) => id.split('.')[0], unsharedSessions: new Set() });
    expect(shared).toEqual([[0, 1], [2]]);
  });

  test('balances measured cost, not count: the largest unit first, to the shard with the least', () => {
    const rows = [
      { check: check('a.slow.1', 'a.slow'), cost: 9000 },
      ...Array.from({ length: 9 }, (_, i) => ({ check: check(`a.quick${i}.x`, `a.quick${i}`), cost: 1000 })),
    ];
    const plan = planShards(input(rows, 2));
    expect(plan.shards[0]).toEqual(['a.slow.1']);
    expect(plan.costs).toEqual([9000, 9000]);
    // By count, without measured costs: five and five.
    const byCount = planShards(input(rows, 2, { costs: new Map() }));
    expect(byCount.shards.map((s) => s.length)).toEqual([5, 5]);
  });

  test('a check the earlier report does not name costs the median of those it does', () => {
    const rows = [check('a.one.x', 'a.one'), check('a.two.x', 'a.two'), check('a.three.x', 'a.three'), check('a.new.x', 'a.new')];
    const plan = planShards({
      ...input([], 2),
      checks: rows,
      costs: new Map([
        ['a.one.x', 100],
        ['a.two.x', 300],
        ['a.three.x', 900],
      ]),
    });
    expect(plan.costs.reduce((a, b) => a + b, 0)).toBe(100 + 300 + 900 + 300);
  });

  test('the same inputs give the same plan and digest; another partition another digest', () => {
    fc.assert(
      fc.property(suites, fc.integer({ min: 1, max: 4 }), (rows, count) => {
        const a = planShards(input(rows, count));
        const b = planShards(input(structuredClone(rows), count));
        expect(b).toEqual(a);
        expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
        expect(planShards(input(rows, count + 1)).digest).not.toBe(a.digest);
        expect(planShards(input(rows, count, { sharedServer: false })).digest).not.toBe(a.digest);
      }),
    );
  });
});

test('--shard I/N: from 1 to N', () => {
  expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
  for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/2/3', ' 1/2']) expect(parseShard(bad)).toBeUndefined();
});

test("a bundled run's durations are remembered for the next split, those of checks it did not run kept", async () => {
  const { rememberDurations } = await import('../../src/cli/parallel.js');
  const { readCosts } = await import('../../src/cli/shard.js');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const file = join(mkdtempSync(join(tmpdir(), 'lpc-durations-')), 'durations.json');
  const run = (checks: { id: string; durationMs: number; status: 'passed' | 'skipped' }[]) =>
    ({ checks }) as unknown as Parameters<typeof rememberDurations>[0];
  rememberDurations(
    run([
      { id: 'a.x', durationMs: 100, status: 'passed' },
      { id: 'b.y', durationMs: 200, status: 'passed' },
    ]),
    file,
  );
  rememberDurations(
    run([
      { id: 'a.x', durationMs: 150, status: 'passed' },
      { id: 'c.z', durationMs: 0, status: 'skipped' },
    ]),
    file,
  );
  expect(readCosts(file)).toEqual(
    new Map([
      ['b.y', 200],
      ['a.x', 150],
    ]),
  );
  // A cache that is not JSON is started again, not an error.
  writeFileSync(file, 'not json');
  rememberDurations(run([{ id: 'a.x', durationMs: 1, status: 'passed' }]), file);
  expect(readCosts(file)).toEqual(new Map([['a.x', 1]]));
});
