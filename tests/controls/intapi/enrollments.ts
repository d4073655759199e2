// Negative-control expectations of the Integration API faults of the enrollments area (see tests/controls/expectations.ts).
import type { Control } from '../expectations.js';

const GROUPS = 'intapi.v2.groups';
const ENROLLMENTS = 'intapi.v?.enrollments';
const LIFECYCLE = 'intapi.v?.lifecycle';
/** The area's checks and the invariants they report. */
const SCOPE = [`${GROUPS}.*`, `${ENROLLMENTS}.*`, `${LIFECYCLE}.*`, 'intapi.invariant.*'];
const area = (mustFail: readonly string[], mayFail?: readonly string[]): Control => ({ mustFail, ...(mayFail ? { mayFail } : {}), scope: SCOPE });
const RULE_ENROLLMENT = 'intapi.v2.lifecycle.rule-enrollment-within-delay';
const RULE_UNENROLLMENT = 'intapi.v2.lifecycle.rule-unenrollment-within-delay';
/** The rule faults act only through the rule's batches: the rule checks, and the invariants of their exchanges. */
const rules = (mustFail: readonly string[], mayFail?: readonly string[]): Control => ({
  mustFail,
  ...(mayFail ? { mayFail } : {}),
  scope: [`${LIFECYCLE}.rule-*`, 'intapi.invariant.*'],
});

export const INTAPI_ENROLLMENTS_CONTROLS: Readonly<Record<string, Control>> = {
  'intapi.groups-on-v1': area([`${GROUPS}.*.v1-status`]),
  'intapi.automatic-group-assignable': area([`${GROUPS}.assign-users.automatic-refused`, `${GROUPS}.unassign-users.automatic-refused`]),
  // The unassignment check assigns first: it fails too, at its set-up.
  'intapi.group-assignment-not-stored': area([
    `${GROUPS}.assign-users.shows-in-group`,
    `${GROUPS}.assign-users.shows-in-users-list`,
    `${GROUPS}.unassign-users.leaves-group`,
  ]),
  'intapi.group-update-not-stored': area([`${GROUPS}.update.read-back`]),
  'intapi.group-unassignment-not-stored': area([`${GROUPS}.unassign-users.leaves-group`]),
  'intapi.multi-session-replaces': area(['intapi.v2.enrollments.session.multi-session-keeps-both']),
  'intapi.cancel-session-ignored': area(['intapi.v2.enrollments.session.cancel-session-leaves']),
  'intapi.deleted-course-enrollments-listed': area([`${LIFECYCLE}.deleted-course-enrollments-hidden`]),
  // The stored negative credits break the enrollment contract (credits ≥ 0) too.
  'intapi.negative-credits-applied': area(['intapi.v2.lifecycle.negative-credits-not-applied', 'intapi.invariant.success-body-matches-contract']),
  'intapi.time-spent-ticks-accepted': area(['intapi.v2.enrollments.create.timeSpentTicks.not-accepted']),
  'intapi.re-enroll-no-email': area(['intapi.v2.lifecycle.re-enroll-sends-one-email']),
  'intapi.re-enroll-two-emails': area(['intapi.v2.lifecycle.re-enroll-sends-one-email']),
  'intapi.enrollment-status-as-label': area(['intapi.v2.enrollments.list.status-enum', 'intapi.invariant.success-body-matches-contract']),
  // Without the enrollment, the unenrollment check is not exercised: skipped, not failed.
  'intapi.rule-enrollment-never': rules([RULE_ENROLLMENT]),
  'intapi.rule-enrollment-late': rules([RULE_ENROLLMENT]),
  // The user changed away from the rule still "matches" it: the unenrollment never comes either.
  'intapi.rule-enrolls-everyone': rules([RULE_ENROLLMENT], [RULE_UNENROLLMENT]),
  'intapi.rule-never-unenrolls': rules([RULE_UNENROLLMENT]),
};
