import type { Behaviour } from './behaviour.js';
import { referenceBehaviour, RULE_DELAY_LIMIT_MS } from './behaviour.js';
import { listBoundedFields, listRules } from '../rules/bounds.js';
import { INTAPI_OPERATIONS } from './catalogue.js';
import { COMPARISONS, FUNCTIONS } from './filter/semantics.js';
import { INTAPI_BODIES } from './bounds.js';
import { listLossyFields } from '../rules/lossy.js';
import { applyFaults, type Fault, faultCatalogue, type FaultInfo } from '../http/faults.js';

/**
 * Integration API faults: named toggles that each break one documented rule on purpose. They are the
 * negative controls of the suite: a check is proven able to fail by running it against the server
 * with the matching fault. A fault is a patch of the Behaviour table (behaviour.ts), read by the
 * code at the point of the rule (the shape every family's table shares: http/faults.ts).
 */
type NamedFault = Fault<Behaviour>;

const NAMED_FAULTS = {
  // Authentication (public-facts#authentication-integration-api)
  'intapi.accept-missing-api-key': {
    description: 'A request without x-api-key is served instead of answering 401.',
    apply: (b) => void (b.auth.missingApiKey = 'accept'),
  },
  'intapi.accept-wrong-api-key': {
    description: 'A request with a wrong x-api-key is served instead of answering 401.',
    apply: (b) => void (b.auth.wrongApiKey = 'accept'),
  },
  'intapi.token-not-required': {
    description: "Operations are served without a valid Bearer token (as the credentials' user) instead of 401.",
    apply: (b) => void (b.auth.token = 'not-checked'),
  },
  'intapi.raw-token-rejected': {
    description: 'A raw token sent without the `Bearer ` prefix answers 401.',
    apply: (b) => void (b.auth.rawToken = 'reject'),
  },
  'intapi.previous-token-valid': {
    description: 'A new token for a user leaves the previous token valid.',
    apply: (b) => void (b.auth.reissue = 'keeps-previous'),
  },
  'intapi.current-user-is-first-user': {
    description: "Current-user operations act on the first stored user other than the token's user.",
    apply: (b) => void (b.auth.currentUser = 'another-user'),
  },
  'intapi.authenticate-missing-field-401': {
    description: 'POST /authenticate with a missing body field answers 401 instead of 400.',
    apply: (b) => void (b.auth.missingFieldStatus = 401),
  },
  'intapi.accept-wrong-password': {
    description: 'POST /authenticate answers a token for a wrong password or private key.',
    apply: (b) => void (b.auth.password = 'ignored'),
  },
  'intapi.authenticate-201': {
    description: 'POST /authenticate answers 201 instead of 200 (same body: the bare JSON string token).',
    apply: (b) => void (b.auth.successStatus = 201),
  },
  // Versions (docs/decisions/intapi/reference-choices.md "Versions")
  'intapi.unsupported-version-accepted': {
    description: 'An x-api-version other than 1 or 2 (e.g. 3) is served as version 2 instead of 400.',
    apply: (b) => void (b.versions.unsupported = 'as-v2'),
  },
  'intapi.v2-submissions-on-v1': {
    description: 'Version-2-only operations (submissions, templates, question banks, questions) are served with version 1.',
    apply: (b) => void (b.versions.v2OnlyOnV1 = 'served'),
  },
  'intapi.missing-version-as-v2': {
    description: 'A request without x-api-version behaves as version 2 (envelope on the general resource list).',
    apply: (b) => void (b.versions.missing = 2),
  },
  // Errors (spec#error-body, docs/decisions/intapi/reference-choices.md "Errors")
  'intapi.error-code-mismatch': {
    description: 'The error body `code` differs from the HTTP status (400, or 422 when the status is 400).',
    apply: (b) => void (b.errors.code = 'mismatch'),
  },
  'intapi.error-body-missing-term': {
    description: 'Error bodies omit `term`.',
    apply: (b) => void (b.errors.term = 'omitted'),
  },
  'intapi.validations-unnamed': {
    description: 'Validation messages do not name the field (the `<path>: ` prefix is dropped).',
    apply: (b) => void (b.errors.validations = 'unnamed'),
  },
  'intapi.not-json-500': {
    description: 'A request body that is not JSON answers 500 instead of 400.',
    apply: (b) => void (b.errors.notJsonStatus = 500),
  },
  'intapi.not-guid-404': {
    description: 'A path id that is not a GUID answers 404 instead of 422.',
    apply: (b) => void (b.errors.pathIdNotGuidStatus = 404),
  },
  'intapi.url-limit-4k': {
    description: 'A request target longer than 4096 bytes answers 414 URI Too Long (RFC 9110 section 4.1 recommends accepting 8000).',
    apply: (b) => void (b.http.maxUrlBytes = 4096),
  },
  'intapi.html-content-type': {
    description: 'Every GET answers its JSON labelled text/html (an API behind a gateway that calls everything a web page).',
    apply: (b) => void (b.http.htmlGets = true),
  },
  'intapi.text-content-type': {
    description: 'GET /submissions/{id} labels its JSON body text/plain.',
    apply: (b) => void b.http.textPlainOperations.add('submissions.get'),
  },
  'intapi.crash-on-unknown-submission': {
    description: 'GET /submissions/{id} of an unknown id answers 500 with a non-JSON body.',
    apply: (b) => void b.http.crashOnUnknownId.add('submissions.get'),
  },
  'intapi.wrong-content-type-accepted': {
    description: 'A body of any content type (e.g. text/plain) is parsed as JSON instead of answering 415.',
    apply: (b) => void (b.http.contentTypes = 'any-as-json'),
  },
  'intapi.body-limit-unenforced': {
    description: 'Bodies up to 16 MiB are read instead of answering 413 above 1 MiB.',
    apply: (b) => void (b.http.bodyLimit = 16 * 1024 * 1024),
  },
  // Bodies (spec field tables, docs/decisions/intapi/reference-choices.md "Bodies and bounds")
  'intapi.unknown-body-field-accepted': {
    description: 'Unknown fields in a request body are ignored instead of answering 422.',
    apply: (b) => void (b.bodies.unknownFields = 'ignore'),
  },
  'intapi.not-object-unreasoned': {
    description: 'A body that is JSON but not an object (null, an array, a string) answers 422 with no reason in validations.',
    apply: (b) => void (b.bodies.notObjectReason = 'none'),
  },
  'intapi.null-optional-rejected': {
    description: 'An optional field sent as null answers 422 instead of counting as absent.',
    apply: (b) => void (b.bodies.nullOptional = 'reject'),
  },
  // Writes
  'intapi.create-submission-200': {
    description: 'Create submission answers 200 instead of 201.',
    apply: (b) => void (b.writes.createStatus.submission = 200),
  },
  'intapi.create-bank-200': {
    description: 'Create question bank answers 200 instead of 201.',
    apply: (b) => void (b.writes.createStatus.questionBank = 200),
  },
  'intapi.create-question-200': {
    description: 'Create question answers 200 instead of 201.',
    apply: (b) => void (b.writes.createStatus.question = 200),
  },
  'intapi.create-submission-ignores-unknown-user': {
    description: 'Create submission with a userId that does not exist answers 201 instead of 404.',
    apply: (b) => void (b.writes.submissionUser = 'any'),
  },
  'intapi.create-submission-ignores-unknown-template': {
    description: 'Create submission with a templateId that does not exist answers 201 (and stores it) instead of 404; userId is still checked.',
    apply: (b) => void (b.writes.submissionTemplate = 'any'),
  },
  'intapi.update-submission-201': {
    description: 'A successful submission update answers 201 instead of 200 (same body).',
    apply: (b) => void (b.writes.updateStatus.submission = 201),
  },
  'intapi.update-unknown-submission-creates': {
    description: 'PUT /submissions/{id} of an unknown id creates the submission instead of answering 404.',
    apply: (b) => void (b.writes.updateUnknownSubmission = 'create'),
  },
  'intapi.question-under-unknown-bank-201': {
    description: 'Create question under an unknown question bank answers 201 instead of 404.',
    apply: (b) => void (b.writes.questionUnderUnknownBank = 'answer-201'),
  },
  'intapi.duplicate-bank-id-accepted': {
    description: 'Create question bank with an existing id answers 201 and overwrites it instead of 409.',
    apply: (b) => void (b.writes.duplicateBankId = 'overwrite'),
  },
  'intapi.duplicate-question-id-accepted': {
    description: 'Create question with an id existing in that bank answers 201 and overwrites it instead of 409.',
    apply: (b) => void (b.writes.duplicateQuestionId = 'overwrite'),
  },
  'intapi.update-not-persisted': {
    description: 'Updates (submission, question bank, question) answer the new body but store nothing.',
    apply: (b) => void (b.writes.updatePersistence = 'not-stored'),
  },
  'intapi.rejected-create-stored': {
    description: 'Create submission answers 422 to an invalid body, but stores a record all the same.',
    apply: (b) => void (b.writes.rejectedCreate = 'stored'),
  },
  'intapi.update-keeps-absent-fields': {
    description: 'PUT merges: optional fields absent from the update body keep their old value instead of becoming null.',
    apply: (b) => void (b.writes.update = 'merge'),
  },
  // Reads
  'intapi.unknown-id-200': {
    description: 'GET /templates/{id} of an unknown id answers 200 with an empty template instead of 404.',
    apply: (b) => void b.http.unknownIdOk.add('templates.get'),
  },
  'intapi.course-resource-any-course': {
    description: 'GET /courses/{courseId}/resources/{resourceId} answers a resource of another course instead of 404.',
    apply: (b) => void (b.reads.courseResource = 'any-course'),
  },
  'intapi.enrollment-resources-unenrolled-200': {
    description: 'GET /users/{userId}/enrollments/{courseId}/resources answers 200 when the user is not enrolled.',
    apply: (b) => void (b.reads.enrollmentResources = 'any'),
  },
  // Responses
  'intapi.submission-response-missing-vendor': {
    description: 'Submission answers (single and list items) omit the `vendor` key.',
    apply: (b) => void b.responses.omitSubmissionFields.add('vendor'),
  },
  'intapi.null-fields-omitted': {
    description: 'Unset fields are left out of answers instead of being null.',
    apply: (b) => void (b.responses.nulls = 'omitted'),
  },
  'intapi.question-type-as-string': {
    description: 'Question answers carry questionType as the request string instead of the integer.',
    apply: (b) => void (b.responses.questionType = 'string'),
  },
  // Envelope (spec#paged-list-envelope-v2-list-operations)
  'intapi.envelope-returned-items-off': {
    description: 'Envelope returnedItems is the page length + 1.',
    apply: (b) => void (b.envelope.returnedItems = 'page-length-plus-one'),
  },
  'intapi.envelope-limit-echo-default': {
    description: 'Envelope limit is always 20, whatever _limit is in force.',
    apply: (b) => void (b.envelope.limit = 'default'),
  },
  'intapi.envelope-offset-echo-zero': {
    description: 'Envelope offset is always 0, whatever _offset is in force.',
    apply: (b) => void (b.envelope.offset = 'zero'),
  },
  'intapi.envelope-total-counts-page': {
    description: 'Envelope totalItems counts the page instead of the whole (filtered) collection.',
    apply: (b) => void (b.envelope.totalItems = 'page'),
  },
  'intapi.filtered-total-unfiltered': {
    description: 'With _filter, envelope totalItems counts the whole collection before the filter instead of the filtered collection.',
    apply: (b) => void (b.envelope.totalItems = 'unfiltered'),
  },
  // List parameters (public-facts "List parameters and envelope", docs/decisions/intapi/reference-choices.md "Lists")
  'intapi.paging-item-offset': {
    description: '_offset is treated as an item offset instead of a page number.',
    apply: (b) => void (b.lists.offsetUnit = 'item'),
  },
  'intapi.default-limit-10': {
    description: 'Without _limit (or the deprecated limit) a page holds 10 items and the envelope limit says 10, instead of the default 20.',
    apply: (b) => void (b.lists.defaultLimit = 10),
  },
  'intapi.limit-ignored': {
    description: 'Pages always hold the default 20 items whatever _limit says (the envelope still echoes _limit).',
    apply: (b) => void (b.lists.limit = 'default'),
  },
  'intapi.limit-max-unenforced': {
    description: '_limit above 1000 is accepted instead of answering 422.',
    apply: (b) => void (b.lists.maxLimit = Number.MAX_SAFE_INTEGER),
  },
  'intapi.offset-max-unenforced': {
    description: '_offset above 65535 is accepted instead of answering 422.',
    apply: (b) => void (b.lists.maxOffset = Number.MAX_SAFE_INTEGER),
  },
  'intapi.offset-negative-accepted': {
    description: 'A negative _offset is accepted (as the first page) instead of answering 422.',
    apply: (b) => void (b.lists.minOffset = Number.MIN_SAFE_INTEGER),
  },
  'intapi.list-params-invalid-accepted': {
    description: 'A non-integer _limit or _offset is treated as the default instead of answering 422.',
    apply: (b) => void (b.lists.nonInteger = 'default'),
  },
  'intapi.deprecated-params-ignored': {
    description: 'The deprecated limit/offset parameters are ignored.',
    apply: (b) => void (b.lists.deprecatedAliases = 'ignore'),
  },
  'intapi.paging-only-list-accepts-filter': {
    description: 'Question bank and question lists ignore _filter and _sort instead of answering 422.',
    apply: (b) => void (b.lists.pagingOnlyExtras = 'ignore'),
  },
  'intapi.bad-filter-accepted': {
    description: 'A _filter with a syntax error is ignored (unfiltered list) instead of answering 422.',
    apply: (b) => void (b.lists.filterSyntaxError = 'ignore'),
  },
  'intapi.sorted-page-restarts-ties': {
    description: 'A page of a filtered, sorted list that starts inside a group of ties on the first key starts at the group’s first record instead.',
    apply: (b) => void (b.lists.tiedPageStart = 'tie-group'),
  },
  'intapi.unfiltered-sorted-page-restarts-ties': {
    description: 'A page of an unfiltered, sorted list that starts inside a group of ties on the first key starts at the group’s first record instead.',
    apply: (b) => void (b.lists.tiedPageStart = 'tie-group-unfiltered'),
  },
  'intapi.filtered-page-ignores-limit': {
    description: 'A page of a filtered list without _sort holds every selected record from its start to the end instead of at most _limit.',
    apply: (b) => void (b.lists.filteredPageEnd = 'selection-end'),
  },
  'intapi.sorted-page-past-end-repeats-last': {
    description: 'A page of a sorted list that starts at or past its end holds the last page’s records again instead of none.',
    apply: (b) => void (b.lists.pastEndPage = 'last-page'),
  },
  'intapi.default-order-newest-first': {
    description: 'Lists without _sort come newest first instead of in creation order.',
    apply: (b) => void (b.lists.defaultOrder = 'newest-first'),
  },
  'intapi.list-stale-after-update': {
    description: 'Lists show each record as it was before its last update.',
    apply: (b) => void (b.lists.view = 'before-last-update'),
  },
  'intapi.v1-list-envelope': {
    description: 'The version 1 general resource list answers the paged envelope instead of a bare array.',
    apply: (b) => void (b.lists.v1Shape = 'envelope'),
  },
  'intapi.v2-list-bare-array': {
    description: 'The version 2 general resource list answers a bare array instead of the paged envelope.',
    apply: (b) => void (b.lists.v2Shape = 'array'),
  },
  'intapi.v1-ignores-filter': {
    description: 'The version 1 general resource list ignores _filter.',
    apply: (b) => void (b.lists.v1Filter = 'ignore'),
  },
  // _filter semantics (docs/decisions/intapi/reference-choices.md "_filter grammar")
  'intapi.filter-eq-case-insensitive': {
    description: '_filter eq compares strings case-insensitively.',
    apply: (b) => {
      b.lists.filter = {
        ...b.lists.filter,
        comparisons: {
          ...b.lists.filter.comparisons,
          eq: (value, literal) =>
            typeof value === 'string' && typeof literal === 'string' ? value.toLowerCase() === literal.toLowerCase() : COMPARISONS.eq(value, literal),
        },
      };
    },
  },
  'intapi.filter-ne-drops-null': {
    description: '_filter ne excludes records whose field is null.',
    apply: (b) => {
      b.lists.filter = {
        ...b.lists.filter,
        comparisons: { ...b.lists.filter.comparisons, ne: (value, literal) => value !== null && COMPARISONS.ne(value, literal) },
      };
    },
  },
  'intapi.filter-gt-as-ge': {
    description: '_filter gt behaves as ge.',
    apply: (b) => {
      b.lists.filter = { ...b.lists.filter, comparisons: { ...b.lists.filter.comparisons, gt: COMPARISONS.ge } };
    },
  },
  'intapi.filter-startswith-as-contains': {
    description: '_filter startswith matches the value anywhere in the field.',
    apply: (b) => {
      b.lists.filter = { ...b.lists.filter, functions: { ...b.lists.filter.functions, startswith: FUNCTIONS.substringof } };
    },
  },
  'intapi.filter-not-ignored': {
    description: '_filter `not` is a no-op.',
    apply: (b) => {
      b.lists.filter = { ...b.lists.filter, not: (operand) => operand };
    },
  },
  'intapi.filter-or-as-and': {
    description: '_filter `or` behaves as `and`.',
    apply: (b) => {
      b.lists.filter = { ...b.lists.filter, or: b.lists.filter.and };
    },
  },
  'intapi.filter-range-last-per-field': {
    description:
      'A _filter of ranges only (`cost ge 1 and cost lt 5`) keeps one range per field, the last one written, instead of their intersection, as a server that maps each field to one condition would.',
    apply: (b) => void (b.lists.rangesPerField = 'last'),
  },
  'intapi.filter-unknown-field-accepted': {
    description: '_filter on an unknown field reads it as null instead of answering 422.',
    apply: (b) => {
      b.lists.filter = { ...b.lists.filter, unknownField: 'as-null' };
    },
  },
  'intapi.field-names-case-sensitive': {
    description: 'Field names in _filter and _sort match case-sensitively (`Title` is unknown: 422).',
    apply: (b) => {
      b.lists.filter = { ...b.lists.filter, fieldNames: 'case-sensitive' };
      b.lists.sort = { ...b.lists.sort, fieldNames: 'case-sensitive' };
    },
  },
  // _sort
  'intapi.sort-ignored': {
    description: '_sort is checked (unknown fields still 422) but ignored: every list keeps creation order.',
    apply: (b) => {
      b.lists.sort = { ...b.lists.sort, keys: 'none' };
    },
  },
  'intapi.sort-desc-ignored': {
    description: 'The `-` prefix of _sort is ignored (always ascending).',
    apply: (b) => {
      b.lists.sort = { ...b.lists.sort, descending: 'ignore' };
    },
  },
  'intapi.sort-multi-ignores-second-key': {
    description: '_sort uses only its first field; later fields do not break ties.',
    apply: (b) => {
      b.lists.sort = { ...b.lists.sort, keys: 'first' };
    },
  },
  'intapi.sort-nulls-last': {
    description: '_sort puts nulls last in ascending order (first in descending).',
    apply: (b) => {
      b.lists.sort = { ...b.lists.sort, nulls: 'last' };
    },
  },
  // users and manager direct reports
  'intapi.is-manager-always-false': {
    description: 'Every user record answers IsManager false, also for users who have direct reports.',
    apply: (b) => void (b.users.isManager = 'always-false'),
  },
  'intapi.is-manager-stale': {
    description: 'IsManager is fixed as the server started: it does not follow updates of direct reports.',
    apply: (b) => void (b.users.isManager = 'as-seeded'),
  },
  'intapi.user-update-accepts-id': {
    description: 'PUT /users/{userId} ignores an `id` in the body instead of answering 422 naming it.',
    apply: (b) => void (b.users.idInUpdate = 'ignore'),
  },
  'intapi.user-upsert-accepts-id': {
    description: 'POST /users ignores an `id` in the body instead of answering 422 naming it.',
    apply: (b) => void (b.users.idInUpsert = 'ignore'),
  },
  'intapi.direct-reports-transitive': {
    description: "A manager's direct-report list holds every user below the manager (reports of reports too).",
    apply: (b) => void (b.users.directReports = 'transitive'),
  },
  'intapi.direct-reports-update-answers-before': {
    description: 'POST /managers/{managerId}/direct-reports stores the update but answers the direct reports as they were before it.',
    apply: (b) => void (b.users.updateAnswer = 'before'),
  },
  'intapi.direct-reports-on-v1': {
    description: 'The manager direct-report operations (version 2 only) are served with version 1 too.',
    apply: (b) => void (b.users.directReportVersions = 'v1-and-v2'),
  },
  // Course evaluations, countries and provinces
  'intapi.evaluations-on-v1': {
    description: 'The course evaluation operations (version 2 only) are served with x-api-version 1 instead of answering 404.',
    apply: (b) => void (b.evaluations.onV1 = 'served'),
  },
  'intapi.evaluation-answers-every-course': {
    description: "GET /courses/{courseId}/evaluation-answers answers every course's evaluation answers, not only that course's.",
    apply: (b) => void (b.evaluations.answers = 'every-course'),
  },
  'intapi.evaluation-question-get-neighbour': {
    description: 'GET /courses/{courseId}/evaluation-questions/{questionId} answers the next question of the course instead of the one asked.',
    apply: (b) => void (b.evaluations.get = 'neighbour'),
  },
  'intapi.province-townships': {
    description: 'Province records carry an empty `townships` array (removed in release 5.128.0).',
    apply: (b) => void (b.provinces.townships = 'present'),
  },
  'intapi.province-code-without-country': {
    description: 'Province codes are answered without their country prefix (`ON` instead of `CA-ON`).',
    apply: (b) => void (b.provinces.code = 'subdivision-only'),
  },
  'intapi.provinces-of-next-country': {
    description: 'GET /provinces?countryId= answers the provinces of the next country in the country list.',
    apply: (b) => void (b.provinces.countryFilter = 'next-country'),
  },
  'intapi.province-get-neighbour': {
    description: 'GET /provinces/{id} answers the next province of the data instead of the one asked.',
    apply: (b) => void (b.provinces.get = 'neighbour'),
  },
  'intapi.provinces-unknown-country-200': {
    description: 'GET /provinces with an unknown countryId answers 200 and an empty list instead of 404.',
    apply: (b) => void (b.provinces.unknownCountry = 'empty'),
  },
  // OAuth 2.0 authorization-code flow (public-facts#authentication-integration-api)
  'intapi.oauth-code-reusable': {
    description: 'An OAuth authorization code can be exchanged for tokens again (consuming it records nothing).',
    apply: (b) => void (b.oauth.codeReuse = 'allowed'),
  },
  'intapi.oauth-any-redirect-uri': {
    description: 'The OAuth authorization request accepts any redirect_uri, not only the registered one.',
    apply: (b) => void (b.oauth.redirectUri = 'any'),
  },
  'intapi.oauth-no-refresh-token': {
    description: 'The OAuth token answer carries no refresh token.',
    apply: (b) => void (b.oauth.refreshToken = 'not-issued'),
  },
  'intapi.oauth-access-token-8h': {
    description: 'OAuth access tokens last 8 hours (expires_in 28800) instead of 4.',
    apply: (b) => void (b.oauth.accessTokenTtl = 8 * 3600),
  },
  'intapi.oauth-token-not-accepted': {
    description: 'The Integration API refuses OAuth access tokens (401) as if they were unknown tokens.',
    apply: (b) => void (b.oauth.intapiAccepts = 'ignored'),
  },
  // Groups, enrollments and sessions, lifecycle rules
  'intapi.groups-on-v1': {
    description: 'Group create, update, assign, unassign and users list are served with x-api-version 1 instead of answering 404.',
    apply: (b) => void (b.enrollments.groupsOnV1 = 'served'),
  },
  'intapi.automatic-group-assignable': {
    description: 'Users are assigned to and unassigned from an automatic group instead of answering 409.',
    apply: (b) => void (b.enrollments.automaticGroupAssign = 'applied'),
  },
  'intapi.group-assignment-not-stored': {
    description: 'Assign answers the changed group but stores nothing: the group and its users list keep the old members.',
    apply: (b) => void (b.enrollments.assignment = 'not-stored'),
  },
  'intapi.group-update-not-stored': {
    description: 'Update group answers the updated group but stores nothing: get answers the old name and description.',
    apply: (b) => void (b.enrollments.groupUpdate = 'not-stored'),
  },
  'intapi.group-unassignment-not-stored': {
    description: 'Unassign answers the changed group but stores nothing: the group and its users list keep the user.',
    apply: (b) => void (b.enrollments.unassignment = 'not-stored'),
  },
  'intapi.multi-session-replaces': {
    description: 'Enrolling in a second session of a multi-session course replaces the first session instead of keeping both.',
    apply: (b) => void (b.enrollments.multiSession = 'replace'),
  },
  'intapi.cancel-session-ignored': {
    description: '`cancelSession=true` answers 200 but the user keeps the session.',
    apply: (b) => void (b.enrollments.cancelSession = 'ignore'),
  },
  'intapi.deleted-course-enrollments-listed': {
    description: "Enrollments of a deleted course are listed among the user's enrollments.",
    apply: (b) => void (b.enrollments.deletedCourses = 'listed'),
  },
  'intapi.negative-credits-applied': {
    description: 'An enrollment created with negative credits stores (and answers) them.',
    apply: (b) => void (b.enrollments.negativeCredits = 'applied'),
  },
  'intapi.time-spent-ticks-accepted': {
    description: '`timeSpentTicks` in an enrollment create is accepted (and ignored) instead of answering 422 naming it.',
    apply: (b) => void (b.enrollments.timeSpentTicks = 'ignore'),
  },
  'intapi.re-enroll-no-email': {
    description: 'A re-enrollment (`reEnroll=true`) sends no course enrollment email.',
    apply: (b) => void (b.enrollments.reEnrollEmails = 0),
  },
  'intapi.re-enroll-two-emails': {
    description: 'A re-enrollment (`reEnroll=true`) sends the course enrollment email twice.',
    apply: (b) => void (b.enrollments.reEnrollEmails = 2),
  },
  'intapi.enrollment-status-as-label': {
    description: "Enrollment status is answered as its label (`NotStarted`) instead of public-facts' integer.",
    apply: (b) => void (b.enrollments.statusShape = 'label'),
  },
  // Automatic enrollment rules (spec#what-the-service-does 5, spec#limits)
  'intapi.rule-enrollment-never': {
    description: 'The rule batches never apply: a user whose job title matches the automatic enrollment rule is never enrolled.',
    apply: (b) => void (b.enrollmentRules.apply = 'never'),
  },
  'intapi.rule-enrollment-late': {
    description: 'A rule batch applies only the user changes made more than 10 minutes before it: rule enrollments come after the delay limit.',
    apply: (b) => void (b.enrollmentRules.lagMs = RULE_DELAY_LIMIT_MS),
  },
  'intapi.rule-enrolls-everyone': {
    description: "The automatic enrollment rule enrolls every changed user in its course, whatever the user's job title.",
    apply: (b) => void (b.enrollmentRules.match = 'everyone'),
  },
  'intapi.rule-never-unenrolls': {
    description: 'A user whose job title stops matching the rule keeps the enrollment the rule made.',
    apply: (b) => void (b.enrollmentRules.unenroll = 'keep'),
  },
} satisfies Record<string, NamedFault>;

export type IntapiNamedFaultName = keyof typeof NAMED_FAULTS;
export type IntapiFaultName =
  | IntapiNamedFaultName
  | `intapi.skip-rule:${string}`
  | `intapi.exclusive-bound:${string}`
  | `intapi.unrouted:${string}`
  | `intapi.unknown-id-ok:${string}`
  | `intapi.lossy-store:${string}`
  | `intapi.key-unchecked:${string}`
  | `intapi.v1-served:${string}`;

const BODY_SPECS = Object.values(INTAPI_BODIES);

/** `intapi.skip-rule:<operation>.<field>.<kind>`: one per rule of the bounds tables. */
const SKIP_RULE_FAULTS: Record<string, NamedFault> = Object.fromEntries(
  BODY_SPECS.flatMap(listRules).map((rule) => [
    `intapi.skip-rule:${rule.id}`,
    {
      description: `Disables the ${rule.kind} rule of ${rule.field} in ${rule.operation}: a value breaking it is accepted and stored.`,
      apply: (b: Behaviour) => void b.bodies.skip.add(rule.id),
    },
  ]),
);

/** `intapi.exclusive-bound:<operation>.<field>`: one per field with a length or numeric bound. */
const EXCLUSIVE_BOUND_FAULTS: Record<string, NamedFault> = Object.fromEntries(
  BODY_SPECS.flatMap(listBoundedFields).map((field) => [
    `intapi.exclusive-bound:${field}`,
    {
      description: `Makes the bounds of ${field} exclusive: a value exactly at a bound is refused.`,
      apply: (b: Behaviour) => void b.bodies.exclusive.add(field),
    },
  ]),
);

/** A route path as docs/decisions/intapi/reference-choices.md writes it: `/submissions/{id}`. */
const shownPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

/** `intapi.unrouted:<operationId>`: one per operation the server serves (intapi/catalogue.ts). */
const UNROUTED_FAULTS: Record<string, NamedFault> = Object.fromEntries(
  INTAPI_OPERATIONS.map((operation) => [
    `intapi.unrouted:${operation.id}`,
    {
      description: `${operation.method} ${shownPath(operation.path)} (${operation.id}) is not routed: it answers 404 as an unknown route, in every version.`,
      apply: (b: Behaviour) => void b.http.unrouted.add(operation.id),
    },
  ]),
);

/** `intapi.unknown-id-ok:<operationId>`: one per operation with a path identifier. */
const UNKNOWN_ID_OK_FAULTS: Record<string, NamedFault> = Object.fromEntries(
  INTAPI_OPERATIONS.filter((operation) => operation.pathIds.length > 0).map((operation) => [
    `intapi.unknown-id-ok:${operation.id}`,
    {
      description:
        `${operation.method} ${shownPath(operation.path)} answers an unknown ${operation.pathIds.join(' or ')} (a well-formed GUID) with 200 ` +
        'and a blank record (or an empty list or envelope), storing nothing, instead of 404.',
      apply: (b: Behaviour) => void b.http.unknownIdOk.add(operation.id),
    },
  ]),
);

/** `intapi.key-unchecked:<operationId>`: one per operation, x-api-key included (public-facts: missing or invalid gets 401). */
const KEY_UNCHECKED_FAULTS: Record<string, NamedFault> = Object.fromEntries(
  INTAPI_OPERATIONS.map((operation) => [
    `intapi.key-unchecked:${operation.id}`,
    {
      description: `${operation.method} ${shownPath(operation.path)} serves a request without x-api-key, or with a wrong one, instead of answering 401.`,
      apply: (b: Behaviour) => void b.auth.keyUnchecked.add(operation.id),
    },
  ]),
);

/** `intapi.v1-served:<operationId>`: one per version-2-only operation (docs/decisions/intapi/reference-choices.md "Versions": 404 with version 1). */
const V1_SERVED_FAULTS: Record<string, NamedFault> = Object.fromEntries(
  INTAPI_OPERATIONS.filter((operation) => operation.v2Only).map((operation) => [
    `intapi.v1-served:${operation.id}`,
    {
      description: `${operation.method} ${shownPath(operation.path)}, a version-2-only operation, is served with x-api-version 1 instead of answering 404.`,
      apply: (b: Behaviour) => void b.versions.servedOnV1.add(operation.id),
    },
  ]),
);

/** `intapi.lossy-store:<operation>.<field>`: one per bounded, enum, date-time or client-id field of a create/update body. */
const LOSSY_STORE_FAULTS: Record<string, NamedFault> = Object.fromEntries(
  BODY_SPECS.flatMap(listLossyFields).map(({ id, alteration }) => [
    `intapi.lossy-store:${id}`,
    {
      description: `Stores (and answers) ${id} as another valid value than the one sent: ${alteration}.`,
      apply: (b: Behaviour) => void b.writes.lossy.add(id),
    },
  ]),
);

const GENERATED_FAMILIES: readonly (readonly [string, Record<string, NamedFault>])[] = [
  ['intapi.skip-rule:<operation>.<field>.<kind>', SKIP_RULE_FAULTS],
  ['intapi.exclusive-bound:<operation>.<field>', EXCLUSIVE_BOUND_FAULTS],
  ['intapi.unrouted:<operationId>', UNROUTED_FAULTS],
  ['intapi.unknown-id-ok:<operationId>', UNKNOWN_ID_OK_FAULTS],
  ['intapi.lossy-store:<operation>.<field>', LOSSY_STORE_FAULTS],
  ['intapi.key-unchecked:<operationId>', KEY_UNCHECKED_FAULTS],
  ['intapi.v1-served:<operationId>', V1_SERVED_FAULTS],
];

const ALL_FAULTS: Readonly<Record<string, NamedFault>> = {
  ...NAMED_FAULTS,
  ...Object.fromEntries(GENERATED_FAMILIES.flatMap(([, faults]) => Object.entries(faults))),
};

/** The catalogue: every fault name with its family and description. */
export const INTAPI_FAULTS: Readonly<Record<string, FaultInfo>> = faultCatalogue(ALL_FAULTS);

/**
 * Every valid fault name: the named faults, then the generated `intapi.skip-rule:`, `intapi.exclusive-bound:`,
 * `intapi.unrouted:`, `intapi.unknown-id-ok:`, `intapi.lossy-store:`, `intapi.key-unchecked:` and `intapi.v1-served:` ones.
 */
export function listIntapiFaults(): string[] {
  return Object.keys(ALL_FAULTS);
}

export function isIntapiFaultName(name: string): name is IntapiFaultName {
  return Object.hasOwn(ALL_FAULTS, name);
}

/** The reference behaviour with the given faults applied; throws on an unknown fault name. */
export function intapiBehaviourWithFaults(faults: readonly string[]): Behaviour {
  return applyFaults(ALL_FAULTS, faults, referenceBehaviour(), (unknown) => {
    const families = GENERATED_FAMILIES.map(([pattern, faults]) => `${pattern} (${Object.keys(faults).length})`);
    return (
      `Unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Known faults: ${Object.keys(NAMED_FAULTS).join(', ')}, ` +
      `${families.slice(0, -1).join(', ')} and ${families.at(-1) ?? ''}; list them all with listIntapiFaults().`
    );
  });
}

/** The entries of the table (paths such as `lists.sort.descending`, as intapi/trace.ts names them)
 * that `fault` changes: what a request must read to be answered differently with the fault on. */
export function intapiFaultedPaths(fault: string): string[] {
  const changed: string[] = [];
  const same = (a: unknown, b: unknown): boolean =>
    a instanceof Set && b instanceof Set
      ? a.size === b.size && [...a].every((v) => b.has(v))
      : a instanceof Map && b instanceof Map
        ? a.size === b.size && [...a].every(([k, v]) => b.has(k) && same(v, b.get(k)))
        : Array.isArray(a) && Array.isArray(b)
          ? a.length === b.length && a.every((v, i) => same(v, b[i]))
          : Object.is(a, b);
  const isTable = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !(v instanceof Set) && !(v instanceof Map) && !Array.isArray(v);
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (isTable(a) && isTable(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[key], b[key], path === '' ? key : `${path}.${key}`);
    } else if (!same(a, b)) changed.push(path);
  };
  walk(referenceBehaviour(), intapiBehaviourWithFaults([fault]), '');
  return changed;
}
