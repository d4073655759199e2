/**
 * The shape every family's fault table shares. A fault is a named toggle that breaks one documented
 * rule on purpose: its one-line description says which, and `apply` patches the family's behaviour
 * table, read by the code at the point of the rule. Each family names its faults `<family>.<name>`.
 */
export interface Fault<B> {
  /** What the fault breaks, in one sentence. */
  readonly description: string;
  readonly apply: (behaviour: B) => void;
}

/** A family's table: fault name → fault. */
export type FaultTable<B> = Readonly<Record<string, Fault<B>>>;

/** What a catalogue tells of a fault: its family (the first segment of its name) and description. */
export interface FaultInfo {
  readonly family: string;
  readonly description: string;
}

/** The catalogue of a table: name → family and description, frozen. */
export function faultCatalogue(table: FaultTable<never>): Readonly<Record<string, FaultInfo>> {
  return Object.freeze(
    Object.fromEntries(Object.entries(table).map(([name, fault]) => [name, { family: name.split('.')[0] ?? name, description: fault.description }])),
  );
}

/** `behaviour` with the named faults of `table` applied; throws, naming them, on unknown names. */
export function applyFaults<B>(table: FaultTable<B>, faults: readonly string[], behaviour: B, unknownMessage: (unknown: string[]) => string): B {
  const unknown = faults.filter((name) => !Object.hasOwn(table, name));
  if (unknown.length > 0) throw new Error(unknownMessage(unknown));
  for (const name of faults) table[name]?.apply(behaviour);
  return behaviour;
}
