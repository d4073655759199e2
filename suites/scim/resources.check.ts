// SCIM resource lifecycle: create, read, replace, delete of users and groups (RFC 7644 §3.3, §3.4.1,
// §3.5.1, §3.6; RFC 7643 §2.5, §3.1, §4.1, §4.2). Every check creates the records it reads.
import fc from 'fast-check';
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import { blockedBy } from '../_harness/outcomes.js';
import type { Json } from '../_harness/records.js';
import { memo } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import {
  absoluteUri,
  createGroup,
  createUser,
  expectScimError,
  groupBody,
  literal,
  metaOf,
  pageOf,
  postGroup,
  postUser,
  putUser,
  resourceOf,
  runMarker,
  SCIM_SCHEMAS,
  uniqueName,
  userBody,
} from '../_harness/scim/records.js';
import { hasAttribute, requiredOf, scimTargetOf, supportsAttribute, supportsOperator, uniqueEmail } from '../_harness/scim/target.js';

const USERS = { write: ['scim.users'] };
/** A create that succeeded, where the rule is not the create status (scim.users.create-201 judges that). */
const CREATED = [200, 201];
const USERS_AND_GROUPS = { write: ['scim.users', 'scim.groups'] };

/** RFC 7643 §2.3.5: xsd:dateTime, date and time. */
const DATE_TIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/** RFC 7643 §2.5: an attribute is unassigned when absent, null or (multi-valued) an empty array. */
const unassigned = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

/** An attribute of a resource, its name matched case-insensitively (RFC 7643 §2.1). */
function attributeOf(resource: Json, name: string): unknown {
  const key = Object.keys(resource).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : resource[key];
}

async function getUser(t: CheckContext, id: string) {
  return t.http.send({ op: 'scim.users.get', params: { id } });
}

/** Optional text attributes of RFC 7643 §4.1 a check may set and clear: those the target's User has
 * and does not require (GET /Schemas), in this order; the check is skipped with fewer than `count`. */
async function optionalTexts(t: CheckContext, count: number, most = count): Promise<string[]> {
  const { schema } = await scimTargetOf(t);
  const found = ['title', 'nickName', 'displayName', 'userType'].filter((a) => hasAttribute(schema, a) && !schema.user.get(a.toLowerCase())?.required);
  if (found.length < count)
    t.skip(`the target's User (GET /Schemas) has fewer than ${count} optional text attributes (title, nickName, displayName, userType)`);
  return found.slice(0, most);
}

// --- create ----------------------------------------------------------------------------------

requirement(
  {
    id: 'scim.users.create-201',
    level: 'MUST',
    spec: 'rfc7644#section-3.3',
    title: 'POST /Users with a valid user (a password too, where the schema has one) answers 201 Created',
  },
  async (t) => {
    // Identity providers send a password on create (RFC 7643 §4.1.1: writeOnly, returned never; the
    // invariant password-never-returned judges the answer); a target whose /Schemas has none is sent none.
    // The minimal user: userName (and what /Schemas or the profile says the target requires), never an
    // attribute another check learned from a refusal (that refusal of the minimal user is this check's to judge).
    const res = await postUser(t, userBody(uniqueName(t, 'create'), { password: 'Lpc-Secret-123' }), undefined, { minimal: true });
    expectStatus(res, 201, 'to a valid POST /Users');
  },
  USERS,
);

requirement(
  { id: 'scim.users.create-location', level: 'MUST', spec: 'rfc7644#section-3.3', title: 'POST /Users answers the new resource URI in a Location header' },
  async (t) => {
    const res = await postUser(t, userBody(uniqueName(t, 'location')));
    expectStatus(res, CREATED, 'to a valid POST /Users (to judge its Location)');
    const location = res.headers.location;
    if (location === undefined || location.trim() === '') fail('a Location header with the URI of the new user', 'no Location header', res);
    const metaLocation = metaOf(resourceOf(res)).location;
    if (typeof metaLocation === 'string' && absoluteUri(res, metaLocation) !== absoluteUri(res, location)) {
      fail(`the Location header equal to meta.location (${metaLocation})`, `Location: ${location}`, res);
    }
  },
  USERS,
);

requirement(
  { id: 'scim.users.create-meta-location', level: 'MUST', spec: 'rfc7644#section-3.3', title: 'POST /Users answers meta.location, the URI of the new user' },
  async (t) => {
    const res = await postUser(t, userBody(uniqueName(t, 'metaloc')));
    expectStatus(res, CREATED, 'to a valid POST /Users (to judge meta.location)');
    const user = resourceOf(res);
    const metaLocation = metaOf(user).location;
    if (typeof metaLocation !== 'string' || metaLocation === '') fail('meta.location, the URI of the new user', `meta ${JSON.stringify(user.meta)}`, res);
    const location = res.headers.location;
    if (location !== undefined && absoluteUri(res, metaLocation) !== absoluteUri(res, location)) {
      fail(`meta.location equal to the Location header (${location})`, `meta.location ${metaLocation}`, res);
    }
  },
  USERS,
);

requirement(
  {
    id: 'scim.users.create-meta-fields',
    level: 'SHOULD',
    spec: 'rfc7643#section-3.1',
    title: 'A created user answers meta.resourceType "User" and meta.created and lastModified date-times',
  },
  async (t) => {
    const res = await postUser(t, userBody(uniqueName(t, 'meta')));
    expectStatus(res, CREATED, 'to a valid POST /Users (to judge its meta)');
    const meta = metaOf(resourceOf(res));
    const expected = 'meta with resourceType "User" and created, lastModified as xsd:dateTime';
    if (meta.resourceType !== 'User') fail(expected, `meta.resourceType ${JSON.stringify(meta.resourceType)}`, res);
    for (const key of ['created', 'lastModified']) {
      const v = meta[key];
      if (typeof v !== 'string' || !DATE_TIME.test(v) || Number.isNaN(Date.parse(v))) fail(expected, `meta.${key} ${JSON.stringify(v)}`, res);
    }
  },
  USERS,
);

requirement(
  {
    id: 'scim.users.create-ignores-client-id',
    level: 'MUST',
    spec: 'rfc7643#section-3.1',
    title: 'A client-supplied id in a POST /Users body is ignored: the server assigns the id',
  },
  async (t) => {
    // The run's id in its first hex digits: two runs against one server (or a run and its replay)
    // never send the same id, which a server would rightly refuse to reuse.
    const runId = runMarker(t).slice(4, -1);
    const asked = /^[0-9a-f]{6}$/.test(runId) ? `${runId}${t.uuid().slice(6)}` : t.uuid();
    const res = await postUser(t, userBody(uniqueName(t, 'clientid'), { id: asked }));
    expectStatus(res, CREATED, 'to POST /Users with a read-only id in the body (ignored, RFC 7643 §2.2)');
    const id = resourceOf(res).id;
    if (typeof id === 'string' && id.toLowerCase() === asked.toLowerCase()) fail(`an id assigned by the server, not the ${asked} sent`, `id ${id}`, res);
  },
  USERS,
);

requirement(
  {
    id: 'scim.users.username-case-preserved',
    level: 'SHOULD',
    spec: 'rfc7643#section-4.1.1',
    title: 'A created user answers its userName as sent, mixed case included, on POST and on GET by id',
  },
  async (t) => {
    const userName = uniqueName(t, 'CaseKept').replace(/-([a-f0-9]{8})$/, (_m, tail: string) => `-${tail.toUpperCase()}x`);
    const res = await postUser(t, userBody(userName));
    expectStatus(res, CREATED, 'to a valid POST /Users');
    const created = resourceOf(res);
    if (created.userName !== userName) fail(`userName ${JSON.stringify(userName)} as sent`, `userName ${JSON.stringify(created.userName)}`, res);
    const got = await getUser(t, String(created.id));
    expectStatus(got, 200, 'to GET of the created user by its id');
    const read = resourceOf(got).userName;
    if (read !== userName) fail(`userName ${JSON.stringify(userName)} as sent`, `userName ${JSON.stringify(read)}`, got);
  },
  USERS,
);

requirement(
  { id: 'scim.groups.create-201', level: 'MUST', spec: 'rfc7644#section-3.3', title: 'POST /Groups with a valid group and a member answers 201 Created' },
  async (t) => {
    const user = await createUser(t, 'member');
    expectStatus(await postGroup(t, groupBody(uniqueName(t, 'group'), { members: [{ value: user.id }] })), 201, 'to a valid POST /Groups');
  },
  USERS_AND_GROUPS,
);

requirement(
  {
    id: 'scim.groups.create-members',
    level: 'MUST',
    spec: 'rfc7643#section-4.2',
    title: "A created group answers its members with value, the member's id (type User where given)",
  },
  async (t) => {
    const user = await createUser(t, 'listed');
    const res = await postGroup(t, groupBody(uniqueName(t, 'members'), { members: [{ value: user.id }] }));
    expectStatus(res, CREATED, 'to a valid POST /Groups with a member');
    const members = resourceOf(res).members;
    const list = Array.isArray(members) ? (members as (Json | null)[]) : [];
    const member = list.find((m) => m?.value === user.id);
    if (member === undefined || member === null) fail(`members with an entry whose value is ${user.id}`, `members ${JSON.stringify(members)}`, res);
    if (member.type !== undefined && member.type !== null && member.type !== 'User') {
      fail(`the member's type "User" (RFC 7643 §4.2 canonical values User, Group)`, `type ${JSON.stringify(member.type)}`, res);
    }
  },
  USERS_AND_GROUPS,
);

requirement(
  { id: 'scim.groups.create-location', level: 'MUST', spec: 'rfc7644#section-3.3', title: 'POST /Groups answers the new resource URI in a Location header' },
  async (t) => {
    const res = await postGroup(t, groupBody(uniqueName(t, 'grouploc')));
    expectStatus(res, CREATED, 'to a valid POST /Groups (to judge its Location)');
    const location = res.headers.location;
    if (location === undefined || location.trim() === '') fail('a Location header with the URI of the new group', 'no Location header', res);
  },
  { write: ['scim.groups'] },
);

// --- uniqueness -------------------------------------------------------------------------------

requirement(
  {
    id: 'scim.users.duplicate-409',
    level: 'MUST',
    spec: 'rfc7644#section-3.3',
    binds:
      'RFC 7644 §3.3: "If the service provider determines that the creation of the requested resource conflicts with existing resources (e.g., a \"User\" resource with a duplicate \"userName\"), the service provider MUST return HTTP status code 409 (Conflict) with a \"scimType\" error code of \"uniqueness\""',
    title: 'POST /Users with a userName already taken answers 409 uniqueness',
  },
  async (t) => {
    const user = await createUser(t, 'dup');
    expectScimError(await postUser(t, userBody(user.userName)), 409, 'uniqueness', 'to a second POST /Users with the same userName');
  },
  USERS,
);

/** A user whose userName has letters in both cases, created once per check. */
const mixedCaseUser = memo((t) => createUser(t, 'UniqueCase', { userName: `${uniqueName(t, 'UniqueCase')}AbCd` }));

requirement(
  {
    id: 'scim.users.username-unique-case-insensitive',
    level: 'MUST',
    spec: 'rfc7643#section-4.1.1',
    title: 'POST /Users with a userName differing only in case from a taken one answers 409 uniqueness',
  },
  async (t) => {
    const user = await mixedCaseUser(t);
    const letters = [...user.userName].map((ch, i) => ({ ch, i })).filter(({ ch }) => ch.toLowerCase() !== ch.toUpperCase());
    // Which letters flip case; at least one, so that the name differs from the taken one.
    const flips = fc.uniqueArray(fc.integer({ min: 0, max: letters.length - 1 }), { minLength: 1, maxLength: letters.length });
    await t.property(flips, async (which) => {
      const chars = [...user.userName];
      for (const k of which) {
        const at = letters[k]?.i ?? 0;
        const ch = chars[at] ?? '';
        chars[at] = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
      }
      const variant = chars.join('');
      t.outcome(variant === variant.toLowerCase() ? 'all-lower' : variant === variant.toUpperCase() ? 'all-upper' : 'mixed');
      expectScimError(await postUser(t, userBody(variant)), 409, 'uniqueness', `to POST /Users with ${variant} (taken: ${user.userName})`);
    });
  },
  USERS,
);

// --- replace ------------------------------------------------------------------------------------

requirement(
  {
    id: 'scim.users.put-clears-omitted',
    level: 'MAY',
    spec: 'rfc7644#section-3.5.1',
    title: 'PUT /Users/{id} clears (or defaults) readWrite attributes the body leaves out, never keeps them',
  },
  async (t) => {
    const names = await optionalTexts(t, 1, 2);
    const values = Object.fromEntries(names.map((name) => [name, `Lpc ${name} kept?`]));
    const user = await createUser(t, 'putomit', values);
    const res = await putUser(t, user.id, userBody(user.userName));
    expectStatus(res, 200, `to PUT /Users/{id} with the user without ${names.join(' and ')}`);
    const got = await getUser(t, user.id);
    expectStatus(got, 200, 'to GET of the replaced user');
    const after = resourceOf(got);
    for (const [name, before] of Object.entries(values)) {
      if (attributeOf(after, name) === before) fail(`${name} cleared or defaulted (left out of the PUT body)`, `${name} ${JSON.stringify(before)} kept`, got);
    }
  },
  USERS,
);

/** Attributes a PUT clears with null or [] (RFC 7643 §2.5), and the values they had: those of them the
 * target's User has and does not require (GET /Schemas). */
async function clearable(t: CheckContext): Promise<{ name: string; value: unknown; clear: null | [] }[]> {
  const { schema } = await scimTargetOf(t);
  const all = [
    { name: 'title', value: 'Lpc title', clear: null },
    { name: 'displayName', value: 'Lpc Display', clear: null },
    { name: 'emails', value: [{ value: uniqueEmail(t, 'clear'), type: 'work' }], clear: [] as [] },
    { name: 'phoneNumbers', value: [{ value: '+1 555 0100', type: 'work' }], clear: null },
  ];
  const found = [];
  for (const a of all) if (hasAttribute(schema, a.name) && !(await requiredOf(t, a.name.toLowerCase()))) found.push(a);
  if (found.length === 0) t.skip("the target's User (GET /Schemas) has none of title, displayName, emails, phoneNumbers that it does not require");
  return found;
}

requirement(
  {
    id: 'scim.users.put-null-clears',
    level: 'MUST',
    spec: 'rfc7643#section-2.5',
    title: 'PUT /Users/{id} with an attribute null or [] leaves it unassigned',
  },
  async (t) => {
    const cleared = await clearable(t);
    const values = Object.fromEntries(cleared.map((a) => [a.name, a.value]));
    const user = await createUser(t, 'putnull', values);
    const body = userBody(user.userName, Object.fromEntries(cleared.map((a) => [a.name, a.clear])));
    const res = await putUser(t, user.id, body);
    expectStatus(res, 200, `to PUT /Users/{id} with ${cleared.map((a) => `${a.name} ${JSON.stringify(a.clear)}`).join(', ')}`);
    const got = await getUser(t, user.id);
    expectStatus(got, 200, 'to GET of the replaced user');
    for (const { name, clear } of cleared) {
      // An attribute the PUT's refusal named as required (sendFittedUser) was sent with a value after all.
      if (await requiredOf(t, name.toLowerCase())) continue;
      const v = attributeOf(resourceOf(got), name);
      if (!unassigned(v)) fail(`${name} unassigned after PUT with ${JSON.stringify(clear)}`, `${name} ${JSON.stringify(v)}`, got);
    }
  },
  USERS,
);

requirement(
  {
    id: 'scim.users.put-keeps-id',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.1',
    title: 'PUT /Users/{id} with another id in the body keeps the resource at its id (readOnly, ignored)',
  },
  async (t) => {
    const user = await createUser(t, 'putid');
    const runId = runMarker(t).slice(4, -1);
    const other = /^[0-9a-f]{6}$/.test(runId) ? `${runId}${t.uuid().slice(6)}` : t.uuid();
    const res = await putUser(t, user.id, userBody(user.userName, { id: other }));
    // §3.5.1: readOnly values SHALL be ignored; a server refusing the change (400 mutability) keeps the id too.
    if (res.status !== 400) {
      expectStatus(res, 200, 'to PUT /Users/{id} with another id in the body (or 400 mutability)');
      const id = resourceOf(res).id;
      if (id !== user.id) fail(`id ${user.id} unchanged (the id in the body is read-only)`, `id ${JSON.stringify(id)}`, res);
    }
    const got = await getUser(t, user.id);
    expectStatus(got, 200, 'to GET of the user at its own id after the PUT');
  },
  USERS,
);

requirement(
  { id: 'scim.users.put-unknown-404', level: 'MUST', spec: 'rfc7644#section-3.12', title: 'PUT /Users/{id} of an id never issued answers 404' },
  async (t) => {
    const res = await putUser(t, t.uuid(), userBody(uniqueName(t, 'putunknown')));
    expectScimError(res, 404, undefined, 'to PUT of an unknown id');
  },
  USERS,
);

requirement(
  { id: 'scim.users.get-unknown-404', level: 'MUST', spec: 'rfc7644#section-3.4.1', title: 'GET /Users/{id} of an id never issued answers 404' },
  async (t) => {
    expectScimError(await getUser(t, t.uuid()), 404, undefined, 'to GET of an unknown id');
  },
);

requirement(
  {
    id: 'scim.users.last-modified-advances',
    level: 'MUST',
    spec: 'rfc7643#section-3.1',
    title: 'meta.lastModified is later after a PUT that changes the user (a second later)',
  },
  async (t) => {
    const [name = 'title'] = await optionalTexts(t, 1);
    const user = await createUser(t, 'lastmod', { [name]: 'before' });
    const before = metaOf(user).lastModified;
    if (typeof before !== 'string' || Number.isNaN(Date.parse(before))) return t.skip('the target answers no meta.lastModified');
    // More than a second, so that a server keeping whole seconds shows the change too.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await putUser(t, user.id, userBody(user.userName, { [name]: 'after' }));
    expectStatus(res, 200, `to PUT /Users/{id} changing ${name}`);
    const got = await getUser(t, user.id);
    expectStatus(got, 200, 'to GET of the replaced user');
    const after = metaOf(resourceOf(got)).lastModified;
    if (typeof after !== 'string' || !(Date.parse(after) > Date.parse(before))) {
      fail(`meta.lastModified later than ${before} (the time of the PUT)`, `meta.lastModified ${JSON.stringify(after)}`, got);
    }
  },
  USERS,
);

// --- delete -------------------------------------------------------------------------------------

requirement(
  { id: 'scim.users.delete-204', level: 'MUST', spec: 'rfc7644#section-3.6', title: 'DELETE /Users/{id} answers 204 No Content' },
  async (t) => {
    const user = await createUser(t, 'delete');
    expectStatus(await t.http.send({ op: 'scim.users.delete', params: { id: user.id } }), 204, 'to DELETE of a user');
  },
  USERS,
);

requirement(
  {
    id: 'scim.users.deleted-404',
    level: 'MUST',
    spec: 'rfc7644#section-3.6',
    binds:
      'RFC 7644 §3.6: "Service providers MAY choose not to permanently delete the resource but MUST return a 404 (Not Found) error code for all operations associated with the previously deleted resource."',
    title: 'After DELETE, GET, PUT, PATCH and DELETE of the user id each answer 404',
  },
  async (t) => {
    const user = await createUser(t, 'deleted');
    expectStatus(await t.http.send({ op: 'scim.users.delete', params: { id: user.id } }), [200, 204], 'to DELETE of a user');
    const params = { id: user.id };
    const patch = { schemas: [SCIM_SCHEMAS.patchOp], Operations: [{ op: 'replace', path: 'title', value: 'after delete' }] };
    expectScimError(await t.http.send({ op: 'scim.users.get', params }), 404, undefined, 'to GET of a deleted user');
    expectScimError(await putUser(t, user.id, userBody(user.userName)), 404, undefined, 'to PUT of a deleted user');
    expectScimError(await t.http.send({ op: 'scim.users.patch', params, json: patch }), 404, undefined, 'to PATCH of a deleted user');
    expectScimError(await t.http.send({ op: 'scim.users.delete', params }), 404, undefined, 'to a second DELETE of the user');
  },
  USERS,
);

requirement(
  {
    id: 'scim.users.deleted-not-listed',
    level: 'MUST',
    spec: 'rfc7644#section-3.6',
    title: 'A deleted user is omitted from queries: a filter on its userName answers 200 with no results',
  },
  async (t) => {
    const { filter } = await scimTargetOf(t);
    if (!supportsOperator(filter, 'eq') || !supportsAttribute(filter, 'userName')) t.skip('the profile says the target cannot filter on userName eq');
    const user = await createUser(t, 'unlisted');
    expectStatus(await t.http.send({ op: 'scim.users.delete', params: { id: user.id } }), [200, 204], 'to DELETE of a user');
    const res = await t.http.send({ op: 'scim.users.list', query: { filter: `userName eq ${literal(user.userName)}` } });
    // A filter that matches nothing answering 404 is that check's deviation, not this one's.
    if (res.status === 404) blockedBy('scim.filter.no-match-empty-list', `a filter matching nothing answered ${describeResponse(res)}`, res);
    expectStatus(res, 200, 'to a query that matches nothing (RFC 7644 §3.4.2)');
    const page = pageOf(res);
    if (page.totalResults !== 0 || page.resources.length > 0) {
      fail('totalResults 0 and no Resources (the only match was deleted)', `totalResults ${page.totalResults}, ${page.resources.length} resources`, res);
    }
  },
  USERS,
);

requirement(
  {
    id: 'scim.users.deleted-username-reusable',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.6',
    title: 'The userName of a deleted user can be used again: POST /Users succeeds (no 409)',
  },
  async (t) => {
    const user = await createUser(t, 'reuse');
    expectStatus(await t.http.send({ op: 'scim.users.delete', params: { id: user.id } }), [200, 204], 'to DELETE of a user');
    expectStatus(await postUser(t, userBody(user.userName)), CREATED, `to POST /Users with the deleted user's userName`);
  },
  USERS,
);

requirement(
  {
    id: 'scim.groups.deleted-member-removed',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.6',
    title: "A deleted user leaves its groups: the group's members no longer name it",
  },
  async (t) => {
    const [member, other] = [await createUser(t, 'leaver'), await createUser(t, 'stayer')];
    const group = await createGroup(t, 'membership', { members: [{ value: member.id }, { value: other.id }] });
    const valuesOf = (g: Json): unknown[] => (Array.isArray(g.members) ? (g.members as Json[]).map((m) => m.value) : []);
    // Members answered without their value are scim.groups.create-members' deviation.
    if (!valuesOf(group).includes(member.id))
      blockedBy('scim.groups.create-members', `the created group's members do not name ${member.id}: ${JSON.stringify(group.members)}`);
    expectStatus(await t.http.send({ op: 'scim.users.delete', params: { id: member.id } }), [200, 204], 'to DELETE of the member');
    const got = await t.http.send({ op: 'scim.groups.get', params: { id: group.id } });
    expectStatus(got, 200, 'to GET of the group');
    const values = valuesOf(resourceOf(got));
    if (values.includes(member.id)) fail(`members without the deleted user ${member.id}`, `members ${JSON.stringify(resourceOf(got).members)}`, got);
    if (!values.includes(other.id)) fail(`members still naming ${other.id} (not deleted)`, `members ${JSON.stringify(resourceOf(got).members)}`, got);
  },
  USERS_AND_GROUPS,
);

requirement(
  {
    id: 'scim.groups.member-reference-checked',
    level: 'SHOULD',
    spec: 'rfc7643#section-4.2',
    title: 'POST /Groups with a member naming no resource is refused (4xx) or the member is not stored',
  },
  async (t) => {
    const ghost = t.uuid();
    const res = await postGroup(t, groupBody(uniqueName(t, 'ghost'), { members: [{ value: ghost }] }));
    if (res.status >= 400 && res.status < 500) return;
    expectStatus(res, CREATED, 'or a 4xx to POST /Groups with a member naming no resource');
    const members = resourceOf(res).members;
    if (Array.isArray(members) && members.some((m) => (m as Json | null)?.value === ghost)) {
      fail(`a 4xx, or no member ${ghost} (it names no resource)`, describeResponse(res), res);
    }
  },
  { write: ['scim.groups'] },
);
