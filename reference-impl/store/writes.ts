/**
 * Every write to a store is noted here: Table.insert and update, SessionTable.put and delete, and the
 * maps a family's store keeps beside its tables. A family's behaviour trace (for the negative
 * controls) listens while a request is served, to tell an operation that stores something from one
 * that only reads; no one listens otherwise.
 */
let listener: (() => void) | undefined;

export function noteWrite(): void {
  listener?.();
}

/** Runs `run` (synchronous) with `onWrite` told of every write it makes. */
export function listenToWrites<T>(onWrite: () => void, run: () => T): T {
  const outer = listener;
  listener = onWrite;
  try {
    return run();
  } finally {
    listener = outer;
  }
}
