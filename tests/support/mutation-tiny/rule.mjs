// A tiny rule for the mutation command's own test (tests/run/mutation.test.ts): at most 100 items.
let calls = 0;
let wraps = 0;

export function withinLimit(count) {
  // Counters nobody reads: their mutants change nothing the check can observe. The same condition
  // twice: the equivalents file lists it on the first line only (`within`).
  calls = calls > 1000 ? 0 : calls + 1;
  wraps = calls > 1000 ? wraps + 1 : wraps;
  return count <= 100;
}
