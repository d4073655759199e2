import { notFound, validationFailed } from '../../http/errors.js';
import type { Call, Result } from '../../http/route.js';
import { isJsonObject, type JsonValue } from '../../rules/json.js';
import { isGuid } from '../../rules/guid.js';
import type { UserRecord } from '../store/records.js';
import { type IntapiContext, type IntapiDeps, type IntapiOperation, V1_AND_V2, V2_ONLY } from '../context.js';
import { readListParams } from '../lists/params.js';
import { envelope, runList } from '../lists/run.js';
import { currentUserId, freshId, guidParams, NIL_GUID, unknownId } from '../requests.js';
import { userView } from './fields.js';

/**
 * Users (versions 1 and 2) and manager direct reports (version 2 only):
 * spec#integration-api-operations-named-by-release-notes, public-facts#integration-api-paths-seen-in-public-clients-the-v1-surface-which-v2-keeps.
 * docs/decisions/intapi/users-and-managers.md "Users and managers" records the shapes and statuses chosen where the
 * specification says "not shown".
 */

/** The fields of a user update or upsert body; `id` is refused (release note, spec). */
const USER_BODY_FIELDS = ['username', 'firstName', 'lastName', 'email', 'managerId', 'jobTitle'] as const;
const MAX_TEXT = 255;

interface UserBody {
  readonly username: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string | null;
  readonly managerId: string | null;
  readonly jobTitle: string | null;
}

/** A user update/upsert body, or 422 with every reason. `id` is refused unless the behaviour ignores it. */
function readUserBody(body: unknown, id: 'reject' | 'ignore'): UserBody {
  if (!isJsonObject(body)) throw validationFailed(['body: must be a JSON object']);
  const failures: string[] = [];
  for (const name of Object.keys(body)) {
    if (name === 'id') {
      if (id === 'reject') failures.push('id: is not accepted in a user body (release note)');
    } else if (!(USER_BODY_FIELDS as readonly string[]).includes(name)) failures.push(`${name}: is not a field of a user`);
  }
  const text = (name: string, required: boolean): void => {
    const value = body[name];
    if (value === undefined || value === null) {
      if (required) failures.push(`${name}: is required`);
    } else if (typeof value !== 'string') failures.push(`${name}: must be a string`);
    else if ([...value].length > MAX_TEXT || (required && value.length === 0)) failures.push(`${name}: must be 1 to ${MAX_TEXT} characters`);
  };
  text('username', true);
  text('firstName', true);
  text('lastName', true);
  text('email', false);
  text('jobTitle', false);
  const managerId = body.managerId;
  if (managerId !== undefined && managerId !== null && (typeof managerId !== 'string' || !isGuid(managerId))) failures.push('managerId: must be a GUID');
  if (failures.length > 0) throw validationFailed(failures);
  return {
    username: body.username as string,
    firstName: body.firstName as string,
    lastName: body.lastName as string,
    email: (body.email as string | null | undefined) ?? null,
    managerId: (managerId as string | null | undefined) ?? null,
    jobTitle: (body.jobTitle as string | null | undefined) ?? null,
  };
}

export function userOperations(deps: IntapiDeps): IntapiOperation[] {
  const { store, behaviour, ids } = deps;
  const { errors, lists } = behaviour;
  const view = userView(store, behaviour.users);
  const directReportVersions = behaviour.users.directReportVersions === 'v2-only' ? V2_ONLY : V1_AND_V2;

  const blankUser = (id: string) => (): JsonValue => view.user({ id, userName: '', firstName: '', lastName: '', email: '', managerId: null, jobTitle: null });
  const requireUser = (id: string, blank: () => JsonValue): UserRecord => {
    const found = store.users.get(id);
    if (found === undefined) throw unknownId(`User with identifier ${id} does not exist.`, blank, [`userId: no user ${id}`]);
    return found;
  };
  /** The manager a body names must exist and must not be the user or below the user (no cycles). */
  const checkManager = (userId: string | undefined, managerId: string | null): void => {
    if (managerId === null) return;
    if (!store.users.has(managerId)) throw notFound(`User with identifier ${managerId} does not exist.`, [`managerId: no user ${managerId}`]);
    if (userId !== undefined && chainAbove(managerId).has(userId.toLowerCase()))
      throw validationFailed([`managerId: ${managerId} reports to the user (a cycle)`]);
  };
  /** The user and every manager above the user, as id keys. */
  const chainAbove = (userId: string): Set<string> => {
    const seen = new Set<string>();
    for (
      let user = store.users.get(userId);
      user !== undefined && !seen.has(user.id.toLowerCase());
      user = user.managerId === null ? undefined : store.users.get(user.managerId)
    ) {
      seen.add(user.id.toLowerCase());
    }
    return seen;
  };
  /** The stored user a body makes (update and upsert store the same fields). */
  const recordOf = (id: string, body: UserBody): UserRecord => ({
    id,
    userName: body.username,
    firstName: body.firstName,
    lastName: body.lastName,
    email: body.email ?? '',
    managerId: body.managerId,
    jobTitle: body.jobTitle,
  });
  const write = (previous: UserRecord, body: UserBody): UserRecord => {
    const record = recordOf(previous.id, body);
    store.users.update(record);
    return record;
  };

  /** The manager's direct reports (or, under a fault, everyone below the manager), in creation order. */
  const reportsOf = (managerId: string): UserRecord[] => {
    if (behaviour.users.directReports === 'direct') return store.reportsOf(managerId);
    const below = new Set<string>();
    const queue = [managerId.toLowerCase()];
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      for (const user of store.reportsOf(key)) {
        const userKey = user.id.toLowerCase();
        if (!below.has(userKey)) (below.add(userKey), queue.push(userKey));
      }
    }
    return store.users.values().filter((user) => below.has(user.id.toLowerCase()));
  };
  const directReportsPage = (call: Call<IntapiContext>, managerId: string): Result => {
    const params = readListParams(call.query, 'paging-only', lists);
    const outcome = runList(reportsOf(managerId), params, undefined, lists);
    return { status: 200, body: envelope('directReports', outcome, outcome.page.map(view.directReport), behaviour.envelope) };
  };
  const emptyDirectReports = (): JsonValue => ({ totalItems: 0, returnedItems: 0, limit: lists.defaultLimit, offset: 0, directReports: [] });

  const myDetails = (id: string, path: string): IntapiOperation => ({
    id,
    method: 'GET',
    path,
    versions: V1_AND_V2,
    auth: 'token',
    handle: (call) => ({ status: 200, body: view.user(requireUser(currentUserId(call), blankUser(NIL_GUID))) }),
  });

  return [
    {
      id: 'users.list',
      method: 'GET',
      path: '/users',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const params = readListParams(call.query, 'full', lists);
        // IsManager is derived from other rows, which the table's list indexes do not follow: a filter or
        // sort that names it runs over a plain array; any other list uses the table's indexes.
        const derived = /ismanager/i.test(`${params.filter ?? ''} ${params.sort ?? ''}`);
        const outcome = runList(derived ? store.users.values() : store.users, params, view.schema, lists);
        const items = outcome.page.map(view.user);
        // spec#versioning 2: version 1 lists answer a bare array, version 2 the paged envelope.
        if (call.context.version === 1) return { status: 200, body: items };
        return { status: 200, body: envelope('users', outcome, items, behaviour.envelope) };
      },
    },
    // The current user: the specification's path; public-facts' /my-details and /mydetails answer the same
    // (one operation, three routes: a profile names whichever its target serves).
    myDetails('users.myDetails', '/users/my-details'),
    myDetails('users.myDetails', '/my-details'),
    myDetails('users.myDetails', '/mydetails'),
    {
      id: 'users.get',
      method: 'GET',
      path: '/users/:userId',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const { userId } = guidParams(call, ['userId'], errors);
        return { status: 200, body: view.user(requireUser(userId, blankUser(userId))) };
      },
    },
    {
      id: 'users.update',
      method: 'PUT',
      path: '/users/:userId',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const { userId } = guidParams(call, ['userId'], errors);
        const previous = requireUser(userId, blankUser(userId));
        const body = readUserBody(call.body, behaviour.users.idInUpdate);
        checkManager(previous.id, body.managerId);
        return { status: 200, body: view.user(write(previous, body)) };
      },
    },
    {
      id: 'users.upsert',
      method: 'POST',
      path: '/users',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const body = readUserBody(call.body, behaviour.users.idInUpsert);
        const name = body.username.toLowerCase();
        const previous = store.users.values().find((user) => user.userName.toLowerCase() === name);
        checkManager(previous?.id, body.managerId);
        if (previous !== undefined) return { status: 200, body: view.user(write(previous, body)) };
        const record = recordOf(
          freshId(ids, (candidate) => store.users.has(candidate)),
          body,
        );
        store.users.insert(record);
        return { status: 201, body: view.user(record) };
      },
    },
    {
      id: 'managers.listDirectReports',
      method: 'GET',
      path: '/managers/:managerId/direct-reports',
      versions: directReportVersions,
      auth: 'token',
      handle: (call) => {
        const { managerId } = guidParams(call, ['managerId'], errors);
        requireUser(managerId, emptyDirectReports);
        return directReportsPage(call, managerId);
      },
    },
    {
      id: 'managers.updateDirectReports',
      method: 'POST',
      path: '/managers/:managerId/direct-reports',
      versions: directReportVersions,
      auth: 'token',
      handle: (call) => {
        const { managerId } = guidParams(call, ['managerId'], errors);
        const manager = requireUser(managerId, emptyDirectReports);
        const body = call.body;
        if (!isJsonObject(body)) throw validationFailed(['body: must be a JSON object']);
        const unknown = Object.keys(body).filter((name) => name !== 'userIds');
        const userIds = body.userIds;
        if (!Array.isArray(userIds) || unknown.length > 0) {
          throw validationFailed([
            ...(Array.isArray(userIds) ? [] : ['userIds: is required, an array of user ids']),
            ...unknown.map((name) => `${name}: is not a field`),
          ]);
        }
        const invalid = userIds.flatMap((id, i) => (typeof id === 'string' && isGuid(id) ? [] : [`userIds[${i}]: must be a GUID`]));
        if (invalid.length > 0) throw validationFailed(invalid);
        const wanted = [...new Set((userIds as string[]).map((id) => id.toLowerCase()))];
        const missing = wanted.filter((id) => !store.users.has(id));
        if (missing.length > 0)
          throw notFound(
            `No user with identifier ${missing.join(', ')}.`,
            missing.map((id) => `userIds: no user ${id}`),
          );
        const above = chainAbove(manager.id);
        const cyclic = wanted.filter((id) => above.has(id));
        if (cyclic.length > 0) throw validationFailed(cyclic.map((id) => `userIds: ${id} is the manager or above the manager (a cycle)`));
        // Under its fault the answer is the list before the update, read now.
        const before = behaviour.users.updateAnswer === 'before' ? directReportsPage(call, manager.id) : undefined;
        // A replacement: the users named report to the manager; the manager's other reports report to no one.
        for (const user of store.reportsOf(manager.id)) if (!wanted.includes(user.id.toLowerCase())) store.users.update({ ...user, managerId: null });
        for (const id of wanted) {
          const user = store.users.get(id);
          if (user !== undefined && user.managerId?.toLowerCase() !== manager.id.toLowerCase()) store.users.update({ ...user, managerId: manager.id });
        }
        return before ?? directReportsPage(call, manager.id);
      },
    },
  ];
}
