// Negative-control expectations of the SCIM faults the patch checks detect (see tests/controls/expectations.ts).
import type { Control } from '../expectations.js';

const scope = ['scim.patch.*', 'scim.invariant.*'];

export const SCIM_PATCH_CONTROLS: Readonly<Record<string, Control>> = {
  'scim.patch-not-atomic': { mustFail: ['scim.patch.atomic'], scope, runs: 5 },
  'scim.patch-path-type-ignored': { mustFail: ['scim.patch.path-not-string'], scope, runs: 5 },
  'scim.patch-path-bracket-in-string': { mustFail: ['scim.patch.value-filter-bracket-in-string'], scope, runs: 5 },
  'scim.patch-no-path-complex-500': { mustFail: ['scim.patch.no-path-complex-value', 'scim.invariant.no-5xx'], mayFail: ['scim.patch.model'], scope, runs: 5 },
  'scim.patch-remove-all-values-kept': { mustFail: ['scim.patch.remove-multi-valued-all'], mayFail: ['scim.patch.model'], scope, runs: 5 },
  // The user the PATCH answers has no userName: the answer breaks the User's contract too.
  'scim.patch-replace-null-deletes-required': {
    mustFail: ['scim.patch.replace-required-null-refused'],
    mayFail: ['scim.invariant.success-body-matches-contract'],
    scope,
    runs: 5,
  },
  'scim.patch-replace-null-refused': { mustFail: ['scim.patch.replace-null-unassigns'], scope, runs: 5 },
  'scim.patch-extension-sub-path-rejected': { mustFail: ['scim.patch.extension-complex-sub-attribute'], scope, runs: 5 },
  'scim.patch-multi-valued-sub-first-only': { mustFail: ['scim.patch.multi-valued-sub-attribute'], scope, runs: 5 },
  'scim.patch-filtered-write-every-value': { mustFail: ['scim.patch.filtered-replace-matched-only'], scope, runs: 5 },
  'scim.patch-unknown-op-skipped': { mustFail: ['scim.patch.unknown-op'], scope, runs: 5 },
  'scim.patch-op-case-sensitive': { mustFail: ['scim.patch.op-case-insensitive'], scope, runs: 5 },
  // The model meets the ignored filter only in sequences with two email types and a filtered command.
  'scim.patch-value-filter-ignored': {
    mustFail: [
      'scim.patch.model',
      'scim.patch.replace-unmatched-filter',
      'scim.patch.remove-unmatched-filter',
      'scim.patch.add-unmatched-filter',
      'scim.patch.filtered-replace-matched-only',
      'scim.patch.filtered-add-sets-matched',
    ],
    scope,
    runs: 60,
  },
  'scim.patch-remove-without-path-ok': { mustFail: ['scim.patch.remove-without-path'], scope, runs: 5 },
  'scim.patch-unknown-path-ignored': { mustFail: ['scim.patch.unknown-attribute-path'], scope, runs: 5 },
  'scim.patch-mutability-unchecked': {
    mustFail: [
      'scim.patch.remove-required-mutability',
      'scim.patch.read-only-mutability',
      'scim.patch.read-only-sub-attribute-mutability',
      'scim.patch.no-path-other-id-mutability',
    ],
    scope,
    runs: 5,
  },
  'scim.patch-read-only-sub-written': { mustFail: ['scim.patch.read-only-sub-attribute-mutability'], scope, runs: 5 },
  'scim.patch-no-path-extension-dropped': { mustFail: ['scim.patch.no-path-extension-value'], scope, runs: 5 },
  'scim.patch-no-path-id-ignored': { mustFail: ['scim.patch.no-path-other-id-mutability'], scope, runs: 5 },
  'scim.patch-add-duplicates-values': { mustFail: ['scim.patch.add-existing-value-unchanged'], scope, runs: 5 },
  'scim.patch-null-operation-500': { mustFail: ['scim.patch.null-operation', 'scim.invariant.no-5xx'], scope, runs: 5 },
  'scim.patch-value-filter-error-500': { mustFail: ['scim.patch.value-filter-unknown-attribute', 'scim.invariant.no-5xx'], scope, runs: 5 },
  // The model meets an add or replace of emails over emails it holds in most sequences, not all.
  'scim.patch-add-replaces-values': { mustFail: ['scim.patch.model', 'scim.patch.add-multi-valued-appends'], scope, runs: 40 },
  'scim.patch-replace-appends-values': { mustFail: ['scim.patch.model', 'scim.patch.replace-multi-valued-all'], scope, runs: 40 },
  'scim.patch-no-path-rejected': { mustFail: ['scim.patch.model', 'scim.patch.no-path-complex-value'], scope, runs: 40 },
  'scim.patch-schemas-unchecked': { mustFail: ['scim.patch.schemas-required'], scope, runs: 5 },
  'scim.patch-empty-operations-ok': { mustFail: ['scim.patch.empty-operations'], scope, runs: 5 },
  'scim.patch-value-optional': { mustFail: ['scim.patch.add-without-value'], scope, runs: 5 },
  'scim.patch-malformed-path-ignored': { mustFail: ['scim.patch.malformed-path'], scope, runs: 5 },
  'scim.patch-filter-on-simple-500': { mustFail: ['scim.patch.value-filter-on-simple-attribute', 'scim.invariant.no-5xx'], scope, runs: 5 },
  'scim.patch-always-204': { mustFail: ['scim.patch.attributes-200'], scope, runs: 25 },
  // Every successful PATCH answers an empty 200: success-answer's rule; each other check that reads
  // the PATCH answer ends blocked by it.
  'scim.patch-empty-200': { mustFail: ['scim.patch.success-answer'], scope, runs: 5 },
  'scim.patch-no-op-touches-last-modified': { mustFail: ['scim.patch.identical-add-keeps-last-modified'], scope, runs: 5 },
  'scim.patch-complex-replace-overwrites': { mustFail: ['scim.patch.model'], scope, runs: 40 },
  'scim.patch-add-clears-primary': { mustFail: ['scim.patch.add-keeps-other-primary'], scope, runs: 5 },
  'scim.patch-filtered-add-appends': { mustFail: ['scim.patch.filtered-add-sets-matched'], scope, runs: 5 },
  'scim.patch-filtered-null-ignored': { mustFail: ['scim.patch.filtered-replace-null'], scope, runs: 5 },
  'scim.patch-primary-not-cleared': { mustFail: ['scim.patch.primary-clears-others'], scope, runs: 5 },
  'scim.user-groups-omitted': { mustFail: ['scim.patch.member-groups-derived'], scope, runs: 5 },
};
