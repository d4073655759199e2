// SCIM PATCH (rfc7644#section-3.5.2, spec#scim-20-api rule 3): a model-based sequence of PATCH
// operations on a user and a group the check created, and one check per error or answer rule.
import fc from 'fast-check';
import { describeResponse, excerpt, expectStatus, fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { blockedBy } from '../_harness/outcomes.js';
import { memo, type Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import {
  type Fixtures,
  PATCH_ANSWER_CHECK,
  patchBody,
  patchCommands,
  patchedResource,
  patchGroup,
  patchUser,
  type PatchOp,
  resetFixtures,
  SIMPLE,
} from '../_harness/scim/patch-model.js';
import { createGroup, createUser, expectScimError, literal, SCIM_SCHEMAS, uniqueName } from '../_harness/scim/records.js';
import { hasAttribute, requireUserAttributes, scimTargetOf, uniqueEmail } from '../_harness/scim/target.js';

const WRITES_USERS = { write: ['scim.users'] } as const;
const WRITES_BOTH = { write: ['scim.users', 'scim.groups'] } as const;

const bodyOf = (res: ApiResponse): Json => (typeof res.json === 'object' && res.json !== null && !Array.isArray(res.json) ? (res.json as Json) : {});

/** Ends the check blocked by `owner` when the target refused the path (400 invalidPath): `owner`'s rule. */
function blockedOnInvalidPath(res: ApiResponse, owner: string, why: string): void {
  if (res.status === 400 && bodyOf(res).scimType === 'invalidPath') blockedBy(owner, why, res);
}

/** Skips the check unless the target's /Schemas lists the enterprise User extension. */
async function requireEnterprise(t: CheckContext): Promise<void> {
  const { schema } = await scimTargetOf(t);
  if (!schema.extensions.has(SCIM_SCHEMAS.enterprise.toLowerCase()))
    t.skip("the target's /Schemas lists no enterprise User extension (optional, RFC 7643 §4.3)");
}

/** The simple string attributes a check writes, in order of preference: the first the target's User has. */
const TEXT_ATTRIBUTES = ['title', 'displayName', 'nickName', 'userType'] as const;

/** The text attributes the target's User has (GET /Schemas), in order of preference; the check is
 * skipped when it has fewer than `count`. */
async function textAttributes(t: CheckContext, count = 1): Promise<string[]> {
  const { schema } = await scimTargetOf(t);
  const listed = TEXT_ATTRIBUTES.filter((a) => hasAttribute(schema, a));
  if (listed.length < count) t.skip(`the target's User (GET /Schemas) has fewer than ${count} of ${TEXT_ATTRIBUTES.join(', ')} to write`);
  return listed;
}

/** A user of the check's own with a work and a home email, each its own address; skipped unless
 * the target's User has emails and emails.type. */
async function userWithWorkAndHome(
  t: CheckContext,
  tag: string,
): Promise<{ work: { value: string; type: string }; home: { value: string; type: string }; user: Json & { id: string } }> {
  await requireUserAttributes(t, ['emails', 'emails.type']);
  const work = { value: uniqueEmail(t, 'work'), type: 'work' };
  const home = { value: uniqueEmail(t, 'home'), type: 'home' };
  return { work, home, user: await createUser(t, tag, { emails: [work, home] }) };
}

/** The user each single-shot check works on: one work email (its own address), a text attribute. */
const userOf = memo(async (t) => {
  const [attr = 'title'] = await textAttributes(t);
  const user = await createUser(t, 'patch', { [attr]: 'Before', emails: [{ value: uniqueEmail(t, 'work'), type: 'work' }] });
  return { ...user, attr, workEmail: String(((user.emails as Json[] | undefined) ?? [])[0]?.value ?? '') };
});

async function getUser(t: CheckContext, id: string): Promise<{ user: Json; res: ApiResponse }> {
  const res = await t.http.send({ op: 'scim.users.get', params: { id } });
  if (res.status !== 200) fail('GET of the user to answer 200 with it', describeResponse(res), res);
  return { user: bodyOf(res), res };
}

/** An error answer whose scimType, when the RFC names none, is one of `types` if present (RFC 7644 §3.12: scimType is optional). */
function expectBadRequest(res: ApiResponse, types: readonly string[], what: string): void {
  const scimType = bodyOf(res).scimType;
  const expected = `400 ${what} (scimType, if any, ${types.join(' or ')})`;
  if (res.status !== 400) fail(expected, describeResponse(res), res);
  if (scimType !== undefined && (typeof scimType !== 'string' || !types.includes(scimType))) {
    fail(expected, `400 with scimType ${JSON.stringify(scimType)}: ${excerpt(res.text)}`, res);
  }
}

// ---- The model ------------------------------------------------------------------------------

const fixturesOf = memo(async (t): Promise<Fixtures> => {
  const { schema } = await scimTargetOf(t);
  const user = await createUser(t, 'patch-model');
  const others = [await createUser(t, 'patch-member'), await createUser(t, 'patch-member')];
  const group = await createGroup(t, 'patch-model');
  return {
    userId: user.id,
    userName: user.userName,
    mailTag: t.uuid().slice(0, 8),
    simple: SIMPLE.filter((path) => hasAttribute(schema, path)),
    emailsRequired: schema.user.get('emails')?.required ?? false,
    groupId: group.id,
    groupName: group.displayName,
    memberPool: [user.id, ...others.map((u) => u.id)],
  };
});

requirement(
  {
    id: 'scim.patch.model',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    title: 'Sequences of PATCH add, replace and remove (paths, value filters, no path) agree with a model',
  },
  async (t) => {
    const f = await fixturesOf(t);
    await t.property(patchCommands(t.config.replayPath), async (cmds) => {
      const kinds = [...cmds].map((c) => String(c).replace(/\(.*$/, ''));
      if (kinds.length === 0) t.degenerate('an empty command sequence');
      for (const kind of new Set(kinds)) t.outcome(kind);
      await fc.asyncModelRun(async () => ({ model: await resetFixtures(t, f), real: { t, f } }), cmds);
    });
  },
  WRITES_BOTH,
);

// ---- The answer -----------------------------------------------------------------------------

requirement(
  {
    id: 'scim.patch.success-answer',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    title: 'A successful PATCH answers 200 with the entire changed resource, or 204 without a body',
  },
  async (t) => {
    const user = await userOf(t);
    const value = uniqueName(t, 'title');
    const res = await patchUser(t, user.id, [{ op: 'replace', path: user.attr, value }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, `replace ${user.attr}`, true);
    if (resource[user.attr] !== value || resource.userName !== user.userName) {
      fail(
        `the user with ${user.attr} ${JSON.stringify(value)} and its userName`,
        `${user.attr} ${JSON.stringify(resource[user.attr])}, userName ${JSON.stringify(resource.userName)}`,
        shown,
      );
    }
    if (res.status === 204 && res.text.length > 0) fail('204 without a body', describeResponse(res), res);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.attributes-200',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    title: 'A PATCH with attributes in the query answers 200 with the resource projected to them',
  },
  async (t) => {
    const user = await userOf(t);
    const value = uniqueName(t, 'title');
    const res = await patchUser(t, user.id, [{ op: 'replace', path: user.attr, value }], { attributes: 'userName' });
    const body = bodyOf(res);
    // A 200 without the resource is scim.patch.success-answer's rule (200 carries the entire resource).
    if (res.status === 200 && typeof body.id !== 'string') blockedBy(PATCH_ANSWER_CHECK, `a 200 without the resource: ${describeResponse(res)}`, res);
    if (res.status !== 200 || body.id !== user.id || body.userName !== user.userName) {
      fail('200 with the user (id and userName) when attributes is given', describeResponse(res), res);
    }
    if (user.attr in body || 'emails' in body)
      fail('only the attributes asked for (userName) and those always returned', `${user.attr} or emails in ${excerpt(res.text)}`, res);
  },
  WRITES_USERS,
);

/** Long enough for a target whose timestamps count whole seconds to show a change. */
const TIMESTAMP_TICK_MS = 1100;

requirement(
  {
    id: 'scim.patch.identical-add-keeps-last-modified',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.1',
    title: 'An add of values the resource already holds leaves meta.lastModified unchanged',
  },
  async (t) => {
    const [attr = 'title'] = await textAttributes(t);
    const user = await createUser(t, 'patch-same', { [attr]: 'Same' });
    const before = await getUser(t, user.id);
    const stamp = (u: Json): unknown => (typeof u.meta === 'object' && u.meta !== null ? (u.meta as Json).lastModified : undefined);
    t.requireData(stamp(before.user) !== undefined, 'the user has no meta.lastModified to compare');
    await new Promise((done) => setTimeout(done, TIMESTAMP_TICK_MS));
    // Whatever the answer (a success SHOULD be returned), the modify timestamp SHALL NOT change.
    await patchUser(t, user.id, [{ op: 'add', path: attr, value: 'Same' }]);
    const after = await getUser(t, user.id);
    if (stamp(after.user) !== stamp(before.user)) {
      fail(`meta.lastModified still ${JSON.stringify(stamp(before.user))}`, `meta.lastModified ${JSON.stringify(stamp(after.user))}`, after.res);
    }
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.primary-clears-others',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    title: "A PATCH adding a primary value sets primary false on the attribute's other values",
  },
  async (t) => {
    // RFC 7643 §2.4: "The primary attribute value "true" MUST appear no more than once." The add
    // carries a second value that is not primary: the primary one among them takes primary all the same.
    await requireUserAttributes(t, ['emails']);
    const [first, second, third] = [uniqueEmail(t, 'first'), uniqueEmail(t, 'second'), uniqueEmail(t, 'third')];
    const user = await createUser(t, 'patch-primary', { emails: [{ value: first, type: 'work', primary: true }] });
    const added = [
      { value: second, type: 'home', primary: true },
      { value: third, type: 'other' },
    ];
    const res = await patchUser(t, user.id, [{ op: 'add', path: 'emails', value: added }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, 'add of a primary email and one that is not');
    const emails = Array.isArray(resource.emails) ? (resource.emails as Json[]) : [];
    const primaries = emails.filter((e) => e?.primary === true).map((e) => e.value);
    if (primaries.length !== 1 || primaries[0] !== second) {
      fail(`only the added email ${second} primary`, `primary emails ${JSON.stringify(primaries)}`, shown);
    }
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.add-keeps-other-primary',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2.1',
    title: 'A PATCH adding an email that is not primary leaves the primary email primary',
  },
  async (t) => {
    // Section 3.5.2.1: the add puts "a new value" in the attribute; only a value that is itself primary
    // takes primary from the others (RFC 7643 §2.4: "true" at most once), so this one leaves it.
    await requireUserAttributes(t, ['emails', 'emails.primary']);
    const [first, second] = [uniqueEmail(t, 'first'), uniqueEmail(t, 'second')];
    const user = await createUser(t, 'patch-primary-kept', { emails: [{ value: first, type: 'work', primary: true }] });
    const res = await patchUser(t, user.id, [{ op: 'add', path: 'emails', value: [{ value: second, type: 'home' }] }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, 'add of an email without primary');
    requireKept(resource, first, shown);
    const emails = Array.isArray(resource.emails) ? (resource.emails as Json[]) : [];
    const primaries = emails.filter((e) => e?.primary === true).map((e) => String(e.value).toLowerCase());
    if (primaries.length !== 1 || primaries[0] !== first) fail(`${first} still the primary email`, `primary emails ${JSON.stringify(primaries)}`, shown);
  },
  WRITES_USERS,
);

// ---- Atomicity ------------------------------------------------------------------------------

requirement(
  {
    id: 'scim.patch.atomic',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    title: 'A PATCH whose second operation fails answers an error and leaves the first one unapplied',
  },
  async (t) => {
    const user = await userOf(t);
    const before = await getUser(t, user.id);
    const value = uniqueName(t, 'atomic');
    // The second operation removes the required userName: an error whatever else the target checks (RFC 7644 §3.5.2.2).
    const res = await patchUser(t, user.id, [
      { op: 'replace', path: user.attr, value },
      { op: 'remove', path: 'userName' },
    ]);
    if (res.status >= 200 && res.status < 300)
      t.skip('the target accepted the removal of userName (scim.patch.remove-required-mutability judges it): no failing operation');
    if (res.status < 400 || res.status > 499) fail('a 4xx error for a PATCH whose second operation removes userName', describeResponse(res), res);
    const after = await getUser(t, user.id);
    const a = user.attr;
    if (after.user[a] !== before.user[a] || after.user.userName !== before.user.userName) {
      fail(
        `the user unchanged (${a} ${JSON.stringify(before.user[a])}, userName ${JSON.stringify(before.user.userName)})`,
        `${a} ${JSON.stringify(after.user[a])}, userName ${JSON.stringify(after.user.userName)}`,
        after.res,
      );
    }
  },
  WRITES_USERS,
);

// ---- Errors ---------------------------------------------------------------------------------

requirement(
  {
    id: 'scim.patch.remove-without-path',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.2',
    binds: 'RFC 7644 §3.5.2.2: "If \"path\" is unspecified, the operation fails with HTTP status code 400 and a \"scimType\" error code of \"noTarget\"."',
    title: 'A remove operation without a path answers 400 noTarget',
  },
  async (t) => {
    const user = await userOf(t);
    expectScimError(await patchUser(t, user.id, [{ op: 'remove' }]), 400, 'noTarget', 'for remove without a path');
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.path-not-string',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2',
    title: 'A PATCH operation whose path is a number, not a string, answers 400 (invalidPath or invalidSyntax)',
  },
  async (t) => {
    // Section 3.5.2: "The "path" attribute value is a String containing an attribute path". A path
    // of another type is no path at all, nor the absence of one (a no-path replace of the value).
    const [attr = 'title'] = await textAttributes(t);
    const user = await createUser(t, 'patch-path-type', { [attr]: 'Before' });
    const operation = { op: 'replace', path: 7, value: { [attr]: 'After' } } as unknown as PatchOp;
    expectBadRequest(await patchUser(t, user.id, [operation]), ['invalidPath', 'invalidSyntax'], 'for an operation whose path is the number 7');
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.no-path-complex-value',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.3',
    title: 'A no-path replace whose value holds the complex name ({"name": {…}}) sets its sub-attributes',
  },
  async (t) => {
    // Section 3.5.2.3: without a path "the target is assumed to be the resource itself", and the
    // value holds the attributes to replace; a complex attribute among them is one of those.
    await requireUserAttributes(t, ['name']);
    const user = await createUser(t, 'patch-no-path-name', { name: { givenName: 'Before', familyName: 'Lpc' } });
    const what = 'a no-path replace of name';
    const res = await patchUser(t, user.id, [{ op: 'replace', value: { name: { givenName: 'After', familyName: 'Lpc' } } }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    const name = (resource.name ?? {}) as Json;
    if (name.givenName !== 'After') fail(`name.givenName "After" after ${what}`, `name ${JSON.stringify(resource.name)}`, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.remove-multi-valued-all',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.2',
    title: 'remove of emails without a filter removes every value of the attribute',
  },
  async (t) => {
    // Section 3.5.2.2: "If the target location is a multi-valued attribute and no filter is
    // specified, the attribute and all values are removed."
    await requireUserAttributes(t, ['emails']);
    // A target whose User requires emails (GET /Schemas) refuses the removal: 400 mutability, another rule.
    const { schema } = await scimTargetOf(t);
    if (schema.user.get('emails')?.required === true) t.skip("the target's User requires emails (GET /Schemas): removing them is refused");
    const emails = [
      { value: uniqueEmail(t, 'work'), type: 'work' },
      { value: uniqueEmail(t, 'home'), type: 'home' },
    ];
    const user = await createUser(t, 'patch-remove-emails', { emails });
    const what = 'remove of emails (no filter)';
    const res = await patchUser(t, user.id, [{ op: 'remove', path: 'emails' }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    const left = resource.emails;
    if (Array.isArray(left) ? left.length > 0 : left !== undefined && left !== null) fail(`no emails after ${what}`, `emails ${JSON.stringify(left)}`, shown);
  },
  WRITES_USERS,
);

/** The user's emails as `address type` pairs, sorted: what the multi-valued checks compare. */
const emailPairs = (emails: unknown): string[] =>
  (Array.isArray(emails) ? (emails as Json[]) : []).map((e) => `${String(e.value).toLowerCase()} ${String(e.type)}`).sort();

/** Fails unless the resource's emails are exactly `emails`, by value and type (`how`: what the
 * expectation adds in words, `alone`, `(value and type)`). */
function expectEmails(resource: Json, emails: readonly Json[], how: string, what: string, shown: ApiResponse): void {
  const wanted = emailPairs(emails);
  if (JSON.stringify(emailPairs(resource.emails)) !== JSON.stringify(wanted))
    fail(`the emails ${wanted.join(', ')}${how ? ` ${how}` : ''} after ${what}`, `emails ${JSON.stringify(resource.emails)}`, shown);
}

/** Whether the resource holds an email with this address, compared without case: emails.value is
 * caseExact false (RFC 7643 §8.7.1). */
function hasEmail(resource: Json, address: string): boolean {
  const emails = Array.isArray(resource.emails) ? (resource.emails as Json[]) : [];
  return emails.some((e) => String(e?.value).toLowerCase() === address.toLowerCase());
}

/** Ends the check blocked when the add left out an email the user had: add-multi-valued-appends's rule. */
function requireKept(resource: Json, address: string, shown: ApiResponse): void {
  if (!hasEmail(resource, address))
    blockedBy('scim.patch.add-multi-valued-appends', `the add left out the email ${address} the user had: emails ${JSON.stringify(resource.emails)}`, shown);
}

requirement(
  {
    id: 'scim.patch.replace-multi-valued-all',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.3',
    binds: 'RFC 7644 §3.5.2.3: "If the target location is a multi-valued attribute and no filter is specified, the attribute and all values are replaced."',
    title: 'replace of emails without a filter replaces every value with those sent',
  },
  async (t) => {
    await requireUserAttributes(t, ['emails', 'emails.type']);
    const user = await createUser(t, 'patch-replace-emails', {
      emails: [
        { value: uniqueEmail(t, 'work'), type: 'work' },
        { value: uniqueEmail(t, 'home'), type: 'home' },
      ],
    });
    const sent = [{ value: uniqueEmail(t, 'other'), type: 'other' }];
    const what = `replace of emails (no filter) with ${JSON.stringify(sent)}`;
    const res = await patchUser(t, user.id, [{ op: 'replace', path: 'emails', value: sent }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    expectEmails(resource, sent, 'alone', what, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.add-multi-valued-appends',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.1',
    binds: 'RFC 7644 §3.5.2.1: "If the target location specifies a multi-valued attribute, a new value is added to the attribute."',
    title: 'add of emails with a new value keeps the emails the user had and adds it',
  },
  async (t) => {
    await requireUserAttributes(t, ['emails', 'emails.type']);
    const had = { value: uniqueEmail(t, 'work'), type: 'work' };
    const user = await createUser(t, 'patch-add-emails', { emails: [had] });
    const sent = [{ value: uniqueEmail(t, 'home'), type: 'home' }];
    const what = `add of emails with ${JSON.stringify(sent)}`;
    const res = await patchUser(t, user.id, [{ op: 'add', path: 'emails', value: sent }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    expectEmails(resource, [had, ...sent], '', what, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.replace-required-null-refused',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.3',
    binds:
      'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."',
    title: 'replace of the required userName with null answers 400 and keeps the userName',
  },
  async (t) => {
    // RFC 7643 §2.5: "Assigning an attribute with the value "null" ... has the effect of making the
    // attribute "unassigned""; userName is required (§4.1.1), so the operation breaks the schema.
    const user = await createUser(t, 'patch-username-null');
    const what = 'replace of userName with null';
    const res = await patchUser(t, user.id, [{ op: 'replace', path: 'userName', value: null }]);
    expectBadRequest(res, ['mutability', 'invalidValue'], `for ${what}`);
    const { user: after, res: shown } = await getUser(t, user.id);
    if (after.userName !== user.userName)
      fail(`userName ${JSON.stringify(user.userName)} kept after ${what}`, `userName ${JSON.stringify(after.userName)}`, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.replace-null-unassigns',
    level: 'MUST',
    spec: 'rfc7643#section-2.5',
    title: 'replace of an optional attribute with null succeeds and leaves it unassigned',
  },
  async (t) => {
    // RFC 7643 §2.5: "Assigning an attribute with the value "null" or an empty array (in the case of
    // multi-valued attributes) has the effect of making the attribute "unassigned"."
    const [attr = 'title'] = await textAttributes(t);
    const user = await createUser(t, 'patch-null', { [attr]: 'Before' });
    const what = `replace of ${attr} with null`;
    const res = await patchUser(t, user.id, [{ op: 'replace', path: attr, value: null }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    if (resource[attr] !== undefined && resource[attr] !== null) fail(`no ${attr} after ${what}`, `${attr} ${JSON.stringify(resource[attr])}`, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.extension-complex-sub-attribute',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    title: 'add, then remove, of the enterprise manager.value by its URN path sets, then unassigns it',
  },
  async (t) => {
    // Section 3.5.2's path is `attrPath`, "[URI ":"] ATTRNAME *1subAttr": the extension's URN, the
    // complex manager and its sub-attribute value. Section 3.5.2.1: an add to a location that does
    // not exist adds it; section 3.5.2.2: a removed single-valued attribute "SHALL be considered
    // unassigned".
    await requireEnterprise(t);
    const boss = await createUser(t, 'patch-manager-boss');
    const user = await createUser(t, 'patch-manager');
    const path = `${SCIM_SCHEMAS.enterprise}:manager.value`;
    const managerOf = (r: Json): unknown => (((r[SCIM_SCHEMAS.enterprise] ?? {}) as Json).manager as Json | undefined)?.value;
    const added = await patchedResource(t, await patchUser(t, user.id, [{ op: 'add', path, value: boss.id }]), 'user', user.id, `add of ${path}`);
    if (managerOf(added.resource) !== boss.id)
      fail(
        `manager.value ${JSON.stringify(boss.id)} after add of ${path}`,
        `the extension ${JSON.stringify(added.resource[SCIM_SCHEMAS.enterprise])}`,
        added.res,
      );
    const removed = await patchedResource(t, await patchUser(t, user.id, [{ op: 'remove', path }]), 'user', user.id, `remove of ${path}`);
    if (managerOf(removed.resource) !== undefined && managerOf(removed.resource) !== null)
      fail(`no manager.value after remove of ${path}`, `the extension ${JSON.stringify(removed.resource[SCIM_SCHEMAS.enterprise])}`, removed.res);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.read-only-sub-attribute-mutability',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    binds:
      'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."',
    title: 'replace of the read-only enterprise manager.displayName answers 400 mutability and keeps it',
  },
  async (t) => {
    // Section 3.5.2: "a client MUST NOT modify an attribute that has mutability "readOnly""; RFC 7643
    // §4.3 makes manager.displayName readOnly, and the target's /Schemas says what it makes it.
    await requireEnterprise(t);
    const enterprise = SCIM_SCHEMAS.enterprise;
    const path = `${enterprise}:manager.displayName`;
    const { schema } = await scimTargetOf(t);
    if (!schema.readOnly.has(path.toLowerCase())) t.skip(`the target's /Schemas does not make ${path} readOnly`);
    const boss = await createUser(t, 'patch-ro-boss');
    const user = await createUser(t, 'patch-ro', { schemas: [SCIM_SCHEMAS.user, enterprise], [enterprise]: { manager: { value: boss.id } } });
    const sent = uniqueName(t, 'renamed');
    const what = `replace of ${path} with ${JSON.stringify(sent)}`;
    const res = await patchUser(t, user.id, [{ op: 'replace', path, value: sent }]);
    blockedOnInvalidPath(res, 'scim.patch.extension-complex-sub-attribute', `the path ${path} answered 400 invalidPath`);
    expectBadRequest(res, ['mutability'], `for ${what}`);
    const { user: after, res: shown } = await getUser(t, user.id);
    const manager = ((after[enterprise] ?? {}) as Json).manager as Json | undefined;
    if (manager?.displayName === sent)
      fail(`manager.displayName not ${JSON.stringify(sent)} after the refused ${what}`, `manager ${JSON.stringify(manager)}`, shown);
  },
  WRITES_USERS,
);

/** Ends the check blocked when the target refuses an operation without a path (400 invalidPath):
 * no-path-complex-value judges that rule. */
function noPathRefused(res: ApiResponse, what: string): void {
  blockedOnInvalidPath(res, 'scim.patch.no-path-complex-value', `${what} answered 400 invalidPath: the target refuses operations without a path`);
}

requirement(
  {
    id: 'scim.patch.no-path-extension-value',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.3',
    binds:
      'RFC 7644 §3.5.2.3: "If the "path" parameter is omitted, the target is assumed to be the resource itself. In this case, the "value" attribute SHALL contain a list of one or more attributes that are to be replaced."',
    title: 'A no-path replace whose value holds the enterprise extension sets its employeeNumber',
  },
  async (t) => {
    // The resource's attributes include those of its extensions, held in the object named by the
    // extension's URN (RFC 7643 §3.3): a no-path value names them the same way.
    await requireEnterprise(t);
    const enterprise = SCIM_SCHEMAS.enterprise;
    const user = await createUser(t, 'patch-no-path-ext');
    const employeeNumber = uniqueName(t, 'emp');
    const what = `a no-path replace of {"${enterprise}": {"employeeNumber": ${JSON.stringify(employeeNumber)}}}`;
    const res = await patchUser(t, user.id, [{ op: 'replace', value: { [enterprise]: { employeeNumber } } }]);
    noPathRefused(res, what);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    const extension = (resource[enterprise] ?? {}) as Json;
    if (extension.employeeNumber !== employeeNumber)
      fail(`employeeNumber ${JSON.stringify(employeeNumber)} in the extension after ${what}`, `the extension ${JSON.stringify(resource[enterprise])}`, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.no-path-other-id-mutability',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    binds:
      'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."',
    title: 'A no-path replace whose value carries another id answers 400 mutability and keeps the id',
  },
  async (t) => {
    // id is readOnly (RFC 7643 §3.1). Okta sends the resource's own id in a no-path value, which a
    // server may take as no change; another id is an attempt to change it.
    const user = await createUser(t, 'patch-no-path-id');
    const other = t.uuid();
    const what = `a no-path replace of {"id": ${JSON.stringify(other)}}`;
    const res = await patchUser(t, user.id, [{ op: 'replace', value: { id: other } }]);
    noPathRefused(res, what);
    expectBadRequest(res, ['mutability'], `for ${what}`);
    const { user: after, res: shown } = await getUser(t, user.id);
    if (after.id !== user.id) fail(`id ${JSON.stringify(user.id)} kept after the refused ${what}`, `id ${JSON.stringify(after.id)}`, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.add-existing-value-unchanged',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2.1',
    title: 'add of an email the user already has succeeds and keeps each email once',
  },
  async (t) => {
    // Section 3.5.2.1: "If the target location already contains the value specified, no changes
    // SHOULD be made to the resource, and a success response SHOULD be returned."
    // The user has a work and a home email; the add sends the home one again, as it was created.
    const { work, home, user } = await userWithWorkAndHome(t, 'patch-add-existing');
    const what = `add of emails [${JSON.stringify(home)}], which the user holds`;
    const res = await patchUser(t, user.id, [{ op: 'add', path: 'emails', value: [home] }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    requireKept(resource, work.value, shown);
    expectEmails(resource, [work, home], '(value and type), each once,', what, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.value-filter-unknown-attribute',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    binds:
      'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."',
    title: 'A PATCH value filter naming a sub-attribute emails does not have answers 400',
  },
  async (t) => {
    // The filter of emails[lpcNoSuch eq "x"] reads a sub-attribute the schema does not define: the
    // path is invalid (invalidPath, invalidFilter), or, read as matching no value, noTarget
    // (§3.5.2.3). A server error is neither.
    await requireUserAttributes(t, ['emails']);
    const user = await userOf(t);
    const path = `emails[lpcNoSuch eq ${literal('x')}].value`;
    const res = await patchUser(t, user.id, [{ op: 'replace', path, value: uniqueEmail(t, 'nosuch') }]);
    expectBadRequest(res, ['invalidPath', 'invalidFilter', 'noTarget'], `for replace of ${path}`);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.multi-valued-sub-attribute',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2.3',
    title: 'replace of emails.type without a filter sets the type of every email and keeps their addresses',
  },
  async (t) => {
    // Section 3.5.2.3: "If the target location is a multi-valued attribute and no filter is
    // specified, the attribute and all values are replaced"; the path emails.type names the type of
    // each value, so every value's type is replaced and nothing else.
    await requireUserAttributes(t, ['emails.type']);
    const emails = [
      { value: uniqueEmail(t, 'work'), type: 'work' },
      { value: uniqueEmail(t, 'home'), type: 'home' },
    ];
    const user = await createUser(t, 'patch-emails-type', { emails });
    const what = 'replace of emails.type with "other" (no filter)';
    const res = await patchUser(t, user.id, [{ op: 'replace', path: 'emails.type', value: 'other' }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    const after = Array.isArray(resource.emails) ? (resource.emails as Json[]) : [];
    const addresses = after.map((e) => String(e.value).toLowerCase()).sort();
    const wanted = emails.map((e) => e.value.toLowerCase()).sort();
    if (JSON.stringify(addresses) !== JSON.stringify(wanted) || after.some((e) => e.type !== 'other'))
      fail(`both emails (${wanted.join(', ')}) of type "other" after ${what}`, `emails ${JSON.stringify(resource.emails)}`, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.filtered-replace-matched-only',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.3',
    binds:
      'RFC 7644 §3.5.2.3: "If the target location is a multi-valued attribute and a value selection (\"valuePath\") filter is specified that matches one or more values of the multi-valued attribute, then all matching record values SHALL be replaced."',
    title: 'replace of emails[type eq "work"] replaces the work email and leaves the home email as it was',
  },
  async (t) => {
    // The value filter selects the values the operation acts on: the work email is replaced by the
    // value sent (both its sub-attributes given, so a merge and a whole replacement agree), and the
    // home email, which the filter does not match, is left as it was.
    await requireUserAttributes(t, ['emails', 'emails.type']);
    const home = { value: uniqueEmail(t, 'home'), type: 'home' };
    const user = await createUser(t, 'patch-filtered-replace', { emails: [{ value: uniqueEmail(t, 'work'), type: 'work' }, home] });
    const work = { value: uniqueEmail(t, 'work2'), type: 'work' };
    const path = `emails[type eq ${literal('work')}]`;
    const what = `replace of ${path} with ${JSON.stringify(work)}`;
    const res = await patchUser(t, user.id, [{ op: 'replace', path, value: work }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    expectEmails(resource, [work, home], '(value and type)', what, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.filtered-replace-null',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2.3',
    title: 'replace of emails[type eq "work"] with null unassigns the work email or answers 400',
  },
  async (t) => {
    // RFC 7643 §2.5: null is the unassigned state. Replacing the values the filter selects with null
    // unassigns them (the home email kept), or, read as a value that is no email (RFC 7644 §3.5.2: not
    // compatible with the schema), is refused with both emails kept. A success that keeps the work
    // email, or leaves an email with nothing in it, is neither.
    const { work, home, user } = await userWithWorkAndHome(t, 'patch-filtered-null');
    const path = `emails[type eq ${literal('work')}]`;
    const what = `replace of ${path} with null`;
    const res = await patchUser(t, user.id, [{ op: 'replace', path, value: null }]);
    if (res.status >= 400 && res.status < 500) {
      expectBadRequest(res, ['invalidValue', 'invalidSyntax'], `or a success for ${what}`);
      const { user: after, res: shown } = await getUser(t, user.id);
      expectEmails(after, [work, home], '(value and type), both kept,', `the refused ${what}`, shown);
      return;
    }
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    requireUnmatchedKept(resource, home.value, shown);
    expectEmails(resource, [home], 'alone (the work email unassigned)', what, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.value-filter-bracket-in-string',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.3',
    binds:
      'RFC 7644 §3.5.2.3: "If the target location is a multi-valued attribute and a value selection (\"valuePath\") filter is specified that matches one or more values of the multi-valued attribute, then all matching record values SHALL be replaced."',
    title: 'A PATCH value filter whose string holds "]" and an escaped quote selects as written',
  },
  async (t) => {
    // Figure 1's compValue is a JSON string, which may hold ] and \": the valuePath's filter ends at
    // the ] outside its strings, so the filter below matches the work email (whose address is not
    // the string) and the replace sets that email's address alone.
    await requireUserAttributes(t, ['emails', 'emails.type']);
    const { operators, logical } = t.profile.expectations.scim.filter;
    t.requireData(operators.includes('ne') && logical.includes('and'), 'the profile says the target filters without ne or and');
    const home = { value: uniqueEmail(t, 'home'), type: 'home' };
    const user = await createUser(t, 'patch-bracket-in-string', { emails: [{ value: uniqueEmail(t, 'work'), type: 'work' }, home] });
    const work = uniqueEmail(t, 'work2');
    const path = `emails[type eq ${literal('work')} and value ne ${literal('lpc"]x')}].value`;
    const what = `replace of ${path} with ${JSON.stringify(work)}`;
    const res = await patchUser(t, user.id, [{ op: 'replace', path, value: work }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    requireUnmatchedKept(resource, home.value, shown);
    expectEmails(resource, [{ value: work, type: 'work' }, home], '(value and type)', what, shown);
  },
  WRITES_USERS,
);

/** Ends the check blocked when a filtered replace rewrote an email its filter does not match:
 * filtered-replace-matched-only's rule, whatever the filter's strings hold. */
function requireUnmatchedKept(resource: Json, address: string, shown: ApiResponse): void {
  if (!hasEmail(resource, address))
    blockedBy(
      'scim.patch.filtered-replace-matched-only',
      `the replace rewrote the email ${address} its filter does not match: emails ${JSON.stringify(resource.emails)}`,
      shown,
    );
}

requirement(
  {
    id: 'scim.patch.filtered-add-sets-matched',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.1',
    binds: 'RFC 7644 §3.5.2.1: "If the target location exists, the value is replaced."',
    title: 'add of emails[type eq "work"].value on a user with a work email sets its address, adding none',
  },
  async (t) => {
    // The value filter selects the work email, so the target location (its value) exists: the add
    // replaces it; the home email, which the filter does not match, is left as it was.
    await requireUserAttributes(t, ['emails', 'emails.type']);
    const home = { value: uniqueEmail(t, 'home'), type: 'home' };
    const user = await createUser(t, 'patch-filtered-add', { emails: [{ value: uniqueEmail(t, 'work'), type: 'work' }, home] });
    const work = uniqueEmail(t, 'work2');
    const path = `emails[type eq ${literal('work')}].value`;
    const what = `add of ${path} with ${JSON.stringify(work)}`;
    const res = await patchUser(t, user.id, [{ op: 'add', path, value: work }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, what);
    expectEmails(resource, [{ value: work, type: 'work' }, home], '(value and type)', what, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.unknown-attribute-path',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    binds:
      'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."',
    title: 'A PATCH whose path names no attribute of the schema, at the top or after a value filter, answers 400',
  },
  async (t) => {
    const user = await userOf(t);
    const res = await patchUser(t, user.id, [{ op: 'replace', path: 'lpcNoSuchAttribute', value: 'x' }]);
    expectBadRequest(res, ['invalidPath', 'noTarget'], 'for replace of an attribute the schema does not have');
    // A sub-attribute emails does not have, after a filter that matches the work email: the remove
    // names nothing of the schema, so it is refused and the work email stays.
    if (!hasAttribute((await scimTargetOf(t)).schema, 'emails.type')) return;
    const path = `emails[type eq ${literal('work')}].lpcNoSuch`;
    const removed = await patchUser(t, user.id, [{ op: 'remove', path }]);
    expectBadRequest(removed, ['invalidPath', 'noTarget'], `for remove of ${path}`);
    const { user: after, res: shown } = await getUser(t, user.id);
    if (!hasEmail(after, user.workEmail))
      fail(`the work email ${user.workEmail} kept after the refused remove of ${path}`, `emails ${JSON.stringify(after.emails)}`, shown);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.malformed-path',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    binds:
      'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."',
    title: 'A PATCH whose path is not valid path syntax answers 400 invalidPath',
  },
  async (t) => {
    const user = await userOf(t);
    // Figure 7's forms, each broken: an unclosed value filter, and text after the filter that is
    // not "." and a sub-attribute name (a filter that matches no value, so the path's form alone decides).
    // Table 9 lists invalidFilter for a PATCH path filter as well as invalidPath for a malformed path.
    const none = `emails[type eq ${literal('lpc-none')}]`;
    for (const [path, flaw] of [
      ['emails[type eq "work"', 'an unclosed value filter'],
      [`${none}x.value`, 'text between the value filter and its sub-attribute'],
      [`${none}.value!`, 'a sub-attribute name followed by "!"'],
    ] as const) {
      const res = await patchUser(t, user.id, [{ op: 'replace', path, value: 'x' }]);
      expectBadRequest(res, ['invalidPath', 'invalidFilter'], `for a path with ${flaw} (${path})`);
    }
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.value-filter-on-simple-attribute',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    binds:
      'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."',
    title: 'A PATCH value filter on an attribute without sub-attributes (userName, emails.value) answers 400',
  },
  async (t) => {
    // Figure 1: a valuePath's filter reads the sub-attributes of a multi-valued complex attribute;
    // userName and the sub-attribute emails.value have none, so the path does not fit the schema
    // (Table 9: invalidPath).
    const user = await userOf(t);
    const paths = ['userName[value eq "x"].value', 'userName[value eq "x"]'];
    const { schema } = await scimTargetOf(t);
    if (hasAttribute(schema, 'emails.type')) paths.push(`emails.value[type eq ${literal('work')}]`);
    for (const path of paths) {
      const res = await patchUser(t, user.id, [{ op: 'replace', path, value: 'x' }]);
      expectBadRequest(res, ['invalidPath', 'invalidFilter', 'noTarget'], `for replace of ${path}`);
    }
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.remove-required-mutability',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.2',
    binds:
      'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."',
    title: 'Removing the required userName answers 400 mutability',
  },
  async (t) => {
    const user = await userOf(t);
    expectScimError(await patchUser(t, user.id, [{ op: 'remove', path: 'userName' }]), 400, 'mutability', 'for remove userName');
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.read-only-mutability',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2',
    title: 'Replacing the read-only id answers 400 mutability',
  },
  async (t) => {
    const user = await userOf(t);
    expectScimError(await patchUser(t, user.id, [{ op: 'replace', path: 'id', value: t.uuid() }]), 400, 'mutability', 'for replace id');
  },
  WRITES_USERS,
);

const UNMATCHED = `emails[type eq ${literal('home')}]`;

requirement(
  {
    id: 'scim.patch.replace-unmatched-filter',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.3',
    binds:
      'RFC 7644 §3.5.2.3: "If the target location is a multi-valued attribute for which a value selection filter (\"valuePath\") has been supplied and no record match was made, the service provider SHALL indicate failure by returning HTTP status code 400 and a \"scimType\" error code of \"noTarget\"."',
    title: 'A replace whose value filter matches no value answers 400 noTarget',
  },
  async (t) => {
    await requireUserAttributes(t, ['emails']);
    const user = await userOf(t);
    const res = await patchUser(t, user.id, [{ op: 'replace', path: `${UNMATCHED}.value`, value: uniqueEmail(t, 'home') }]);
    expectScimError(res, 400, 'noTarget', 'for replace of emails[type eq "home"].value on a user with only a work email');
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.remove-unmatched-filter',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.12',
    title: 'A remove whose value filter matches no value answers 400 noTarget',
  },
  async (t) => {
    await requireUserAttributes(t, ['emails']);
    const user = await userOf(t);
    expectScimError(
      await patchUser(t, user.id, [{ op: 'remove', path: UNMATCHED }]),
      400,
      'noTarget',
      `for remove ${UNMATCHED} on a user with only a work email`,
    );
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.add-unmatched-filter',
    level: 'PROFILE',
    spec: 'rfc7644#section-3.5.2.1',
    title: 'An add whose value filter matches no value answers noTarget or creates it, as the profile says',
  },
  async (t) => {
    await requireUserAttributes(t, ['emails']);
    const work = uniqueEmail(t, 'work');
    const user = await createUser(t, 'patch-add', { emails: [{ value: work, type: 'work' }] });
    const value = uniqueEmail(t, 'home');
    const res = await patchUser(t, user.id, [{ op: 'add', path: `${UNMATCHED}.value`, value }]);
    const expected = t.profile.expectations.scim.addUnmatchedValueFilter;
    if (res.status === 400 && expected !== 'creates') return expectScimError(res, 400, 'noTarget', `for add ${UNMATCHED}.value`);
    if (expected === 'noTarget') return expectScimError(res, 400, 'noTarget', `for add ${UNMATCHED}.value`);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, `add ${UNMATCHED}.value (the profile: it creates the value)`);
    const emails = Array.isArray(resource.emails) ? (resource.emails as Json[]) : [];
    const created = emails.some((e) => e?.type === 'home' && String(e?.value).toLowerCase() === value);
    const kept = emails.some((e) => e?.type === 'work' && e?.value === work);
    if (!created || !kept) fail(`the work email kept and a home email ${value} created`, `emails ${JSON.stringify(resource.emails)}`, shown);
  },
  WRITES_USERS,
);

/**
 * A PATCH that breaks a rule RFC 7644 §3.5.2 sets for the client's request: 400 (Table 9 names
 * invalidSyntax / invalidValue), or, where the profile says the target is lenient
 * (`expectations.scim.patchLenient`), a success that leaves the user's text attribute as it was
 * (`unchanged`: the request did not ask to change it).
 */
async function expectRefusedOrHarmless(t: CheckContext, res: ApiResponse, types: readonly string[], what: string, unchanged: boolean): Promise<void> {
  if (!t.profile.expectations.scim.patchLenient || res.status === 400) return expectBadRequest(res, types, what);
  expectStatus(res, [200, 204], `400, or (expectations.scim.patchLenient) a success ${what}`);
  if (!unchanged) return;
  const user = await userOf(t);
  const { user: after, res: got } = await getUser(t, user.id);
  if (after[user.attr] !== 'Before')
    fail(`${user.attr} still "Before" (nothing asked to change it) ${what}`, `${user.attr} ${JSON.stringify(after[user.attr])}`, got);
}

// These three rules bind the client (RFC 7644 §3.5.2: "The body of each request MUST contain ...");
// no sentence obliges the server to refuse a request that breaks them: SHOULD (docs/decisions/scim/levels.md).
requirement(
  {
    id: 'scim.patch.schemas-required',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2',
    title: 'A PATCH body whose schemas lacks the PatchOp URN answers 400',
  },
  async (t) => {
    const user = await userOf(t);
    const res = await t.http.send({
      op: 'scim.users.patch',
      params: { id: user.id },
      json: { schemas: [SCIM_SCHEMAS.user], Operations: [{ op: 'replace', path: 'title', value: 'x' }] },
    });
    await expectRefusedOrHarmless(t, res, ['invalidSyntax', 'invalidValue'], 'for a PATCH body without the PatchOp URN', false);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.null-operation',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.12',
    title: 'A PATCH body of null or with null in Operations answers 400; a number in schemas is never a 5xx',
  },
  async (t) => {
    // Table 9: invalidSyntax, "The request body message structure was invalid or did not conform to
    // the request schema."
    // Each of Operations is an operation object (§3.5.2); schemas holds URIs, Strings (RFC 7643 §3).
    // A server may read a schemas list that holds the PatchOp URN beside a number, or refuse it.
    const user = await userOf(t);
    // Each on a connection of its own, closed after it: a server that fails on these bodies may also
    // drop the connection it answered on, and the next exchange on it would belong to another check.
    const send = (json: Json | null): Promise<ApiResponse> =>
      t.http.send({ op: 'scim.users.patch', params: { id: user.id }, json, headers: { connection: 'close' } });
    const nulled = await send({ schemas: [SCIM_SCHEMAS.patchOp], Operations: [null] });
    await expectRefusedOrHarmless(t, nulled, ['invalidSyntax', 'invalidValue'], 'for a PATCH body whose Operations is [null]', false);
    // A body that is JSON's null holds no PatchOp message at all (RFC 7644 §3.5.2).
    const nullBody = await send(null);
    await expectRefusedOrHarmless(t, nullBody, ['invalidSyntax', 'invalidValue'], 'for a PATCH body that is null', true);
    // "path": null, JSON's absent value: read as no path, or refused, never a server error.
    const pathless = await send({ schemas: [SCIM_SCHEMAS.patchOp], Operations: [{ op: 'replace', path: null, value: { [user.attr]: 'Before' } }] });
    if (pathless.status >= 500)
      fail('400, or the replace applied as one without a path, for an operation whose path is null', describeResponse(pathless), pathless);
    const numbered = await send({ schemas: [7, SCIM_SCHEMAS.patchOp], Operations: [{ op: 'replace', path: user.attr, value: 'Before' }] });
    if (numbered.status !== 400) expectStatus(numbered, [200, 204], 'for a PATCH body whose schemas is [7, the PatchOp URN]: 400, or the operation applied');
    else expectBadRequest(numbered, ['invalidSyntax', 'invalidValue'], 'for a PATCH body whose schemas is [7, the PatchOp URN]');
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.empty-operations',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2',
    title: 'A PATCH body with an empty Operations array answers 400',
  },
  async (t) => {
    const user = await userOf(t);
    const res = await t.http.send({ op: 'scim.users.patch', params: { id: user.id }, json: patchBody([]) });
    await expectRefusedOrHarmless(t, res, ['invalidSyntax', 'invalidValue'], 'for a PATCH body with Operations []', true);
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.add-without-value',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2.1',
    title: 'An add operation without a value answers 400',
  },
  async (t) => {
    const user = await userOf(t);
    const res = await patchUser(t, user.id, [{ op: 'add', path: user.attr }]);
    await expectRefusedOrHarmless(t, res, ['invalidValue', 'invalidSyntax'], `for add ${user.attr} without a value`, true);
  },
  WRITES_USERS,
);

// ---- Interoperability -----------------------------------------------------------------------

requirement(
  {
    id: 'scim.patch.op-case-insensitive',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2',
    title: 'PATCH op names in other case (Replace, ADD, Remove, as identity providers send) are applied',
  },
  async (t) => {
    await requireUserAttributes(t, ['emails']);
    // Two text attributes the target has: one replaced, one removed (else the given name is removed).
    const [replaced = 'title', removed = 'name.givenName'] = await textAttributes(t);
    const user = await createUser(t, 'patch-case', {
      [removed]: 'Nick',
      ...(removed === 'name.givenName' ? { name: { givenName: 'Nick', familyName: 'Case' } } : {}),
    });
    const value = uniqueName(t, 'case');
    const added = uniqueEmail(t, 'case');
    const ops: PatchOp[] = [
      { op: 'Replace', path: replaced, value },
      { op: 'ADD', path: 'emails', value: [{ value: added, type: 'other' }] },
      { op: 'Remove', path: removed },
    ];
    const res = await patchUser(t, user.id, ops);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, 'a PATCH with op Replace, ADD and Remove');
    const emails = Array.isArray(resource.emails) ? (resource.emails as Json[]) : [];
    const [top = '', sub] = removed.split('.');
    const left = sub === undefined ? resource[top] : (resource[top] as Json | undefined)?.[sub];
    if (resource[replaced] !== value || !emails.some((e) => e?.value === added) || (left !== undefined && left !== null)) {
      fail(`${replaced} ${value}, the email added, ${removed} removed`, excerpt(JSON.stringify(resource)), shown);
    }
  },
  WRITES_USERS,
);

requirement(
  {
    id: 'scim.patch.unknown-op',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.5.2',
    title: 'A PATCH operation whose op is none of add, remove and replace answers 400',
  },
  async (t) => {
    // Section 3.5.2: the "op" member "MAY be one of "add", "remove", or "replace"", a rule for the
    // client (SHOULD, as for the other rules of the request's form): an op outside them names no
    // operation to apply, so the request is refused (Table 9: invalidSyntax), or, where the profile
    // says the target is lenient, answered with the user left as it was.
    const user = await userOf(t);
    const res = await patchUser(t, user.id, [{ op: 'lpcCopy', path: user.attr, value: 'After' }]);
    await expectRefusedOrHarmless(t, res, ['invalidSyntax', 'invalidValue'], 'for an operation whose op is "lpcCopy"', true);
  },
  WRITES_USERS,
);

// ---- Group membership -----------------------------------------------------------------------

requirement(
  {
    id: 'scim.patch.member-groups-derived',
    level: 'SHOULD',
    spec: 'rfc7643#section-4.1.2',
    title: 'A user added to a group by PATCH shows the group in its groups attribute',
  },
  async (t) => {
    await requireUserAttributes(t, ['groups']);
    const user = await createUser(t, 'patch-groups');
    const group = await createGroup(t, 'patch-groups');
    const res = await patchGroup(t, group.id, [{ op: 'add', path: 'members', value: [{ value: user.id }] }]);
    await patchedResource(t, res, 'group', group.id, 'add to members');
    const { user: shown, res: got } = await getUser(t, user.id);
    const groups = Array.isArray(shown.groups) ? (shown.groups as Json[]) : [];
    if (!groups.some((g) => g?.value === group.id)) fail(`groups of the user to contain ${group.id}`, `groups ${JSON.stringify(shown.groups)}`, got);
  },
  WRITES_BOTH,
);
