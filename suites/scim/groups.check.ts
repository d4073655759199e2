// SCIM groups as identity providers use them: lists of /Groups filtered by displayName
// and by members.value, sorted, paged and projected (excludedAttributes=members, the way Entra ID
// reads large groups), membership through PATCH in the forms identity providers send, and what a
// deletion does (RFC 7644 §3.4.2, §3.5.2, §3.6; RFC 7643 §4.2, §8.7.1). Every check creates the
// groups and users it reads; lists are confined to them by the filter the target supports.
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import { blockedBy } from '../_harness/outcomes.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import {
  createGroupSet,
  expectMembers,
  groupFilterSupports,
  groupWithMembers,
  blockedIfFilterIgnored,
  listGroups,
  memberValues,
  ofSet,
  type GroupSet,
} from '../_harness/scim/groups.js';
import { patchedResource, patchGroup } from '../_harness/scim/patch-model.js';
import { createGroup, createUser, expectScimErrorAllowing, literal, postGroup, resourceOf, SCIM_SCHEMAS, uniqueName } from '../_harness/scim/records.js';
import { scimTargetOf } from '../_harness/scim/target.js';

const GROUPS = { write: ['scim.groups'] } as const;
const BOTH = { write: ['scim.users', 'scim.groups'] } as const;

/** Skips the check unless the target's filter supports `op` on the attribute (expectations.scim.filter). */
async function requireGroupFilter(t: CheckContext, attribute: string, op: 'eq' | 'sw' = 'eq'): Promise<void> {
  if (!(await groupFilterSupports(t, attribute, op)))
    t.skip(`the target's filter (expectations.scim.filter) does not support ${op} on ${attribute} (RFC 7644 §3.4.2.2 makes filtering optional)`);
}

async function getGroup(t: CheckContext, id: string, query?: Record<string, string>) {
  return t.http.send({ op: 'scim.groups.get', params: { id }, ...(query ? { query } : {}) });
}

/** An attribute of a resource, its name matched case-insensitively (RFC 7643 §2.1). */
const attributeOf = (resource: object, name: string): unknown =>
  Object.entries(resource).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? undefined;

/** RFC 7643 §2.5: unassigned is absent, null or an empty array. */
const unassigned = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

// --- filter ----------------------------------------------------------------------------------

requirement(
  {
    id: 'scim.groups.filter-display-name-eq',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.2',
    title: 'GET /Groups?filter=displayName eq "<name>" lists exactly the group of that name',
  },
  async (t) => {
    await requireGroupFilter(t, 'displayName');
    const name = uniqueName(t, 'gfilter');
    // A sibling whose name starts with the other's: an eq read as sw, or a filter ignored, lists both.
    const group = await createGroup(t, 'gfilter', { displayName: name });
    await createGroup(t, 'gfilter', { displayName: `${name}x` });
    const { res, page } = await listGroups(t, { filter: `displayName eq ${literal(name)}` }, 'to a displayName eq filter', true);
    const ids = page.resources.map((r) => String(r.id));
    if (ids.length !== 1 || ids[0] !== group.id || page.totalResults !== 1)
      fail(`exactly the group ${group.id} (totalResults 1)`, `totalResults ${String(page.totalResults)}, ids ${JSON.stringify(ids.slice(0, 5))}`, res);
  },
  GROUPS,
);

requirement(
  {
    id: 'scim.groups.filter-display-name-case-insensitive',
    level: 'MUST',
    spec: 'rfc7643#section-8.7.1',
    title: 'A displayName eq filter in other case lists the group (displayName is caseExact false)',
  },
  async (t) => {
    await requireGroupFilter(t, 'displayName');
    const group = await createGroup(t, 'GroupCase', { displayName: `${uniqueName(t, 'GroupCase')}AbC` });
    const flipped = [...group.displayName].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    const { res, page } = await listGroups(t, { filter: `displayName eq ${literal(flipped)}` }, 'to a displayName eq filter in other case', true);
    if (!page.resources.some((r) => r.id === group.id)) fail(`the group ${group.id} (${group.displayName}) listed for ${flipped}`, describeResponse(res), res);
  },
  GROUPS,
);

requirement(
  {
    id: 'scim.groups.filter-members-value',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.2',
    title: 'GET /Groups?filter=members.value eq "<user id>" lists exactly the groups the user is a member of',
  },
  async (t) => {
    await requireGroupFilter(t, 'members');
    const [user, other] = [await createUser(t, 'gmember'), await createUser(t, 'gother')];
    const mine = [await groupWithMembers(t, 'gmember', [user.id]), await groupWithMembers(t, 'gmember', [other.id, user.id])];
    await groupWithMembers(t, 'gmember', [other.id]);
    const { res, page } = await listGroups(t, { filter: `members.value eq ${literal(user.id)}` }, 'to a members.value eq filter', true);
    const ids = page.resources.map((r) => String(r.id));
    const want = mine.map((g) => g.id);
    if (ids.some((id) => !want.includes(id))) await blockedIfFilterIgnored(t, res);
    if (ids.length !== want.length || want.some((id) => !ids.includes(id)))
      fail(`exactly the groups ${want.join(', ')} (the user's)`, `ids ${JSON.stringify(ids.slice(0, 5))}, totalResults ${String(page.totalResults)}`, res);
  },
  BOTH,
);

// --- sort and paging ---------------------------------------------------------------------------

/** Three groups created out of order (b, c, a: neither ascending nor descending), lower case only. */
const sortSet = (t: CheckContext): Promise<GroupSet> => createGroupSet(t, 'gsort', ['bravo', 'charlie', 'alpha']);

async function requireSort(t: CheckContext): Promise<void> {
  if (!(await scimTargetOf(t)).sort) t.skip('the target does not sort (expectations.scim.sort false, or /ServiceProviderConfig sort.supported false)');
}

async function expectSorted(t: CheckContext, order: 'ascending' | 'descending'): Promise<void> {
  await requireSort(t);
  const set = await sortSet(t);
  const { res, page } = await listGroups(t, { filter: set.filter, sortBy: 'displayName', sortOrder: order }, `to sortBy=displayName&sortOrder=${order}`);
  const got = ofSet(set, page, res).map((r) => String(r.displayName));
  const want = set.groups.map((g) => g.displayName).sort();
  if (order === 'descending') want.reverse();
  if (JSON.stringify(got) !== JSON.stringify(want)) fail(`displayNames ${order}: ${JSON.stringify(want)}`, `${JSON.stringify(got)}`, res);
}

requirement(
  {
    id: 'scim.groups.sort-display-name-ascending',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.3',
    title: 'GET /Groups?sortBy=displayName lists the groups by displayName, ascending',
  },
  (t) => expectSorted(t, 'ascending'),
  GROUPS,
);

requirement(
  {
    id: 'scim.groups.sort-display-name-descending',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.3',
    title: 'GET /Groups?sortBy=displayName&sortOrder=descending lists the groups by displayName, descending',
  },
  (t) => expectSorted(t, 'descending'),
  GROUPS,
);

requirement(
  {
    id: 'scim.groups.count-not-exceeded',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.4',
    title: 'GET /Groups with count=1 answers at most one group, and totalResults counts them all',
  },
  async (t) => {
    const set = await createGroupSet(t, 'gcount', ['one', 'two', 'three']);
    const { res, page } = await listGroups(t, { filter: set.filter, startIndex: 1, count: 1 }, 'to count=1');
    ofSet(set, page, res);
    if (page.resources.length > 1 || page.totalResults !== 3)
      fail('at most 1 group, totalResults 3', `${page.resources.length} groups, totalResults ${String(page.totalResults)}`, res);
  },
  GROUPS,
);

requirement(
  {
    id: 'scim.groups.walk-exactly-once',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.4',
    title: 'Pages of GET /Groups (count=2, startIndex advanced) give each of the groups exactly once',
  },
  async (t) => {
    const set = await createGroupSet(t, 'gwalk', ['one', 'two', 'three']);
    const seen: string[] = [];
    let startIndex = 1;
    for (let pages = 0; ; pages++) {
      const { res, page } = await listGroups(t, { filter: set.filter, startIndex, count: 2 }, `to the page at startIndex ${startIndex}`);
      ofSet(set, page, res);
      seen.push(...page.resources.map((r) => String(r.id)));
      const want = set.groups.map((g) => g.id);
      const repeated = seen.length !== new Set(seen).size;
      if (repeated || pages > 3)
        fail(`each of the ${want.length} groups once over pages of 2`, `${seen.length} groups in ${pages + 1} pages: ${JSON.stringify(seen)}`, res);
      if (page.resources.length === 0) {
        if (want.some((id) => !seen.includes(id))) fail(`each of the ${want.length} groups once over pages of 2`, `only ${JSON.stringify(seen)}`, res);
        return;
      }
      startIndex += page.resources.length;
    }
  },
  GROUPS,
);

// --- projection --------------------------------------------------------------------------------

requirement(
  {
    id: 'scim.groups.get-excluded-members',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.5',
    title: 'GET /Groups/{id}?excludedAttributes=members answers the group without its members',
  },
  async (t) => {
    const user = await createUser(t, 'gexcl');
    const group = await groupWithMembers(t, 'gexcl', [user.id]);
    const res = await getGroup(t, group.id, { excludedAttributes: 'members' });
    expectStatus(res, 200, 'to GET of a group with excludedAttributes=members');
    const shown = resourceOf(res);
    if (!unassigned(attributeOf(shown, 'members')) || shown.displayName !== group.displayName)
      fail('the group with its displayName and without members', describeResponse(res), res);
  },
  BOTH,
);

requirement(
  {
    id: 'scim.groups.list-excluded-members',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.5',
    title: 'GET /Groups?excludedAttributes=members lists the groups without their members',
  },
  async (t) => {
    const user = await createUser(t, 'glexcl');
    const set = await createGroupSet(t, 'glexcl', ['one', 'two'], { members: [{ value: user.id }] });
    const { res, page } = await listGroups(t, { filter: set.filter, excludedAttributes: 'members' }, 'to a list with excludedAttributes=members');
    const listed = ofSet(set, page, res);
    if (listed.length !== 2 || listed.some((g) => !unassigned(attributeOf(g, 'members')) || typeof g.displayName !== 'string'))
      fail('the 2 groups, each with displayName and without members', describeResponse(res), res);
  },
  BOTH,
);

requirement(
  {
    id: 'scim.groups.attributes-display-name',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.5',
    title: 'GET /Groups/{id}?attributes=displayName answers id and displayName, not members',
  },
  async (t) => {
    const user = await createUser(t, 'gattr');
    const group = await groupWithMembers(t, 'gattr', [user.id]);
    const res = await getGroup(t, group.id, { attributes: 'displayName' });
    expectStatus(res, 200, 'to GET of a group with attributes=displayName');
    const shown = resourceOf(res);
    if (shown.id !== group.id || shown.displayName !== group.displayName || !unassigned(attributeOf(shown, 'members')))
      fail('id and displayName, and no members', describeResponse(res), res);
  },
  BOTH,
);

// --- membership by PATCH -------------------------------------------------------------------------

/** Two users and a group whose only member is the first. */
async function membership(t: CheckContext, tag: string, users = 2) {
  const people = [];
  for (let i = 0; i < users; i++) people.push(await createUser(t, tag));
  const ids = people.map((u) => u.id);
  const group = await groupWithMembers(t, tag, ids.slice(0, 1));
  return { ids, group };
}

requirement(
  {
    id: 'scim.groups.patch-add-member',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.1',
    title: 'PATCH add of members with one new member keeps the members the group had',
  },
  async (t) => {
    const { ids, group } = await membership(t, 'gadd');
    const res = await patchGroup(t, group.id, [{ op: 'add', path: 'members', value: [{ value: ids[1] }] }]);
    const { resource, res: shown } = await patchedResource(t, res, 'group', group.id, 'add to members');
    expectMembers(ids, resource, 'after add of a member to a group with one', shown);
  },
  BOTH,
);

requirement(
  {
    id: 'scim.groups.patch-add-several-members',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.1',
    title: 'PATCH add of members with two members in one operation adds both',
  },
  async (t) => {
    const { ids, group } = await membership(t, 'gadd2', 3);
    const res = await patchGroup(t, group.id, [{ op: 'add', path: 'members', value: ids.slice(1).map((value) => ({ value })) }]);
    const { resource, res: shown } = await patchedResource(t, res, 'group', group.id, 'add of two members');
    const got = memberValues(resource, shown);
    if (ids.slice(1).some((id) => !got.includes(id)))
      fail(`members including ${ids.slice(1).join(' and ')}`, `members ${JSON.stringify(resource.members)}`, shown);
  },
  BOTH,
);

requirement(
  {
    id: 'scim.groups.patch-remove-member-filter',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.2',
    title: 'PATCH remove of members[value eq "<id>"] removes that member only',
  },
  async (t) => {
    const [a, b] = [await createUser(t, 'gremove'), await createUser(t, 'gremove')];
    const group = await groupWithMembers(t, 'gremove', [a.id, b.id]);
    const res = await patchGroup(t, group.id, [{ op: 'remove', path: `members[value eq ${literal(a.id)}]` }]);
    const { resource, res: shown } = await patchedResource(t, res, 'group', group.id, 'remove of one member by value filter');
    expectMembers([b.id], resource, `after remove of members[value eq "${a.id}"]`, shown);
  },
  BOTH,
);

requirement(
  {
    id: 'scim.groups.patch-replace-members',
    level: 'MUST',
    spec: 'rfc7644#section-3.5.2.3',
    title: 'PATCH replace of members makes the value the members: the others leave',
  },
  async (t) => {
    const { ids, group } = await membership(t, 'greplace');
    const res = await patchGroup(t, group.id, [{ op: 'replace', path: 'members', value: [{ value: ids[1] }] }]);
    const { resource, res: shown } = await patchedResource(t, res, 'group', group.id, 'replace of members');
    expectMembers(ids.slice(1), resource, 'after replace of members with the second user', shown);
  },
  BOTH,
);

// --- required, deletion --------------------------------------------------------------------------

requirement(
  {
    id: 'scim.groups.display-name-required',
    level: 'SHOULD',
    spec: 'rfc7643#section-4.2',
    title: 'POST /Groups without displayName (REQUIRED in RFC 7643 §4.2) answers 400',
  },
  async (t) => {
    const res = await postGroup(t, { schemas: [SCIM_SCHEMAS.group], externalId: uniqueName(t, 'nodisplay') });
    expectScimErrorAllowing(res, 400, ['invalidValue', 'invalidSyntax'], 'to a group without displayName');
  },
  GROUPS,
);

requirement(
  { id: 'scim.groups.delete-204', level: 'MUST', spec: 'rfc7644#section-3.6', title: 'DELETE /Groups/{id} answers 204 No Content' },
  async (t) => {
    const group = await createGroup(t, 'gdelete');
    expectStatus(await t.http.send({ op: 'scim.groups.delete', params: { id: group.id } }), 204, 'to DELETE of a group');
  },
  GROUPS,
);

requirement(
  {
    id: 'scim.groups.deleted-404',
    level: 'MUST',
    spec: 'rfc7644#section-3.6',
    binds:
      'RFC 7644 §3.6: "Service providers MAY choose not to permanently delete the resource but MUST return a 404 (Not Found) error code for all operations associated with the previously deleted resource."',
    title: 'GET of a deleted group answers 404',
  },
  async (t) => {
    const group = await createGroup(t, 'gdeleted');
    expectStatus(await t.http.send({ op: 'scim.groups.delete', params: { id: group.id } }), [200, 204], 'to DELETE of a group');
    expectStatus(await getGroup(t, group.id), 404, 'to GET of the deleted group');
  },
  GROUPS,
);

requirement(
  { id: 'scim.groups.deleted-not-listed', level: 'MUST', spec: 'rfc7644#section-3.6', title: 'A deleted group is not listed by a displayName eq filter' },
  async (t) => {
    await requireGroupFilter(t, 'displayName');
    const group = await createGroup(t, 'gunlisted');
    expectStatus(await t.http.send({ op: 'scim.groups.delete', params: { id: group.id } }), [200, 204], 'to DELETE of a group');
    const { res, page } = await listGroups(t, { filter: `displayName eq ${literal(group.displayName)}` }, 'to a filter naming the deleted group');
    if ((page.totalResults ?? 0) > 0 && !page.resources.some((r) => r.id === group.id)) await blockedIfFilterIgnored(t, res);
    if (page.resources.some((r) => r.id === group.id) || (page.totalResults ?? 0) > 0) fail('no group (totalResults 0)', describeResponse(res), res);
  },
  GROUPS,
);

requirement(
  {
    id: 'scim.groups.deleted-member-not-matched',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.6',
    title: 'After a member is deleted, a members.value eq filter naming it lists no group',
  },
  async (t) => {
    await requireGroupFilter(t, 'members');
    const user = await createUser(t, 'gleaver');
    await groupWithMembers(t, 'gleaver', [user.id]);
    expectStatus(await t.http.send({ op: 'scim.users.delete', params: { id: user.id } }), [200, 204], 'to DELETE of the member');
    const res = await t.http.send({ op: 'scim.groups.list', query: { filter: `members.value eq ${literal(user.id)}` } });
    // A refusal of the members filter is filter-members-value's rule.
    if (res.status === 400) blockedBy('scim.groups.filter-members-value', `members.value eq answered ${describeResponse(res)}`, res);
    expectStatus(res, 200, 'to a members.value eq filter');
    const page = resourceOf(res);
    if (page.totalResults !== 0) await blockedIfFilterIgnored(t, res);
    if (page.totalResults !== 0) fail('no group (totalResults 0): the deleted user left its groups', describeResponse(res), res);
  },
  BOTH,
);
