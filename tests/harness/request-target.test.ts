// The client's request targets (suites/_harness/request-target.ts): the origin and the path and
// query it hands undici's dispatcher are exactly those undici's top-level `request(url)` derives by
// parsing the whole URL, whatever the path and query hold (characters URL parsing percent-encodes,
// dot segments, an empty query) and whatever the base (a path of its own, a default port, capitals).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { requestTarget } from '../../suites/_harness/request-target.js';

/** What undici's `request(url)` sends: the URL parsed, its origin, its pathname and search. */
function parsed(url: string): { origin: string; path: string } {
  const u = new URL(url);
  return { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname };
}

const BASES = [
  'http://127.0.0.1:4010',
  'http://127.0.0.1:4010/scim/v2',
  'https://Example.COM:443/api',
  'http://localhost:80',
  'http://host/a/./b',
  'http://host/a/..',
  'http://host/%2e%2E',
  'http://user:pw@host/x',
];

/** Texts that reach a request target: the characters URL parsing treats alike and those it does not. */
const piece = fc.oneof(
  fc.constantFrom(
    '/',
    '?',
    '.',
    '..',
    '%2e',
    '%2E',
    '%',
    '%zz',
    '#',
    ' ',
    '"',
    "'",
    '<',
    '>',
    '`',
    '{',
    '}',
    '|',
    '\\',
    '^',
    '[',
    ']',
    '&',
    '=',
    '+',
    'é',
    '\t',
    '\u0000',
  ),
  fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@%]{0,6}$/),
);
const pathAndQuery = fc.array(piece, { maxLength: 12 }).map((parts) => `/${parts.join('')}`);

describe('requestTarget', () => {
  test('is what parsing the whole URL gives, for any path and query under any base', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BASES), pathAndQuery, (base, pq) => {
        expect(requestTarget(base, pq)).toEqual(parsed(`${base}${pq}`));
      }),
      { numRuns: 3000 },
    );
  });

  test('appends a plain path and query to the base as they are', () => {
    expect(requestTarget('http://127.0.0.1:4010/scim/v2', '/Users?filter=userName%20sw%20%22lpc-1%22&count=5')).toEqual({
      origin: 'http://127.0.0.1:4010',
      path: '/scim/v2/Users?filter=userName%20sw%20%22lpc-1%22&count=5',
    });
    for (const [base, pq] of [
      ['http://h', '/a/../b'],
      ['http://h', '/a?'],
      ['http://h', '/a b?c d'],
      ['http://h', "/a?b='c'"],
      ['http://h', '/a#frag'],
      ['http://h', '/a/%2e%2e/b'],
      ['http://h/x/..', '/y'],
    ] as const) {
      expect(requestTarget(base, pq)).toEqual(parsed(`${base}${pq}`));
    }
  });
});
