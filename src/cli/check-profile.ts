/**
 * `run --check-profile`: before any check, each record id the profile names (for the families the
 * run selects) is read once through the family's own read of it (its registration's `recordReads`).
 * An id the target does not have (404, or 410) stops the run: exit 2, one line per such id naming
 * its field, instead of a wall of failures that each say 404. An id that could not be read (no
 * credentials, no answer, another status) is a warning: the checks will say more.
 */
import { SetupError, type RecordRead, type ToolAnswer } from '../families/family.js';
import { FAMILIES } from '../families/registry.js';
import type { Profile } from '../profile/index.js';
import { toolClient } from '../target/client.js';
import { createSecrets } from '../target/secrets.js';

export async function checkProfileRecords(
  profile: Profile,
  options: { selects: (family: string) => boolean; timeoutMs: number; warn: (line: string) => void; env?: NodeJS.ProcessEnv },
): Promise<number> {
  const secrets = createSecrets(profile, options.timeoutMs, options.env);
  const client = toolClient(profile, secrets, { timeoutMs: options.timeoutMs, purpose: 'lpc.check-profile' });
  const reads = FAMILIES.filter((f) => options.selects(f.name)).flatMap((f) => f.recordReads?.(profile) ?? []);
  // One request per distinct read: several fields may name the same record.
  const answers = new Map<string, Promise<ToolAnswer | Error>>();
  const answerOf = (read: RecordRead): Promise<ToolAnswer | Error> => {
    const key = JSON.stringify(read.request);
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = client.send(read.request).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))));
    return answer;
  };
  const missing: string[] = [];
  for (const read of reads) {
    const answer = await answerOf(read);
    const at = `profile ${profile.source}: ${read.field} ${read.id}`;
    if (answer instanceof Error) options.warn(`${at} was not checked (${secrets.redact(answer.message)})`);
    else if (answer.status === 404 || answer.status === 410) missing.push(`${at}: no such record at the target (${answer.request} answered ${answer.status})`);
    else if (answer.status < 200 || answer.status > 299) {
      options.warn(`${at} was not checked (${answer.request} ${answer.status === 0 ? `got no answer: ${answer.error ?? ''}` : `answered ${answer.status}`})`);
    }
  }
  if (missing.length > 0) throw new SetupError(missing);
  return reads.length;
}
