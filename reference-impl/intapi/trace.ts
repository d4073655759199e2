/**
 * Where the Behaviour table (behaviour.ts) is read, for the negative controls: which entry, while
 * serving which request (its check, from `x-lpc-check`, and its operation), and which requests
 * write to a store (reference-impl/store/writes.ts). A fault changes entries of the table and nothing
 * else (faults.ts), so a request whose handling reads none of them is answered as it is without the
 * fault, and stores what it stores without it; the controls use this to sweep a fault over the
 * checks that call an operation reading what the fault changes (tests/support/controls-run.mjs).
 *
 * Only reads and writes made while the guard or the handler of a request runs (both synchronous)
 * are given their request; any other read (at start-up, while an error body is rendered) has none,
 * and the controls count an entry read so as read by every request.
 */
import { listenToWrites } from '../store/writes.js';

/** The request being served: its check (none without `x-lpc-check`), its operation. One object per
 * HTTP request, shared by its guard and its handler. */
export interface TracedRequest {
  readonly check?: string;
  readonly operation: string;
  readonly method: string;
}

export interface BehaviourTracer {
  /** A read of an entry (its path, `lists.sort.descending`); no request outside a guard or handler. */
  read(path: string, request?: TracedRequest): void;
  /** A write to a store while serving `request`. */
  write(request: TracedRequest): void;
}

/** Values read whole: a Set or a Map (a proxy would break their methods), an array, a function. */
const isEntry = (value: unknown): boolean =>
  typeof value !== 'object' || value === null || value instanceof Set || value instanceof Map || Array.isArray(value);

/** A table that reports every read of an entry to `tracer`, with the request `during` is serving,
 * and `during`, which runs a guard or a handler with its request (and reports its writes). */
export function traceBehaviour<T extends object>(table: T, tracer: BehaviourTracer): { table: T; during: <R>(request: TracedRequest, run: () => R) => R } {
  let current: TracedRequest | undefined;
  // One proxy per path, so that a part of the table read twice is the same object both times.
  const proxies = new Map<string, object>();
  const wrap = (target: object, path: string): object => {
    const known = proxies.get(path);
    if (known) return known;
    const proxy = new Proxy(target, {
      get(object, key, receiver) {
        const value: unknown = Reflect.get(object, key, receiver);
        if (typeof key !== 'string') return value;
        const at = path === '' ? key : `${path}.${key}`;
        if (isEntry(value)) {
          tracer.read(at, current);
          return value;
        }
        return wrap(value as object, at);
      },
    });
    proxies.set(path, proxy);
    return proxy;
  };
  return {
    table: wrap(table, '') as T,
    during: (request, run) => {
      const outer = current;
      current = request;
      try {
        return listenToWrites(() => tracer.write(request), run);
      } finally {
        current = outer;
      }
    },
  };
}
