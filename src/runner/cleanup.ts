/**
 * Cleanup of what a run creates. A check that creates a record the API can delete notes it in the
 * run's journal (one JSON line per record, written by the suites' worker); when the run ends, after
 * its last check and also after a failure or an interruption, the runner has each record's family
 * delete it. Records an API cannot delete carry the run's marker `lpc-<run id>-` in a free-text
 * field instead.
 *
 * `lp-conformance cleanup --target URL` removes the leftovers of earlier runs (a run killed before
 * its cleanup): every record whose name starts with a run marker, as each family finds them.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { CleanupContext } from '../families/family.js';
import { FAMILIES, familyOf } from '../families/registry.js';
import { familyAbsence, type Profile } from '../profile/index.js';
import { createSecrets } from '../target/secrets.js';
import type { CleanupOutcome, JournalEntry } from './model.js';

export type { CleanupOutcome, JournalEntry };
export { ANY_RUN_MARKER, newRunId, runMarker } from './marker.js';

export function readJournal(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  const seen = new Set<string>();
  const entries: JournalEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const e = JSON.parse(line) as JournalEntry;
      const key = `${e.deleteOp} ${e.id}`;
      if (!seen.has(key)) entries.push(e);
      seen.add(key);
    } catch {
      // A line cut by an interruption names nothing whole.
    }
  }
  return entries;
}

function contextOf(profile: Profile, family: string, timeoutMs: number): CleanupContext {
  const secrets = createSecrets(profile, timeoutMs);
  return { profile, timeoutMs, token: () => secrets.token(family) };
}

/** Deletes each record, by its family. */
export async function deleteRecords(profile: Profile, entries: readonly JournalEntry[], timeoutMs: number): Promise<CleanupOutcome> {
  const outcome: CleanupOutcome = { deleted: 0, gone: 0, failed: [] };
  const byFamily = new Map<ReturnType<typeof familyOf>, JournalEntry[]>();
  for (const e of entries) {
    const family = familyOf(e.deleteOp);
    byFamily.set(family, [...(byFamily.get(family) ?? []), e]);
  }
  for (const [family, own] of byFamily) {
    if (!family.cleanup) {
      outcome.failed.push(...own.map((e) => `${e.label}: the ${family.title} cannot delete it`));
      continue;
    }
    const done = await family.cleanup.delete(contextOf(profile, family.name, timeoutMs), own);
    outcome.deleted += done.deleted;
    outcome.gone += done.gone;
    outcome.failed.push(...done.failed);
  }
  return outcome;
}

/** Every record of earlier runs that the families can find (their names start with a run marker). */
export async function findLeftovers(profile: Profile, timeoutMs: number): Promise<JournalEntry[]> {
  const found: JournalEntry[] = [];
  for (const family of FAMILIES) {
    if (family.cleanup && familyAbsence(profile, family.name) === undefined)
      found.push(...(await family.cleanup.leftovers(contextOf(profile, family.name, timeoutMs))));
  }
  return found;
}
