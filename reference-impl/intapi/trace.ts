/**
 * Where the Behaviour table (behaviour.ts) is read, for the negative controls: which entry, and while
 * serving which request (its check, from `x-lpc-check`, and its operation). A fault changes entries
 * of the table and nothing else (faults.ts), so a request whose handling reads none of them is
 * answered as it is without the fault; the controls use this to sweep a fault over the checks that
 * call an operation reading what the fault changed (tests/support/controls-run.mjs).
 *
 * Only reads made while the guard or the handler of a request runs (both synchronous) are given
 * their request; any other read (at start-up, in a timer, while an error body is rendered) has none,
 * and the controls treat an entry read so as read by every request.
 */
/** The request being served during a read: its check (none without `x-lpc-check`), its operation. */
export interface TracedRequest {
  readonly check?: string;
  readonly operation: string;
  readonly method: string;
}

/** One read of an entry of the table: its path (`lists.sort.descending`), the request if any. */
export interface BehaviourRead {
  readonly path: string;
  readonly request?: TracedRequest;
}

export type BehaviourTracer = (read: BehaviourRead) => void;

/** Values read whole: a Set or a Map (a proxy would break their methods), an array, a function. */
const isEntry = (value: unknown): boolean =>
  typeof value !== 'object' || value === null || value instanceof Set || value instanceof Map || Array.isArray(value);

/** A table that reports every read of an entry to `tracer`, with the request `during` is serving. */
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
          tracer(current ? { path: at, request: current } : { path: at });
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
        return run();
      } finally {
        current = outer;
      }
    },
  };
}
