// A tiny rule for the mutation command's own test (tests/run/mutation.test.ts): at most 100 items.
let calls = 0;

export function withinLimit(count) {
  // A counter nobody reads: its mutants change nothing the check can observe.
  calls = calls > 1000 ? 0 : calls + 1;
  return count <= 100;
}
