/**
 * An insertion-ordered table of records keyed by id (ids are GUIDs: found case-insensitively,
 * kept as given). A record's position (its insertion rank, 0-based) never changes: an update
 * replaces the record in place. Each row remembers its value before its last update, so a list can
 * be shown as of before the update (a fault needs it). Write listeners let derived structures
 * (the list indexes) follow the table incrementally.
 */
import { noteWrite } from './writes.js';

export type WriteListener<R> = (position: number, previous: R | undefined, current: R) => void;

export class Table<R extends { readonly id: string }> {
  /** position by id key */
  readonly #positions = new Map<string, number>();
  /** records by position, in insertion order */
  readonly #records: R[] = [];
  /** the value before the last update, by position (updated rows only) */
  readonly #beforeLastUpdate = new Map<number, R>();
  readonly #listeners: WriteListener<R>[] = [];

  get size(): number {
    return this.#records.length;
  }

  get(id: string): R | undefined {
    const position = this.#positions.get(id.toLowerCase());
    return position === undefined ? undefined : this.#records[position];
  }

  has(id: string): boolean {
    return this.#positions.has(id.toLowerCase());
  }

  /** The record at a position (insertion rank). */
  at(position: number): R | undefined {
    return this.#records[position];
  }

  /** Adds a record at the end; false (and nothing stored) when the id exists. */
  insert(record: R): boolean {
    const key = record.id.toLowerCase();
    if (this.#positions.has(key)) return false;
    noteWrite();
    const position = this.#records.length;
    this.#positions.set(key, position);
    this.#records.push(record);
    for (const listener of this.#listeners) listener(position, undefined, record);
    return true;
  }

  /** Replaces the record with the same id in place; false when there is none. */
  update(record: R): boolean {
    const position = this.#positions.get(record.id.toLowerCase());
    const previous = position === undefined ? undefined : this.#records[position];
    if (position === undefined || previous === undefined) return false;
    noteWrite();
    this.#beforeLastUpdate.set(position, previous);
    this.#records[position] = record;
    for (const listener of this.#listeners) listener(position, previous, record);
    return true;
  }

  /** Every record in insertion order: a live view of the table (copy it to keep a snapshot). */
  values(): readonly R[] {
    return this.#records;
  }

  /** Every record in insertion order, each as it was before its last update. */
  valuesBeforeLastUpdate(): R[] {
    return this.#records.map((record, position) => this.#beforeLastUpdate.get(position) ?? record);
  }

  /** Calls `listener` after every insert and update, with the record's position. */
  onWrite(listener: WriteListener<R>): void {
    this.#listeners.push(listener);
  }
}
