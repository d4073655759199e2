/**
 * The JSON Schema (2020-12) of a target profile. It lives here as a module so that it ships with
 * the compiled code; `src/profile/profile.schema.json` is the same schema as a file, for editors and
 * readers, and tests/profile keeps the two equal (`vitest run tests/profile -u` rewrites the file).
 *
 * Every object is closed (`additionalProperties: false`) so that a misspelt key is an error, not
 * a silently ignored setting. Every key but `name` is optional: the reference profile's values are
 * the defaults (src/profile/defaults.ts).
 */
import { HTTP_METHODS, OPERATION_IDS } from './operations.js';

/** Fields that a target may allow in `_filter` and `_sort`, per collection (spec field tables). */
export const RESOURCE_FIELDS = ['id', 'name', 'description', 'file'] as const;
export const TEMPLATE_FIELDS = ['id', 'name', 'isActive'] as const;
/** The user record's fields (DEVELOPERS.md "Users and managers"; `IsManager` from the specification). */
export const USER_FIELDS = ['id', 'username', 'firstName', 'lastName', 'email', 'managerId', 'jobTitle', 'IsManager'] as const;
/** The group fields the reference server lists by (issue 8; the group's shape is its choice). */
export const GROUP_FIELDS = ['id', 'name', 'description', 'groupType'] as const;
export const SUBMISSION_FIELDS = [
  'id',
  'userId',
  'templateId',
  'title',
  'completionDate',
  'status',
  'cost',
  'credits',
  'description',
  'expiryDate',
  'startDate',
  'score',
  'grade',
  'totalTimeSpent',
  'vendor',
  'vendorAddress',
] as const;

/** spec#limits: "Dynamic-rule processing delay: up to 10 minutes" (records.ruleEnrollment.withinMs). */
export const RULE_DELAY_LIMIT_MS = 10 * 60 * 1000;

export const ENV_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
export const GUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';
/** An absolute http(s) URL without query or fragment. */
export const BASE_URL_PATTERN = '^https?://[^/?#\\s]+[^?#\\s]*$';
export const PATH_PATTERN = '^/[^?#\\s]*$';

/** What a failed `pattern` means, for error messages. */
export const PATTERN_MEANINGS: Readonly<Record<string, string>> = {
  [ENV_NAME_PATTERN]: 'an environment variable name',
  [GUID_PATTERN]: 'a guid',
  [BASE_URL_PATTERN]: 'an absolute http or https URL without query or fragment',
  [PATH_PATTERN]: 'a path starting with /',
};

const fieldList = (fields: readonly string[]) => ({
  type: 'array',
  uniqueItems: true,
  items: { type: 'string', enum: fields },
});
const listFields = (collection: string, fields: readonly string[]) => ({
  type: 'object',
  description: `Fields of ${collection} the target allows in _filter and _sort.`,
  additionalProperties: false,
  properties: { filterable: fieldList(fields), sortable: fieldList(fields) },
});
const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  ...extra,
  properties,
});

/** RFC 7644 §3.4.2.2: the comparison operators (Table 3) and logical operators (Table 4) of a filter. */
export const SCIM_FILTER_OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'pr', 'gt', 'ge', 'lt', 'le'] as const;
export const SCIM_FILTER_LOGICAL = ['and', 'or', 'not'] as const;

/** The SCIM endpoints specification rule 4 names as unsupported. */
export const SCIM_UNSUPPORTED_ENDPOINTS = ['/Me', '/ServiceProviderConfig', '/ResourceTypes', '/Bulk', '/.search'] as const;

export const PROFILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'lp:profile',
  title: 'lp-conformance target profile',
  description:
    'Where the target is, how to authenticate (by environment variable names), the records the suites read, ' +
    'the method and path of each operation, and the behaviour the target declares where the specification says "not shown".',
  $defs: {
    envRef: closed(
      { env: { type: 'string', pattern: ENV_NAME_PATTERN } },
      { required: ['env'], description: 'A secret, named by the environment variable that holds it.' },
    ),
    guid: { type: 'string', pattern: GUID_PATTERN },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    family: closed({ baseUrl: { type: 'string', pattern: BASE_URL_PATTERN } }, { required: ['baseUrl'] }),
    familyCredentials: closed(
      {
        token: { $ref: '#/$defs/envRef', description: 'A ready bearer token.' },
        username: { $ref: '#/$defs/envRef', description: "The family's token exchange: username." },
        password: { $ref: '#/$defs/envRef', description: "The family's token exchange: password." },
      },
      {
        dependentRequired: { username: ['password'], password: ['username'] },
        dependentSchemas: { token: { type: 'object', properties: { username: false, password: false } } },
      },
    ),
    colour: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$', description: 'A colour as #rrggbb.' },
    route: closed(
      { method: { type: 'string', enum: HTTP_METHODS }, path: { type: 'string', pattern: PATH_PATTERN } },
      { description: "Method and path of an operation; the path keeps the default path's {parameters}." },
    ),
  },
  ...closed(
    {
      name: { type: 'string', minLength: 1 },
      families: closed({
        intapi: { $ref: '#/$defs/family', description: 'Integration API; `--target URL` replaces its baseUrl.' },
        scim: { $ref: '#/$defs/family', description: 'SCIM 2.0 API; default: the Integration API base URL + /scim/v2.' },
        learner: { $ref: '#/$defs/family', description: 'Learner-facing API; default: the Integration API base URL + /api/rest/v2.' },
      }),
      credentials: closed(
        {
          apiKey: { $ref: '#/$defs/envRef', description: 'Sent as x-api-key.' },
          username: { $ref: '#/$defs/envRef', description: 'POST /authenticate body.' },
          password: { $ref: '#/$defs/envRef', description: 'POST /authenticate body.' },
          privateKey: { $ref: '#/$defs/envRef', description: 'POST /authenticate body.' },
          token: { $ref: '#/$defs/envRef', description: 'A token issued elsewhere, instead of username, password and privateKey.' },
          scim: {
            $ref: '#/$defs/familyCredentials',
            description: 'SCIM: a bearer token (default LPC_SCIM_TOKEN), or username and password for the token exchange (operation scim.auth.token).',
          },
          learner: {
            $ref: '#/$defs/familyCredentials',
            description: "Learner API: a learner's username and password (default LPC_LEARNER_USERNAME, LPC_LEARNER_PASSWORD), or a learner token.",
          },
          oauth: closed(
            {
              clientId: { $ref: '#/$defs/envRef', description: 'OAuth 2.0 client id (default LPC_OAUTH_CLIENT_ID).' },
              clientSecret: { $ref: '#/$defs/envRef', description: 'OAuth 2.0 client secret (default LPC_OAUTH_CLIENT_SECRET).' },
              refreshToken: { $ref: '#/$defs/envRef', description: 'A refresh token issued to the client, for a target whose log-in the suite cannot drive.' },
            },
            { description: "The OAuth 2.0 client of the authorization-code flow; the log-in uses the Integration API's username and password." },
          ),
        },
        {
          dependentRequired: {
            username: ['password', 'privateKey'],
            password: ['username', 'privateKey'],
            privateKey: ['username', 'password'],
          },
          dependentSchemas: {
            token: { type: 'object', properties: { username: false, password: false, privateKey: false } },
          },
        },
      ),
      records: closed(
        {
          userId: { $ref: '#/$defs/guid', description: 'The authenticated user.' },
          otherUserId: { $ref: '#/$defs/guid', description: 'A user other than the authenticated one.' },
          courseId: { $ref: '#/$defs/guid', description: 'A course with resources.' },
          enrollment: closed(
            { userId: { $ref: '#/$defs/guid' }, courseId: { $ref: '#/$defs/guid' } },
            { required: ['userId', 'courseId'], description: 'A user enrolled in a course with resources.' },
          ),
          templateId: { $ref: '#/$defs/guid', description: 'An active template.' },
          playerCourseId: { $ref: '#/$defs/guid', description: 'The course the player checks open; default: the first catalog course with lessons and tags.' },
          managerId: { $ref: '#/$defs/guid', description: 'A user with direct reports, some of whom have direct reports of their own.' },
          learner: closed(
            { userId: { $ref: '#/$defs/guid' }, email: { type: 'string', minLength: 3 } },
            { required: ['userId', 'email'], description: 'A user the enrollment checks enroll and re-enroll, and the address their mail goes to.' },
          ),
          multiSessionCourse: closed(
            {
              courseId: { $ref: '#/$defs/guid' },
              sessionIds: { type: 'array', items: { $ref: '#/$defs/guid' }, minItems: 2, maxItems: 2, uniqueItems: true },
            },
            { required: ['courseId', 'sessionIds'], description: 'A multi-session course and two of its sessions.' },
          ),
          deletedCourseEnrollment: closed(
            { userId: { $ref: '#/$defs/guid' }, courseId: { $ref: '#/$defs/guid' } },
            { required: ['userId', 'courseId'], description: "A user's enrollment in a course that has been deleted." },
          ),
          ruleEnrollment: closed(
            {
              courseId: { $ref: '#/$defs/guid', description: 'The course the rule enrolls in.' },
              property: { enum: ['jobTitle'], description: 'The user property the rule reads.' },
              value: { type: 'string', minLength: 1, maxLength: 255, description: "The property's value that the rule enrolls." },
              withinMs: {
                type: 'integer',
                minimum: 1,
                maximum: RULE_DELAY_LIMIT_MS,
                description: 'How long after a user change its effect may come, in ms: at most (and by default) the 10 minutes of spec#limits.',
              },
              unenrolls: { type: 'boolean', description: 'Whether a user who stops matching loses the enrollment the rule made (default true).' },
            },
            {
              required: ['courseId', 'property', 'value'],
              description: 'An automatic enrollment rule of the target: users whose property equals the value are enrolled in the course.',
            },
          ),
        },
        { description: 'Records the suites read but cannot create; a check that needs an absent one is skipped.' },
      ),
      player: {
        description: 'The course player page, or `none` when the target has none (the player checks are skipped).',
        oneOf: [
          { const: 'none' },
          closed({
            url: {
              type: 'string',
              pattern: '^(\\{target\\}|https?://)',
              description: 'URL template: {target} (the Integration API base URL), {courseId}, {token} (a learner token).',
            },
            selectors: closed(
              Object.fromEntries(['root', 'header', 'tag', 'lesson', 'play', 'errorDialog', 'errorTitle'].map((k) => [k, { type: 'string', minLength: 1 }])),
              { description: 'CSS selectors of the page: root, header, tag, lesson, play (inside a lesson), errorDialog, errorTitle.' },
            ),
            defaultTheme: closed(
              { primaryColor: { $ref: '#/$defs/colour' }, backgroundColor: { $ref: '#/$defs/colour' } },
              { description: "The theme without department branding: the header's and the root's computed background colours." },
            ),
          }),
        ],
      },
      mailbox: closed(
        { api: { type: 'string', pattern: '^https?://', description: 'Base URL of a Mailpit-style API (GET <api>/api/v1/messages).' } },
        { required: ['api'], description: "Where the target's mail can be read; without it the mail checks are skipped." },
      ),
      operations: closed(Object.fromEntries(OPERATION_IDS.map((id) => [id, { $ref: '#/$defs/route' }]))),
      expectations: closed({
        scim: closed({
          unsupportedStatus: { $ref: '#/$defs/status', description: 'Status of the unsupported endpoints (specification rule 4); RFC 7644 names 501.' },
          unsupported: {
            type: 'array',
            uniqueItems: true,
            items: { type: 'string', enum: SCIM_UNSUPPORTED_ENDPOINTS },
            description: 'The endpoints of specification rule 4 the target does not support; leave out those it serves.',
          },
          patchSuccess: {
            enum: [200, 204, 'either'],
            description: 'A successful PATCH: 200 with the resource, 204, or either (RFC 7644 §3.5.2).',
          },
          itemsPerPage: { type: 'string', enum: ['returned', 'either'], description: 'itemsPerPage is the number returned, or may be the count asked for.' },
          addUnmatchedValueFilter: {
            type: 'string',
            enum: ['noTarget', 'creates', 'either'],
            description: 'A PATCH add whose value filter matches nothing: 400 noTarget, creates the value, or either.',
          },
          sortSubAttributeStatus: {
            type: 'integer',
            enum: [0, 400, 200],
            description: 'sortBy on a sub-attribute of a multi-valued attribute (emails.type): 400, 200, or 0 (not checked).',
          },
          sort: { type: 'boolean', description: 'Whether the target sorts (sortBy/sortOrder).' },
          filter: closed(
            {
              operators: { type: 'array', uniqueItems: true, items: { type: 'string', enum: SCIM_FILTER_OPERATORS } },
              logical: { type: 'array', uniqueItems: true, items: { type: 'string', enum: SCIM_FILTER_LOGICAL } },
              attributes: {
                oneOf: [
                  { const: 'all' },
                  { type: 'array', uniqueItems: true, minItems: 1, items: { type: 'string', pattern: '^[A-Za-z$][A-Za-z0-9$_.:-]*$' } },
                ],
                description: 'Top-level attribute names a filter may name (emails covers emails.value), or all.',
              },
              valuePaths: { type: 'boolean', description: 'Value paths such as emails[type eq "work"].' },
            },
            { description: "What the target's filter supports (RFC 7644 §3.4.2.2); a filter outside it may be refused with 400 invalidFilter." },
          ),
          defaultCount: {
            type: 'integer',
            minimum: 1,
            description: 'The page size of a list without count (RFC 7644 §3.4.2.4 leaves it to the provider; the platform: 20).',
          },
        }),
        learner: closed({
          branding: {
            type: 'string',
            enum: ['present', 'absent', 'either'],
            description: "Whether GET /my-branding of the profile's learner has department branding.",
          },
          completedSessions: {
            type: 'string',
            enum: ['present', 'absent', 'either'],
            description:
              "Whether the profile's learner has completed sessions (ended before the run) in a session list: present makes a list that never shows more with includeCompletedSessions=true a failure; absent or either skips that check then.",
          },
        }),
        versioning: closed({
          missingHeader: { type: 'integer', enum: [1, 2], description: 'A request without x-api-version behaves as this version.' },
          unsupportedStatus: { $ref: '#/$defs/status', description: 'The status for x-api-version: 3.' },
          v2OnlyWithV1Status: { $ref: '#/$defs/status', description: 'A version-2-only operation called with version 1.' },
        }),
        pathIdNotGuidStatus: { $ref: '#/$defs/status' },
        notJsonStatus: { $ref: '#/$defs/status' },
        bodies: closed({
          unsupportedMediaTypeStatus: { $ref: '#/$defs/status' },
          limitBytes: { type: 'integer', minimum: 1 },
          tooLargeStatus: { $ref: '#/$defs/status' },
          unknownFieldStatus: { $ref: '#/$defs/status' },
        }),
        submissions: closed({
          createStatus: { $ref: '#/$defs/status' },
          updateStatus: { $ref: '#/$defs/status' },
          unknownReferenceStatus: { $ref: '#/$defs/status', description: 'Create with a userId or templateId that does not exist.' },
        }),
        questionTypes: closed(
          {
            SingleAnswer: { type: 'integer', minimum: 0 },
            MultipleAnswer: { type: 'integer', minimum: 0 },
            Text: { type: 'integer', minimum: 0 },
          },
          { description: 'The response integer of each request questionType.' },
        ),
        oauth: closed({
          authorizePath: { type: 'string', pattern: PATH_PATTERN, description: 'The authorization endpoint under the Integration API base URL.' },
          tokenPath: { type: 'string', pattern: PATH_PATTERN, description: 'The token endpoint under the Integration API base URL.' },
          redirectUri: { type: 'string', pattern: BASE_URL_PATTERN, description: "The client's registered redirect URI (never fetched)." },
          scope: { type: 'string', minLength: 1 },
          accessTokenMaxSeconds: { type: 'integer', minimum: 1, description: 'The longest access token lifetime allowed (4 hours).' },
          issuer: { type: 'string', pattern: BASE_URL_PATTERN, description: 'The issuer; default: the Integration API base URL + /oauth.' },
        }),
        groups: closed({
          createStatus: { $ref: '#/$defs/status' },
          automaticAssignStatus: { $ref: '#/$defs/status', description: 'Assign or unassign users on an automatic group.' },
        }),
        enrollments: closed({ createStatus: { $ref: '#/$defs/status', description: 'An enrollment create that makes a new enrollment.' } }),
        lists: closed({
          maxLimit: { type: 'integer', minimum: 1 },
          defaultLimit: { type: 'integer', minimum: 1 },
          maxOffset: { type: 'integer', minimum: 0 },
          resources: listFields('resources', RESOURCE_FIELDS),
          templates: listFields('templates', TEMPLATE_FIELDS),
          submissions: listFields('submissions', SUBMISSION_FIELDS),
          users: listFields('users', USER_FIELDS),
          groups: listFields('groups', GROUP_FIELDS),
        }),
      }),
    },
    { required: ['name'] },
  ),
} as const;
