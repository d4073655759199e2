// The committed list of equivalent mutants (mutation/equivalent.json) is read by `npm run mutation`
// at its start: an entry it would refuse stops a run of half an hour before its first mutant. Each entry
// is well-formed here, and names code its file still holds (an entry whose code is gone matches no
// mutant again and only hides a mistake).
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readEquivalents, staleEquivalents } from '../../mutation/tally.mjs';
import { ROOT } from '../support/cli.js';

describe('mutation/equivalent.json', () => {
  const read = () => readEquivalents(join(ROOT, 'mutation/equivalent.json'));

  test('every entry has its file, mutator, original, replacement and reason, and a within that holds the original', () => {
    expect(read).not.toThrow();
    expect(read().length).toBeGreaterThan(100);
  });

  test('every entry names code its file still holds', () => {
    expect(staleEquivalents(read(), ROOT)).toEqual([]);
  });

  test('an entry whose code is not in its file is reported stale', () => {
    const [first] = read();
    if (first === undefined) throw new Error('the list is empty');
    const gone = { ...first, original: 'lpcNoSuchCode()', within: undefined };
    expect(staleEquivalents([first, gone], ROOT)).toEqual([{ index: 1, file: gone.file, original: 'lpcNoSuchCode()' }]);
  });
});
