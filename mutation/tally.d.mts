// Types of mutation/tally.mjs, for the tests that read the committed equivalents list.
export interface Equivalent {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  within?: string;
  reason: string;
}
export function readEquivalents(path: string): Equivalent[];
export function staleEquivalents(list: Equivalent[], root: string): { index: number; file: string; original: string }[];
