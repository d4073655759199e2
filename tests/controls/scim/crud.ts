// Negative-control expectations of the SCIM faults the crud checks detect (see tests/controls/expectations.ts).
// Checks: suites/scim/resources.check.ts, auth.check.ts, errors.check.ts, and the SCIM invariants.
import type { Control } from '../expectations.js';

/** The crud checks' area, and the invariants every SCIM exchange is judged by. */
const SCOPE = ['scim.users.*', 'scim.groups.*', 'scim.errors.*', 'scim.auth.*', 'scim.unsupported.*', 'scim.media.*', 'scim.invariant.*'] as const;

/** A control of this area: the two property checks find their counterexample within 10 runs. */
const crud = (mustFail: readonly string[], mayFail?: readonly string[]): Control => ({
  mustFail,
  ...(mayFail ? { mayFail } : {}),
  scope: SCOPE,
  runs: 10,
});

export const SCIM_CRUD_CONTROLS: Readonly<Record<string, Control>> = {
  // Transport and errors
  'scim.content-type-json': crud(['scim.invariant.scim-content-type']),
  // Every body the suite sends is application/scim+json: every other check that sends one meets the
  // 415 and ends blocked by scim.media.scim-json-request.
  'scim.scim-json-request-rejected': crud(['scim.media.scim-json-request']),
  'scim.error-status-integer': crud(['scim.invariant.error-body-matches-contract']),
  // scimType is OPTIONAL in general; RFC 7644 §3.3 names it for a uniqueness conflict.
  'scim.error-scimtype-missing': crud(['scim.users.duplicate-409', 'scim.users.username-unique-case-insensitive']),
  'scim.error-schemas-missing': crud(['scim.invariant.error-body-matches-contract']),
  'scim.unsupported-endpoints-404': crud(['scim.unsupported.*']),
  'scim.malformed-json-500': crud(['scim.errors.malformed-json-400', 'scim.invariant.no-5xx']),
  'scim.error-status-mismatch': crud(['scim.invariant.error-status-equals-status']),
  'scim.json-request-rejected': crud(['scim.media.json-request']),
  // Authentication (no token checked: a wrong one passes too)
  'scim.token-not-required': crud(['scim.auth.missing-token-401', 'scim.auth.wrong-token-401']),
  'scim.wrong-token-accepted': crud(['scim.auth.wrong-token-401']),
  'scim.no-www-authenticate': crud(['scim.auth.www-authenticate']),
  // A password in a User is also outside contracts/scim.user.yaml.
  'scim.password-returned': crud(['scim.invariant.password-never-returned', 'scim.invariant.success-body-matches-contract']),
  // Writes
  'scim.create-200': crud(['scim.users.create-201', 'scim.groups.create-201']),
  'scim.no-location': crud(['scim.users.create-location', 'scim.groups.create-location']),
  'scim.meta-location-missing': crud(['scim.users.create-meta-location']),
  'scim.username-unique-case-sensitive': crud(['scim.users.username-unique-case-insensitive']),
  'scim.uniqueness-400': crud(['scim.users.duplicate-409', 'scim.users.username-unique-case-insensitive']),
  'scim.client-id-used': crud(['scim.users.create-ignores-client-id']),
  // A merging PUT keeps what null would clear too.
  'scim.put-merges': crud(['scim.users.put-clears-omitted', 'scim.users.put-null-clears']),
  'scim.put-null-keeps': crud(['scim.users.put-null-clears']),
  'scim.last-modified-frozen': crud(['scim.users.last-modified-advances']),
  'scim.delete-200': crud(['scim.users.delete-204', 'scim.groups.delete-204']),
  'scim.deleted-readable': crud(['scim.users.deleted-404', 'scim.groups.deleted-404']),
  'scim.delete-keeps-membership': crud(['scim.groups.deleted-member-removed', 'scim.groups.deleted-member-not-matched']),
  'scim.deleted-username-taken': crud(['scim.users.deleted-username-reusable']),
  'scim.member-references-unchecked': crud(['scim.groups.member-reference-checked']),
  'scim.unknown-id-400': crud(['scim.users.get-unknown-404', 'scim.users.put-unknown-404']),
  'scim.deleted-listed': crud(['scim.users.deleted-not-listed', 'scim.groups.deleted-not-listed']),
  // The user created without userName is answered, and contracts/scim.user.yaml requires userName.
  'scim.required-unchecked': crud(['scim.errors.missing-username-400', 'scim.groups.display-name-required', 'scim.invariant.success-body-matches-contract']),
  'scim.boolean-strings-coerced': crud(['scim.errors.wrong-type-400']),
  'scim.username-lowercased': crud(['scim.users.username-case-preserved']),
  'scim.meta-resource-type-missing': crud(['scim.users.create-meta-fields']),
  'scim.resource-schemas-missing': crud(['scim.invariant.success-body-matches-contract']),
  'scim.put-id-used': crud(['scim.users.put-keeps-id']),
  // The membership check reads the members' values to set up: blocked by create-members.
  'scim.member-value-omitted': crud(['scim.groups.create-members']),
};
