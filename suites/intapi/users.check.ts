// Users (v1 and v2) and manager direct reports (v2 only): the operations the specification names
// from release notes (spec#integration-api-operations-named-by-release-notes), IsManager
// (spec#other-records-named-by-release-notes, release 5.119.0) and public-facts' paths.
import fc from 'fast-check';
import { describeResponse, expectRejected, expectStatus, fail } from '../_harness/failure.js';
import { listChecks, readAll, type ListSource } from '../_harness/intapi/lists.js';
import { bodyOf, unknownId, type Json } from '../_harness/records.js';
import { requirement } from '../_harness/requirement.js';
import { statusChecks } from '../_harness/statuses.js';
import { createUser, profileRecord, validUser } from '../_harness/intapi/records.js';

const OPS = 'spec#integration-api-operations-named-by-release-notes';
const RECORDS = 'spec#other-records-named-by-release-notes';
const FACTS = 'public-facts#integration-api-paths-seen-in-public-clients-the-v1-surface-which-v2-keeps';
const VERSIONS = ['1', '2'] as const;
/** Checks that create or change users, or a manager's direct reports (scheduler.ts). */
const WRITES = { write: ['managers', 'users'] };

// ---------------------------------------------------------------------------------------------
// Statuses

for (const v of VERSIONS) {
  const id = (rest: string) => `intapi.v${v}.users.${rest}`;
  statusChecks([
    {
      id: id('list.status-200'),
      level: 'PROFILE',
      spec: OPS,
      title: `List users (v${v}) answers 200`,
      status: 200,
      request: () => ({ op: 'users.list', version: v }),
    },
    {
      id: id('get.status-200'),
      level: 'PROFILE',
      spec: OPS,
      title: `Get user (v${v}) of an existing id answers 200`,
      status: 200,
      request: (t) => ({ op: 'users.get', version: v, params: { userId: profileRecord(t, 'userId') } }),
    },
    {
      id: id('get.unknown-id-404'),
      level: 'MUST',
      spec: 'spec#errors',
      title: `Get user (v${v}) of an unknown id answers 404`,
      status: 404,
      request: (t) => ({ op: 'users.get', version: v, params: { userId: unknownId(t) } }),
    },
    {
      id: id('get.non-guid-id'),
      level: 'PROFILE',
      spec: 'public-facts#errors',
      title: `Get user (v${v}) with an id that is not a GUID answers the profile's status`,
      status: (t) => t.profile.expectations.pathIdNotGuidStatus,
      request: () => ({ op: 'users.get', version: v, params: { userId: 'not-a-guid' } }),
    },
    {
      id: id('my-details.status-200'),
      level: 'PROFILE',
      spec: OPS,
      title: `The current user's details (v${v}) answer 200`,
      status: 200,
      request: () => ({ op: 'users.myDetails', version: v }),
    },
  ]);
  statusChecks(
    [
      {
        id: id('update.unknown-id-404'),
        level: 'MUST',
        spec: 'spec#errors',
        title: `Update user (v${v}) of an unknown id answers 404`,
        status: 404,
        request: (t) => ({ op: 'users.update', version: v, params: { userId: unknownId(t) }, json: validUser(t, 'unknown') }),
      },
      {
        id: id('update.status-200'),
        level: 'PROFILE',
        spec: FACTS,
        title: `Update user (v${v}) with a valid body answers 200`,
        status: 200,
        request: async (t) => ({ op: 'users.update', version: v, params: { userId: await createUser(t, 'update') }, json: validUser(t, 'updated') }),
      },
      {
        id: id('upsert.status-201'),
        level: 'PROFILE',
        spec: FACTS,
        title: `Upsert user (v${v}) with a username no one has answers 201`,
        status: 201,
        request: (t) => ({ op: 'users.upsert', version: v, json: validUser(t, 'upsert') }),
      },
    ],
    WRITES,
  );

  requirement(
    {
      id: id('my-details.is-current-user'),
      level: 'MUST',
      spec: 'spec#integration-api',
      title: `The current user's details (v${v}) are those of the user behind the credentials`,
    },
    async (t) => {
      const userId = profileRecord(t, 'userId');
      const res = await t.http.send({ op: 'users.myDetails', version: v });
      expectStatus(res, 200);
      const got = bodyOf(res).id;
      if (typeof got !== 'string' || got.toLowerCase() !== userId.toLowerCase()) fail(`the user ${userId} (records.userId)`, `id ${JSON.stringify(got)}`, res);
    },
  );

  // The release note: "User update and upsert requests ... no longer accept the property id".
  // The status is the reference server's choice: 422 naming id, as every refused body field (spec#errors).
  requirement(
    { id: id('update.id.not-accepted'), level: 'PROFILE', spec: OPS, title: `Update user (v${v}) with id in the body answers 422 naming id` },
    async (t) => {
      const userId = await createUser(t, 'update-id');
      expectRejected(await t.http.send({ op: 'users.update', version: v, params: { userId }, json: { ...validUser(t, 'update-id'), id: userId } }), 'id');
    },
    WRITES,
  );
  requirement(
    { id: id('upsert.id.not-accepted'), level: 'PROFILE', spec: OPS, title: `Upsert user (v${v}) with id in the body answers 422 naming id` },
    async (t) => {
      expectRejected(await t.http.send({ op: 'users.upsert', version: v, json: { ...validUser(t, 'upsert-id'), id: t.uuid() } }), 'id');
    },
    WRITES,
  );
}

const DR = 'intapi.v2.managers.direct-reports';
statusChecks([
  {
    id: `${DR}.list.status-200`,
    level: 'PROFILE',
    spec: OPS,
    title: 'Direct reports of an existing manager answer 200',
    status: 200,
    request: (t) => ({ op: 'managers.listDirectReports', params: { managerId: profileRecord(t, 'managerId') } }),
  },
  {
    id: `${DR}.list.unknown-id-404`,
    level: 'MUST',
    spec: 'spec#errors',
    title: 'Direct reports of an unknown manager id answer 404',
    status: 404,
    request: (t) => ({ op: 'managers.listDirectReports', params: { managerId: unknownId(t) } }),
  },
  {
    id: `${DR}.list.non-guid-id`,
    level: 'PROFILE',
    spec: 'public-facts#errors',
    title: "Direct reports of a manager id that is not a GUID answer the profile's status",
    status: (t) => t.profile.expectations.pathIdNotGuidStatus,
    request: () => ({ op: 'managers.listDirectReports', params: { managerId: 'not-a-guid' } }),
  },
  {
    id: 'intapi.v1.managers.direct-reports.list.v2-only',
    level: 'PROFILE',
    spec: 'spec#versioning',
    title: "Direct reports called with x-api-version 1 answer the profile's version-2-only status",
    status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
    request: (t) => ({ op: 'managers.listDirectReports', version: '1', params: { managerId: profileRecord(t, 'managerId') } }),
  },
]);
statusChecks(
  [
    {
      id: `${DR}.update.status-200`,
      level: 'PROFILE',
      spec: OPS,
      title: 'Updating the direct reports of a manager answers 200',
      status: 200,
      request: async (t) => ({ op: 'managers.updateDirectReports', params: { managerId: await createUser(t, 'manager') }, json: { userIds: [] } }),
    },
    {
      id: `${DR}.update.unknown-id-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Updating the direct reports of an unknown manager id answers 404',
      status: 404,
      request: (t) => ({ op: 'managers.updateDirectReports', params: { managerId: unknownId(t) }, json: { userIds: [] } }),
    },
    {
      id: 'intapi.v1.managers.direct-reports.update.v2-only',
      level: 'PROFILE',
      spec: 'spec#versioning',
      title: "Updating direct reports with x-api-version 1 answers the profile's version-2-only status",
      status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
      request: async (t) => ({
        op: 'managers.updateDirectReports',
        version: '1',
        params: { managerId: await createUser(t, 'manager-v1') },
        json: { userIds: [] },
      }),
    },
  ],
  WRITES,
);

// ---------------------------------------------------------------------------------------------
// Lists: the common list parameters over users (v1 a bare array, v2 the envelope `users`), and the
// paging of a manager's direct reports (envelope `directReports`; `_limit`/`_offset` only, the
// reference server's choice).

listChecks({ idPrefix: 'intapi.v1.users.list', label: 'List users (v1)', op: 'users.list', version: '1', itemContract: 'intapi/user', collection: 'users' });
listChecks({
  idPrefix: 'intapi.v2.users.list',
  label: 'List users',
  op: 'users.list',
  version: '2',
  key: 'users',
  itemContract: 'intapi/user',
  collection: 'users',
});
listChecks({
  idPrefix: `${DR}.list`,
  label: 'List direct reports',
  op: 'managers.listDirectReports',
  version: '2',
  key: 'directReports',
  itemContract: 'intapi/directReport',
  params: async (t) => ({ managerId: profileRecord(t, 'managerId') }),
});

// ---------------------------------------------------------------------------------------------
// The manager relation

const directReports = (managerId: string): ListSource => ({
  label: `Direct reports of ${managerId}`,
  op: 'managers.listDirectReports',
  version: '2',
  key: 'directReports',
  params: async () => ({ managerId }),
});

const idKey = (value: unknown): string => (typeof value === 'string' ? value.toLowerCase() : JSON.stringify(value));

/** IsManager of a user record, or the check fails naming the record. */
function isManagerOf(record: Json, flag: 'IsManager' | 'isManager', res: Parameters<typeof fail>[2]): boolean {
  const value = record[flag];
  if (typeof value !== 'boolean') fail(`a boolean ${flag}`, `${flag} ${JSON.stringify(value)} on user ${JSON.stringify(record.id)}`, res);
  return value;
}

for (const v of VERSIONS) {
  requirement(
    {
      id: `intapi.v${v}.users.is-manager.has-direct-reports`,
      level: 'PROFILE',
      spec: RECORDS,
      title: `List users (v${v}): IsManager is true exactly for the users with direct reports`,
    },
    async (t) => {
      const { items, last } = await readAll(t, { label: `List users (v${v})`, op: 'users.list', version: v, ...(v === '2' ? { key: 'users' } : {}) });
      // Half the draws among the users the list calls managers (and the profile's manager, whatever the
      // list says of it), half among the others: a server that answers one value for everyone meets both.
      const top = t.profile.records.managerId?.toLowerCase();
      const managers = items.filter((u) => isManagerOf(u as Json, 'IsManager', last.res) || idKey(u.id) === top);
      const others = items.filter((u) => !managers.includes(u));
      t.requireData(managers.length > 0 && others.length > 0, `List users has ${managers.length} managers among ${items.length} users; both kinds are needed`);
      const pick = fc.oneof(fc.constantFrom(...managers), fc.constantFrom(...others));
      await t.property(pick, async (user) => {
        const flag = isManagerOf(user as Json, 'IsManager', last.res);
        const res = await t.http.send({ op: 'managers.listDirectReports', params: { managerId: String(user.id) }, query: { _limit: 1 } });
        expectStatus(res, 200, `for the direct reports of user ${String(user.id)}`);
        const reports = (res.json as { directReports?: unknown } | undefined)?.directReports;
        if (!Array.isArray(reports)) fail('an envelope with the array directReports', describeResponse(res), res);
        t.outcome(flag ? 'manager' : 'not-manager');
        if (flag !== reports.length > 0) {
          fail(
            `IsManager ${String(reports.length > 0)} for user ${String(user.id)} (${reports.length > 0 ? 'someone reports' : 'no one reports'} to the user)`,
            `IsManager ${String(flag)}`,
            res,
          );
        }
      });
    },
    { observe: ['users', 'managers'] },
  );
}

requirement(
  {
    id: `${DR}.list.name-the-manager`,
    level: 'PROFILE',
    spec: FACTS,
    title: 'Every direct report of a manager, and of the managers among them, names that manager in managerId',
  },
  async (t) => {
    const top = profileRecord(t, 'managerId');
    // The manager of the profile, then each user below it in turn (whatever isManager says), at most 40 lists.
    const queue = [top];
    let sawChain = false;
    for (let n = 0; n < 40 && queue.length > 0; n++) {
      const managerId = queue.shift() ?? top;
      const { items, last } = await readAll(t, directReports(managerId));
      if (managerId === top) t.requireData(items.length > 0, `records.managerId ${top} has no direct reports`);
      else if (items.length > 0) sawChain = true;
      for (const item of items) {
        const record = item as Json;
        if (idKey(record.managerId) !== idKey(managerId)) {
          fail(
            `managerId ${managerId} on every direct report of ${managerId}`,
            `user ${JSON.stringify(record.id)} with managerId ${JSON.stringify(record.managerId)}`,
            last.res,
          );
        }
        queue.push(String(record.id));
      }
    }
    t.requireData(sawChain, `no user among the first 40 below records.managerId ${top} has direct reports (a chain of managers is needed)`);
  },
  { observe: ['users', 'managers'] },
);

/**
 * Assignments among users the check creates: manager i takes a set of users after it (j > i), so no
 * cycle arises; the model follows the replacement the update makes.
 */
const TEAM = 4;
requirement(
  {
    id: `${DR}.update.is-manager-follows`,
    level: 'PROFILE',
    spec: RECORDS,
    title: 'After a direct-report update, IsManager of every user involved follows who reports to whom',
  },
  async (t) => {
    const team: string[] = [];
    for (let i = 0; i < TEAM; i++) team.push(await createUser(t, `team${i}`));
    const managerOf = new Map<number, number>();
    const update = fc
      .integer({ min: 0, max: TEAM - 2 })
      .chain((m) => fc.tuple(fc.constant(m), fc.subarray(Array.from({ length: TEAM - m - 1 }, (_, k) => m + 1 + k))));
    await t.property(update, async ([m, reports]) => {
      const res = await t.http.send({
        op: 'managers.updateDirectReports',
        params: { managerId: team[m] ?? '' },
        json: { userIds: reports.map((r) => team[r]) },
      });
      expectStatus(res, 200, `updating the direct reports of team member ${m}`);
      for (const [user, manager] of [...managerOf]) if (manager === m && !reports.includes(user)) managerOf.delete(user);
      for (const r of reports) managerOf.set(r, m);
      const expected = team.map((_, i) => [...managerOf.values()].includes(i));
      t.outcome(expected.filter(Boolean).length === 0 ? 'no-managers' : 'some-managers');
      for (let i = 0; i < TEAM; i++) {
        const got = await t.http.send({ op: 'users.get', params: { userId: team[i] ?? '' } });
        expectStatus(got, 200);
        const flag = isManagerOf(bodyOf(got), 'IsManager', got);
        if (flag !== expected[i]) {
          fail(
            `IsManager ${String(expected[i])} for team member ${i} after member ${m} took ${JSON.stringify(reports)} as direct reports`,
            `IsManager ${String(flag)}`,
            got,
          );
        }
      }
    });
  },
  WRITES,
);

/** Users a direct-report update may name: created by the check, none above the manager. */
const REPORTS = 3;
requirement(
  {
    id: `${DR}.update.answers-updated-list`,
    level: 'MUST',
    spec: OPS,
    title: 'A direct-report update answers the list after the update: exactly the users it named',
  },
  async (t) => {
    // The specification's operation "update and return direct reports of a manager": the answer is
    // the manager's direct reports once the update is made, not as they were before it.
    const manager = await createUser(t, 'dr-manager');
    const users: string[] = [];
    for (let i = 0; i < REPORTS; i++) users.push(await createUser(t, `dr-report${i}`));
    let before: string[] = [];
    // The first update names every user (none reports yet), so that a single run (`--runs 1`)
    // exercises the rule.
    await t.property(
      fc.subarray(users),
      async (named) => {
        const res = await t.http.send({ op: 'managers.updateDirectReports', params: { managerId: manager }, json: { userIds: named } });
        expectStatus(res, 200, `updating the direct reports of ${manager} to ${JSON.stringify(named)}`);
        const listed = (res.json as { directReports?: unknown } | undefined)?.directReports;
        if (!Array.isArray(listed)) fail('an envelope with the array directReports', describeResponse(res), res);
        const got = listed.map((r) => idKey((r as Json | null)?.id)).sort();
        const want = named.map(idKey).sort();
        // The same set as before cannot tell the list after the update from the list before it.
        if (want.join() === [...before].sort().join()) t.degenerate('the update names the users who already report');
        else t.outcome(want.length === 0 ? 'emptied' : 'changed');
        before = named;
        if (got.join() !== want.join()) {
          fail(`directReports exactly ${JSON.stringify(named)} (the users the update named)`, `directReports ${JSON.stringify(got)}`, res);
        }
      },
      { examples: [users] },
    );
  },
  WRITES,
);
