// The harness reads an error body and a list answer as the family that answered says they are
// (its registration's `http.errors` and `http.lists`), not as one family's body.
import { describe, expect, test } from 'vitest';
import { FAMILIES } from '../../src/profile/index.js';
import { expectRejected, validationsOf } from '../../suites/_harness/failure.js';
import { listedOf, type ApiResponse } from '../../suites/_harness/http.js';
import { notSetUp, NotSetUpSignal } from '../../suites/_harness/outcomes.js';

const answer = (family: string | undefined, status: number, json: unknown): ApiResponse => ({
  status,
  headers: {},
  text: JSON.stringify(json),
  json,
  exchange: {
    method: 'POST',
    url: 'http://127.0.0.1:1/things',
    operation: 'POST /things',
    curl: { method: 'POST', url: '', headers: {} },
    status,
    ...(family ? { family } : {}),
  },
});

/** The cause key of a "not set up" outcome of the answer. */
function keyOf(res: ApiResponse): string {
  try {
    notSetUp(res, 'a thing');
  } catch (error) {
    if (error instanceof NotSetUpSignal) return error.detail.key;
    throw error;
  }
  throw new Error('notSetUp returned');
}

describe('each family says what its error body holds', () => {
  const withErrors = FAMILIES.filter((f) => f.http?.errors !== undefined);

  test('at least two families describe their error bodies', () => {
    expect(withErrors.length).toBeGreaterThanOrEqual(2);
  });

  test.each(FAMILIES.map((f) => [f.name]))('%s: the cause key carries its machine word, and only when it names one', (name) => {
    const errors = FAMILIES.find((f) => f.name === name)?.http?.errors;
    // A body with every field any family reads as its word: only the family's own counts.
    const all = { term: 'T', scimType: 'S', type: 'X' };
    const word = errors?.word?.(all);
    expect(keyOf(answer(name, 409, all))).toBe(word === undefined ? 'POST /things answered 409' : `POST /things answered 409 ${word}`);
    expect(keyOf(answer(name, 409, {}))).toBe('POST /things answered 409');
  });

  test('an answer of no known family has no word and no validations', () => {
    expect(keyOf(answer(undefined, 409, { term: 'T' }))).toBe('POST /things answered 409');
    expect(validationsOf(answer(undefined, 422, { validations: ['name: x'] }))).toBeUndefined();
  });

  test.each(FAMILIES.filter((f) => f.http?.errors?.validations).map((f) => [f.name]))('%s: validations name the field', (name) => {
    const res = answer(name, 422, { validations: ['title: is required'] });
    expect(validationsOf(res)).toEqual(['title: is required']);
    expect(() => expectRejected(res, 'title')).not.toThrow();
    expect(() => expectRejected(res, 'name')).toThrow(/validations naming "name"/);
  });
});

describe('each family with lists says which operations list and what their envelope is', () => {
  test.each(FAMILIES.filter((f) => f.http?.lists).map((f) => [f.name]))('%s: its list operations are its own, and a bare array lists its ids', (name) => {
    const family = FAMILIES.find((f) => f.name === name);
    const lists = family?.http?.lists;
    if (!family || !lists) throw new Error('no lists');
    expect(lists.operations.size).toBeGreaterThan(0);
    for (const op of lists.operations) expect(Object.keys(family.operations)).toContain(op);
    expect(listedOf([{ id: 'A' }, { id: 'b' }], lists)).toEqual({ items: ['a', 'b'] });
    expect(listedOf('not a list', lists)).toBeUndefined();
  });
});
