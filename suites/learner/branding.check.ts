// Department branding of the learner (spec#learner-facing-api: branding, when applied, is the
// player's theme). Whether the profile's learner has branding is the target's to declare
// (expectations.learner.branding); GET /my-branding is the reference server's choice.
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import { requirement } from '../_harness/requirement.js';

requirement(
  {
    id: 'learner.branding.as-declared',
    level: 'PROFILE',
    spec: 'spec#learner-facing-api',
    title: "GET /my-branding has department branding exactly when the profile declares the learner's has",
  },
  async (t) => {
    const expected = t.profile.expectations.learner.branding;
    if (expected === 'either') t.skip('expectations.learner.branding is either');
    const res = await t.http.send({ op: 'learner.branding.get' });
    expectStatus(res, 200);
    const branding = (res.json as { branding?: unknown }).branding;
    if ((branding !== null && branding !== undefined) !== (expected === 'present')) {
      fail(
        expected === 'present' ? 'branding (the profile declares the learner has one)' : 'branding null (the profile declares none)',
        describeResponse(res),
        res,
      );
    }
  },
);
