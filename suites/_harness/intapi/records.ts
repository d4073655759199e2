/**
 * Integration API records the checks work on: created through the API where the API can create
 * them, read from the profile where it cannot (users, courses, templates).
 */
import { expectStatus, fail } from '../failure.js';
import { marked } from '../marker.js';
import { notSetUp } from '../outcomes.js';
import type { ApiResponse } from '../http.js';
import { bodyOf, type Json } from '../records.js';
import type { CheckContext } from '../requirement.js';

/** A record id named by the profile, or the check is skipped: the target did not say. */
export function profileRecord(t: CheckContext, name: 'userId' | 'otherUserId' | 'courseId' | 'templateId' | 'managerId'): string {
  const id = t.profile.records[name];
  if (!id) t.skip(`the profile names no records.${name}`);
  return id;
}

export function enrollment(t: CheckContext): { userId: string; courseId: string } {
  const e = t.profile.records.enrollment;
  if (!e) t.skip('the profile names no records.enrollment');
  return e;
}

export function validSubmission(t: CheckContext): Json {
  return {
    userId: profileRecord(t, 'userId'),
    templateId: profileRecord(t, 'templateId'),
    title: marked(t, 'lp-conformance submission'),
    completionDate: '2024-05-01T10:00:00.000Z',
  };
}

/**
 * The id of a record a check created to work on. A refusal, or a success without an id, ends the
 * check "not set up" (outcomes.ts): its rule is not judged; which success status the create answers
 * is the operation's success-status check's rule.
 */
export function createdRecord(res: ApiResponse, what: string): string {
  const id = typeof res.json === 'object' && res.json !== null ? (res.json as Json).id : undefined;
  if (res.status < 200 || res.status > 299 || typeof id !== 'string') notSetUp(res, what);
  return id;
}

export async function createSubmission(t: CheckContext, body: Json = validSubmission(t)): Promise<string> {
  return createdRecord(await t.http.send({ op: 'submissions.create', json: body }), 'a submission to work on');
}

export function validQuestionBank(t: CheckContext): Json {
  return { name: marked(t, 'lp-conformance bank') };
}

export async function createQuestionBank(t: CheckContext, body: Json = validQuestionBank(t)): Promise<string> {
  return createdRecord(await t.http.send({ op: 'questionBanks.create', json: body }), 'a question bank to work on');
}

export function validQuestion(t: CheckContext): Json {
  return { questionType: 'SingleAnswer', name: marked(t, 'lp-conformance question'), questionOptions: [{ name: 'yes', isCorrect: true, order: 0 }] };
}

export async function createQuestion(t: CheckContext, questionBankId: string, body: Json = validQuestion(t)): Promise<string> {
  return createdRecord(await t.http.send({ op: 'questions.create', params: { questionBankId }, json: body }), 'a question to work on');
}

/** totalItems of a paged list: the size of the whole collection. */
export async function countOf(
  t: CheckContext,
  op: 'submissions.list' | 'questionBanks.list' | 'questions.list',
  params?: Record<string, string>,
): Promise<number> {
  const res = await t.http.send({ op, ...(params ? { params } : {}), query: { _limit: 1 } });
  expectStatus(res, 200, 'counting the collection');
  const total = bodyOf(res).totalItems;
  if (typeof total !== 'number') fail('an envelope with totalItems', `totalItems ${JSON.stringify(total)}`, res);
  return total;
}

/** A user body (update and upsert; the reference server's fields) with a username no other check or
 * run uses: the run's marker, a tag naming the check's purpose, and a value from the check's seed. */
export function validUser(t: CheckContext, tag: string): Json {
  return { username: `lpc-${t.config.runId ?? '000000'}-${tag}-${t.uuid().slice(0, 8)}`, firstName: 'Lp', lastName: 'Conformance' };
}

/** Creates a user through the upsert (a username no one has) and answers its id. */
export async function createUser(t: CheckContext, tag: string, body: Json = validUser(t, tag)): Promise<string> {
  return createdRecord(await t.http.send({ op: 'users.upsert', json: body }), 'a user to work on');
}
