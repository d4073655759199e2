// Negative-control expectations of the Integration API faults of the users area (see tests/controls/expectations.ts).
import type { Control } from '../expectations.js';

/** The users and manager checks, and the invariants every exchange meets. */
const SCOPE = ['intapi.v?.users.*', 'intapi.v?.managers.*', 'intapi.invariant.*'];
const DR = 'intapi.v2.managers.direct-reports';

export const INTAPI_USERS_CONTROLS: Readonly<Record<string, Control>> = {
  'intapi.is-manager-always-false': {
    mustFail: ['intapi.v?.users.is-manager.has-direct-reports', `${DR}.update.is-manager-follows`],
    scope: SCOPE,
  },
  // Only an update meets it: the seed's managers keep their reports.
  'intapi.is-manager-stale': { mustFail: [`${DR}.update.is-manager-follows`], scope: SCOPE },
  'intapi.user-update-accepts-id': { mustFail: ['intapi.v?.users.update.id.not-accepted'], scope: SCOPE },
  'intapi.user-upsert-accepts-id': { mustFail: ['intapi.v?.users.upsert.id.not-accepted'], scope: SCOPE },
  'intapi.direct-reports-transitive': { mustFail: [`${DR}.list.name-the-manager`], scope: SCOPE },
  'intapi.direct-reports-on-v1': { mustFail: ['intapi.v1.managers.direct-reports.*.v2-only'], scope: SCOPE },
  'intapi.direct-reports-update-answers-before': { mustFail: [`${DR}.update.answers-updated-list`], scope: SCOPE },
};
