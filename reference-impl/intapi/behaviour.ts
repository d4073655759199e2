import type { IntapiOAuthBehaviour } from './oauth.js';
import { type FilterSemantics, SPEC_FILTER_SEMANTICS } from './filter/index.js';
import type { OffsetUnit } from './lists/paging.js';
import { SPEC_SORT_SEMANTICS, type SortSemantics } from './lists/sort.js';

/**
 * Every documented rule the server applies, as data. The default is the reference behaviour
 * (the specification plus docs/decisions/intapi/reference-choices.md "Choices where the specification is silent"). A fault
 * (faults.ts) changes exactly one entry; the code reads the entry at the point of the rule.
 */
export interface Behaviour {
  readonly auth: {
    /** public-facts#authentication-integration-api: a missing or invalid x-api-key gets 401. */
    missingApiKey: 'reject' | 'accept';
    wrongApiKey: 'reject' | 'accept';
    /** Operations that serve a missing or wrong x-api-key as if it were valid (`intapi.key-unchecked:<op>`). */
    keyUnchecked: Set<string>;
    /** Every operation but /authenticate needs `Authorization: Bearer <token>`. */
    token: 'required' | 'not-checked';
    /** A raw token without `Bearer ` is accepted too. */
    rawToken: 'accept' | 'reject';
    /** A new token for a user invalidates the user's previous one. */
    reissue: 'revokes-previous' | 'keeps-previous';
    /** spec#integration-api: "current user" operations act on the identity behind the credentials. */
    currentUser: 'token-user' | 'another-user';
    /** /authenticate with a missing body field. */
    missingFieldStatus: 400 | 401;
    /** /authenticate compares username, password and private key. */
    password: 'checked' | 'ignored';
    /** The status of a successful /authenticate (the body is the bare token either way). */
    successStatus: 200 | 201;
  };
  readonly versions: {
    /** A request without x-api-version behaves as this version. */
    missing: 1 | 2;
    /** Any value other than 1 or 2: 400 (`reject`) or served as version 2. */
    unsupported: 'reject' | 'as-v2';
    /** A version-2-only operation called with version 1: 404 or served. */
    v2OnlyOnV1: 'not-found' | 'served';
    /** Version-2-only operations served with version 1 all the same (`intapi.v1-served:<op>`). */
    servedOnV1: Set<string>;
  };
  readonly errors: {
    /** The error body's `code` equals the HTTP status, or differs from it. */
    code: 'status' | 'mismatch';
    term: 'present' | 'omitted';
    /** Each validations entry starts with the field's path, or carries no field name. */
    validations: 'name-field' | 'unnamed';
    /** A body that is not JSON. */
    notJsonStatus: 400 | 500;
    /** A path id that is not a GUID. */
    pathIdNotGuidStatus: 422 | 404;
  };
  readonly http: {
    bodyLimit: number;
    /** `json`: only application/json bodies; `any-as-json`: every body is parsed as JSON. */
    contentTypes: 'json' | 'any-as-json';
    /** Operations whose JSON answers are labelled text/plain. */
    textPlainOperations: Set<string>;
    /** Every GET's JSON answer labelled text/html. */
    htmlGets: boolean;
    /** The longest request target served (414 beyond); undefined: Node's header limit (16 KiB). */
    maxUrlBytes: number | undefined;
    /** Operations that answer an unknown id with a 500 and a non-JSON body. */
    crashOnUnknownId: Set<string>;
    /** Operations not routed at all: they answer as an unknown route (404), in every version. */
    unrouted: Set<string>;
    /**
     * Operations that answer a well-formed path id naming no record with 200 and a blank answer
     * (a blank record, an empty list or envelope) instead of 404, storing nothing.
     */
    unknownIdOk: Set<string>;
  };
  readonly bodies: {
    /** Bounds rules switched off (`intapi.skip-rule:<id>`). */
    skip: Set<string>;
    /** `<operation>.<field>` with exclusive bounds (`intapi.exclusive-bound:<...>`). */
    exclusive: Set<string>;
    unknownFields: 'reject' | 'ignore';
    /** An optional field sent as null is absent, or refused. */
    nullOptional: 'absent' | 'reject';
    /** A body that is JSON but not an object: 422 with its reason, or with no reason
     * (`intapi.not-object-unreasoned`; the request is refused all the same). */
    notObjectReason: 'given' | 'none';
  };
  readonly writes: {
    /** PUT: full replacement, or a merge that keeps fields absent from the body. */
    update: 'replace' | 'merge';
    /** `stored`, or answered without being stored. */
    updatePersistence: 'stored' | 'not-stored';
    /** A create submission refused with 422 stores nothing, or a record all the same. */
    rejectedCreate: 'nothing' | 'stored';
    createStatus: { submission: 200 | 201; questionBank: 200 | 201; question: 200 | 201 };
    updateStatus: { submission: 200 | 201 };
    /** Create submission with an unknown userId: 404, or accepted. */
    submissionUser: 'must-exist' | 'any';
    /** Create submission with an unknown templateId: 404, or accepted (and stored). */
    submissionTemplate: 'must-exist' | 'any';
    /** `<operation>.<field>` stored (and answered) as another valid value (rules/lossy.ts). */
    lossy: Set<string>;
    updateUnknownSubmission: 'not-found' | 'create';
    questionUnderUnknownBank: 'not-found' | 'answer-201';
    duplicateBankId: 'conflict' | 'overwrite';
    duplicateQuestionId: 'conflict' | 'overwrite';
  };
  readonly reads: {
    /** GET /courses/{c}/resources/{r}: only a resource of that course, or any resource. */
    courseResource: 'same-course' | 'any-course';
    /** GET /users/{u}/enrollments/{c}/resources: the user must be enrolled, or not. */
    enrollmentResources: 'enrolled' | 'any';
  };
  readonly responses: {
    /** Submission fields left out of every submission answer. */
    omitSubmissionFields: Set<string>;
    /** Unset fields are answered as null, or left out. */
    nulls: 'present' | 'omitted';
    /** Question type in answers: integer 0|1|2 or the request string. */
    questionType: 'integer' | 'string';
  };
  readonly lists: {
    maxLimit: number;
    maxOffset: number;
    minOffset: number;
    /** A non-integer `_limit`/`_offset`: 422, or the default. */
    nonInteger: 'reject' | 'default';
    filterSyntaxError: 'reject' | 'ignore';
    /** The deprecated `limit`/`offset` are honoured, or ignored. */
    deprecatedAliases: 'honour' | 'ignore';
    /** `_filter`/`_sort` on question bank and question lists: 422, or ignored. */
    pagingOnlyExtras: 'reject' | 'ignore';
    /** The page size without `_limit` (and without the deprecated `limit`). */
    defaultLimit: number;
    /** `_limit` sets the page size, or the default page size is always used (echo unchanged). */
    limit: 'honour' | 'default';
    offsetUnit: OffsetUnit;
    defaultOrder: 'creation' | 'newest-first';
    /** A page of a sorted list starts at its offset, or at the first record it ties with on the first key: a
     * filtered list's page (`tie-group`) or an unfiltered one's (`tie-group-unfiltered`). */
    tiedPageStart: 'offset' | 'tie-group' | 'tie-group-unfiltered';
    /** A page of a filtered list without `_sort` ends after `_limit` items, or at the end of the selection. */
    filteredPageEnd: 'limit' | 'selection-end';
    /** A page of a sorted list that starts at or past its end is empty, or holds the last page again. */
    pastEndPage: 'empty' | 'last-page';
    /** A `_filter` of ranges only (comparisons and `startswith` joined by `and`) selects the intersection of
     * its ranges, or keeps one range per field, the last one written. */
    rangesPerField: 'intersect' | 'last';
    /** Lists show records as stored, or as before their last update. */
    view: 'current' | 'before-last-update';
    /** Version 1 general list: bare array, or the envelope. */
    v1Shape: 'array' | 'envelope';
    /** Version 2 general resource list: the envelope, or a bare array. */
    v2Shape: 'envelope' | 'array';
    v1Filter: 'apply' | 'ignore';
    filter: FilterSemantics;
    sort: SortSemantics;
  };
  readonly envelope: {
    returnedItems: 'page-length' | 'page-length-plus-one';
    limit: 'in-force' | 'default';
    offset: 'in-force' | 'zero';
    /** public-facts: the whole (filtered) collection; or the page; or the collection before `_filter`. */
    totalItems: 'collection' | 'page' | 'unfiltered';
  };
  /** Users and manager direct reports. */
  readonly users: {
    /** IsManager: whether someone reports to the user now, always false, or as in the seed (stale after updates). */
    isManager: 'reports' | 'always-false' | 'as-seeded';
    /** `id` in a PUT /users/{userId} or POST /users body: refused 422 (release note), or ignored. */
    idInUpdate: 'reject' | 'ignore';
    idInUpsert: 'reject' | 'ignore';
    /** A manager's direct-report list: the direct reports, or every user below the manager. */
    directReports: 'direct' | 'transitive';
    /** Versions of the direct-report operations: version 2 only (spec), or 1 and 2. */
    directReportVersions: 'v2-only' | 'v1-and-v2';
    /** The answer to a direct-report update: the list after the update (spec: "update and return
     * direct reports"), or the list as it was before. */
    updateAnswer: 'after' | 'before';
  };
  /** Course evaluations (release 5.121.0). */
  readonly evaluations: {
    /** The evaluation operations with version 1: 404 as every version-2-only operation, or served. */
    onV1: 'not-found' | 'served';
    /** The answers list of a course: that course's answers, or every course's. */
    answers: 'of-course' | 'every-course';
    /** Get evaluation question: the question asked, or the next question of its course. */
    get: 'asked' | 'neighbour';
  };
  /** Countries and provinces (release 5.128.0). */
  readonly provinces: {
    /** Province records carry no `townships`, or an empty `townships` array. */
    townships: 'absent' | 'present';
    /** The province `code`: the ISO 3166-2 code (`CA-ON`), or its subdivision part only (`ON`). */
    code: 'iso' | 'subdivision-only';
    /** `?countryId=`: that country's provinces, or the next country's. */
    countryFilter: 'apply' | 'next-country';
    /** Get province: the province asked, or the next one of the data. */
    get: 'asked' | 'neighbour';
    /** An unknown `countryId`: 404, or 200 with an empty list. */
    unknownCountry: 'not-found' | 'empty';
  };
  /** OAuth 2.0 authorization-code flow (public-facts#authentication-integration-api). */
  readonly oauth: IntapiOAuthBehaviour;
  /** Groups, enrollments and sessions, and their lifecycle rules. */
  readonly enrollments: {
    /** Group create, update, assign, unassign and users list with version 1: 404, or served. */
    groupsOnV1: 'not-found' | 'served';
    /** Assigning users to (or unassigning from) an automatic group: refused with 409, or applied. */
    automaticGroupAssign: 'refused' | 'applied';
    /** An assignment is stored, or only answered. */
    assignment: 'stored' | 'not-stored';
    /** An unassignment is stored, or only answered. */
    unassignment: 'stored' | 'not-stored';
    /** A group update is stored, or only answered. */
    groupUpdate: 'stored' | 'not-stored';
    /** A second session of a multi-session course is kept beside the first, or replaces it. */
    multiSession: 'keep-both' | 'replace';
    /** `cancelSession=true` leaves the session, or is answered without effect. */
    cancelSession: 'honour' | 'ignore';
    /** spec#states-and-transitions: enrollments of a deleted course are hidden, or listed. */
    deletedCourses: 'hidden' | 'listed';
    /** spec#states-and-transitions: negative credits are not applied, or stored. */
    negativeCredits: 'not-applied' | 'applied';
    /** Release note: `timeSpentTicks` in an enrollment create is refused naming it, or ignored. */
    timeSpentTicks: 'reject' | 'ignore';
    /** Course enrollment emails sent per re-enrollment (spec#states-and-transitions: one). */
    reEnrollEmails: 0 | 1 | 2;
    /** Enrollment status answered as the integer of public-facts' enum, or as its label. */
    statusShape: 'integer' | 'label';
  };
  /** Automatic enrollment rules, processed in batches (spec#what-the-service-does 5, spec#limits;
   * intapi/enrollments/rules.ts). */
  readonly enrollmentRules: {
    /** The batches apply the rules to the users changed before them, or apply nothing. */
    apply: 'batches' | 'never';
    /** How long before a batch a change must have been made for the batch to apply it: 0 (every change
     * made before it), or RULE_DELAY_LIMIT_MS (the effect comes after the specification's delay). */
    lagMs: number;
    /** A rule enrolls the changed users whose property equals its value, or every changed user. */
    match: 'equal' | 'everyone';
    /** A user who stops matching a rule is unenrolled from the enrollment the rule made, or keeps it. */
    unenroll: 'withdraw' | 'keep';
  };
}

/** spec#limits is silent; public-facts "List parameters and envelope" gives these. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 65535;
/** docs/decisions/intapi/reference-choices.md "Errors": over 1 MiB answers 413. */
export const BODY_LIMIT = 1024 * 1024;
/** spec#limits: "Dynamic-rule processing delay: up to 10 minutes". */
export const RULE_DELAY_LIMIT_MS = 10 * 60 * 1000;

export function referenceBehaviour(): Behaviour {
  return {
    auth: {
      missingApiKey: 'reject',
      wrongApiKey: 'reject',
      keyUnchecked: new Set(),
      token: 'required',
      rawToken: 'accept',
      reissue: 'revokes-previous',
      currentUser: 'token-user',
      missingFieldStatus: 400,
      password: 'checked',
      successStatus: 200,
    },
    versions: { missing: 1, unsupported: 'reject', v2OnlyOnV1: 'not-found', servedOnV1: new Set() },
    errors: { code: 'status', term: 'present', validations: 'name-field', notJsonStatus: 400, pathIdNotGuidStatus: 422 },
    http: {
      bodyLimit: BODY_LIMIT,
      contentTypes: 'json',
      textPlainOperations: new Set(),
      htmlGets: false,
      maxUrlBytes: undefined,
      crashOnUnknownId: new Set(),
      unrouted: new Set(),
      unknownIdOk: new Set(),
    },
    bodies: { skip: new Set(), exclusive: new Set(), unknownFields: 'reject', nullOptional: 'absent', notObjectReason: 'given' },
    writes: {
      update: 'replace',
      updatePersistence: 'stored',
      rejectedCreate: 'nothing',
      createStatus: { submission: 201, questionBank: 201, question: 201 },
      updateStatus: { submission: 200 },
      submissionUser: 'must-exist',
      submissionTemplate: 'must-exist',
      lossy: new Set(),
      updateUnknownSubmission: 'not-found',
      questionUnderUnknownBank: 'not-found',
      duplicateBankId: 'conflict',
      duplicateQuestionId: 'conflict',
    },
    reads: { courseResource: 'same-course', enrollmentResources: 'enrolled' },
    responses: { omitSubmissionFields: new Set(), nulls: 'present', questionType: 'integer' },
    lists: {
      maxLimit: MAX_LIMIT,
      maxOffset: MAX_OFFSET,
      minOffset: 0,
      nonInteger: 'reject',
      filterSyntaxError: 'reject',
      deprecatedAliases: 'honour',
      pagingOnlyExtras: 'reject',
      defaultLimit: DEFAULT_LIMIT,
      limit: 'honour',
      offsetUnit: 'page',
      defaultOrder: 'creation',
      tiedPageStart: 'offset',
      filteredPageEnd: 'limit',
      pastEndPage: 'empty',
      rangesPerField: 'intersect',
      view: 'current',
      v1Shape: 'array',
      v2Shape: 'envelope',
      v1Filter: 'apply',
      filter: SPEC_FILTER_SEMANTICS,
      sort: SPEC_SORT_SEMANTICS,
    },
    envelope: { returnedItems: 'page-length', limit: 'in-force', offset: 'in-force', totalItems: 'collection' },
    users: {
      isManager: 'reports',
      idInUpdate: 'reject',
      idInUpsert: 'reject',
      directReports: 'direct',
      directReportVersions: 'v2-only',
      updateAnswer: 'after',
    },
    evaluations: { onV1: 'not-found', answers: 'of-course', get: 'asked' },
    provinces: { townships: 'absent', code: 'iso', countryFilter: 'apply', get: 'asked', unknownCountry: 'not-found' },
    oauth: { codeReuse: 'refused', redirectUri: 'registered', refreshToken: 'issued', accessTokenTtl: 4 * 3600, intapiAccepts: 'accepted' },
    enrollments: {
      groupsOnV1: 'not-found',
      automaticGroupAssign: 'refused',
      assignment: 'stored',
      unassignment: 'stored',
      groupUpdate: 'stored',
      multiSession: 'keep-both',
      cancelSession: 'honour',
      deletedCourses: 'hidden',
      negativeCredits: 'not-applied',
      timeSpentTicks: 'reject',
      reEnrollEmails: 1,
      statusShape: 'integer',
    },
    enrollmentRules: { apply: 'batches', lagMs: 0, match: 'equal', unenroll: 'withdraw' },
  };
}
