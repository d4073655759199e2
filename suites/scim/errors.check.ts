// SCIM request errors (RFC 7644 §3.12 Tables 8 and 9; RFC 7643 §2.2, §2.3.2, §4.1.1): bodies the
// service provider cannot accept answer 400. The error body itself is judged on every exchange by
// the invariants (scim.invariant.error-*); where Table 9 leaves a choice of scimType, every
// allowed one is accepted, and an absent scimType too (it is OPTIONAL).
import fc from 'fast-check';
import { notSetUp } from '../_harness/outcomes.js';
import { type Json, memo } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { expectScimErrorAllowing, postUser, SCIM_SCHEMAS, uniqueName, userBody } from '../_harness/scim/records.js';
import { requireUserAttributes } from '../_harness/scim/target.js';

const USERS = { write: ['scim.users'] };

/**
 * The control of a refusal check: the same body, made valid (`valid`), is accepted. Sent once per
 * check; when the target refuses it too, its refusals say nothing of the check's rule (a body the
 * target refuses for another reason, such as a missing email it requires): the check is not set up.
 */
const acceptsControl = (valid: (t: CheckContext) => Json) =>
  memo(async (t) => {
    const res = await postUser(t, valid(t));
    if (res.status < 200 || res.status > 299) notSetUp(res, 'the same user with a valid value (the control: a refusal must be about the rule)');
  });

requirement(
  {
    id: 'scim.errors.malformed-json-400',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.12',
    title: 'POST /Users with a body that is not JSON answers 400 (scimType invalidSyntax if given)',
  },
  async (t) => {
    const res = await t.http.send({ op: 'scim.users.create', rawBody: `{"schemas": ["${SCIM_SCHEMAS.user}"], "userName": "${uniqueName(t, 'broken')}",` });
    expectScimErrorAllowing(res, 400, ['invalidSyntax'], 'to a truncated JSON body');
  },
  USERS,
);

/** Values of `active` (a boolean, RFC 7643 §4.1.1) of another JSON type. */
const notBoolean = fc.oneof(
  fc.constantFrom<unknown>('yes', 'no', 'true', 'False', '', '1'),
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom<unknown>({ value: true }, [true], 'on'),
);

const activeControl = acceptsControl((t) => userBody(uniqueName(t, 'wrongtype'), { active: true }));

requirement(
  {
    id: 'scim.errors.wrong-type-400',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.12',
    title: 'POST /Users with active not a boolean answers 400 (scimType invalidValue or invalidSyntax)',
  },
  async (t) => {
    await requireUserAttributes(t, ['active']);
    await activeControl(t);
    // A profile naming Entra ID takes its reading: "True" and "False" (any case) are booleans there (client.check.ts).
    const strings = t.profile.expectations.scim.client.includes('entra');
    const drawn = strings ? notBoolean.filter((v) => !(typeof v === 'string' && /^(true|false)$/i.test(v))) : notBoolean;
    await t.property(drawn, async (active) => {
      t.outcome(typeof active);
      const res = await postUser(t, userBody(uniqueName(t, 'wrongtype'), { active }), undefined, { refusal: true });
      expectScimErrorAllowing(res, 400, ['invalidValue', 'invalidSyntax'], `to active ${JSON.stringify(active)}`);
    });
  },
  USERS,
);

const userNameControl = acceptsControl((t) => userBody(uniqueName(t, 'nouser'), { displayName: 'Lpc no userName' }));

requirement(
  {
    id: 'scim.errors.missing-username-400',
    level: 'MUST',
    spec: 'rfc7643#section-4.1.1',
    binds:
      'RFC 7643 §4.1.1: userName "is REQUIRED" in every User the server holds; it cannot create one without it (Table 9 invalidValue: "A required value was missing")',
    title: 'POST /Users without userName (REQUIRED) answers 400 (scimType invalidValue or invalidSyntax)',
  },
  async (t) => {
    await userNameControl(t);
    const { userName: _left, ...body } = userBody(uniqueName(t, 'nouser'));
    const res = await postUser(t, { ...body, displayName: 'Lpc no userName' }, undefined, { refusal: true });
    expectScimErrorAllowing(res, 400, ['invalidValue', 'invalidSyntax'], 'to a user without userName');
  },
  USERS,
);
