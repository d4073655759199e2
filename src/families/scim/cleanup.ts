/**
 * What a run leaves on a SCIM server: the users and groups its checks create are deleted when it
 * ends (the runner reads them from the run's journal); `lp-conformance cleanup` finds those of runs
 * killed before their cleanup: every user whose userName, and every group whose displayName, starts
 * with a run marker.
 */
import { request } from 'undici';
import { operation } from '../../profile/base/operation.js';
import type { OperationId } from '../../profile/base/routes.js';
import { ANY_RUN_MARKER } from '../../runner/base/marker.js';
import { onceMoreIfClosed } from '../../target/base/retry.js';
import type { CleanupOutcome, JournalEntry } from '../../runner/base/model.js';
import type { CleanupContext, FamilyCleanup } from '../family.js';

const MEDIA_TYPE = 'application/scim+json';

/** Deletes each record, a few at a time, each request paced by `send` (--max-rps, 429s waited out). */
async function deleteRecords({ profile, timeoutMs, token: session, send }: CleanupContext, entries: readonly JournalEntry[]): Promise<CleanupOutcome> {
  const outcome: CleanupOutcome = { deleted: 0, gone: 0, failed: [] };
  if (entries.length === 0) return outcome;
  let token: string;
  try {
    token = (await session()).value;
  } catch (error) {
    outcome.failed.push(...entries.map((e) => `${e.label}: no SCIM token (${String((error as Error).message ?? error)})`));
    return outcome;
  }
  const base = profile.families.scim.baseUrl.replace(/\/+$/, '');
  const queue = [...entries];
  const worker = async (): Promise<void> => {
    for (let e = queue.shift(); e !== undefined; e = queue.shift()) {
      if (e.deleteOp === undefined) continue;
      const { method, path } = operation(profile, e.deleteOp);
      const url = `${base}${path.replace(/\{\w+\}/, encodeURIComponent(e.id))}`;
      try {
        // A DELETE whose connection closed without an answer is sent again once (onceMoreIfClosed).
        const res = await onceMoreIfClosed(() =>
          send(base, async () => {
            const answer = await request(url, {
              method: method as 'DELETE',
              headers: { authorization: `Bearer ${token}`, accept: MEDIA_TYPE, 'x-lpc-check': 'lpc.cleanup' },
              headersTimeout: timeoutMs,
              bodyTimeout: timeoutMs,
              signal: AbortSignal.timeout(timeoutMs),
            });
            await answer.body.dump();
            return answer;
          }),
        );
        if (res.statusCode === 404) outcome.gone++;
        else if (res.statusCode >= 200 && res.statusCode < 300) outcome.deleted++;
        else outcome.failed.push(`${e.label}: ${method} answered ${res.statusCode}`);
      } catch (error) {
        outcome.failed.push(`${e.label}: ${(error as { code?: string }).code ?? String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return outcome;
}

const KINDS = [
  { list: 'scim.users.list', del: 'scim.users.delete', attr: 'userName', what: 'SCIM user' },
  { list: 'scim.groups.list', del: 'scim.groups.delete', attr: 'displayName', what: 'SCIM group' },
] as const satisfies readonly { list: OperationId; del: OperationId; attr: string; what: string }[];

/** Every SCIM user and group of earlier runs (their names start with a run marker). */
async function findLeftovers({ profile, timeoutMs, token: session, send }: CleanupContext): Promise<JournalEntry[]> {
  const token = (await session()).value;
  const base = profile.families.scim.baseUrl.replace(/\/+$/, '');
  const found: JournalEntry[] = [];
  for (const kind of KINDS) {
    const { path } = operation(profile, kind.list);
    // Pages from the start each time would skip nothing either, but deletion happens after the walk.
    for (let start = 1; ;) {
      const query = new URLSearchParams({ filter: `${kind.attr} sw "lpc-"`, startIndex: String(start), count: '200', attributes: kind.attr });
      const res = await send(base, async () => {
        const answer = await request(`${base}${path}?${query}`, {
          headers: { authorization: `Bearer ${token}`, accept: MEDIA_TYPE, 'x-lpc-check': 'lpc.cleanup' },
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: AbortSignal.timeout(timeoutMs),
        });
        return { statusCode: answer.statusCode, headers: answer.headers, text: await answer.body.text() };
      });
      const { text } = res;
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

export const SCIM_CLEANUP: FamilyCleanup = { delete: deleteRecords, leftovers: findLeftovers };
