import type { Table } from './table.js';

/**
 * The positions of a table's records sorted by a key, ties in position (insertion) order: a total
 * order, so every entry has exactly one slot. Built once (one sort), then kept in step with the
 * table by its write listener: an insert or an update moves one entry (binary search, then a
 * shift of the arrays), no re-sort. The keys are kept beside the positions, so searches read
 * arrays, never records.
 *
 * A key is a rank (classes that order first: e.g. nulls) and a primitive compared within its rank
 * by JavaScript `<` (numbers numerically, strings by UTF-16 code units, false before true). Keys
 * of the ranks in `flatRanks` tie whatever their value.
 */
export interface IndexKey {
  readonly rank: number;
  readonly value: string | number | boolean;
}

export class SortedIndex<R extends { readonly id: string }> {
  #positions: Int32Array;
  #ranks: Uint8Array;
  readonly #values: (string | number | boolean)[];
  #size: number;

  constructor(
    table: Table<R>,
    private readonly read: (record: R) => IndexKey,
    private readonly flatRanks: ReadonlySet<number>,
  ) {
    const records = table.values();
    const n = records.length;
    const ranks = new Uint8Array(n);
    const values: (string | number | boolean)[] = new Array<string | number | boolean>(n);
    for (let p = 0; p < n; p++) {
      const key = read(records[p] as R);
      ranks[p] = key.rank;
      values[p] = flatRanks.has(key.rank) ? 0 : key.value;
    }
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => {
      const byRank = (ranks[a] as number) - (ranks[b] as number);
      if (byRank !== 0) return byRank;
      const x = values[a] as string | number | boolean;
      const y = values[b] as string | number | boolean;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    const capacity = Math.max(16, n + (n >> 4));
    this.#positions = new Int32Array(capacity);
    this.#positions.set(order);
    this.#ranks = new Uint8Array(capacity);
    this.#values = new Array<string | number | boolean>(n);
    for (let s = 0; s < n; s++) {
      const p = order[s] as number;
      this.#ranks[s] = ranks[p] as number;
      this.#values[s] = values[p] as string | number | boolean;
    }
    this.#size = n;
    table.onWrite((position, previous, current) => {
      const after = this.#normal(read(current));
      if (previous !== undefined) {
        const before = this.#normal(read(previous));
        if (this.#compareKeys(before, after) === 0) return;
        this.#remove(this.#slotOf(before, position));
      }
      this.#insertAt(this.#slotOf(after, position), position, after);
    });
  }

  get size(): number {
    return this.#size;
  }

  /** The table position at a slot (0 <= slot < size). */
  positionAt(slot: number): number {
    return this.#positions[slot] ?? -1;
  }

  rankAt(slot: number): number {
    return this.#ranks[slot] ?? 0;
  }

  valueAt(slot: number): string | number | boolean {
    return this.#values[slot] ?? 0;
  }

  /** The first slot in [from, to) that passes `test`, or `to`; `test` must be false, then true along the order. */
  firstSlot(test: (rank: number, value: string | number | boolean) => boolean, from = 0, to = this.#size): number {
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (test(this.#ranks[mid] as number, this.#values[mid] as string | number | boolean)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The slots of the keys tied with the key at `slot`: [first, end). Gallops, so small groups cost little. */
  tiesOf(slot: number): readonly [number, number] {
    const key = { rank: this.rankAt(slot), value: this.valueAt(slot) };
    const tied = (s: number) => this.#compareKeys({ rank: this.rankAt(s), value: this.valueAt(s) }, key) === 0;
    let step = 1;
    while (slot - step >= 0 && tied(slot - step)) step *= 2;
    const first = this.firstSlot((rank, value) => this.#compareKeys({ rank, value }, key) >= 0, Math.max(0, slot - step), slot);
    step = 1;
    while (slot + step < this.#size && tied(slot + step)) step *= 2;
    const end = this.firstSlot((rank, value) => this.#compareKeys({ rank, value }, key) > 0, slot + 1, Math.min(this.#size, slot + step + 1));
    return [first, end];
  }

  #normal(key: IndexKey): IndexKey {
    return this.flatRanks.has(key.rank) ? { rank: key.rank, value: 0 } : key;
  }

  #compareKeys(a: IndexKey, b: IndexKey): number {
    if (a.rank !== b.rank) return a.rank - b.rank;
    return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  }

  /** The slot of (key, position), or where it would go. */
  #slotOf(key: IndexKey, position: number): number {
    let lo = 0;
    let hi = this.#size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.#compareKeys({ rank: this.rankAt(mid), value: this.valueAt(mid) }, key) || this.positionAt(mid) - position;
      if (c >= 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  #remove(slot: number): void {
    this.#positions.copyWithin(slot, slot + 1, this.#size);
    this.#ranks.copyWithin(slot, slot + 1, this.#size);
    this.#values.splice(slot, 1);
    this.#size--;
  }

  #insertAt(slot: number, position: number, key: IndexKey): void {
    if (this.#size === this.#positions.length) {
      const positions = new Int32Array(this.#positions.length * 2);
      positions.set(this.#positions);
      this.#positions = positions;
      const ranks = new Uint8Array(this.#ranks.length * 2);
      ranks.set(this.#ranks);
      this.#ranks = ranks;
    }
    this.#positions.copyWithin(slot + 1, slot, this.#size);
    this.#positions[slot] = position;
    this.#ranks.copyWithin(slot + 1, slot, this.#size);
    this.#ranks[slot] = key.rank;
    this.#values.splice(slot, 0, key.value);
    this.#size++;
  }
}
