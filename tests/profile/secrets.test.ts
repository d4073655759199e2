import { describe, expect, it } from 'vitest';
import { loadProfile, parseProfile, redactor, resolveSecrets } from '../../src/profile/index.js';

describe('resolveSecrets', () => {
  const reference = loadProfile();

  it('answers each credential variable with its value', () => {
    const env = { LPC_API_KEY: 'k', LPC_USERNAME: 'u', LPC_PASSWORD: 'p', LPC_PRIVATE_KEY: 'pk', OTHER: 'x' };
    expect(resolveSecrets(reference, env)).toEqual({
      values: { LPC_API_KEY: 'k', LPC_USERNAME: 'u', LPC_PASSWORD: 'p', LPC_PRIVATE_KEY: 'pk' },
      missingByFamily: { intapi: [], scim: ['LPC_SCIM_TOKEN'], learner: ['LPC_LEARNER_USERNAME', 'LPC_LEARNER_PASSWORD'] },
    });
  });

  it('lists unset and empty variables as missing', () => {
    expect(resolveSecrets(reference, { LPC_API_KEY: 'k', LPC_PASSWORD: '' })).toEqual({
      values: { LPC_API_KEY: 'k' },
      missingByFamily: {
        intapi: ['LPC_USERNAME', 'LPC_PASSWORD', 'LPC_PRIVATE_KEY'],
        scim: ['LPC_SCIM_TOKEN'],
        learner: ['LPC_LEARNER_USERNAME', 'LPC_LEARNER_PASSWORD'],
      },
    });
  });

  it('with a token profile, the API key and the token', () => {
    const p = parseProfile('name: x\ncredentials: { token: { env: MY_TOKEN } }\n', 'x.yaml');
    expect(resolveSecrets(p, { LPC_API_KEY: 'k', MY_TOKEN: 't', LPC_USERNAME: 'u' })).toEqual({
      values: { LPC_API_KEY: 'k', MY_TOKEN: 't' },
      missingByFamily: { intapi: [], scim: ['LPC_SCIM_TOKEN'], learner: ['LPC_LEARNER_USERNAME', 'LPC_LEARNER_PASSWORD'] },
    });
  });

  it('a variable named twice is missing once', () => {
    const p = parseProfile('name: x\ncredentials: { apiKey: { env: SAME }, token: { env: SAME } }\n', 'x.yaml');
    expect(resolveSecrets(p, {})).toMatchObject({ values: {}, missingByFamily: { intapi: ['SAME'] } });
  });

  it("a family's variables are missing for that family only, and their values are secrets too", () => {
    const p = parseProfile('name: x\ncredentials: { scim: { username: { env: S_USER }, password: { env: S_PASS } } }\n', 'x.yaml');
    const env = { LPC_API_KEY: 'k', LPC_USERNAME: 'u', LPC_PASSWORD: 'p', LPC_PRIVATE_KEY: 'pk', S_USER: 'su', LPC_LEARNER_TOKEN_UNUSED: 'x' };
    const resolved = resolveSecrets(p, env);
    expect(resolved.missingByFamily).toEqual({ intapi: [], scim: ['S_PASS'], learner: ['LPC_LEARNER_USERNAME', 'LPC_LEARNER_PASSWORD'] });
    expect(resolved.values.S_USER).toBe('su');
  });
});

describe('redactor', () => {
  it('replaces every occurrence of a value with its variable', () => {
    const redact = redactor({ LPC_API_KEY: 's3cr3t-key' });
    expect(redact('x-api-key: s3cr3t-key; again s3cr3t-key.')).toBe('x-api-key: ${LPC_API_KEY}; again ${LPC_API_KEY}.');
  });

  it('replaces back-to-back occurrences separately', () => {
    expect(redactor({ K: 'abc' })('abcabc')).toBe('${K}${K}');
  });

  it('replaces the URL-encoded form (path, query, form body)', () => {
    const redact = redactor({ LPC_PASSWORD: 'p@ss w/rd&=' });
    expect(redact('/login?password=p%40ss%20w%2Frd%26%3D')).toBe('/login?password=${LPC_PASSWORD}');
    expect(redact('password=p%40ss+w%2Frd%26%3D&x=1')).toBe('password=${LPC_PASSWORD}&x=1');
  });

  it('replaces the form escaped in a JSON string', () => {
    const redact = redactor({ LPC_PASSWORD: 'pa"ss\\word' });
    expect(redact(JSON.stringify({ password: 'pa"ss\\word' }))).toBe('{"password":"${LPC_PASSWORD}"}');
  });

  it('a secret inside a longer one shows only the longer one', () => {
    const redact = redactor({ LPC_PASSWORD: 'hunter', LPC_PRIVATE_KEY: 'hunter2-private' });
    expect(redact('key=hunter2-private pw=hunter')).toBe('key=${LPC_PRIVATE_KEY} pw=${LPC_PASSWORD}');
  });

  it('partially overlapping secrets leave no fragment of either', () => {
    const redact = redactor({ A: 'abcd', B: 'cdef' });
    expect(redact('xabcdefx')).toBe('x${A}${B}x');
    expect(redact('xcdefabcdx')).toBe('x${B}${A}x');
  });

  it('overlapping occurrences of one secret become one placeholder', () => {
    expect(redactor({ K: 'aa' })('baaab')).toBe('b${K}b');
  });

  it('never rewrites a placeholder it wrote', () => {
    const redact = redactor({ LPC_API_KEY: 'KEY', LPC_TOKEN: 'LPC' });
    expect(redact('KEY LPC')).toBe('${LPC_API_KEY} ${LPC_TOKEN}');
  });

  it('ignores empty values and changes nothing without secrets', () => {
    expect(redactor({ EMPTY: '' })('text')).toBe('text');
    expect(redactor({})('text')).toBe('text');
  });
});
