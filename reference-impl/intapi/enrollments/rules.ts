import type { Behaviour } from '../behaviour.js';
import { formatInstant } from '../../rules/datetime.js';
import type { EnrollmentRuleRecord } from '../store/enrollments.js';
import type { UserRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { freshId } from '../requests.js';

/**
 * Automatic enrollment rules (spec#what-the-service-does 5; spec#limits, "Dynamic-rule processing
 * delay: up to 10 minutes"). A rule enrolls the users whose property equals its value in its course,
 * and withdraws the enrollments it made from users who stop matching. User changes are not applied
 * at once ("not necessarily enrolled at once"): they are processed in batches on the server's clock,
 * one at every multiple of `batchMs` since the server started, each applying every change made
 * before it. Evaluation is lazy: `catchUp()` runs the batches that are due, and the Integration API
 * calls it at the start of every request, so there is no timer to leak and a test drives the batches
 * with a fake clock. Since every change comes through a request, which first runs the batches due,
 * a late batch sees the users as they were at its time.
 */
export interface RuleBatches {
  /** Runs the batches due by the clock's time. */
  catchUp(): void;
}

export interface RuleDeps {
  readonly store: Store;
  readonly behaviour: Behaviour['enrollmentRules'];
  readonly clock: () => Date;
  readonly ids: () => string;
  /** The batch interval, in milliseconds. */
  readonly batchMs: number;
}

export function ruleBatches({ store, behaviour, clock, ids, batchMs }: RuleDeps): RuleBatches {
  const book = store.enrollments;
  const startedAt = clock().getTime();
  /** Users changed since the batches last ran, with the time of their latest change, by id key. */
  const changed = new Map<string, { readonly userId: string; readonly at: number }>();
  // Every user write counts as a change (the seed's users were written before the server started).
  store.users.onWrite((_position, _previous, user) => {
    const key = user.id.toLowerCase();
    changed.delete(key);
    changed.set(key, { userId: user.id, at: clock().getTime() });
  });

  const matches = (user: UserRecord, rule: EnrollmentRuleRecord): boolean => behaviour.match === 'everyone' || user[rule.property] === rule.value;

  const apply = (user: UserRecord): void => {
    for (const rule of book.rules.values()) {
      if (book.isDeleted(rule.courseId)) continue;
      const enrollment = book.find(user.id, rule.courseId);
      if (matches(user, rule)) {
        if (enrollment !== undefined) continue;
        const id = freshId(ids, (candidate) => book.records.has(candidate));
        book.saveByRule({
          id,
          userId: user.id,
          courseId: rule.courseId,
          sessionIds: [],
          status: 0,
          credits: null,
          enrollmentDate: formatInstant(clock().getTime()),
        });
        store.enroll(user.id, rule.courseId);
      } else if (enrollment !== undefined && book.isByRule(enrollment.id) && behaviour.unenroll === 'withdraw') {
        book.withdraw(enrollment.id);
        store.unenroll(user.id, rule.courseId);
      }
    }
  };

  return {
    catchUp() {
      if (behaviour.apply === 'never' || changed.size === 0) return;
      const now = clock().getTime();
      const lastBatch = startedAt + Math.floor((now - startedAt) / batchMs) * batchMs;
      // A change made at a batch's very time waits for the next one; under a fault, much longer.
      const before = lastBatch - behaviour.lagMs;
      for (const [key, change] of changed) {
        if (change.at >= before) continue;
        changed.delete(key);
        const user = store.users.get(change.userId);
        if (user !== undefined) apply(user);
      }
    },
  };
}
