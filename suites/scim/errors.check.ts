// SCIM request errors (RFC 7644 §3.12 Tables 8 and 9; RFC 7643 §2.2, §2.3.2, §4.1.1): bodies the
// service provider cannot accept answer 400. The error body itself is judged on every exchange by
// the invariants (scim.invariant.error-*); where Table 9 leaves a choice of scimType, every
// allowed one is accepted, and an absent scimType too (it is OPTIONAL).
import fc from 'fast-check';
import { requirement } from '../_harness/requirement.js';
import { expectScimErrorAllowing, postUser, SCIM_SCHEMAS, uniqueName, userBody } from '../_harness/scim/records.js';

const USERS = { write: ['scim.users'] };

requirement(
  {
    id: 'scim.errors.malformed-json-400',
    level: 'MUST',
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

requirement(
  {
    id: 'scim.errors.wrong-type-400',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.12',
    title: 'POST /Users with active not a boolean answers 400 (scimType invalidValue or invalidSyntax)',
  },
  async (t) => {
    await t.property(notBoolean, async (active) => {
      t.outcome(typeof active);
      const res = await postUser(t, userBody(uniqueName(t, 'wrongtype'), { active }));
      expectScimErrorAllowing(res, 400, ['invalidValue', 'invalidSyntax'], `to active ${JSON.stringify(active)}`);
    });
  },
  USERS,
);

requirement(
  {
    id: 'scim.errors.missing-username-400',
    level: 'MUST',
    spec: 'rfc7643#section-4.1.1',
    title: 'POST /Users without userName (REQUIRED) answers 400 (scimType invalidValue or invalidSyntax)',
  },
  async (t) => {
    const { userName: _left, ...body } = userBody(uniqueName(t, 'nouser'));
    const res = await postUser(t, { ...body, displayName: 'Lpc no userName' });
    expectScimErrorAllowing(res, 400, ['invalidValue', 'invalidSyntax'], 'to a user without userName');
  },
  USERS,
);
