/**
 * Cleanup of what a run creates. A check that creates a record notes it in the run's journal (one
 * JSON line per record, written by the suites' worker); when the run ends, after its last check and
 * also after a failure or an interruption, the runner deletes every record of the journal the API
 * can delete (SCIM users and groups), unless the run keeps them (`--keep`), and counts per family
 * what was created, deleted and left. Records the Integration API cannot delete (it has no delete
 * operation) carry the run's marker `lpc-<run id>-` in a free-text field instead.
 *
 * `lp-conformance cleanup --target URL` removes the leftovers of earlier runs (a run killed before
 * its cleanup): every SCIM user whose userName, and every group whose displayName, starts with a
 * run marker.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'undici';
import { collectionOf, familyOf, operation, type Profile } from '../profile/index.js';
import type { CleanupReport, FamilyCleanup, JournalEntry } from './model.js';
import { createSecrets, MissingCredentialsError } from '../target/secrets.js';

export type { JournalEntry };

/** A new run id: 6 lower-case hex digits. */
export function newRunId(): string {
  return randomBytes(3).toString('hex');
}

/** The marker of a run's records. */
export const runMarker = (runId: string): string => `lpc-${runId}-`;

/** A marker of any run, at the start of a text. */
export const ANY_RUN_MARKER = /^lpc-[0-9a-f]{6}-/;

export interface CleanupOutcome {
  deleted: number;
  /** Already gone (404): a check deleted it itself. */
  gone: number;
  /** Records that could not be deleted, with the reason (the target's answer). */
  failed: string[];
}

export function readJournal(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  const entries = new Map<string, JournalEntry>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const e = JSON.parse(line) as JournalEntry;
      const key = `${e.deleteOp ?? `${e.family}.${e.collection}`} ${e.id}`;
      const known = entries.get(key);
      // A record a check deleted: its creation's entry, marked deleted (a deletion of a record the
      // run did not create is no record of the run).
      if (e.deleted) {
        if (known) entries.set(key, { ...known, deleted: true });
      } else if (!known) entries.set(key, e);
    } catch {
      // A line cut by an interruption names nothing whole.
    }
  }
  return [...entries.values()];
}

/** The family and collection of a journal entry (`scim`, `users` for `scim.users.delete`). */
export function placeOf(e: JournalEntry): { family: string; collection: string } {
  const op = e.deleteOp ?? '';
  return { family: e.family ?? familyOf(op), collection: e.collection ?? collectionOf(op).split('.').at(-1) ?? '' };
}

/**
 * What becomes of the records of a run's journal: those the API can delete are deleted (unless
 * `keep`), and the report counts per family what was created, deleted and left.
 */
export async function cleanUp(profile: Profile, entries: readonly JournalEntry[], timeoutMs: number, keep = false): Promise<CleanupReport> {
  const results = new Map<JournalEntry, 'deleted' | 'gone' | 'failed'>();
  const deletable = entries.filter((e) => e.deleteOp !== undefined && !e.deleted);
  const outcome = keep ? { deleted: 0, gone: 0, failed: [] } : await deleteRecords(profile, deletable, timeoutMs, (e, result) => results.set(e, result));
  const families: Record<string, FamilyCleanup> = {};
  for (const e of entries) {
    const { family, collection } = placeOf(e);
    const f = (families[family] ??= { created: {}, deleted: 0, gone: 0, left: 0 });
    f.created[collection] = (f.created[collection] ?? 0) + 1;
    const result = e.deleted ? 'gone' : results.get(e);
    if (result === 'deleted') f.deleted++;
    else if (result === 'gone') f.gone++;
    else f.left++;
    if (e.deleteOp === undefined) f.leftBecause = 'no delete operation';
    else if (keep) f.leftBecause = 'kept by --keep; lp-conformance cleanup deletes them';
  }
  const gone = outcome.gone + entries.filter((e) => e.deleted).length;
  return { ...outcome, gone, ...(keep ? { kept: true as const } : {}), families };
}

/** Deletes each record, a few at a time; `done` hears each record's result. */
export async function deleteRecords(
  profile: Profile,
  entries: readonly JournalEntry[],
  timeoutMs: number,
  done: (e: JournalEntry, result: 'deleted' | 'gone' | 'failed') => void = () => undefined,
): Promise<CleanupOutcome> {
  const outcome: CleanupOutcome = { deleted: 0, gone: 0, failed: [] };
  if (entries.length === 0) return outcome;
  let token: string;
  try {
    token = (await createSecrets(profile, timeoutMs).familyToken('scim')).value;
  } catch (error) {
    const why = error instanceof MissingCredentialsError ? error.message : String((error as Error).message ?? error);
    outcome.failed.push(...entries.map((e) => `${e.label}: no SCIM token (${why})`));
    for (const e of entries) done(e, 'failed');
    return outcome;
  }
  const base = profile.families.scim.baseUrl.replace(/\/+$/, '');
  const queue = [...entries];
  const worker = async (): Promise<void> => {
    for (let e = queue.shift(); e !== undefined; e = queue.shift()) {
      const { method, path } = operation(profile, e.deleteOp ?? 'scim.users.delete');
      const url = `${base}${path.replace(/\{\w+\}/, encodeURIComponent(e.id))}`;
      try {
        const res = await request(url, {
          method: method as 'DELETE',
          headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json', 'x-lpc-check': 'lpc.cleanup' },
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.body.dump();
        if (res.statusCode === 404) {
          outcome.gone++;
          done(e, 'gone');
        } else if (res.statusCode >= 200 && res.statusCode < 300) {
          outcome.deleted++;
          done(e, 'deleted');
        } else {
          outcome.failed.push(`${e.label}: ${method} answered ${res.statusCode}`);
          done(e, 'failed');
        }
      } catch (error) {
        outcome.failed.push(`${e.label}: ${(error as { code?: string }).code ?? String(error)}`);
        done(e, 'failed');
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return outcome;
}

/** Every SCIM user and group of earlier runs (their names start with a run marker). */
export async function findLeftovers(profile: Profile, timeoutMs: number): Promise<JournalEntry[]> {
  const token = (await createSecrets(profile, timeoutMs).familyToken('scim')).value;
  const base = profile.families.scim.baseUrl.replace(/\/+$/, '');
  const found: JournalEntry[] = [];
  const kinds = [
    { list: 'scim.users.list', del: 'scim.users.delete', attr: 'userName', what: 'SCIM user' },
    { list: 'scim.groups.list', del: 'scim.groups.delete', attr: 'displayName', what: 'SCIM group' },
  ] as const;
  for (const kind of kinds) {
    const { path } = operation(profile, kind.list);
    // Pages from the start each time would skip nothing either, but deletion happens after the walk.
    for (let start = 1; ;) {
      const query = new URLSearchParams({ filter: `${kind.attr} sw "lpc-"`, startIndex: String(start), count: '200', attributes: kind.attr });
      const res = await request(`${base}${path}?${query}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json', 'x-lpc-check': 'lpc.cleanup' },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
      const body = JSON.parse(text) as { Resources?: Record<string, unknown>[]; totalResults?: number };
      const page = body.Resources ?? [];
      for (const r of page) {
        const name = r[kind.attr];
        if (typeof r.id === 'string' && typeof name === 'string' && ANY_RUN_MARKER.test(name))
          found.push({ deleteOp: kind.del, id: r.id, label: `${kind.what} ${name}` });
      }
      start += page.length;
      if (page.length === 0 || start > (body.totalResults ?? 0)) break;
    }
  }
  return found;
}
