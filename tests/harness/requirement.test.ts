import { describe, expect, test } from 'vitest';
import { namesField } from '../../suites/_harness/failure.js';
import { register, registeredChecks } from '../../suites/_harness/registry.js';
import { areaOf, checkSeed, showCounterexample } from '../../suites/_harness/requirement.js';

describe('a validation names the field', () => {
  test.each([
    [['title: must be at most 255 characters'], 'title', true],
    [['The Title field is required.'], 'title', true],
    [['questionOptions[0].name: is required'], 'questionOptions[0].name', true],
    [['subtitle: too long'], 'title', false],
    [['title_x: too long'], 'title', false],
    [['_limit: must be an integer from 1 to 1000'], '_limit', true],
    [['limit: deprecated'], '_limit', false],
    [[], 'title', false],
  ])('%j names %s: %s', (validations, field, expected) => {
    expect(namesField(validations, field)).toBe(expected);
  });
});

describe('check identity helpers', () => {
  test('the area is the family, version and resource', () => {
    expect(areaOf('intapi.v2.submissions.create.title.above-max')).toBe('intapi.v2.submissions');
    expect(areaOf('intapi.auth.missing-key-401')).toBe('intapi.auth');
    expect(areaOf('intapi.invariant.no-5xx')).toBe('intapi.invariant');
  });
  test('per-check seeds are stable, and differ between checks and run seeds', () => {
    expect(checkSeed(7, 'a.b')).toBe(checkSeed(7, 'a.b'));
    expect(checkSeed(7, 'a.b')).not.toBe(checkSeed(7, 'a.c'));
    expect(checkSeed(7, 'a.b')).not.toBe(checkSeed(8, 'a.b'));
    expect(Number.isInteger(checkSeed(-3, 'x.y'))).toBe(true);
  });
  test('counterexamples abbreviate long strings and keep the rest', () => {
    const shown = showCounterexample({ title: 'a'.repeat(256), n: 1 });
    expect(shown).toContain('…(256 chars)');
    expect(shown).toContain('"n":1');
    expect(showCounterexample({ toString: () => 'Create(1),List' })).toBe('Create(1),List');
  });
});

describe("the run's registry", () => {
  test('keeps the checks in registration order and refuses an id registered twice', () => {
    // Ids of this test alone: the in-process project shares one module graph per worker.
    const check = (title: string) => ({
      check: { id: 'lpc.registry-test.once', level: 'MUST' as const, spec: 'lpc#harness', title, area: 'lpc.registry-test' },
      run: async () => ({}),
    });
    register(check('first'));
    expect(registeredChecks().at(-1)?.check.title).toBe('first');
    expect(() => register(check('second'))).toThrow('check id lpc.registry-test.once is registered twice');
    expect(registeredChecks().filter((c) => c.check.id === 'lpc.registry-test.once')).toHaveLength(1);
  });
});
