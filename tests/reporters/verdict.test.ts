// The one verdict (reporters/verdict.ts): each check's mark, the counts (each check once), the
// outcome, the exit code and the two lines every report prints, for the kinds of run there are.
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_NOT_RUN, INTERRUPTED_STOPPED, markInterrupted, type CheckResult } from '../../src/runner/base/model.js';
import { markOf, verdictOf } from '../../reporters/verdict.js';
import { baseRun, MAY_FAILED, MUST_FAILED, ORDINARY_RUN, PASSED, PROFILE_FAILED, SHOULD_FAILED, SKIPPED } from './run-results.js';

const known = (check: CheckResult): CheckResult => ({ ...check, known: { baseline: 'b.yml', reason: 'r' } });

describe('markOf', () => {
  it('marks a failure by whether it fails the run: FAIL, WARN (advisory), KNOWN (baseline)', () => {
    expect([MUST_FAILED, PROFILE_FAILED, SHOULD_FAILED, MAY_FAILED].map((c) => markOf(c))).toEqual(['FAIL', 'FAIL', 'WARN', 'WARN']);
    expect([MUST_FAILED, PROFILE_FAILED, SHOULD_FAILED, MAY_FAILED].map((c) => markOf(c, true))).toEqual(['FAIL', 'FAIL', 'FAIL', 'WARN']);
    expect(markOf(known(MUST_FAILED))).toBe('KNOWN');
    expect(markOf(known(SHOULD_FAILED), true)).toBe('KNOWN');
  });

  it('marks the checks an interrupted run did not finish INTERRUPTED, other skipped checks SKIP', () => {
    expect(markOf(SKIPPED)).toBe('SKIP');
    expect(markOf({ ...SKIPPED, skipReason: INTERRUPTED_NOT_RUN })).toBe('INTERRUPTED');
    expect(markOf({ ...SKIPPED, skipReason: INTERRUPTED_STOPPED })).toBe('INTERRUPTED');
    expect(markOf(PASSED)).toBe('PASS');
  });
});

describe('verdictOf', () => {
  it('an ordinary run: FAILED, each check counted once, failures by level', () => {
    const v = verdictOf(ORDINARY_RUN);
    expect(v).toMatchObject({ outcome: 'failed', exitCode: 1, failOn: 'must' });
    expect(v.counts).toEqual({ checks: 8, passed: 2, failed: 3, advisory: 2, known: 0, skipped: 1, interrupted: 0 });
    expect(v.headline).toBe('FAILED: 3 checks fail the run (2 MUST, 1 PROFILE); 2 advisory (1 SHOULD, 1 MAY)');
    expect(v.tally).toBe('8 checks, 2 passed, 3 failed, 2 advisory, 1 skipped');
  });

  it('under --strict a SHOULD failure fails the run', () => {
    const v = verdictOf(baseRun([PASSED, SHOULD_FAILED]), { strict: true });
    expect(v).toMatchObject({ outcome: 'failed', exitCode: 1, failOn: 'should', headline: 'FAILED: 1 check fails the run (1 SHOULD)' });
    expect(verdictOf(baseRun([PASSED, SHOULD_FAILED])).headline).toBe('PASSED: no MUST or PROFILE check failed; 1 advisory (1 SHOULD)');
  });

  it('a baseline run whose failures are all known: PASSED, and says the known ones', () => {
    const run = { ...baseRun([PASSED, known(MUST_FAILED), known(PROFILE_FAILED)]), baseline: { file: 'b.yml', known: 2, nowPassing: [] } };
    const v = verdictOf(run);
    expect(v).toMatchObject({ outcome: 'passed', exitCode: 0 });
    expect(v.headline).toBe('PASSED: no new failure of a MUST or PROFILE check; 2 known from the baseline');
    expect(v.tally).toBe('3 checks, 1 passed, 0 failed, 0 advisory, 2 known, 0 skipped');
  });

  it('a baseline run with a new failure: FAILED, the known ones said too', () => {
    const run = { ...baseRun([MUST_FAILED, known(PROFILE_FAILED)]), baseline: { file: 'b.yml', known: 1, nowPassing: [] } };
    expect(verdictOf(run).headline).toBe('FAILED: 1 check fails the run (1 MUST); 1 known from the baseline');
  });

  it('an interrupted run: INTERRUPTED whatever the checks found, exit 130 or 143', () => {
    const run = markInterrupted(baseRun([MUST_FAILED, { ...PASSED, id: 'p' }]), 'SIGINT', [{ ...PASSED, id: 'not.run' }]);
    const v = verdictOf(run);
    expect(v).toMatchObject({ outcome: 'interrupted', exitCode: 130, signal: 'SIGINT' });
    expect(v.counts).toMatchObject({ checks: 3, failed: 1, interrupted: 1 });
    expect(v.headline).toBe('INTERRUPTED by SIGINT: 1 of 3 checks did not finish; of those that finished, 1 fails the run');
    expect(v.tally).toBe('3 checks, 1 passed, 1 failed, 0 advisory, 0 skipped, 1 interrupted');
    expect(verdictOf(markInterrupted(baseRun([PASSED]), 'SIGTERM')).exitCode).toBe(143);
  });

  it('a passing run and an empty one', () => {
    expect(verdictOf(baseRun([PASSED]))).toMatchObject({ outcome: 'passed', exitCode: 0, headline: 'PASSED: no MUST or PROFILE check failed' });
    expect(verdictOf(baseRun([])).tally).toBe('0 checks, 0 passed, 0 failed, 0 advisory, 0 skipped');
  });
});

describe('markInterrupted', () => {
  it('keeps the checks that finished and adds the selected ones without a result as not run', () => {
    const run = markInterrupted(baseRun([PASSED]), 'SIGTERM', [PASSED, { ...SKIPPED, id: 'x.y.z' }]);
    expect(run.interrupted).toEqual({ signal: 'SIGTERM' });
    expect(run.checks.map((c) => [c.id, c.status, c.skipReason])).toEqual([
      [PASSED.id, 'passed', undefined],
      ['x.y.z', 'skipped', INTERRUPTED_NOT_RUN],
    ]);
  });
});
