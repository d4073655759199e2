import { type LearnerBehaviour, referenceLearnerBehaviour } from './behaviour.js';
import { applyFaults, type Fault, faultCatalogue, type FaultInfo } from '../http/faults.js';

/** Learner faults: each breaks one rule of the learner reference server or of its course player
 * (one entry of LearnerBehaviour). */
type LearnerFault = Fault<LearnerBehaviour>;

const LEARNER_FAULT_TABLE = {
  // Transport and errors
  'learner.content-type-text': { description: 'JSON answers are labelled text/plain.', apply: (b) => void (b.transport.responseType = 'text') },
  'learner.error-validations-missing': {
    description: 'Error bodies leave out `validations`.',
    apply: (b) => void (b.errors.validations = 'omitted'),
  },
  'learner.not-guid-404': {
    description: 'A path id that is not a GUID answers 404 instead of 422.',
    apply: (b) => void (b.errors.notGuidStatus = 404),
  },
  // Authentication
  'learner.api-key-not-checked': {
    description: 'A missing or wrong x-api-key is accepted instead of 401.',
    apply: (b) => void (b.auth.apiKey = 'not-checked'),
  },
  'learner.malformed-paging-500': {
    description: 'A `_limit` or `_offset` that is not an integer answers 500 (an unhandled error) instead of 422.',
    apply: (b) => void (b.paging.malformed = 'crash'),
  },
  'learner.token-not-checked': {
    description: 'A missing or wrong Bearer token is accepted (as learner a) instead of 401.',
    apply: (b) => void (b.auth.token = 'not-checked'),
  },
  'learner.token-not-revoked': {
    description: "A new token for a learner leaves the learner's previous token valid.",
    apply: (b) => void (b.auth.reissue = 'keeps-previous'),
  },
  'learner.token-password-unchecked': {
    description: 'The token exchange accepts a wrong password.',
    apply: (b) => void (b.auth.password = 'not-checked'),
  },
  'learner.token-missing-field-401': {
    description: 'A token request without username or password answers 401 instead of 400.',
    apply: (b) => void (b.auth.missingFieldStatus = 401),
  },
  // Lists
  'learner.limit-31-accepted': {
    description: '`_limit` above 30 is honoured instead of 422.',
    apply: (b) => void (b.paging.maxLimit = 1000),
  },
  'learner.limit-malformed-default': {
    description: 'A `_limit` or `_offset` that is not an integer gives the default instead of 422.',
    apply: (b) => void (b.paging.malformed = 'default'),
  },
  'learner.default-limit-20': { description: 'The default page holds 20 items instead of 10.', apply: (b) => void (b.paging.defaultLimit = 20) },
  'learner.offset-items': {
    description: '`_offset` counts items instead of pages.',
    apply: (b) => void (b.paging.offset = 'item'),
  },
  'learner.paging-repeats': {
    description: 'Each page after the first starts with the last item of the previous page.',
    apply: (b) => void (b.paging.overlap = 1),
  },
  'learner.next-link-on-last-page': {
    description: '`_links.next` is present on the last page too.',
    apply: (b) => void (b.paging.next = 'always'),
  },
  'learner.hal-envelope-wrong-key': {
    description: "Lists embed their items under `_embedded.items` instead of the list's own key.",
    apply: (b) => void (b.paging.key = 'items'),
  },
  // Catalog
  'learner.unknown-course-500': {
    description: 'GET /courses/{courseId} of a GUID no course has answers 500 (the missing course read as found) instead of 404.',
    apply: (b) => void (b.errors.unknownCourse = 500),
  },
  'learner.category-filter-ignored': {
    description: '`categoryId` is ignored: the whole catalog is listed.',
    apply: (b) => void (b.catalog.categoryFilter = 'ignored'),
  },
  'learner.include-subcategories-ignored': {
    description: "`includeSubcategories=true` is ignored: only the category's own courses.",
    apply: (b) => void (b.catalog.subcategories = 'ignored'),
  },
  'learner.include-subcategories-children-only': {
    description: '`includeSubcategories=true` adds the direct child categories only, not every descendant.',
    apply: (b) => void (b.catalog.subcategories = 'children-only'),
  },
  'learner.parent-category-id-missing': {
    description: 'Catalog courses carry no `parentCategoryId`.',
    apply: (b) => void (b.catalog.parentCategoryId = 'omitted'),
  },
  // Sessions
  'learner.completed-sessions-always': {
    description: '`includeCompletedSessions` is ignored: completed sessions are always listed.',
    apply: (b) => void (b.sessions.completed = 'always'),
  },
  'learner.completed-sessions-never': {
    description: '`includeCompletedSessions=true` is ignored: completed sessions are never listed.',
    apply: (b) => void (b.sessions.completed = 'never'),
  },
  'learner.catalog-sessions-ignore-completed-flag': {
    description:
      'GET /my-catalog-calendar/sessions ignores `includeCompletedSessions=true`: its completed sessions are never listed (the course session lists read it).',
    apply: (b) => void (b.sessions.catalogFlag = 'ignored'),
  },
  'learner.completed-flag-malformed-accepted': {
    description: 'An `includeCompletedSessions` other than true/false is read as absent instead of 422.',
    apply: (b) => void (b.sessions.malformedFlag = 'absent'),
  },
  'learner.calendar-count-includes-completed': {
    description: 'Session counts (catalog calendar, calendar overview) include completed sessions whatever the flag.',
    apply: (b) => void (b.sessions.counts = 'all'),
  },
  'learner.session-get-ignores-flag': {
    description: 'Get-by-id answers a completed session without `includeCompletedSessions=true` instead of 404.',
    apply: (b) => void (b.sessions.getCompleted = 'always'),
  },
  'learner.unknown-session-200': {
    description: 'Get-by-id of an unknown session id answers 200 with a blank session instead of 404.',
    apply: (b) => void (b.sessions.unknownSession = 200),
  },
  'learner.session-of-other-course': {
    description: "Get-by-id answers a session under any instructor-led course's path, not only its own course's, instead of 404.",
    apply: (b) => void (b.sessions.otherCourse = 'answered'),
  },
  'learner.running-sessions-completed': {
    description: 'A session counts as completed from its start: a running session is left out without `includeCompletedSessions=true`.',
    apply: (b) => void (b.sessions.completedFrom = 'start'),
  },
  'learner.calendar-only-courses-with-sessions': {
    description: 'GET /my-catalog-calendar leaves out the instructor-led courses that have no session.',
    apply: (b) => void (b.sessions.calendarCourses = 'with-sessions'),
  },
  'learner.calendar-bounds-of-all-sessions': {
    description: "A course's calendar overview takes firstSessionStart and lastSessionEnd from all its sessions, completed ones too, whatever the flag.",
    apply: (b) => void (b.sessions.bounds = 'all'),
  },
  // Branding and progress
  'learner.branding-null': {
    description: 'GET /my-branding answers `branding: null` even for a department with branding.',
    apply: (b) => void (b.branding.served = 'null'),
  },
  'learner.progress-not-stored': {
    description: 'PUT /my-progress answers 200 but the progress is not stored.',
    apply: (b) => void (b.progress.stored = 'no'),
  },
  'learner.progress-bounds-unchecked': {
    description: '`progress` outside 0..100 is stored instead of 422.',
    apply: (b) => void (b.progress.bounds = 'unchecked'),
  },
  // Course player
  'player.page-token-unchecked': {
    description: 'The course player page is served without a valid token instead of 401.',
    apply: (b) => void (b.player.pageToken = 'not-checked'),
  },
  'player.tags-shown-with-hidetags-false': {
    description: 'The player shows the course tags with `hideTags=false`.',
    apply: (b) => void (b.player.tagsWithHideTagsFalse = 'shown'),
  },
  'player.tags-hidden-by-default': {
    description: 'The player hides the course tags when `hideTags` is not passed.',
    apply: (b) => void (b.player.tagsByDefault = 'hidden'),
  },
  'player.branding-ignored': {
    description: "The player ignores the department's branding: default theme, no logo.",
    apply: (b) => void (b.player.branding = 'ignored'),
  },
  'player.save-error-swallowed': {
    description: 'A failed progress save shows no Player Error dialog.',
    apply: (b) => void (b.player.saveError = 'swallowed'),
  },
  'player.error-title-wrong': {
    description: 'The dialog after a failed save is titled `Playback error` instead of `Player Error`.',
    apply: (b) => void (b.player.errorTitle = 'Playback error'),
  },
  'player.saves-after-error': {
    description: 'After a failed save the player shows the dialog but goes on sending saves.',
    apply: (b) => void (b.player.afterError = 'continue'),
  },
} satisfies Record<string, LearnerFault>;

export type LearnerFaultName = keyof typeof LEARNER_FAULT_TABLE;

/** The learner fault catalogue: name → family and description. */
export const LEARNER_FAULTS: Readonly<Record<string, FaultInfo>> = faultCatalogue(LEARNER_FAULT_TABLE);

/** The catalogue of one family's part of the table: the faults whose names start `<family>.`. */
export function learnerFaultsOf(family: string): Readonly<Record<string, FaultInfo>> {
  return Object.freeze(Object.fromEntries(Object.entries(LEARNER_FAULTS).filter(([name]) => name.startsWith(`${family}.`))));
}

/** `behaviour` with the given faults applied (the course player's apply to the behaviour it shares
 * with the learner API); throws on an unknown one. */
export function applyLearnerFaults(behaviour: LearnerBehaviour, faults: readonly string[]): LearnerBehaviour {
  const table: Readonly<Record<string, LearnerFault>> = LEARNER_FAULT_TABLE;
  return applyFaults(
    table,
    faults,
    behaviour,
    (unknown) => `Unknown learner fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Known: ${Object.keys(table).join(', ')}.`,
  );
}

/** The reference learner behaviour with the given faults applied; throws on an unknown one. */
export function learnerBehaviourWithFaults(faults: readonly string[]): LearnerBehaviour {
  return applyLearnerFaults(referenceLearnerBehaviour(), faults);
}
