/**
 * Cleanup of what a run creates. A check that creates a record notes it in the run's journal (one
 * JSON line per record, written by the suites' worker); when the run ends, after its last check and
 * also after a failure or an interruption, the runner has each record's family delete those its API
 * can delete (its registration's `cleanup`), unless the run keeps them (`--keep`), and counts per
 * family what was created, deleted and left. Records an API cannot delete carry the run's marker
 * `lpc-<run id>-` in a free-text field instead.
 *
 * `lp-conformance cleanup --target URL` removes the leftovers of earlier runs (a run killed before
 * its cleanup): every record whose name starts with a run marker, as each family finds them.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { CleanupContext, Family } from '../families/family.js';
import { FAMILIES, familyNamed, familyOf } from '../families/registry.js';
import { collectionOf, familyAbsence, type Profile } from '../profile/index.js';
import { pacedSend, type PacedSend } from '../target/base/pace.js';
import { createSecrets } from '../target/secrets.js';
import type { CleanupOutcome, CleanupReport, FamilyLeftovers, JournalEntry } from './base/model.js';

export type { CleanupOutcome, JournalEntry };
export { ANY_RUN_MARKER, newRunId, runMarker } from './base/marker.js';

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

/** The family and collection of a journal entry (by default, those of its delete operation). */
export function placeOf(e: JournalEntry): { family: Family; collection: string } {
  const family = e.family !== undefined ? familyNamed(e.family) : familyOf(e.deleteOp ?? '');
  return {
    family,
    collection:
      e.collection ??
      collectionOf(e.deleteOp ?? '')
        .split('.')
        .at(-1) ??
      '',
  };
}

/** `env`: where the credential variables are read (default: the process's environment); `send`: the
 * pace of the requests (the run's --max-rps, 429s waited out). */
function contextOf(profile: Profile, family: string, timeoutMs: number, env: NodeJS.ProcessEnv, send: PacedSend): CleanupContext {
  const secrets = createSecrets(profile, timeoutMs, env);
  return { profile, timeoutMs, token: () => secrets.token(family), send };
}

/** Deletes each record, by its family. */
async function deleteByFamily(
  family: Family,
  profile: Profile,
  entries: readonly JournalEntry[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
  send: PacedSend,
): Promise<CleanupOutcome> {
  if (entries.length === 0) return { deleted: 0, gone: 0, failed: [] };
  if (!family.cleanup) return { deleted: 0, gone: 0, failed: entries.map((e) => `${e.label}: the ${family.title} cannot delete it`) };
  return family.cleanup.delete(contextOf(profile, family.name, timeoutMs, env, send), entries);
}

/** Deletes each record, by its family; `send` paces the requests (default: unpaced, 429s waited out). */
export async function deleteRecords(
  profile: Profile,
  entries: readonly JournalEntry[],
  timeoutMs: number,
  send: PacedSend = pacedSend(),
): Promise<CleanupOutcome> {
  const outcome: CleanupOutcome = { deleted: 0, gone: 0, failed: [] };
  for (const family of FAMILIES) {
    const done = await deleteByFamily(
      family,
      profile,
      entries.filter((e) => placeOf(e).family === family),
      timeoutMs,
      process.env,
      send,
    );
    outcome.deleted += done.deleted;
    outcome.gone += done.gone;
    outcome.failed.push(...done.failed);
  }
  return outcome;
}

/**
 * What becomes of the records of a run's journal: those the API can delete are deleted by their
 * family (unless `keep`), and the report counts per family what was created, deleted and left.
 */
export async function cleanUp(
  profile: Profile,
  entries: readonly JournalEntry[],
  timeoutMs: number,
  keep = false,
  env: NodeJS.ProcessEnv = process.env,
  send: PacedSend = pacedSend(),
): Promise<CleanupReport> {
  const report: CleanupReport = { deleted: 0, gone: 0, failed: [], ...(keep ? { kept: true as const } : {}), families: {} };
  for (const family of FAMILIES) {
    const own = entries.filter((e) => placeOf(e).family === family);
    if (own.length === 0) continue;
    const created: Record<string, number> = {};
    for (const e of own) {
      const { collection } = placeOf(e);
      created[collection] = (created[collection] ?? 0) + 1;
    }
    const deletedByChecks = own.filter((e) => e.deleted).length;
    const deletable = own.filter((e) => e.deleteOp !== undefined && !e.deleted);
    const done = keep ? { deleted: 0, gone: 0, failed: [] } : await deleteByFamily(family, profile, deletable, timeoutMs, env, send);
    const gone = done.gone + deletedByChecks;
    const leftovers: FamilyLeftovers = { created, deleted: done.deleted, gone, left: own.length - done.deleted - gone };
    if (own.some((e) => e.deleteOp === undefined)) leftovers.leftBecause = 'no delete operation';
    else if (keep) leftovers.leftBecause = 'kept by --keep; lp-conformance cleanup deletes them';
    report.families[family.name] = leftovers;
    report.deleted += done.deleted;
    report.gone += gone;
    report.failed.push(...done.failed);
  }
  return report;
}

/** Every record of earlier runs that the families can find (their names start with a run marker). */
export async function findLeftovers(profile: Profile, timeoutMs: number, send: PacedSend = pacedSend()): Promise<JournalEntry[]> {
  const found: JournalEntry[] = [];
  for (const family of FAMILIES) {
    if (family.cleanup && familyAbsence(profile, family.name) === undefined)
      found.push(...(await family.cleanup.leftovers(contextOf(profile, family.name, timeoutMs, process.env, send))));
  }
  return found;
}
