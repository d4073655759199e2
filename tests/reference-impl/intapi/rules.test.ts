// The automatic enrollment rule's batches (reference-impl/intapi/enrollments/rules.ts), over real HTTP
// on loopback with a fake clock: a user change is applied by the first batch after it, never at once;
// a user who stops matching loses the enrollment the rule made (only that one); and each rule fault
// breaks its rule.
import { describe, expect, test } from 'vitest';
import { createReferenceServer, SEED_IDS } from '../../../reference-impl/index.js';
import { type Harness, itemsOf, startServer } from './_support.js';

const BATCH_MS = 1000;
const RULE = SEED_IDS.enrollmentRule;
const START = Date.parse('2026-03-02T09:00:00.000Z');

/** A server on a fake clock that starts at START; `at(ms)` sets the clock to START + ms. */
async function serverAt(faults: string[] = []): Promise<Harness & { at(ms: number): void }> {
  let now = START;
  const h = await startServer({ clock: () => new Date(now), ruleBatchMs: BATCH_MS, faults });
  return Object.assign(h, { at: (ms: number) => void (now = START + ms) });
}

let users = 0;
/** Creates a user (the upsert) with the job title given; answers its id. */
async function userWith(h: Harness, jobTitle: string | null): Promise<string> {
  const res = await h.call('POST', '/users', { body: { username: `rule-user-${++users}`, firstName: 'R', lastName: 'U', jobTitle } });
  expect(res.status).toBe(201);
  return String(res.obj.id);
}

async function setJobTitle(h: Harness, userId: string, jobTitle: string | null): Promise<void> {
  const user = (await h.get(`/users/${userId}`)).obj;
  const res = await h.call('PUT', `/users/${userId}`, { body: { username: user.username, firstName: 'R', lastName: 'U', jobTitle } });
  expect(res.status).toBe(200);
}

/** Whether the user's enrollments list the rule's course. */
async function enrolled(h: Harness, userId: string): Promise<boolean> {
  const items = itemsOf(await h.get(`/users/${userId}/enrollments?_limit=1000`), 'enrollments');
  return items.some((e) => String(e.courseId).toLowerCase() === RULE.courseId);
}

async function withServer(faults: string[], body: (h: Harness & { at(ms: number): void }) => Promise<void>): Promise<void> {
  const h = await serverAt(faults);
  try {
    await body(h);
  } finally {
    await h.close();
  }
}

describe('batches', () => {
  test('a matching user is not enrolled before the next batch, and is at it; a user who does not match is not', () =>
    withServer([], async (h) => {
      h.at(100);
      const matching = await userWith(h, RULE.value);
      const other = await userWith(h, 'Engineer');
      expect(await enrolled(h, matching)).toBe(false);
      h.at(BATCH_MS - 1);
      expect(await enrolled(h, matching)).toBe(false);
      h.at(BATCH_MS);
      expect(await enrolled(h, matching)).toBe(true);
      expect(await enrolled(h, other)).toBe(false);
      const enrollment = itemsOf(await h.get(`/users/${matching}/enrollments`), 'enrollments').find((e) => e.courseId === RULE.courseId);
      expect(enrollment).toMatchObject({ userId: matching, status: 0, sessionIds: [], enrollmentDate: new Date(START + BATCH_MS).toISOString() });
    }));

  test('a change made at a batch time waits for the next batch; late requests see every batch due', () =>
    withServer([], async (h) => {
      h.at(2 * BATCH_MS);
      const matching = await userWith(h, RULE.value);
      expect(await enrolled(h, matching)).toBe(false);
      h.at(3 * BATCH_MS - 1);
      expect(await enrolled(h, matching)).toBe(false);
      // No request at the batch time itself: the next request runs it.
      h.at(7 * BATCH_MS + 500);
      expect(await enrolled(h, matching)).toBe(true);
    }));

  test('a user whose job title stops matching is unenrolled by the next batch, and enrolled anew when it matches again', () =>
    withServer([], async (h) => {
      const user = await userWith(h, RULE.value);
      h.at(BATCH_MS);
      expect(await enrolled(h, user)).toBe(true);
      const first = itemsOf(await h.get(`/users/${user}/enrollments`), 'enrollments').find((e) => e.courseId === RULE.courseId)?.id;
      h.at(BATCH_MS + 10);
      await setJobTitle(h, user, 'Engineer');
      expect(await enrolled(h, user)).toBe(true);
      h.at(2 * BATCH_MS);
      expect(await enrolled(h, user)).toBe(false);
      expect((await h.get(`/users/${user}/resources`, { version: '1' })).list).toEqual([]);
      await setJobTitle(h, user, RULE.value);
      h.at(3 * BATCH_MS);
      expect(await enrolled(h, user)).toBe(true);
      const second = itemsOf(await h.get(`/users/${user}/enrollments`), 'enrollments').find((e) => e.courseId === RULE.courseId)?.id;
      expect(second).not.toBe(first);
    }));

  test("an enrollment the API wrote is not the rule's to withdraw", () =>
    withServer([], async (h) => {
      // Enrolled by the rule, then written through the API (the enrollment is now the API's).
      const confirmed = await userWith(h, RULE.value);
      // Never matched, enrolled through the API.
      const manual = await userWith(h, 'Engineer');
      h.at(BATCH_MS);
      expect(await enrolled(h, confirmed)).toBe(true);
      expect((await h.call('POST', `/users/${confirmed}/enrollments`, { body: { courseId: RULE.courseId, status: 1 } })).status).toBe(200);
      expect((await h.call('POST', `/users/${manual}/enrollments`, { body: { courseId: RULE.courseId } })).status).toBe(201);
      await setJobTitle(h, confirmed, null);
      await setJobTitle(h, manual, null);
      h.at(2 * BATCH_MS);
      expect(await enrolled(h, confirmed)).toBe(true);
      expect(await enrolled(h, manual)).toBe(true);
    }));

  test('ruleBatchMs must be a positive integer', () => {
    for (const ruleBatchMs of [0, -1, 1.5, Number.NaN]) expect(() => createReferenceServer({ ruleBatchMs })).toThrow(/ruleBatchMs must be a positive integer/);
  });
});

describe('the rule faults', () => {
  test('intapi.rule-enrollment-never: no batch ever enrolls', () =>
    withServer(['intapi.rule-enrollment-never'], async (h) => {
      const user = await userWith(h, RULE.value);
      h.at(20 * BATCH_MS);
      expect(await enrolled(h, user)).toBe(false);
    }));

  test('intapi.rule-enrollment-late: the enrollment comes only after the 10 minutes of the delay limit', () =>
    withServer(['intapi.rule-enrollment-late'], async (h) => {
      const user = await userWith(h, RULE.value);
      h.at(10 * 60_000);
      expect(await enrolled(h, user)).toBe(false);
      h.at(10 * 60_000 + BATCH_MS);
      expect(await enrolled(h, user)).toBe(true);
    }));

  test('intapi.rule-enrolls-everyone: a changed user who does not match is enrolled too', () =>
    withServer(['intapi.rule-enrolls-everyone'], async (h) => {
      const other = await userWith(h, 'Engineer');
      h.at(BATCH_MS);
      expect(await enrolled(h, other)).toBe(true);
    }));

  test('intapi.rule-never-unenrolls: a user who stops matching keeps the enrollment', () =>
    withServer(['intapi.rule-never-unenrolls'], async (h) => {
      const user = await userWith(h, RULE.value);
      h.at(BATCH_MS);
      await setJobTitle(h, user, 'Engineer');
      h.at(2 * BATCH_MS);
      expect(await enrolled(h, user)).toBe(true);
    }));
});
