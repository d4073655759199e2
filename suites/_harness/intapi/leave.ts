/**
 * What a run leaves of the records it creates. The Integration API has no delete
 * operation: a check done with a record it created updates it to a small body that carries the
 * run's marker, so that whatever values the record was created with (10,000-character descriptions),
 * what the run leaves is small and marked. Best effort: the answer is not judged here (the update
 * checks judge updates; the invariants still see the exchange).
 */
import { marked } from '../marker.js';
import type { CheckContext } from '../requirement.js';
import type { Json } from '../records.js';

/** The name a record is left with, behind the run's marker. */
const LEFT = 'left by lp-conformance';

async function leave(t: CheckContext, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch {
    // Whatever went wrong, the record stays as it was: the check's verdict is its own.
  }
}

export function leaveSubmission(t: CheckContext, id: string): Promise<void> {
  const body: Json = { title: marked(t, LEFT), completionDate: '2024-05-01T10:00:00.000Z' };
  return leave(t, () => t.http.send({ op: 'submissions.update', params: { id }, json: body }));
}

export function leaveQuestionBank(t: CheckContext, questionBankId: string): Promise<void> {
  return leave(t, () => t.http.send({ op: 'questionBanks.update', params: { questionBankId }, json: { name: marked(t, LEFT) } }));
}

export function leaveQuestion(t: CheckContext, questionBankId: string, questionId: string): Promise<void> {
  const body: Json = { questionType: 'Text', name: marked(t, LEFT), questionOptions: [] };
  return leave(t, () => t.http.send({ op: 'questions.update', params: { questionBankId, questionId }, json: body }));
}
