/**
 * The run's marker ("Cleanup"): every record a run creates carries `lpc-<run id>-` at the
 * start of a free-text field where the API has one (a user name, a title, a name; each family's
 * records say which), so that a deployed target's leftovers can be told from its own records and
 * removed.
 */
import type { CheckContext } from './requirement.js';

/** `lpc-<run id>-` (`lpc-000000-` when the run was given no id). */
export function runMarker(t: CheckContext): string {
  return `lpc-${t.config.runId ?? '000000'}-`;
}

/** `text` behind the run's marker. */
export function marked(t: CheckContext, text: string): string {
  return `${runMarker(t)}${text}`;
}
