// Negative-control expectations of the Integration API faults of the users area (see tests/negative-controls.expectations.ts).
import type { Control } from '../negative-controls.expectations.js';

/** The users and manager checks, and the invariants every exchange meets. */
const SCOPE = ['intapi.v?.users.*', 'intapi.v?.managers.*', 'intapi.invariant.*'];
const DR = 'intapi.v2.managers.direct-reports';

export const INTAPI_USERS_CONTROLS: Readonly<Record<string, Control>> = {
  'is-manager-always-false': {
    mustFail: ['intapi.v?.users.is-manager.has-direct-reports', `${DR}.update.is-manager-follows`],
    scope: SCOPE,
  },
  // Only an update meets it: the seed's managers keep their reports.
  'is-manager-stale': { mustFail: [`${DR}.update.is-manager-follows`], scope: SCOPE },
  'user-update-accepts-id': { mustFail: ['intapi.v?.users.update.id.not-accepted'], scope: SCOPE },
  'user-upsert-accepts-id': { mustFail: ['intapi.v?.users.upsert.id.not-accepted'], scope: SCOPE },
  'direct-reports-transitive': { mustFail: [`${DR}.list.name-the-manager`], scope: SCOPE },
  'direct-reports-on-v1': { mustFail: ['intapi.v1.managers.direct-reports.*.v2-only'], scope: SCOPE },
  'direct-reports-update-answers-before': { mustFail: [`${DR}.update.answers-updated-list`], scope: SCOPE },
};
