// `families.<name>: none`: a profile says the target has no such API (what `lp-conformance init`
// writes when it finds none). The family keeps its place under the target, marked absent, so that
// the run skips its checks saying so (tests/cli/init.test.ts runs them).
import { describe, expect, it } from 'vitest';
import { familyAbsence, parseProfile, ProfileError, withTarget } from '../../src/profile/index.js';

describe('families.<name>: none', () => {
  it('marks the family absent, with the reason its checks are skipped, and --target keeps the mark', () => {
    const p = withTarget(parseProfile('name: x\nfamilies:\n  scim: none\n', 'x.yaml'), 'https://lms.example.test');
    expect(p.families.scim).toEqual({ baseUrl: 'https://lms.example.test/scim/v2', explicit: false, none: true });
    expect(familyAbsence(p, 'scim')).toBe('the profile says the target has no SCIM (families.scim: none)');
    expect(familyAbsence(p, 'learner')).toBeUndefined();
    expect(familyAbsence(p, 'intapi')).toBeUndefined();
  });

  it('applies to the family at the target URL too', () => {
    const p = withTarget(parseProfile('name: x\nfamilies: { intapi: none, scim: { baseUrl: "https://scim.example.test/v2" } }\n', 'x.yaml'), 'https://a.test');
    expect(familyAbsence(p, 'intapi')).toBe('the profile says the target has no Integration API (families.intapi: none)');
    expect(p.families.intapi.baseUrl).toBe('https://a.test');
    expect(p.families.scim).toEqual({ baseUrl: 'https://scim.example.test/v2', explicit: true });
  });

  it('another word is refused, naming the field', () => {
    const refused = (() => {
      try {
        return parseProfile('name: x\nfamilies: { learner: absent }\n', 'x.yaml');
      } catch (error) {
        return error;
      }
    })() as ProfileError;
    expect(refused).toBeInstanceOf(ProfileError);
    // At the field's line and column.
    expect(refused.problems).toEqual([expect.stringMatching(/^profile x\.yaml:2:\d+: families\.learner must be none$/)]);
  });
});
