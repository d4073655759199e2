/** Run ids and the marker every record a run creates carries (`lpc-<run id>-`; DEVELOPERS.md "Cleanup"). */
import { randomBytes } from 'node:crypto';

/** A new run id: 6 lower-case hex digits. */
export function newRunId(): string {
  return randomBytes(3).toString('hex');
}

/** The marker of a run's records. */
export const runMarker = (runId: string): string => `lpc-${runId}-`;

/** A marker of any run, at the start of a text. */
export const ANY_RUN_MARKER = /^lpc-[0-9a-f]{6}-/;
