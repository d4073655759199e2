/**
 * An insertion-ordered table of records keyed by id (ids are GUIDs: found case-insensitively,
 * kept as given). Each row remembers its value before its last update, so a list can be shown as
 * of before the update (a fault needs it). Lists are cached until the next write.
 */
interface Row<R> {
  current: R;
  beforeLastUpdate: R | undefined;
}

export class Table<R extends { readonly id: string }> {
  readonly #rows = new Map<string, Row<R>>();
  #values: readonly R[] | undefined;

  get size(): number {
    return this.#rows.size;
  }

  get(id: string): R | undefined {
    return this.#rows.get(id.toLowerCase())?.current;
  }

  has(id: string): boolean {
    return this.#rows.has(id.toLowerCase());
  }

  /** Adds a record at the end; false (and nothing stored) when the id exists. */
  insert(record: R): boolean {
    const key = record.id.toLowerCase();
    if (this.#rows.has(key)) return false;
    this.#rows.set(key, { current: record, beforeLastUpdate: undefined });
    this.#values = undefined;
    return true;
  }

  /** Replaces the record with the same id in place; false when there is none. */
  update(record: R): boolean {
    const row = this.#rows.get(record.id.toLowerCase());
    if (row === undefined) return false;
    row.beforeLastUpdate = row.current;
    row.current = record;
    this.#values = undefined;
    return true;
  }

  /** Every record in insertion order. */
  values(): readonly R[] {
    this.#values ??= Array.from(this.#rows.values(), (row) => row.current);
    return this.#values;
  }

  /** Every record in insertion order, each as it was before its last update. */
  valuesBeforeLastUpdate(): R[] {
    return Array.from(this.#rows.values(), (row) => row.beforeLastUpdate ?? row.current);
  }
}
