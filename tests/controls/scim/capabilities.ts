// Negative-control expectations of the SCIM faults of discovery, versions (ETag), Bulk and /Me
// (see tests/controls/expectations.ts). Checks: suites/scim/discovery.check.ts,
// etag.check.ts, bulk.check.ts, me.check.ts. The faults of a capability the reference server does not
// serve run on the full-featured variant, which serves it, with its profile; each sweep covers its own
// area (a fault that makes /ServiceProviderConfig lie about sorting breaks the sort checks too, which
// rely on the declaration: that is the lie's consequence, not another deviation).
import type { Control } from '../expectations.js';

const on = (area: string, mustFail: readonly string[], variant: 'full-featured' | undefined = 'full-featured'): Control => ({
  mustFail,
  scope: [`scim.${area}.*`],
  runs: 2,
  ...(variant === undefined ? {} : { variant }),
});

export const SCIM_CAPABILITY_CONTROLS: Readonly<Record<string, Control>> = {
  // Discovery
  'scim.spc-etag-block-missing': on('discovery', ['scim.discovery.service-provider-config']),
  'scim.resource-types-group-endpoint-wrong': on('discovery', ['scim.discovery.resource-types']),
  // /Schemas is served by every target: the reference server's own.
  'scim.schemas-group-omitted': on('discovery', ['scim.discovery.schemas-core'], undefined),
  'scim.resource-type-unknown-200': on('discovery', ['scim.discovery.resource-type-unknown-404']),
  'scim.schema-unknown-200': on('discovery', ['scim.discovery.schema-unknown-404'], undefined),
  'scim.spc-sort-overstated': on('discovery', ['scim.discovery.sort-as-declared']),
  'scim.spc-max-results-understated': on('discovery', ['scim.discovery.max-results-as-declared']),
  'scim.filter-refused-though-declared': on('discovery', ['scim.discovery.filter-as-declared']),
  'scim.patch-unsupported-though-declared': on('discovery', ['scim.discovery.patch-as-declared']),
  'scim.password-change-refused': on('discovery', ['scim.discovery.change-password-as-declared']),
  // Versions. Without an ETag header, the checks that read a version are blocked by the one that
  // judges the header: one deviation, one failure.
  'scim.etag-header-missing': on('etag', ['scim.etag.header-equals-meta-version']),
  'scim.etag-meta-version-differs': on('etag', ['scim.etag.header-equals-meta-version']),
  'scim.etag-frozen': on('etag', ['scim.etag.changes-on-modification']),
  'scim.etag-per-read': on('etag', ['scim.etag.stable-without-modification']),
  'scim.etag-if-match-ignored': on('etag', ['scim.etag.if-match-stale-412']),
  'scim.etag-if-match-always-fails': on('etag', ['scim.etag.if-match-current-applied']),
  'scim.etag-if-none-match-ignored': on('etag', ['scim.etag.if-none-match-304']),
  // Bulk
  'scim.bulk-failures-only': on('bulk', ['scim.bulk.result-per-operation']),
  'scim.bulk-bulkids-unresolved': on('bulk', ['scim.bulk.bulkid-reference']),
  'scim.bulk-fail-on-errors-ignored': on('bulk', ['scim.bulk.fail-on-errors']),
  'scim.bulk-max-operations-ignored': on('bulk', ['scim.bulk.max-operations-413']),
  'scim.bulk-max-payload-ignored': on('bulk', ['scim.bulk.max-payload-413']),
  // /Me
  'scim.me-subject-unstable': on('me', ['scim.me.authenticated-subject']),
};
