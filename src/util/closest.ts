/**
 * The name a typo meant: the closest of the names it could be (edit distance, fastest-levenshtein),
 * or the one name it starts. What an option, a command, a fault or a profile field suggests.
 */
import { distance } from 'fastest-levenshtein';

/** The name of `names` closest to `given` (a typo's edit distance, or a prefix of one), if any is close. */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const prefixed = names.filter((n) => given.length >= 3 && n.startsWith(given));
  if (prefixed.length === 1) return prefixed[0];
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = distance(given, name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(given.length / 3)) ? best.name : undefined;
}
