// Spot checks of the users and manager faults, joined to the named faults' SPOTS in faults.test.ts.
import type { IntapiNamedFaultName } from '../../../reference-impl/intapi/faults.js';
import { type Harness, itemsOf, USER2 } from './_support.js';

type UsersFault = Extract<
  IntapiNamedFaultName,
  | 'intapi.is-manager-always-false'
  | 'intapi.is-manager-stale'
  | 'intapi.user-update-accepts-id'
  | 'intapi.user-upsert-accepts-id'
  | 'intapi.direct-reports-transitive'
  | 'intapi.direct-reports-on-v1'
  | 'intapi.direct-reports-update-answers-before'
>;

type Probe = (h: Harness) => Promise<unknown>;
interface Spot {
  readonly probe: Probe;
  /** [without the fault, with it] */
  readonly expected: readonly [unknown, unknown];
}

const MANAGER = '00000000-0000-4000-8000-000000000301';
const LEAD = '00000000-0000-4000-8000-000000000302';
const NO_REPORTS = '00000000-0000-4000-8000-000000000303';
const USER_BODY = { username: 'spot.user', firstName: 'Spot', lastName: 'User' };

const isManager = async (h: Harness, id: string) => (await h.get(`/users/${id}`)).obj.IsManager;

export const USERS_SPOTS: Readonly<Record<UsersFault, Spot>> = {
  'intapi.is-manager-always-false': { probe: (h) => isManager(h, MANAGER), expected: [true, false] },
  'intapi.is-manager-stale': {
    // 0303 has no reports; after 0304 is made its report, it is a manager.
    probe: async (h) => {
      await h.call('POST', `/managers/${NO_REPORTS}/direct-reports`, { body: { userIds: ['00000000-0000-4000-8000-000000000304'] } });
      return isManager(h, NO_REPORTS);
    },
    expected: [true, false],
  },
  'intapi.user-update-accepts-id': {
    probe: async (h) => (await h.call('PUT', `/users/${USER2}`, { body: { ...USER_BODY, id: USER2 } })).status,
    expected: [422, 200],
  },
  'intapi.user-upsert-accepts-id': {
    probe: async (h) => (await h.call('POST', '/users', { body: { ...USER_BODY, id: USER2 } })).status,
    expected: [422, 201],
  },
  'intapi.direct-reports-transitive': {
    probe: async (h) => itemsOf(await h.get(`/managers/${LEAD}/direct-reports`), 'directReports').length,
    expected: [2, 3],
  },
  'intapi.direct-reports-on-v1': { probe: async (h) => (await h.get(`/managers/${MANAGER}/direct-reports`, { version: '1' })).status, expected: [404, 200] },
  // 0303 has no reports: the answer to making 0304 its report lists 0304, or (under the fault) no one.
  'intapi.direct-reports-update-answers-before': {
    probe: async (h) =>
      itemsOf(await h.call('POST', `/managers/${NO_REPORTS}/direct-reports`, { body: { userIds: ['00000000-0000-4000-8000-000000000304'] } }), 'directReports')
        .length,
    expected: [1, 0],
  },
};
