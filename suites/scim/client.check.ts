// Identity-provider requests: what Microsoft Entra ID and Okta are documented to send,
// which RFC 7644 does not oblige a server to accept but a server meant for them must. A check runs
// when the profile names the identity provider (expectations.scim.client) and is skipped, saying
// so, otherwise; its level is PROFILE (the identity provider's documentation), never the RFC's MUST.
// Sources: Microsoft Learn, "Tutorial: Develop and plan provisioning for a SCIM endpoint" and
// "Known issues and resolutions with SCIM 2.0 protocol compliance" (string booleans, dotted paths
// in a no-path replace, remove of members with a value array, add that creates the value its filter
// names, externalId filters); Okta Developer, "SCIM 2.0 provisioning" (deactivation by a no-path
// replace of active, group membership by PUT /Groups/{id}). ../shared/spec/scim-checklist.md §4.
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import { blockedBy } from '../_harness/outcomes.js';
import type { Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { expectMembers, groupWithMembers } from '../_harness/scim/groups.js';
import { patchedResource, patchGroup, patchUser } from '../_harness/scim/patch-model.js';
import { createGroup, createUser, literal, postUser, resourceOf, SCIM_SCHEMAS, uniqueName, userBody } from '../_harness/scim/records.js';
import { requireUserAttributes, uniqueEmail } from '../_harness/scim/target.js';

const USERS = { write: ['scim.users'] } as const;
const BOTH = { write: ['scim.users', 'scim.groups'] } as const;

type Client = 'entra' | 'okta';
const NAMES: Record<Client, string> = { entra: 'Microsoft Entra ID', okta: 'Okta' };

/** Skips the check unless the profile says the target is meant for one of `clients`. */
function requireClient(t: CheckContext, clients: readonly Client[]): void {
  const declared = t.profile.expectations.scim.client;
  if (!clients.some((c) => declared.includes(c))) {
    t.skip(
      `the profile names no identity provider that sends this request (expectations.scim.client: [${declared.join(', ')}]; it comes from ${clients.map((c) => NAMES[c]).join(' and ')}), and RFC 7644 does not oblige a server to accept it`,
    );
  }
}

/** A user's attribute read case-insensitively (RFC 7643 §2.1). */
const attributeOf = (resource: Json, name: string): unknown => Object.entries(resource).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

requirement(
  {
    id: 'scim.client.string-boolean-patch',
    level: 'PROFILE',
    spec: 'rfc7643#section-2.3.2',
    title: 'PATCH replace of active with the string "False" (Entra ID) makes the user inactive',
  },
  async (t) => {
    requireClient(t, ['entra']);
    await requireUserAttributes(t, ['active']);
    const user = await createUser(t, 'idp-bool', { active: true });
    const res = await patchUser(t, user.id, [{ op: 'Replace', path: 'active', value: 'False' }]);
    // After a 204 the user is read back: an inactive user answered 404 is deactivated-user-readable's rule.
    const read = res.status === 204 ? await t.http.send({ op: 'scim.users.get', params: { id: user.id } }) : undefined;
    if (read?.status === 404) blockedBy('scim.client.deactivated-user-readable', `GET of the user made inactive answered ${describeResponse(read)}`, read);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, 'replace of active with "False"');
    if (attributeOf(resource, 'active') !== false) fail('active false (a boolean)', `active ${JSON.stringify(attributeOf(resource, 'active'))}`, shown);
  },
  USERS,
);

requirement(
  {
    id: 'scim.client.string-boolean-primary',
    level: 'PROFILE',
    spec: 'rfc7643#section-2.3.2',
    title: 'POST /Users with an email whose primary is the string "True" (Entra ID) is created, primary true',
  },
  async (t) => {
    requireClient(t, ['entra']);
    await requireUserAttributes(t, ['emails']);
    const res = await postUser(t, userBody(uniqueName(t, 'idp-primary'), { emails: [{ value: uniqueEmail(t, 'primary'), type: 'work', primary: 'True' }] }));
    expectStatus(res, [200, 201], 'to POST /Users with "primary": "True"');
    const emails = attributeOf(resourceOf(res), 'emails');
    const first = Array.isArray(emails) ? (emails[0] as Json | undefined) : undefined;
    if (first?.primary !== true) fail('the email answered with primary true (a boolean)', `emails ${JSON.stringify(emails)}`, res);
  },
  USERS,
);

requirement(
  {
    id: 'scim.client.dotted-no-path-replace',
    level: 'PROFILE',
    spec: 'rfc7644#section-3.5.2.3',
    title: 'A no-path PATCH replace whose value names "name.givenName" (Entra ID) sets the given name',
  },
  async (t) => {
    requireClient(t, ['entra']);
    await requireUserAttributes(t, ['name.givenName']);
    const user = await createUser(t, 'idp-dotted');
    const res = await patchUser(t, user.id, [{ op: 'Replace', value: { 'name.givenName': 'Entra' } }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, 'a no-path replace of name.givenName');
    const name = attributeOf(resource, 'name') as Json | undefined;
    if (name?.givenName !== 'Entra') fail('name.givenName "Entra"', `name ${JSON.stringify(name)}`, shown);
  },
  USERS,
);

requirement(
  {
    id: 'scim.client.remove-members-value-array',
    level: 'PROFILE',
    spec: 'rfc7644#section-3.5.2.2',
    title: 'PATCH remove of members with a value array (Entra ID) removes only the members listed',
  },
  async (t) => {
    requireClient(t, ['entra']);
    const [a, b] = [await createUser(t, 'idp-remove'), await createUser(t, 'idp-remove')];
    const group = await groupWithMembers(t, 'idp-remove', [a.id, b.id]);
    const res = await patchGroup(t, group.id, [{ op: 'Remove', path: 'members', value: [{ value: a.id }] }]);
    const { resource, res: shown } = await patchedResource(t, res, 'group', group.id, 'remove of members with a value array');
    expectMembers([b.id], resource, `after remove of members [{"value": "${a.id}"}]`, shown);
    // The same form on a group without members (Entra ID removes a member it believes is there):
    // nothing to remove, so the group keeps no members; refused with 400 is a reading too, a 5xx none.
    const empty = await createGroup(t, 'idp-remove-empty');
    const again = await patchGroup(t, empty.id, [{ op: 'Remove', path: 'members', value: [{ value: a.id }] }]);
    if (again.status === 400) return;
    const after = await patchedResource(t, again, 'group', empty.id, 'remove of members with a value array on a group without members');
    expectMembers([], after.resource, `after remove of members [{"value": "${a.id}"}] on a group without members`, after.res);
  },
  BOTH,
);

requirement(
  {
    id: 'scim.client.add-unmatched-filter-creates',
    level: 'PROFILE',
    spec: 'rfc7644#section-3.5.2.1',
    title: 'PATCH add of emails[type eq "work"].value on a user without one (Entra ID) creates the work email',
  },
  async (t) => {
    requireClient(t, ['entra']);
    await requireUserAttributes(t, ['emails']);
    const user = await createUser(t, 'idp-add', { emails: [{ value: uniqueEmail(t, 'home'), type: 'home' }] });
    const work = uniqueEmail(t, 'work');
    const res = await patchUser(t, user.id, [{ op: 'Add', path: 'emails[type eq "work"].value', value: work }]);
    const { resource, res: shown } = await patchedResource(t, res, 'user', user.id, 'add of emails[type eq "work"].value');
    const emails = attributeOf(resource, 'emails');
    const list = Array.isArray(emails) ? (emails as Json[]) : [];
    if (!list.some((e) => e?.type === 'work' && typeof e.value === 'string' && e.value.toLowerCase() === work))
      fail(`an email of type work with value ${work}`, `emails ${JSON.stringify(emails)}`, shown);
    // The same add on a user without any email: the work email it creates is then the only one.
    const bare = await createUser(t, 'idp-add-bare');
    const only = uniqueEmail(t, 'work');
    const added = await patchUser(t, bare.id, [{ op: 'Add', path: 'emails[type eq "work"].value', value: only }]);
    const after = await patchedResource(t, added, 'user', bare.id, 'add of emails[type eq "work"].value on a user without emails');
    const created = attributeOf(after.resource, 'emails');
    const one = Array.isArray(created) && created.length === 1 ? (created[0] as Json) : undefined;
    if (one?.type !== 'work' || typeof one.value !== 'string' || one.value.toLowerCase() !== only)
      fail(`one email, of type work with value ${only}, on the user that had none`, `emails ${JSON.stringify(created)}`, after.res);
  },
  USERS,
);

requirement(
  {
    id: 'scim.client.put-group-members',
    level: 'PROFILE',
    spec: 'rfc7644#section-3.5.1',
    title: 'PUT /Groups/{id} with a members list (Okta) makes those the members: the others leave',
  },
  async (t) => {
    requireClient(t, ['okta']);
    const [a, b] = [await createUser(t, 'idp-put'), await createUser(t, 'idp-put')];
    const group = await groupWithMembers(t, 'idp-put', [a.id]);
    const res = await t.http.send({
      op: 'scim.groups.replace',
      params: { id: group.id },
      json: { schemas: [SCIM_SCHEMAS.group], displayName: group.displayName, members: [{ value: b.id }] },
    });
    expectStatus(res, 200, 'to PUT /Groups/{id} with the group and its new members');
    expectMembers([b.id], resourceOf(res), 'after PUT with the second user as the only member', res);
  },
  BOTH,
);

requirement(
  {
    id: 'scim.client.group-rename-with-id',
    level: 'PROFILE',
    spec: 'rfc7644#section-3.5.2.3',
    title: "A no-path PATCH replace of displayName whose value carries the group's own id (Okta) renames it",
  },
  async (t) => {
    requireClient(t, ['okta']);
    const group = await createGroup(t, 'idp-rename');
    const renamed = uniqueName(t, 'idp-renamed');
    const res = await patchGroup(t, group.id, [{ op: 'replace', value: { id: group.id, displayName: renamed } }]);
    const { resource, res: shown } = await patchedResource(t, res, 'group', group.id, "a no-path replace of displayName with the group's id");
    if (resource.displayName !== renamed) fail(`displayName ${renamed}`, `displayName ${JSON.stringify(resource.displayName)}`, shown);
  },
  { write: ['scim.groups'] },
);

requirement(
  {
    id: 'scim.client.external-id-filter',
    level: 'PROFILE',
    spec: 'rfc7644#section-3.4.2.2',
    title: 'GET /Users?filter=externalId eq "<value>" (Entra ID) lists exactly the user with that externalId',
  },
  async (t) => {
    requireClient(t, ['entra']);
    const externalId = uniqueName(t, 'idp-ext');
    const user = await createUser(t, 'idp-ext', { externalId });
    const res = await t.http.send({ op: 'scim.users.list', query: { filter: `externalId eq ${literal(externalId)}` } });
    expectStatus(res, 200, 'to a filter on externalId (the identity provider sends it whatever the filter declares)');
    const page = resourceOf(res);
    const ids = Array.isArray(page.Resources) ? (page.Resources as Json[]).map((r) => r.id) : [];
    if (ids.length !== 1 || ids[0] !== user.id) fail(`exactly the user ${user.id}`, describeResponse(res), res);
  },
  USERS,
);

requirement(
  {
    id: 'scim.client.deactivated-user-readable',
    level: 'PROFILE',
    spec: 'rfc7644#section-3.5.2.3',
    title: 'A user deactivated by a no-path replace of active false (Okta) is still read, active false',
  },
  async (t) => {
    requireClient(t, ['okta']);
    await requireUserAttributes(t, ['active']);
    const user = await createUser(t, 'idp-deactivate', { active: true });
    const res = await patchUser(t, user.id, [{ op: 'replace', value: { active: false } }]);
    await patchedResource(t, res, 'user', user.id, 'a no-path replace of active false');
    const got = await t.http.send({ op: 'scim.users.get', params: { id: user.id } });
    expectStatus(got, 200, 'to GET of the deactivated user (Okta deprovisions by deactivating; the user stays)');
    if (attributeOf(resourceOf(got), 'active') !== false) fail('active false', describeResponse(got), got);
  },
  USERS,
);
