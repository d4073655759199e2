// Negative-control expectations of the SCIM faults the lists checks detect (see tests/negative-controls.expectations.ts).
import type { Control } from '../negative-controls.expectations.js';

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
];

export const SCIM_LISTS_CONTROLS: Readonly<Record<string, Control>> = {
  'scim.pagination-zero-based': {
    mustFail: ['scim.pagination.page-is-slice', 'scim.pagination.start-index-below-one', 'scim.pagination.walk-exactly-once'],
    // Every list starting at 1 loses its first resource: the sort walks, the projection reads by list.
    mayFail: [...SORT_WALKS, 'scim.projection.*'],
    scope: SCOPE,
  },
  'scim.count-uncapped': { mustFail: ['scim.pagination.count-capped'], scope: SCOPE },
  'scim.default-count-100': { mustFail: ['scim.pagination.default-page'], scope: SCOPE },
  'scim.start-index-below-one-rejected': {
    mustFail: ['scim.pagination.start-index-below-one', 'scim.pagination.page-is-slice'],
    // Their generated startIndex is below 1 in some runs (a 400 instead of a page).
    mayFail: ['scim.pagination.count-not-exceeded', 'scim.pagination.total-results'],
    scope: SCOPE,
  },
  'scim.negative-count-default': {
    mustFail: ['scim.pagination.negative-count', 'scim.pagination.count-not-exceeded'],
    mayFail: ['scim.pagination.page-is-slice'],
    scope: SCOPE,
  },
  'scim.count-zero-default-page': {
    // The reference reads a negative count as 0, which the fault then turns into the default page.
    mustFail: ['scim.pagination.count-zero', 'scim.pagination.negative-count', 'scim.pagination.count-not-exceeded'],
    mayFail: ['scim.pagination.page-is-slice'],
    scope: SCOPE,
  },
  'scim.past-end-returns-first-page': {
    // A walk never meets its empty page: it fails within its bound instead of looping.
    mustFail: ['scim.pagination.past-end', 'scim.pagination.walk-exactly-once', 'scim.pagination.page-is-slice', ...SORT_WALKS],
    scope: SCOPE,
  },
  'scim.items-per-page-requested': {
    mustFail: ['scim.pagination.items-per-page'],
    mayFail: ['scim.invariant.success-body-matches-contract'],
    scope: SCOPE,
  },
  'scim.total-results-page-size': {
    mustFail: ['scim.pagination.total-results', 'scim.pagination.count-zero', 'scim.pagination.negative-count', 'scim.pagination.past-end'],
    mayFail: ['scim.invariant.success-body-matches-contract'],
    scope: SCOPE,
  },
  'scim.sort-ignored': { mustFail: [...SORT_WALKS, 'scim.sort.sub-attribute-status'], scope: SCOPE },
  'scim.sort-descending-ignored': {
    mustFail: ['scim.sort.username-descending', 'scim.sort.nested-given-name', 'scim.sort.multi-valued-primary-or-first', 'scim.sort.missing-values'],
    scope: SCOPE,
  },
  'scim.sort-case-sensitive': {
    // The fixture guarantees a case-sensitive userName order differs; other keys differ on most draws.
    mustFail: ['scim.sort.username-ascending', 'scim.sort.default-ascending', 'scim.sort.username-descending'],
    mayFail: ['scim.sort.nested-given-name', 'scim.sort.multi-valued-primary-or-first'],
    scope: SCOPE,
  },
  'scim.sort-multivalued-last-value': { mustFail: ['scim.sort.multi-valued-primary-or-first'], scope: SCOPE },
  'scim.sort-missing-first': { mustFail: ['scim.sort.missing-values'], scope: SCOPE },
  'scim.sort-sub-attribute-accepted': { mustFail: ['scim.sort.sub-attribute-status'], scope: SCOPE },
  'scim.attributes-ignored': {
    mustFail: [
      'scim.projection.attributes-replaces-default',
      'scim.projection.attributes-on-create',
      'scim.projection.attributes-on-replace',
      'scim.projection.names-case-insensitive',
    ],
    mayFail: ['scim.projection.sub-attributes'],
    scope: SCOPE,
  },
  'scim.excluded-attributes-ignored': {
    mustFail: ['scim.projection.excluded-attributes', 'scim.projection.names-case-insensitive'],
    mayFail: ['scim.projection.sub-attributes'],
    scope: SCOPE,
  },
  'scim.id-not-always-returned': { mustFail: ['scim.projection.id-always', 'scim.invariant.id-in-every-resource'], scope: SCOPE },
  'scim.sub-attributes-whole-parent': { mustFail: ['scim.projection.sub-attributes'], scope: SCOPE },
};
