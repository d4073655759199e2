/** Freezes a value and everything reachable from it; an already frozen object is taken as frozen
 * throughout (profiles are rebuilt around frozen parts), so it is not walked again. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
