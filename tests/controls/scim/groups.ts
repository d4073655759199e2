// Negative-control expectations of the SCIM faults the group checks (suites/scim/groups.check.ts)
// and the identity-provider checks (suites/scim/client.check.ts) detect (see
// tests/controls/expectations.ts). The deletion and required-attribute rules of groups are
// the crud faults' (tests/controls/scim/crud.ts): their scope holds scim.groups.*.
import type { Control } from '../expectations.js';

const GROUPS = ['scim.groups.*'];
/** The identity-provider checks run where a profile names the identity providers: the variant idp-minimal. */
const CLIENTS = ['scim.client.*'];

const groups = (mustFail: readonly string[]): Control => ({ mustFail, scope: GROUPS, runs: 2 });
const client = (mustFail: readonly string[]): Control => ({ mustFail, scope: CLIENTS, runs: 2, variant: 'idp-minimal' });

export const SCIM_GROUPS_CONTROLS: Readonly<Record<string, Control>> = {
  // Lists confined by another filter (sw, externalId eq) end blocked by the displayName check when
  // groups outside the set come back.
  'scim.groups-filter-ignored': groups(['scim.groups.filter-display-name-eq']),
  'scim.groups-display-name-case-sensitive': groups(['scim.groups.filter-display-name-case-insensitive']),
  // The deletion check that reads by members.value ends blocked by the filter's own check.
  'scim.groups-members-filter-refused': groups(['scim.groups.filter-members-value']),
  'scim.groups-sort-ignored': groups(['scim.groups.sort-display-name-ascending', 'scim.groups.sort-display-name-descending']),
  'scim.groups-paging-ignored': groups(['scim.groups.count-not-exceeded', 'scim.groups.walk-exactly-once']),
  'scim.groups-projection-ignored': groups(['scim.groups.get-excluded-members', 'scim.groups.list-excluded-members', 'scim.groups.attributes-display-name']),
  'scim.groups-add-members-replaces': groups(['scim.groups.patch-add-member']),
  'scim.groups-add-members-first-only': groups(['scim.groups.patch-add-several-members']),
  'scim.groups-remove-member-filter-ignored': groups(['scim.groups.patch-remove-member-filter']),
  'scim.groups-replace-members-appends': groups(['scim.groups.patch-replace-members']),
  'scim.client-string-booleans-rejected': client(['scim.client.string-boolean-patch', 'scim.client.string-boolean-primary']),
  'scim.client-dotted-names-rejected': client(['scim.client.dotted-no-path-replace']),
  'scim.client-remove-members-value-ignored': client(['scim.client.remove-members-value-array']),
  'scim.client-add-unmatched-no-target': client(['scim.client.add-unmatched-filter-creates']),
  'scim.client-put-members-merged': client(['scim.client.put-group-members']),
  'scim.client-external-id-filter-refused': client(['scim.client.external-id-filter']),
  // The string-boolean check that reads the user back after a 204 ends blocked by this one.
  'scim.client-inactive-hidden': client(['scim.client.deactivated-user-readable']),
  'scim.client-own-id-refused': client(['scim.client.group-rename-with-id']),
};
