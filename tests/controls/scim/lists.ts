// Negative-control expectations of the SCIM faults the lists checks detect (see tests/controls/expectations.ts).
import type { Control } from '../expectations.js';

/** The lists checks and the invariants: every control of this file sweeps only these. */
const SCOPE = ['scim.pagination.*', 'scim.sort.*', 'scim.projection.*', 'scim.invariant.*'];

/** The sort checks that read their order with a walk over pages. */
const SORT_WALKS = [
  'scim.sort.username-ascending',
  'scim.sort.default-ascending',
  'scim.sort.username-descending',
  'scim.sort.nested-given-name',
  'scim.sort.multi-valued-primary-or-first',
  'scim.sort.missing-values',
  'scim.sort.extension-attribute',
];

export const SCIM_LISTS_CONTROLS: Readonly<Record<string, Control>> = {
  // Every walk misses the first resource: the walk's own check fails; the reading of the whole set
  // (page-is-slice's order) and the sort checks end blocked by it; the projection reads by list are
  // blocked likewise.
  'scim.pagination-zero-based': { mustFail: ['scim.pagination.walk-exactly-once'], scope: SCOPE },
  'scim.count-uncapped': { mustFail: ['scim.pagination.count-capped'], scope: SCOPE },
  'scim.count-plus-one': { mustFail: ['scim.pagination.count-not-exceeded'], scope: SCOPE },
  'scim.default-count-100': { mustFail: ['scim.pagination.default-page'], scope: SCOPE },
  // Walks and readings advance by what each page returned, from 1: they stay on page boundaries.
  'scim.start-index-rounded-to-page': { mustFail: ['scim.pagination.page-is-slice'], scope: SCOPE },
  'scim.start-index-below-one-rejected': { mustFail: ['scim.pagination.start-index-below-one'], scope: SCOPE },
  // The page it answers is broken twice: startIndex null (the ListResponse contract) and no resources.
  'scim.start-index-not-integer-nan': {
    mustFail: ['scim.pagination.start-index-not-integer', 'scim.invariant.success-body-matches-contract'],
    scope: SCOPE,
  },
  'scim.negative-count-default': { mustFail: ['scim.pagination.negative-count'], scope: SCOPE },
  // The reference reads a negative count as 0, which the fault then turns into the default page:
  // both rules are broken, each by its own check.
  'scim.count-zero-default-page': { mustFail: ['scim.pagination.count-zero', 'scim.pagination.negative-count'], scope: SCOPE },
  // A walk never meets its empty page: it fails within its bound instead of looping. Readings that
  // stop at totalResults (the sort checks, page-is-slice's order) are not disturbed.
  'scim.past-end-returns-first-page': { mustFail: ['scim.pagination.past-end', 'scim.pagination.walk-exactly-once'], scope: SCOPE },
  'scim.items-per-page-requested': { mustFail: ['scim.pagination.items-per-page'], scope: SCOPE },
  // The readings that stop at totalResults end blocked by total-results.
  'scim.total-results-page-size': { mustFail: ['scim.pagination.total-results'], scope: SCOPE },
  'scim.sort-ignored': { mustFail: [...SORT_WALKS, 'scim.sort.sub-attribute-status'], scope: SCOPE },
  'scim.sort-descending-ignored': {
    mustFail: [
      'scim.sort.username-descending',
      'scim.sort.nested-given-name',
      'scim.sort.multi-valued-primary-or-first',
      'scim.sort.missing-values',
      'scim.sort.extension-attribute',
    ],
    scope: SCOPE,
  },
  // Case is username-ascending's rule alone: the other sort checks judge only pairs whose order case cannot change.
  'scim.sort-case-sensitive': { mustFail: ['scim.sort.username-ascending'], scope: SCOPE },
  'scim.sort-multivalued-last-value': { mustFail: ['scim.sort.multi-valued-primary-or-first'], scope: SCOPE },
  'scim.sort-missing-first': { mustFail: ['scim.sort.missing-values'], scope: SCOPE },
  'scim.sort-sub-attribute-accepted': { mustFail: ['scim.sort.sub-attribute-status'], scope: SCOPE },
  'scim.sort-unknown-attribute-500': { mustFail: ['scim.sort.unknown-attribute', 'scim.invariant.no-5xx'], scope: SCOPE },
  'scim.sort-extension-top-level': { mustFail: ['scim.sort.extension-attribute'], scope: SCOPE },
  // attributes is ignored on every operation: by GET and list, on POST and on PUT (three rules); the
  // checks about something narrower (sub-attributes, names in other case) end blocked by the first.
  'scim.attributes-ignored': {
    mustFail: ['scim.projection.attributes-replaces-default', 'scim.projection.attributes-on-create', 'scim.projection.attributes-on-replace'],
    scope: SCOPE,
  },
  'scim.excluded-attributes-ignored': { mustFail: ['scim.projection.excluded-attributes'], scope: SCOPE },
  'scim.id-not-always-returned': { mustFail: ['scim.projection.id-always', 'scim.invariant.id-in-every-resource'], scope: SCOPE },
  'scim.sub-attributes-whole-parent': { mustFail: ['scim.projection.sub-attributes'], scope: SCOPE },
  'scim.projection-names-case-sensitive': { mustFail: ['scim.projection.names-case-insensitive'], scope: SCOPE },
};
