// cachedJson (src/util/cache.ts): what a run computes from the same files at every start (a parsed
// contract, a validated profile) is kept as JSON under the user's cache folder (LPC_CACHE_DIR).
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cacheBase, cacheFile, cachedJson } from '../../src/util/cache.js';

describe('cachedJson', () => {
  test('computes once per inputs, and gives back what it computed', () => {
    const kind = `test-${randomUUID()}`;
    let computed = 0;
    const compute = () => ({ n: ++computed, list: [1, 'a', null, { b: true }] });
    expect(cachedJson(kind, ['x', 'y'], compute)).toEqual({ n: 1, list: [1, 'a', null, { b: true }] });
    expect(cachedJson(kind, ['x', 'y'], compute)).toEqual({ n: 1, list: [1, 'a', null, { b: true }] });
    // Other inputs (even the same text split otherwise) are another entry.
    expect(cachedJson(kind, ['x', 'y', 'z'], compute).n).toBe(2);
    expect(cachedJson(kind, ['xy'], compute).n).toBe(3);
    expect(computed).toBe(3);
  });

  test('keeps nothing that JSON would change, and nothing when the computation throws', () => {
    const kind = `test-${randomUUID()}`;
    let computed = 0;
    const date = () => ({ n: ++computed, at: new Date(0) });
    expect(cachedJson(kind, ['d'], date).at).toBeInstanceOf(Date);
    expect(cachedJson(kind, ['d'], date).n).toBe(2);
    const failing = () => {
      computed++;
      throw new Error('no');
    };
    expect(() => cachedJson(kind, ['f'], failing)).toThrow('no');
    expect(() => cachedJson(kind, ['f'], failing)).toThrow('no');
    expect(computed).toBe(4);
  });
});

describe('the cache folder', () => {
  test('is LPC_CACHE_DIR, else $XDG_CACHE_HOME/lp-conformance, else ~/.cache/lp-conformance', () => {
    expect(cacheBase({ LPC_CACHE_DIR: '/c/lpc', XDG_CACHE_HOME: '/x' })).toBe(resolve('/c/lpc'));
    expect(cacheBase({ LPC_CACHE_DIR: 'rel' })).toBe(resolve('rel'));
    expect(cacheBase({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'lp-conformance'));
    expect(cacheBase({})).toBe(join(homedir(), '.cache', 'lp-conformance'));
  });

  test('of the tests is a fresh one of this test run, not the user cache', () => {
    const dir = process.env.LPC_CACHE_DIR;
    expect(dir).toBeTruthy();
    expect(cacheFile('x.json').startsWith(resolve(dir!))).toBe(true);
    expect(dir!.startsWith(tmpdir())).toBe(true);
  });
});
