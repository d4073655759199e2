/**
 * The sentences of the specification that bind the server to the Integration API's MUST checks
 * (Family.binds): the first rule whose pattern matches a check's id gives its sentence. The checks a
 * table generates (every list × every list rule, every field × every bound) share their table's
 * sentence. Each quotes learning-platform-apis.md, naming its heading.
 */
import type { BindingRule } from '../family.js';

const ERRORS_404 = 'spec, Errors: "when an identifier in the path does not exist, the response is 404."';
const ERRORS_422 = 'spec, Errors: "When the request or list parameters fail validation, the response is 422 with the reasons in `validations`."';
const FIELD_BOUNDS = 'spec, Limits: "Field sizes and numeric bounds | see the field tables | submission, question bank, question create and update"';
const LIST_PARAMETERS = 'spec, Integration API: common list parameters';
const ENVELOPE = 'spec, Paged list envelope (v2 list operations)';

export const INTAPI_BINDS: readonly BindingRule[] = [
  // Errors: 404 for an identifier of the path that does not exist, 422 for parameters that fail validation.
  { checks: /\.(unknown-[a-z]+|other-course)-404$/, binds: ERRORS_404 },
  { checks: /\.non-guid-id$/, binds: ERRORS_422 },
  { checks: /\.params\.(limit|offset)-[a-z-]+$|\.filter\.invalid-422$/, binds: ERRORS_422 },
  { checks: /\.not-json-4xx$/, binds: ERRORS_422 },
  { checks: /\.(create|update)\.body\.not-object$/, binds: ERRORS_422 },
  // The field tables (every field × every bound): a value outside them fails validation (422), a value
  // within them is accepted.
  { checks: /\.(create|update)\.[A-Za-z.]+\.accepts-bounds$/, binds: FIELD_BOUNDS },
  {
    checks: /\.submissions\.update\.(userId|templateId)\.not-accepted$/,
    binds:
      'spec, Integration API: submission (v2): "userId | string (guid) | required, non-empty | not accepted"; "templateId | string (guid) | required, non-empty | not accepted"',
  },
  {
    checks: /\.question-banks\.update\.id\.not-accepted$/,
    binds: 'spec, Integration API: question bank (v2): "id | string (guid) | optional; generated when absent | not accepted"',
  },
  { checks: /\.(create|update)\.[A-Za-z.]+\.(wrong-type|above-max|below-min|required|invalid-format|outside-enum)$/, binds: `${ERRORS_422}; ${FIELD_BOUNDS}` },
  // The paged envelope's fields.
  { checks: /\.envelope\.total-items$/, binds: `${ENVELOPE}: "totalItems | integer (int32) | total items in the unbounded collection"` },
  { checks: /\.envelope\.returned-items$/, binds: `${ENVELOPE}: "returnedItems | integer (int32) | items in this page"` },
  { checks: /\.envelope\.limit-echo$/, binds: `${ENVELOPE}: "limit | integer (int32) | current page size"` },
  { checks: /\.envelope\.offset-echo$/, binds: `${ENVELOPE}: "offset | integer (int32) | current offset"` },
  // The common list parameters.
  { checks: /\.limit\.page-size$/, binds: `${LIST_PARAMETERS}: "_limit | query | string | maximum number of items in the current page"` },
  {
    checks: /\.paging\.(walk-once|filtered-walk-once|sorted-walk-once|filtered-sorted-walk-once)$/,
    binds: `${LIST_PARAMETERS}: "_offset | query | string | number of pages to offset into the collection"`,
  },
  {
    checks: /\.sort\.(ascending|descending|multi-key)$/,
    binds: `${LIST_PARAMETERS}: "_sort | query | string | comma-separated field names; only fields that allow sorting; a prefix on the field name selects descending order"`,
  },
  {
    checks: /\.filter\.matches-model$/,
    binds: `${LIST_PARAMETERS}: "_filter | query | string | OData-style filter; only fields that allow filtering. Operators: eq, ne, gt, ge, lt, le, and, or, not, parentheses"`,
  },
  // The success status of each operation, from its table.
  {
    checks: /\.resources\.[a-z-]+\.status-200$/,
    binds: 'spec, Errors: "200 | successful get, list and update of question banks and questions; all resource operations"',
  },
  {
    checks: /\.(submissions|templates)\.(list|get)\.status-200$/,
    binds:
      'spec, Integration API: submissions and templates (v2): "List submissions | … | 200 paged envelope (key `submissions`)"; "Get submission by id | … | 200 submission"; "List templates | … | 200 paged envelope (key `templates`)"; "Get template by id | … | 200 template"',
  },
  {
    checks: /\.(question-banks|questions)\.(list|get|update)\.status-200$/,
    binds: 'spec, Errors: "200 | successful get, list and update of question banks and questions"',
  },
  { checks: /\.(question-banks|questions)\.create\.status-201$/, binds: 'spec, Errors: "201 | create question bank; create question bank question"' },
  // What the operations for the current user act on.
  {
    checks: /\.is-current-user$/,
    binds: 'spec, Authentication (Integration API): "The operations \'for the current authenticated user\' act on the identity behind the credentials."',
  },
  // Behaviour tied to lifecycle events.
  { checks: /\.lifecycle\.deleted-course-enrollments-hidden$/, binds: 'spec, States and transitions: "Enrollments of deleted courses are not returned."' },
  { checks: /\.lifecycle\.negative-credits-not-applied$/, binds: 'spec, States and transitions: "Negative credits are not applied to enrollments."' },
  {
    checks: /\.lifecycle\.re-enroll-sends-one-email$/,
    binds: 'spec, States and transitions: "a re-enrollment of a user in a course causes a course enrollment email to be sent."',
  },
  {
    checks: /\.lifecycle\.rule-enrollment-within-delay$/,
    binds:
      'spec, What the service does: "Content such as courses or other assets whose access is controlled by dynamic rules … reacts to user changes with a delay of up to 10 minutes"',
  },
  // Operations named by release notes.
  {
    checks: /\.enrollments\.session\.multi-session-keeps-both$/,
    binds:
      'spec, Integration API: operations named by release notes: "POST | /users/{userId}/enrollments/{courseId}/session/{sessionId} | enroll in a session; multi-session enrollment supported"',
  },
  {
    checks: /\.managers\.direct-reports\.update\.answers-updated-list$/,
    binds:
      'spec, Integration API: operations named by release notes: "POST | /managers/{managerId}/direct-reports | update and return direct reports of a manager; v2 only"',
  },
  { checks: /\.provinces\.no-townships$/, binds: 'spec, Versioning: "5.128.0 (the provinces endpoint no longer returns townships, in line with ISO 3166-2)"' },
  // Versions.
  {
    checks: /\.v1\.resources\.list\.bare-array$|\.v2\.resources\.list\.envelope$/,
    binds: 'spec, Versioning: "Its general resource list returns a bare array, while version 2 returns the paged envelope."',
  },
  {
    checks: /^[a-z]+\.versions\.resources\.list\.same-items$/,
    binds: 'spec, Versioning: "Version 1 shows the learning-resource operations (the same eight operations as in version 2)."',
  },
  // The stateful model of submissions: what was written is what is read.
  {
    checks: /\.stateful\.model$/,
    binds: 'spec, Integration API: submission (v2): "The response for a single submission and each item of a submission list carry all fields above"',
  },
  // Invariants: every answer of every check.
  {
    checks: /\.invariant\.no-5xx$/,
    binds: 'spec, Errors: the statuses the specification lists for the operations ("200", "201", "403", "404", "409", "422"), none of them 5xx',
  },
  { checks: /\.invariant\.json-content-type$/, binds: 'spec, What the service does: "The Integration API is a versioned JSON API."' },
  {
    checks: /\.invariant\.success-body-matches-contract$/,
    binds: 'spec, Resources and their fields: the field tables of resource, submission, template, question bank and question, and the paged list envelope',
  },
  {
    checks: /\.invariant\.error-body-matches-contract$/,
    binds: 'spec, Errors: "The body of error responses has the shape given in Resources and their fields (validations, code, message, term, _meta)."',
  },
];
