/**
 * The run's journal (src/runner/cleanup.ts): every record a check creates, one JSON line each. The
 * runner deletes those the API can delete when the run ends and counts the others per family, so
 * that the summary says what the run left on the target.
 */
import { appendFileSync } from 'node:fs';
import type { JournalEntry, RunConfig } from '../../src/runner/model.js';
import type { ApiRequest, ApiResponse } from './http.js';
import { intapiCreated } from './intapi/created.js';

/** Notes a record the run created (one write per line: the lines of concurrent checks never mix). */
export function noteCreated(config: RunConfig, entry: JournalEntry): void {
  if (config.journal) appendFileSync(config.journal, `${JSON.stringify(entry)}\n`);
}

/** Notes what an answer says was created, for the families whose records the client sees created
 * (the SCIM helpers note theirs themselves, with the operation that deletes them), and a record a
 * check deleted itself (the cleanup then leaves it alone). */
export function noteAnswer(config: RunConfig, req: ApiRequest, res: ApiResponse): void {
  if (!config.journal) return;
  const id = Object.values(req.params ?? {})[0];
  if (req.op.endsWith('.delete') && !req.route && res.status >= 200 && res.status < 300 && id !== undefined) {
    noteCreated(config, { deleteOp: req.op, id, label: id, deleted: true });
    return;
  }
  const entry = intapiCreated(req, res);
  if (entry) noteCreated(config, entry);
}
