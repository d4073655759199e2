// Negative-control expectations of the SCIM faults the filter checks detect (see tests/controls/expectations.ts).
import type { Control } from '../expectations.js';

const SCOPE = ['scim.filter.*', 'scim.invariant.*'];
/** The generated-filter property: it meets most faults only on some drawn filters (mayFail). */
const GENERATED = 'scim.filter.generated';

export const SCIM_FILTER_CONTROLS: Readonly<Record<string, Control>> = {
  'scim.filter-username-case-sensitive': {
    mustFail: ['scim.filter.username-eq-case-insensitive', 'scim.filter.username-substring-case-insensitive'],
    scope: SCOPE,
  },
  // The keyword check (and every check whose rule is not case) judges only what case cannot change.
  'scim.filter-strings-case-sensitive': { mustFail: ['scim.filter.other-strings-case-insensitive'], scope: SCOPE },
  'scim.filter-case-exact-ignored': {
    mustFail: ['scim.filter.external-id-case-exact', 'scim.filter.id-case-exact'],
    scope: SCOPE,
  },
  'scim.filter-malformed-ignored': { mustFail: ['scim.filter.malformed-rejected', 'scim.filter.cut-short-rejected'], scope: SCOPE },
  'scim.filter-boolean-ordering-accepted': { mustFail: ['scim.filter.boolean-ordering-rejected'], scope: SCOPE },
  'scim.filter-boolean-substring-accepted': { mustFail: ['scim.filter.boolean-substring-rejected'], scope: SCOPE },
  'scim.filter-complex-whole-accepted': { mustFail: ['scim.filter.complex-whole-rejected'], scope: SCOPE },
  'scim.filter-value-path-on-sub-attribute': { mustFail: ['scim.filter.value-path-on-sub-attribute-rejected'], scope: SCOPE },
  'scim.filter-null-refused': { mustFail: ['scim.filter.null-value'], scope: SCOPE },
  'scim.filter-cut-short-500': { mustFail: ['scim.filter.cut-short-rejected', 'scim.invariant.no-5xx'], scope: SCOPE },
  'scim.filter-unknown-attribute-500': { mustFail: ['scim.filter.unknown-attribute', 'scim.invariant.no-5xx'], scope: SCOPE },
  'scim.filter-type-mismatch-500': { mustFail: ['scim.filter.string-compared-with-boolean', 'scim.invariant.no-5xx'], scope: SCOPE },
  'scim.filter-keywords-lowercase-only': {
    // Most generated filters spell some keyword in another case.
    mustFail: ['scim.filter.names-and-operators-case-insensitive', 'scim.filter.logical-keywords-case-insensitive', GENERATED],
    scope: SCOPE,
  },
  'scim.filter-precedence-left-to-right': {
    mustFail: ['scim.filter.and-binds-tighter-than-or', 'scim.filter.not-negates-group'],
    mayFail: [GENERATED],
    scope: SCOPE,
  },
  // Only the generated filters nest groups: the scope each check's filter is sent within adds no
  // parentheses but around an `or` (suites/_harness/scim/filter/ast.ts `scoped`).
  'scim.filter-nested-groups-refused': { mustFail: [GENERATED], scope: SCOPE },
  'scim.filter-string-ordering-inclusive': { mustFail: ['scim.filter.string-ordering'], mayFail: [GENERATED], scope: SCOPE },
  'scim.filter-dates-as-strings': { mustFail: ['scim.filter.datetime-as-instants'], mayFail: [GENERATED], scope: SCOPE },
  'scim.filter-multivalued-first-only': {
    mustFail: ['scim.filter.value-path-one-value', 'scim.filter.multi-valued-any-value', 'scim.filter.public-facts-example'],
    mayFail: [GENERATED],
    scope: SCOPE,
  },
  // Only the checks whose rule is a filter on a multi-valued attribute: the names-and-operators
  // check spells a sub-attribute of a single complex value (name.FamilyName), not of emails.
  'scim.filter-multivalued-refused': {
    mustFail: ['scim.filter.value-path-one-value', 'scim.filter.multi-valued-any-value', 'scim.filter.public-facts-example'],
    mayFail: [GENERATED],
    scope: SCOPE,
  },
  // The other checks meeting a 404 for a filter that matches nothing end blocked by this one.
  'scim.filter-no-match-404': { mustFail: ['scim.filter.no-match-empty-list'], scope: SCOPE },
  // A list that matches nothing then counts the collection too.
  'scim.filter-total-results-unfiltered': {
    mustFail: ['scim.filter.total-results-filtered', 'scim.filter.no-match-empty-list', GENERATED],
    scope: SCOPE,
  },
  // The generated filters write core attributes under their URN too.
  'scim.filter-urn-qualified-404': { mustFail: ['scim.filter.urn-qualified-attribute'], mayFail: [GENERATED], scope: SCOPE },
};
