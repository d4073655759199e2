/**
 * The Integration API's records a run creates. The API has no delete operation, so the run cannot
 * remove them: the journal counts them (src/runner/cleanup.ts), and the summary says how many of
 * each collection the run left. A record counts when the answer says it was created: a create
 * operation's 2xx, and an operation that creates or updates (the user upsert, an enrollment) only
 * with 201 Created (RFC 9110 §15.3.2).
 */
import type { OperationId } from '../../../src/profile/index.js';
import type { JournalEntry } from '../../../src/runner/model.js';
import type { ApiRequest, ApiResponse } from '../http.js';

const CREATES: Partial<Record<OperationId, { collection: string; only201?: true }>> = {
  'submissions.create': { collection: 'submissions' },
  'questionBanks.create': { collection: 'questionBanks' },
  'questions.create': { collection: 'questions' },
  'groups.create': { collection: 'groups' },
  'users.upsert': { collection: 'users', only201: true },
  'enrollments.create': { collection: 'enrollments', only201: true },
};

/** The journal entry of a record the answer created, if it created one. */
export function intapiCreated(req: ApiRequest, res: ApiResponse): JournalEntry | undefined {
  const creates = CREATES[req.op];
  if (!creates || req.route || res.status < 200 || res.status > 299 || (creates.only201 && res.status !== 201)) return undefined;
  const id = typeof res.json === 'object' && res.json !== null ? (res.json as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || id === '') return undefined;
  return { family: 'intapi', collection: creates.collection, id, label: `${creates.collection} ${id}` };
}
