// Groups, version 2 (spec#integration-api-operations-named-by-release-notes; list and get
// public-facts): statuses, version 1 refused, assignment to manual groups only, members shown.
// The group's shape is the reference server's choice (PROFILE): `{id, name, description, groupType, userIds}`.
import { expectStatus, fail } from '../_harness/failure.js';
import { listChecks, readAll } from '../_harness/intapi/lists.js';
import { bodyOf, unknownId, type Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { statusChecks } from '../_harness/statuses.js';
import { createdRecord, profileRecord } from '../_harness/intapi/records.js';

const OPS = 'spec#integration-api-operations-named-by-release-notes';
const PATHS = 'public-facts#integration-api-paths-seen-in-public-clients-the-v1-surface-which-v2-keeps';
/** Every check here creates or changes groups (scheduler.ts). */
const WRITES = { write: ['groups'] };

/** A group name carrying the run's marker (`lpc-<run id>-`), so that a run's records can be told apart. */
const groupName = (t: CheckContext, what: string) => `lpc-${t.config.runId ?? '000000'}-${what}`;

async function createGroup(t: CheckContext, groupType: 'Manual' | 'Automatic' = 'Manual'): Promise<string> {
  const res = await t.http.send({ op: 'groups.create', json: { name: groupName(t, `${groupType.toLowerCase()} group`), groupType } });
  return createdRecord(res, 'a group to work on');
}

const group = (groupId: string) => ({ groupId });
const members = (t: CheckContext): Json => ({ userIds: [profileRecord(t, 'otherUserId')] });

statusChecks(
  [
    {
      id: 'intapi.v2.groups.list.status-200',
      level: 'PROFILE',
      spec: PATHS,
      title: 'List groups answers 200',
      status: 200,
      request: () => ({ op: 'groups.list' }),
    },
    {
      id: 'intapi.v2.groups.get.status-200',
      level: 'PROFILE',
      spec: PATHS,
      title: 'Get group of an existing id answers 200',
      status: 200,
      request: async (t) => ({ op: 'groups.get', params: group(await createGroup(t)) }),
    },
    {
      id: 'intapi.v2.groups.get.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Get group of an unknown id answers 404',
      status: 404,
      request: (t) => ({ op: 'groups.get', params: group(unknownId(t)) }),
    },
    {
      id: 'intapi.v2.groups.create.success-status',
      level: 'PROFILE',
      spec: OPS,
      title: "Create group with a valid body answers the profile's success status",
      status: (t) => t.profile.expectations.groups.createStatus,
      request: (t) => ({ op: 'groups.create', json: { name: groupName(t, 'created'), description: 'made by lp-conformance', groupType: 'Manual' } }),
    },
    {
      id: 'intapi.v2.groups.update.status-200',
      level: 'PROFILE',
      spec: OPS,
      title: 'Update group answers 200',
      status: 200,
      request: async (t) => ({ op: 'groups.update', params: group(await createGroup(t)), json: { name: groupName(t, 'renamed') } }),
    },
    {
      id: 'intapi.v2.groups.update.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Update group of an unknown id answers 404',
      status: 404,
      request: (t) => ({ op: 'groups.update', params: group(unknownId(t)), json: { name: groupName(t, 'renamed') } }),
    },
    {
      id: 'intapi.v2.groups.assign-users.status-200',
      level: 'PROFILE',
      spec: OPS,
      title: 'Assign users to a manual group answers 200',
      status: 200,
      request: async (t) => ({ op: 'groups.assignUsers', params: group(await createGroup(t)), json: members(t) }),
    },
    {
      id: 'intapi.v2.groups.assign-users.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Assign users to an unknown group answers 404',
      status: 404,
      request: (t) => ({ op: 'groups.assignUsers', params: group(unknownId(t)), json: members(t) }),
    },
    {
      id: 'intapi.v2.groups.unassign-users.status-200',
      level: 'PROFILE',
      spec: OPS,
      title: 'Unassign users from a manual group answers 200',
      status: 200,
      request: async (t) => ({ op: 'groups.unassignUsers', params: group(await createGroup(t)), json: members(t) }),
    },
    {
      id: 'intapi.v2.groups.unassign-users.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Unassign users from an unknown group answers 404',
      status: 404,
      request: (t) => ({ op: 'groups.unassignUsers', params: group(unknownId(t)), json: members(t) }),
    },
    {
      id: 'intapi.v2.groups.list-users.status-200',
      level: 'PROFILE',
      spec: OPS,
      title: "List a group's users answers 200",
      status: 200,
      request: async (t) => ({ op: 'groups.listUsers', params: group(await createGroup(t)) }),
    },
    {
      id: 'intapi.v2.groups.list-users.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'List the users of an unknown group answers 404',
      status: 404,
      request: (t) => ({ op: 'groups.listUsers', params: group(unknownId(t)) }),
    },
    // spec#versioning 3: group create, update, assign, unassign and the group's users are version 2 only.
    {
      id: 'intapi.v2.groups.create.v1-status',
      level: 'PROFILE',
      spec: 'spec#versioning',
      title: "Create group with x-api-version 1 answers the profile's version-2-only status",
      status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
      request: (t) => ({ op: 'groups.create', version: '1', json: { name: groupName(t, 'v1'), groupType: 'Manual' } }),
    },
    {
      id: 'intapi.v2.groups.update.v1-status',
      level: 'PROFILE',
      spec: 'spec#versioning',
      title: "Update group with x-api-version 1 answers the profile's version-2-only status",
      status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
      request: async (t) => ({ op: 'groups.update', version: '1', params: group(await createGroup(t)), json: { name: groupName(t, 'v1') } }),
    },
    {
      id: 'intapi.v2.groups.assign-users.v1-status',
      level: 'PROFILE',
      spec: 'spec#versioning',
      title: "Assign users with x-api-version 1 answers the profile's version-2-only status",
      status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
      request: async (t) => ({ op: 'groups.assignUsers', version: '1', params: group(await createGroup(t)), json: members(t) }),
    },
    {
      id: 'intapi.v2.groups.unassign-users.v1-status',
      level: 'PROFILE',
      spec: 'spec#versioning',
      title: "Unassign users with x-api-version 1 answers the profile's version-2-only status",
      status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
      request: async (t) => ({ op: 'groups.unassignUsers', version: '1', params: group(await createGroup(t)), json: members(t) }),
    },
    {
      id: 'intapi.v2.groups.list-users.v1-status',
      level: 'PROFILE',
      spec: 'spec#versioning',
      title: "List a group's users with x-api-version 1 answers the profile's version-2-only status",
      status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
      request: async (t) => ({ op: 'groups.listUsers', version: '1', params: group(await createGroup(t)) }),
    },
    // An automatic group follows its rule: assignment is refused (the status is the profile's).
    {
      id: 'intapi.v2.groups.assign-users.automatic-refused',
      level: 'PROFILE',
      spec: OPS,
      title: "Assign users to an automatic group answers the profile's refusal status",
      status: (t) => t.profile.expectations.groups.automaticAssignStatus,
      request: async (t) => ({ op: 'groups.assignUsers', params: group(await createGroup(t, 'Automatic')), json: members(t) }),
    },
    {
      id: 'intapi.v2.groups.unassign-users.automatic-refused',
      level: 'PROFILE',
      spec: OPS,
      title: "Unassign users from an automatic group answers the profile's refusal status",
      status: (t) => t.profile.expectations.groups.automaticAssignStatus,
      request: async (t) => ({ op: 'groups.unassignUsers', params: group(await createGroup(t, 'Automatic')), json: members(t) }),
    },
  ],
  WRITES,
);

/** The ids of a group's users, as the group answers them. */
async function groupUserIds(t: CheckContext, groupId: string): Promise<string[]> {
  const res = await t.http.send({ op: 'groups.get', params: group(groupId) });
  expectStatus(res, 200, 'reading the group back');
  const userIds = bodyOf(res).userIds;
  if (!Array.isArray(userIds)) fail('a group with a userIds array', JSON.stringify(userIds), res);
  return userIds.map((id) => String(id).toLowerCase());
}

/** The ids of a group's users list (every page, within the profile's maxLimit). */
async function listedUserIds(t: CheckContext, groupId: string): Promise<string[]> {
  const { items } = await readAll(t, {
    label: `the users of group ${groupId}`,
    op: 'groups.listUsers',
    version: '2',
    params: () => Promise.resolve(group(groupId)),
    key: 'users',
  });
  return items.map((u) => String((u as { id?: unknown } | null)?.id).toLowerCase());
}

/** A manual group with the profile's other user assigned. */
async function assigned(t: CheckContext): Promise<{ groupId: string; userId: string }> {
  const groupId = await createGroup(t);
  const userId = profileRecord(t, 'otherUserId');
  expectStatus(await t.http.send({ op: 'groups.assignUsers', params: group(groupId), json: { userIds: [userId] } }), 200, 'assigning a user');
  return { groupId, userId: userId.toLowerCase() };
}

requirement(
  { id: 'intapi.v2.groups.assign-users.shows-in-group', level: 'PROFILE', spec: OPS, title: "A user assigned to a manual group is among the group's userIds" },
  async (t) => {
    const { groupId, userId } = await assigned(t);
    const ids = await groupUserIds(t, groupId);
    if (!ids.includes(userId)) fail(`userIds containing ${userId}`, JSON.stringify(ids));
  },
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.groups.assign-users.shows-in-users-list',
    level: 'PROFILE',
    spec: OPS,
    title: "A user assigned to a manual group is in the group's users list",
  },
  async (t) => {
    const { groupId, userId } = await assigned(t);
    const ids = await listedUserIds(t, groupId);
    if (!ids.includes(userId)) fail(`the users list containing ${userId}`, JSON.stringify(ids));
  },
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.groups.unassign-users.leaves-group',
    level: 'PROFILE',
    spec: OPS,
    title: 'A user unassigned from a manual group leaves its userIds and its users list',
  },
  async (t) => {
    const { groupId, userId } = await assigned(t);
    const held = await groupUserIds(t, groupId);
    if (!held.includes(userId)) fail(`userIds containing ${userId} after the assignment, before the unassignment`, JSON.stringify(held));
    expectStatus(await t.http.send({ op: 'groups.unassignUsers', params: group(groupId), json: { userIds: [userId] } }), 200, 'unassigning the user');
    const [ids, listed] = [await groupUserIds(t, groupId), await listedUserIds(t, groupId)];
    if (ids.includes(userId) || listed.includes(userId))
      fail(`no ${userId} in userIds nor in the users list`, `userIds ${JSON.stringify(ids)}, list ${JSON.stringify(listed)}`);
  },
  WRITES,
);

requirement(
  { id: 'intapi.v2.groups.update.read-back', level: 'PROFILE', spec: PATHS, title: 'Get group after an update answers the name and description sent' },
  async (t) => {
    const groupId = await createGroup(t);
    const sent = { name: groupName(t, 'updated'), description: 'updated by lp-conformance' };
    expectStatus(await t.http.send({ op: 'groups.update', params: group(groupId), json: sent }), 200, 'updating the group');
    const res = await t.http.send({ op: 'groups.get', params: group(groupId) });
    expectStatus(res, 200, 'reading the group back');
    const body = bodyOf(res);
    if (body.name !== sent.name || body.description !== sent.description)
      fail(JSON.stringify(sent), JSON.stringify({ name: body.name, description: body.description }), res);
  },
  WRITES,
);

listChecks({
  idPrefix: 'intapi.v2.groups.list',
  label: 'List groups',
  op: 'groups.list',
  version: '2',
  key: 'groups',
  itemContract: 'intapi/group',
  collection: 'groups',
  create: (t) => createGroup(t),
});
