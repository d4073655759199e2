import { ApiError, notFound, validationFailed } from '../../http/errors.js';
import { isJsonObject, type JsonObject } from '../../rules/json.js';
import { type BodySpec, compileBody } from '../../rules/bounds.js';
import { FieldSchema } from '../../rules/fields.js';
import { isGuid } from '../../rules/guid.js';
import type { GroupRecord } from '../store/enrollments.js';
import { type IntapiDeps, type IntapiOperation, V1_AND_V2, V2_ONLY } from '../context.js';
import { readListParams } from '../lists/params.js';
import { envelope, runList } from '../lists/run.js';
import { finishObject, freshId, guidParams, unknownId, validBody } from '../requests.js';

/**
 * Groups (spec#integration-api-operations-named-by-release-notes; list and get public-facts, key
 * `groups`). Create, update, assign, unassign and the group's users are version 2 only; list and
 * get are served in both versions (the v1 surface of public-facts). docs/decisions/intapi/groups-enrollments-sessions.md "Groups, enrollments
 * and sessions" records the shapes: a group is `{id, name, description, groupType, userIds}`;
 * create 201, update (name and description, a full replacement) 200, assign and unassign
 * `{userIds: [...]}` 200 with the group, on a manual group only (an automatic group: 409).
 * The group list takes every list parameter (`_filter`/`_sort` on id, name, description, groupType);
 * the group's users list `_limit` and `_offset` only.
 */

/** The group list's filterable and sortable fields. */
const GROUP_SCHEMA = new FieldSchema<GroupRecord>([
  { name: 'id', type: 'guid', get: (g) => g.id },
  { name: 'name', type: 'string', get: (g) => g.name },
  { name: 'description', type: 'string', get: (g) => g.description },
  { name: 'groupType', type: 'string', get: (g) => g.groupType },
]);

const NAME = { name: 'name', type: 'string', required: true, minLength: 1, maxLength: 255 } as const;
const DESCRIPTION = { name: 'description', type: 'string', maxLength: 1000 } as const;
const CREATE: BodySpec = {
  operation: 'groups.create',
  fields: [NAME, DESCRIPTION, { name: 'groupType', type: 'string', required: true, enum: ['Manual', 'Automatic'] }],
};
const UPDATE: BodySpec = {
  operation: 'groups.update',
  fields: [NAME, DESCRIPTION, { name: 'id', notAccepted: true }, { name: 'groupType', notAccepted: true }],
};

export function groupOperations(deps: IntapiDeps): IntapiOperation[] {
  const { store, behaviour, ids } = deps;
  const { errors, lists } = behaviour;
  const rules = behaviour.enrollments;
  const validateCreate = compileBody(CREATE, behaviour.bodies);
  const validateUpdate = compileBody(UPDATE, behaviour.bodies);
  const serialize = (group: GroupRecord): JsonObject =>
    finishObject(
      { id: group.id, name: group.name, description: group.description, groupType: group.groupType, userIds: [...group.userIds] },
      behaviour.responses.nulls,
    );
  const blank = (id: string): GroupRecord => ({ id, name: ' ', description: null, groupType: 'Manual', userIds: [] });
  /** Versions of the group writes: version 2 only, unless a fault serves them in version 1 too. */
  const writeVersions = rules.groupsOnV1 === 'served' ? V1_AND_V2 : V2_ONLY;
  const groupOf = (id: string): GroupRecord => {
    const group = store.groups.get(id);
    if (group === undefined) throw unknownId(`Group with identifier ${id} does not exist.`, () => serialize(blank(id)));
    return group;
  };
  /** `{userIds: [guid, ...]}`, each an existing user: 422 naming userIds, 404 for an unknown user. */
  const userIdsOf = (body: unknown): string[] => {
    if (!isJsonObject(body)) throw validationFailed(['body: must be a JSON object']);
    const unknown = Object.keys(body).filter((key) => key !== 'userIds');
    if (unknown.length > 0 && behaviour.bodies.unknownFields === 'reject') throw validationFailed(unknown.map((key) => `${key}: is not a field of this body`));
    const userIds = body.userIds;
    if (!Array.isArray(userIds) || userIds.length === 0) throw validationFailed(['userIds: must be a non-empty array of user ids']);
    const invalid = userIds.findIndex((id) => typeof id !== 'string' || !isGuid(id));
    if (invalid >= 0) throw validationFailed([`userIds[${invalid}]: Invalid format provided for userIds`]);
    const missing = (userIds as string[]).filter((id) => !store.users.has(id));
    if (missing.length > 0)
      throw notFound(
        `User with identifier ${missing[0] ?? ''} does not exist.`,
        missing.map((id) => `userIds: no user ${id}`),
      );
    return userIds as string[];
  };
  const membership = (group: GroupRecord, change: (members: string[]) => string[], stored: 'stored' | 'not-stored'): GroupRecord => {
    if (group.groupType === 'Automatic' && rules.automaticGroupAssign === 'refused') {
      throw new ApiError(409, `Group ${group.id} is automatic: its members follow its rule.`, ['groupType: users are assigned to manual groups only']);
    }
    const updated = { ...group, userIds: change([...group.userIds]) };
    if (stored === 'stored') store.groups.update(updated);
    return updated;
  };
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

  return [
    {
      id: 'groups.list',
      method: 'GET',
      path: '/groups',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const outcome = runList(store.groups, readListParams(call.query, 'full', lists), GROUP_SCHEMA, lists);
        return { status: 200, body: envelope('groups', outcome, outcome.page.map(serialize), behaviour.envelope) };
      },
    },
    {
      id: 'groups.get',
      method: 'GET',
      path: '/groups/:groupId',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => ({ status: 200, body: serialize(groupOf(guidParams(call, ['groupId'], errors).groupId)) }),
    },
    {
      id: 'groups.create',
      method: 'POST',
      path: '/groups',
      versions: writeVersions,
      auth: 'token',
      handle: (call) => {
        const body = validBody(validateCreate, call.body);
        const record: GroupRecord = {
          id: freshId(ids, (candidate) => store.groups.has(candidate)),
          name: String(body.name),
          description: typeof body.description === 'string' ? body.description : null,
          groupType: body.groupType === 'Automatic' ? 'Automatic' : 'Manual',
          userIds: [],
        };
        store.groups.insert(record);
        return { status: 201, body: serialize(record) };
      },
    },
    {
      id: 'groups.update',
      method: 'PUT',
      path: '/groups/:groupId',
      versions: writeVersions,
      auth: 'token',
      handle: (call) => {
        const group = groupOf(guidParams(call, ['groupId'], errors).groupId);
        const body = validBody(validateUpdate, call.body);
        const record: GroupRecord = { ...group, name: String(body.name), description: typeof body.description === 'string' ? body.description : null };
        if (rules.groupUpdate === 'stored') store.groups.update(record);
        return { status: 200, body: serialize(record) };
      },
    },
    {
      id: 'groups.assignUsers',
      method: 'POST',
      path: '/groups/:groupId/users/assign',
      versions: writeVersions,
      auth: 'token',
      handle: (call) => {
        const group = groupOf(guidParams(call, ['groupId'], errors).groupId);
        const userIds = userIdsOf(call.body);
        const updated = membership(
          group,
          (members) => [...members, ...userIds.filter((id, i) => !members.some((m) => same(m, id)) && userIds.findIndex((o) => same(o, id)) === i)],
          rules.assignment,
        );
        return { status: 200, body: serialize(updated) };
      },
    },
    {
      id: 'groups.unassignUsers',
      method: 'POST',
      path: '/groups/:groupId/users/unassign',
      versions: writeVersions,
      auth: 'token',
      handle: (call) => {
        const group = groupOf(guidParams(call, ['groupId'], errors).groupId);
        const userIds = userIdsOf(call.body);
        const updated = membership(group, (members) => members.filter((m) => !userIds.some((id) => same(m, id))), rules.unassignment);
        return { status: 200, body: serialize(updated) };
      },
    },
    {
      id: 'groups.listUsers',
      method: 'GET',
      path: '/groups/:groupId/users',
      versions: writeVersions,
      auth: 'token',
      handle: (call) => {
        const { groupId } = guidParams(call, ['groupId'], errors);
        const params = readListParams(call.query, 'paging-only', lists);
        const group = store.groups.get(groupId);
        if (group === undefined) {
          throw unknownId(`Group with identifier ${groupId} does not exist.`, () =>
            envelope('users', { total: 0, unfilteredTotal: 0, page: [], limit: params.limit, offset: params.offset }, [], behaviour.envelope),
          );
        }
        const members = group.userIds.flatMap((id) => store.users.get(id) ?? []);
        const outcome = runList(members, params, undefined, lists);
        const items = outcome.page.map((u) => ({ id: u.id, userName: u.userName, firstName: u.firstName, lastName: u.lastName, email: u.email }));
        return { status: 200, body: envelope('users', outcome, items, behaviour.envelope) };
      },
    },
  ];
}
