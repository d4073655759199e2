/**
 * The learner family's rules as data (docs/decisions/learner/reference-server-and-player.md "Learner reference server and player: choices"),
 * the course player's included. The default is the reference behaviour; a learner fault
 * (learner/faults.ts, names `learner.…` and `player.…`) changes one entry, read by the code at the
 * point of the rule.
 */
export interface LearnerBehaviour {
  readonly transport: {
    /** JSON answers labelled application/json, or text/plain. */
    responseType: 'json' | 'text';
  };
  readonly auth: {
    /** x-api-key on every call: checked (401), or not looked at. */
    apiKey: 'checked' | 'not-checked';
    /** The Bearer token of learner calls: checked (401), or not looked at (learner a stands in). */
    token: 'checked' | 'not-checked';
    /** A token past its lifetime: refused, or still accepted. */
    expiry: 'honoured' | 'ignored';
    /** A new token for a learner revokes the previous one, or leaves it valid. */
    reissue: 'revokes-previous' | 'keeps-previous';
    /** The token exchange checks the password, or only the username. */
    password: 'checked' | 'not-checked';
    /** Status of a token request with a missing field. */
    missingFieldStatus: 400 | 401;
  };
  readonly errors: {
    /** `validations` in the error body, or left out. */
    validations: 'present' | 'omitted';
    /** Status of a path or query id that is not a GUID. */
    notGuidStatus: 422 | 404;
    /** GET /courses/{courseId} of a GUID no course has: 404, or an unhandled error (500). */
    unknownCourse: 404 | 500;
  };
  readonly paging: {
    defaultLimit: number;
    /** Largest `_limit` accepted; above it 422. */
    maxLimit: number;
    /** A `_limit`/`_offset` that is not an integer: 422, the default, or an unhandled error (500). */
    malformed: 'reject' | 'default' | 'crash';
    /** `_offset` counts pages (0-based) or items. */
    offset: 'page' | 'item';
    /** Items a page repeats from the end of the previous page (0: none). */
    overlap: 0 | 1;
    /** `_links.next`: only when items follow, or on every page. */
    next: 'when-more' | 'always';
    /** The `_embedded` key: the list's own (`courses`, …), or `items` for every list. */
    key: 'named' | 'items';
  };
  readonly catalog: {
    /** `categoryId` filters the catalog, or is ignored. */
    categoryFilter: 'applied' | 'ignored';
    /** `includeSubcategories=true`: every descendant, only the direct children, or ignored. */
    subcategories: 'descendants' | 'children-only' | 'ignored';
    /** `parentCategoryId` on every catalog course, or left out. */
    parentCategoryId: 'present' | 'omitted';
  };
  readonly sessions: {
    /** Completed sessions: as `includeCompletedSessions` says, always listed, or never. */
    completed: 'flag' | 'always' | 'never';
    /** The catalog's session list (GET /my-catalog-calendar/sessions, release 5.127.0): reads
     * `includeCompletedSessions` as every list does, or ignores it (never lists completed sessions). */
    catalogFlag: 'read' | 'ignored';
    /** An `includeCompletedSessions` other than true/false: 422, or read as absent. */
    malformedFlag: 'reject' | 'absent';
    /** Session counts (catalog calendar, calendar overview): of the sessions listed, or of all. */
    counts: 'listed' | 'all';
    /** Get-by-id of a completed session: as the flag says, or always answered. */
    getCompleted: 'flag' | 'always';
    /** Get-by-id of an unknown session id: 404, or 200 with a blank session. */
    unknownSession: 404 | 200;
    /** Get-by-id of a session under another instructor-led course than its own: 404, or answered. */
    otherCourse: 404 | 'answered';
    /** A session is completed once its end has passed, or already from its start. */
    completedFrom: 'end' | 'start';
    /** The catalog calendar: every instructor-led course, or only those with a session. */
    calendarCourses: 'instructor-led' | 'with-sessions';
    /** A calendar overview's first start and last end: of the sessions listed, or of all the course's. */
    bounds: 'listed' | 'all';
  };
  readonly branding: {
    /** GET /my-branding: the department's branding, or always null. */
    served: 'yes' | 'null';
  };
  readonly progress: {
    /** PUT saves the progress, or answers 200 and forgets it. */
    stored: 'yes' | 'no';
    /** `progress` outside 0..100 (or not an integer): 422, or stored. */
    bounds: 'checked' | 'unchecked';
  };
  readonly player: {
    /** The page needs a live token in `token` (401), or is served without. */
    pageToken: 'checked' | 'not-checked';
    /** Tags with `hideTags=false`: hidden (the spec), or shown. */
    tagsWithHideTagsFalse: 'hidden' | 'shown';
    /** Tags without `hideTags`: shown (the spec), or hidden. */
    tagsByDefault: 'shown' | 'hidden';
    /** The department's branding: applied as the theme, or ignored (default theme). */
    branding: 'applied' | 'ignored';
    /** A failed progress save: the Player Error dialog, or nothing shown. */
    saveError: 'dialog' | 'swallowed';
    /** The dialog's title. */
    errorTitle: string;
    /** After a failed save: stop saving, or go on. */
    afterError: 'stop' | 'continue';
  };
}

export function referenceLearnerBehaviour(): LearnerBehaviour {
  return {
    transport: { responseType: 'json' },
    auth: { apiKey: 'checked', token: 'checked', expiry: 'honoured', reissue: 'revokes-previous', password: 'checked', missingFieldStatus: 400 },
    errors: { validations: 'present', notGuidStatus: 422, unknownCourse: 404 },
    paging: { defaultLimit: 10, maxLimit: 30, malformed: 'reject', offset: 'page', overlap: 0, next: 'when-more', key: 'named' },
    catalog: { categoryFilter: 'applied', subcategories: 'descendants', parentCategoryId: 'present' },
    sessions: {
      completed: 'flag',
      catalogFlag: 'read',
      malformedFlag: 'reject',
      counts: 'listed',
      getCompleted: 'flag',
      unknownSession: 404,
      otherCourse: 404,
      completedFrom: 'end',
      calendarCourses: 'instructor-led',
      bounds: 'listed',
    },
    branding: { served: 'yes' },
    progress: { stored: 'yes', bounds: 'checked' },
    player: {
      pageToken: 'checked',
      tagsWithHideTagsFalse: 'hidden',
      tagsByDefault: 'shown',
      branding: 'applied',
      saveError: 'dialog',
      errorTitle: 'Player Error',
      afterError: 'stop',
    },
  };
}
