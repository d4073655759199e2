/**
 * The run's journal (src/runner/cleanup.ts): every record a check creates, one JSON line each. The
 * runner deletes those the API can delete when the run ends and counts the others per family, so
 * that the summary says what the run left on the target.
 */
import { appendFileSync } from 'node:fs';
import type { JournalEntry, RunConfig } from '../../src/runner/base/model.js';
import { familyOf } from '../../src/profile/index.js';
import type { ApiRequest, ApiResponse } from './exchange.js';

/** Notes a record the run created (one write per line: the lines of concurrent checks never mix). */
export function noteCreated(config: RunConfig, entry: JournalEntry): void {
  if (config.journal) appendFileSync(config.journal, `${JSON.stringify(entry)}\n`);
}

/** Notes what an answer says was created, for the families whose registration lists the operations
 * that create (others' helpers note theirs themselves, with the operation that deletes them), and a
 * record a check deleted itself (the cleanup then leaves it alone). */
export function noteAnswer(config: RunConfig, req: ApiRequest, res: ApiResponse): void {
  if (!config.journal) return;
  const id = Object.values(req.params ?? {})[0];
  if (req.op.endsWith('.delete') && !req.route && res.status >= 200 && res.status < 300 && id !== undefined) {
    noteCreated(config, { deleteOp: req.op, id, label: id, deleted: true });
    return;
  }
  const entry = createdBy(req, res);
  if (entry) noteCreated(config, entry);
}

/** The journal entry of a record the answer created, as the operation's family says (`creates`). */
function createdBy(req: ApiRequest, res: ApiResponse): JournalEntry | undefined {
  const family = familyOf(req.op);
  const creates = family.creates?.[req.op];
  if (!creates || req.route || res.status < 200 || res.status > 299 || (creates.only201 && res.status !== 201)) return undefined;
  const id = typeof res.json === 'object' && res.json !== null ? (res.json as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || id === '') return undefined;
  return { family: family.name, collection: creates.collection, id, label: `${creates.collection} ${id}` };
}
