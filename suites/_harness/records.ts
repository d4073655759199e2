/**
 * Records every family's checks work on: bodies and ids of answers, ids no record has, and records
 * made once per check or per server.
 */
import { fail } from './failure.js';
import type { ApiResponse } from './http.js';
import type { CheckContext } from './requirement.js';
import { serverKey } from '../../src/target/secrets.js';

export type Json = Record<string, unknown>;

export function bodyOf(res: ApiResponse): Json {
  if (typeof res.json !== 'object' || res.json === null || Array.isArray(res.json)) {
    fail('a JSON object body', `${res.status} ${res.text.slice(0, 120)}`, res);
  }
  return res.json as Json;
}

/** The ids of listed items, as strings (an item without one shows as "undefined"). */
export function idsOf(items: readonly unknown[]): string[] {
  return items.map((item) => String((item as { id?: unknown } | null)?.id));
}

export function idOf(res: ApiResponse): string {
  const id = bodyOf(res).id;
  if (typeof id !== 'string') fail('a body with a string id', `id ${JSON.stringify(id)}`, res);
  return id;
}

/** A GUID that no record has: v4 form, drawn from the check's seeded source (so a replay sends the
 * same one), never one of the low fixed ids of seeded records. */
export function unknownId(t: CheckContext): string {
  return t.uuid();
}

/** Per-check memo: a record created once for the check and reused by every property run. */
export function memo<T>(make: (t: CheckContext) => Promise<T>): (t: CheckContext) => Promise<T> {
  const made = new WeakMap<CheckContext, Promise<T>>();
  return (t) => {
    let p = made.get(t);
    if (!p) {
      p = make(t);
      made.set(t, p);
    }
    return p;
  };
}

/** Per-server memo: a record created once per target server and shared by the checks against it
 * (a run may check several servers at once, so a module-level cache would cross them). */
export function perServer<T>(make: (t: CheckContext) => Promise<T>): (t: CheckContext) => Promise<T> {
  const made = new Map<string, Promise<T>>();
  return (t) => {
    const server = serverKey(t.profile);
    let p = made.get(server);
    if (!p) {
      p = make(t);
      made.set(server, p);
    }
    return p;
  };
}
