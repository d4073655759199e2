// The measure of "one deviation, one failure": the checks a negative control allows to
// fail beside the ones its fault must break (its mayFail, within what its sweep runs). Each is a
// (fault, check) pair; docs/decisions/core/negative-controls.md "Negative controls" gives the figures per family.
import { idMatcher } from '../../src/runner/select.js';
import type { Control } from '../controls/expectations.js';

export type Family = 'intapi' | 'scim' | 'learner';

/** A fault's family: its name's prefix (scim., learner. and player., else the Integration API's). */
export function familyOfFault(fault: string): Family {
  return fault.startsWith('scim.') ? 'scim' : fault.startsWith('learner.') || fault.startsWith('player.') ? 'learner' : 'intapi';
}

/** The check ids `control` allows to fail beside its mustFail, among `ids`, within the sweep's `scope`. */
export function allowancesOf(control: Control, ids: readonly string[], scope: readonly string[]): string[] {
  if (!control.mayFail || control.mayFail.length === 0) return [];
  const must = idMatcher(control.mustFail);
  const may = idMatcher(control.mayFail);
  const swept = idMatcher(scope);
  return ids.filter((id) => may(id) && !must(id) && swept(id));
}

/** Allowances per family: how many (fault, check) pairs, over how many faults with any. */
export function allowancesPerFamily(
  faults: readonly string[],
  controlFor: (fault: string) => Control,
  scopeOf: (fault: string, control: Control) => readonly string[],
  ids: readonly string[],
): Record<Family, { allowances: number; faults: number }> {
  const out: Record<Family, { allowances: number; faults: number }> = {
    intapi: { allowances: 0, faults: 0 },
    scim: { allowances: 0, faults: 0 },
    learner: { allowances: 0, faults: 0 },
  };
  for (const fault of faults) {
    const control = controlFor(fault);
    const allowed = allowancesOf(control, ids, scopeOf(fault, control)).length;
    const family = out[familyOfFault(fault)];
    family.allowances += allowed;
    if (allowed > 0) family.faults++;
  }
  return out;
}
