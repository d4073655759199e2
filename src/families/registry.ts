/**
 * Lookups over the registered families (index.ts): the family of an operation, of a check id, by
 * name. Generic: it names no family.
 */
import type { OperationId, OperationRoute } from '../profile/base/routes.js';
import type { Family, InvariantMeta } from './family.js';
import { FAMILIES } from './index.js';

export { FAMILIES };

const byName = new Map(FAMILIES.map((f) => [f.name, f]));
const byOperation = new Map(FAMILIES.flatMap((f) => Object.keys(f.operations).map((op) => [op, f] as const)));

/** The registered family of that name; throws for an unknown one (an error of the suite). */
export function familyNamed(name: string): Family {
  const family = byName.get(name);
  if (!family) throw new Error(`no family ${name} is registered (src/families/index.ts)`);
  return family;
}

/** The family an operation belongs to. */
export function familyOf(op: string): Family {
  const family = byOperation.get(op);
  if (!family) throw new Error(`no registered family has the operation ${op}`);
  return family;
}

/** The family a check belongs to: the first segment of its id (undefined for the tool's own checks). */
export function familyOfCheck(id: string): Family | undefined {
  return byName.get(id.slice(0, id.indexOf('.')));
}

/** The family whose session token a check sends: its family's own, or the one its family is a page
 * of; undefined for a family without a session and for the tool's own checks. */
export function sessionOfCheck(id: string): string | undefined {
  const family = familyOfCheck(id);
  if (!family) return undefined;
  return family.auth ? family.name : family.sessionOf;
}

/** The sentence that binds the server to a MUST check's rule: the check's own (`own`), else the first
 * rule of its family's table (Family.binds) that matches its id. Undefined for a check of another level. */
export function bindingSentence(id: string, level: string, own?: string): string | undefined {
  if (level !== 'MUST') return undefined;
  return own ?? familyOfCheck(id)?.binds?.find((rule) => rule.checks.test(id))?.binds;
}

/** The default method and path of every operation of every family. */
export const OPERATIONS: Readonly<Record<OperationId, OperationRoute>> = Object.freeze(
  Object.fromEntries(FAMILIES.flatMap((f) => Object.entries(f.operations))) as Record<OperationId, OperationRoute>,
);

export const OPERATION_IDS: readonly OperationId[] = Object.freeze(Object.keys(OPERATIONS) as OperationId[]);

export function isOperationId(id: string): id is OperationId {
  return byOperation.has(id);
}

/** Every invariant of every family, in registration order. */
export const INVARIANTS: readonly InvariantMeta[] = FAMILIES.flatMap((f) => f.invariants);

/** A family's token exchange: sent without a session token, and allowed in a read-only run. */
export function isTokenExchange(op: string): boolean {
  return byOperation.get(op)?.http?.tokenExchange === op;
}
