/**
 * What the families' invariants report of one exchange, and the judgement they share: a body
 * against its contract. Each family's rules are in its folder (`<family>/invariants.ts`).
 */
import type { ContractName } from './contracts.js';
import { validate } from './contracts.js';
import type { ApiRequest, ApiResponse } from './exchange.js';
import type { Profile } from '../../src/profile/base/types.js';
import { excerpt } from './failure.js';

export interface Violation {
  /** The invariant's check id (`<family>.invariant.<rule>`). */
  invariant: string;
  expected: string;
  received: string;
}

export interface InvariantOutcome {
  violations: Violation[];
  /** The invariants this exchange was subject to: an invariant no exchange was subject to is not
   * reported as passed (a target that never answers 4xx says nothing of its error bodies). */
  applied: string[];
  /** The contract the body was judged against (2xx: its operation's, 4xx: the error body) and
   * whether it was valid: a differential run compares it (src/runner/compare.ts). */
  contract?: { name: ContractName; valid: boolean };
}

export function contractViolation(invariant: string, name: ContractName, res: ApiResponse): Violation | undefined {
  if (res.json === undefined) {
    return { invariant, expected: `a JSON body valid against ${name}`, received: `${res.status} ${excerpt(res.text) || '(empty body)'}` };
  }
  const errors = validate(name, res.json);
  if (errors.length === 0) return undefined;
  const first = errors
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message}`)
    .join('; ');
  return {
    invariant,
    expected: `a body valid against ${name}`,
    received: `${res.status}: ${first}${errors.length > 3 ? `; and ${errors.length - 3} more` : ''}`,
  };
}

/** A family's invariants, as its folder's `invariants.ts` exports them (`familyInvariants`). */
export interface FamilyInvariants {
  /** The family's name (src/families/<family>). */
  readonly family: string;
  check(req: ApiRequest, res: ApiResponse, profile: Profile): InvariantOutcome;
}
