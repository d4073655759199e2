// Negative-control expectations of the learner API's and the course player's faults (reference-impl/learner/faults.ts).
import type { Control } from '../expectations.js';

const INV = 'learner.invariant.*';
const area = (...globs: string[]): string[] => [...globs, INV];
const AUTH = area('learner.auth.*');
const LISTS = area('learner.lists.*');
const CATALOG = area('learner.catalog.*');
const SESSIONS = area('learner.sessions.*');
const PROGRESS = area('learner.progress.*');
const PLAYER = area('player.*');
/** The checks that assert "422 naming the parameter or field". */
const REJECTIONS = [
  'learner.lists.limit-31-422',
  'learner.lists.malformed-paging-422',
  'learner.courses.not-guid-422',
  'learner.sessions.flag-malformed-422',
  'learner.progress.out-of-range-422',
];

export const LEARNER_CONTROLS: Readonly<Record<string, Control>> = {
  // Transport and errors
  'learner.content-type-text': { mustFail: ['learner.invariant.json-content-type'], scope: LISTS },
  'learner.error-validations-missing': {
    mustFail: ['learner.invariant.error-body-matches-contract'],
    mayFail: REJECTIONS,
    scope: area('learner.lists.*', 'learner.courses.*', 'learner.sessions.flag-*', 'learner.progress.out-*'),
  },
  'learner.malformed-paging-500': {
    mustFail: ['learner.invariant.no-5xx', 'learner.lists.malformed-paging-422'],
    mayFail: ['learner.invariant.error-body-matches-contract'],
    scope: LISTS,
  },
  'learner.not-guid-404': { mustFail: ['learner.courses.not-guid-422'], scope: area('learner.courses.*') },
  'learner.unknown-course-500': { mustFail: ['learner.courses.unknown-id-404', 'learner.invariant.no-5xx'], scope: area('learner.courses.*') },
  // Authentication
  'learner.api-key-not-checked': { mustFail: ['learner.auth.missing-key-401'], scope: AUTH },
  'learner.token-not-checked': {
    mustFail: ['learner.auth.missing-token-401', 'learner.auth.wrong-token-401'],
    mayFail: ['learner.auth.reissue-revokes-previous'],
    scope: AUTH,
  },
  'learner.token-not-revoked': { mustFail: ['learner.auth.reissue-revokes-previous'], scope: AUTH },
  'learner.token-password-unchecked': { mustFail: ['learner.auth.token-wrong-password-401'], scope: AUTH },
  'learner.token-missing-field-401': { mustFail: ['learner.auth.token-missing-field-400'], scope: AUTH },
  // Lists
  'learner.limit-31-accepted': { mustFail: ['learner.lists.limit-31-422'], mayFail: ['learner.invariant.success-body-matches-contract'], scope: LISTS },
  'learner.limit-malformed-default': { mustFail: ['learner.lists.malformed-paging-422'], scope: LISTS },
  'learner.default-limit-20': { mustFail: ['learner.lists.default-limit-10'], scope: LISTS },
  'learner.offset-items': { mustFail: ['learner.lists.walk-sees-each-once'], scope: LISTS },
  'learner.paging-repeats': { mustFail: ['learner.lists.walk-sees-each-once'], scope: LISTS },
  'learner.next-link-on-last-page': { mustFail: ['learner.lists.walk-sees-each-once'], scope: LISTS },
  'learner.hal-envelope-wrong-key': {
    mustFail: ['learner.invariant.success-body-matches-contract', 'learner.lists.walk-sees-each-once'],
    mayFail: ['learner.lists.*'],
    scope: LISTS,
  },
  // Catalog
  'learner.category-filter-ignored': {
    mustFail: ['learner.catalog.category-own-courses', 'learner.catalog.include-subcategories-descendants'],
    scope: CATALOG,
  },
  'learner.include-subcategories-ignored': { mustFail: ['learner.catalog.include-subcategories-descendants'], scope: CATALOG },
  'learner.include-subcategories-children-only': { mustFail: ['learner.catalog.include-subcategories-descendants'], scope: CATALOG },
  'learner.parent-category-id-missing': {
    mustFail: ['learner.catalog.parent-category-id'],
    mayFail: ['learner.catalog.*', 'learner.invariant.success-body-matches-contract'],
    scope: CATALOG,
  },
  // Sessions
  'learner.completed-sessions-always': {
    mustFail: ['learner.sessions.absent-no-completed'],
    mayFail: ['learner.sessions.get-agrees-with-list'],
    scope: SESSIONS,
  },
  // Every list ignores the flag: the course lists' check and the catalog list's check each fail.
  'learner.completed-sessions-never': {
    mustFail: ['learner.sessions.include-completed-superset', 'learner.sessions.catalog-include-completed'],
    mayFail: ['learner.sessions.get-agrees-with-list'],
    scope: SESSIONS,
  },
  'learner.catalog-sessions-ignore-completed-flag': { mustFail: ['learner.sessions.catalog-include-completed'], scope: SESSIONS },
  'learner.completed-flag-malformed-accepted': { mustFail: ['learner.sessions.flag-malformed-422'], scope: SESSIONS },
  'learner.calendar-count-includes-completed': { mustFail: ['learner.sessions.calendar-counts-agree'], scope: SESSIONS },
  'learner.session-get-ignores-flag': { mustFail: ['learner.sessions.get-agrees-with-list'], scope: SESSIONS },
  // A session asked under another course's path is unknown there: the fault answers it too.
  'learner.unknown-session-200': {
    mustFail: ['learner.sessions.unknown-id-404'],
    mayFail: ['learner.invariant.success-body-matches-contract', 'learner.sessions.other-course-404'],
    scope: SESSIONS,
  },
  'learner.session-of-other-course': { mustFail: ['learner.sessions.other-course-404'], scope: SESSIONS },
  // A running session left out: the lists without the flag lose it, the calendar counts follow the lists.
  'learner.running-sessions-completed': {
    mustFail: ['learner.sessions.absent-lists-unended'],
    mayFail: ['learner.sessions.get-agrees-with-list'],
    scope: SESSIONS,
  },
  'learner.calendar-only-courses-with-sessions': { mustFail: ['learner.sessions.calendar-every-instructor-led'], scope: SESSIONS },
  'learner.calendar-bounds-of-all-sessions': { mustFail: ['learner.sessions.calendar-overview-bounds'], scope: SESSIONS },
  // Branding and progress
  'learner.branding-null': { mustFail: ['learner.branding.as-declared'], scope: area('learner.branding.*', 'player.branding-*') },
  'learner.progress-not-stored': { mustFail: ['learner.progress.saved-then-read'], scope: PROGRESS },
  // The progress it stores out of range is answered too, outside the contract's 0..100.
  'learner.progress-bounds-unchecked': {
    mustFail: ['learner.progress.out-of-range-422'],
    mayFail: ['learner.invariant.success-body-matches-contract'],
    scope: PROGRESS,
  },
  // Course player (in Chromium: one browser for every target of the controls' run)
  'player.page-token-unchecked': { mustFail: ['player.page-token-401'], scope: PLAYER },
  'player.tags-shown-with-hidetags-false': { mustFail: ['player.tags-hidden-with-hidetags-false'], scope: PLAYER },
  'player.tags-hidden-by-default': { mustFail: ['player.tags-visible-by-default'], scope: PLAYER },
  'player.branding-ignored': { mustFail: ['player.branding-theme'], scope: PLAYER },
  'player.save-error-swallowed': { mustFail: ['player.revoked-token-player-error'], scope: PLAYER },
  'player.error-title-wrong': { mustFail: ['player.revoked-token-player-error'], scope: PLAYER },
  'player.saves-after-error': { mustFail: ['player.revoked-token-player-error'], scope: PLAYER },
};
