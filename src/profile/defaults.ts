/**
 * The values a profile gets for the keys it leaves out: those of the reference profile
 * (fixtures/profiles/reference.yaml, the bundled server's behaviour; tests/profile keeps the two
 * equal). Operations default to OPERATIONS; records have no defaults.
 */
import {
  GROUP_FIELDS,
  RESOURCE_FIELDS,
  RULE_DELAY_LIMIT_MS,
  SCIM_FILTER_LOGICAL,
  SCIM_FILTER_OPERATORS,
  SCIM_UNSUPPORTED_ENDPOINTS,
  SUBMISSION_FIELDS,
  TEMPLATE_FIELDS,
  USER_FIELDS,
} from './schema.js';
import type { Credentials, Expectations, PlayerTarget, Profile, RuleEnrollment } from './types.js';

export const DEFAULT_INTAPI_BASE_URL = 'http://127.0.0.1:8080';

/** Suffixes of the SCIM and learner base URLs under the Integration API's host (public-facts). */
export const SCIM_SUFFIX = '/scim/v2';
export const LEARNER_SUFFIX = '/api/rest/v2';

export const DEFAULT_CREDENTIALS: Credentials = {
  apiKey: { env: 'LPC_API_KEY' },
  username: { env: 'LPC_USERNAME' },
  password: { env: 'LPC_PASSWORD' },
  privateKey: { env: 'LPC_PRIVATE_KEY' },
};

export const DEFAULT_FAMILY_CREDENTIALS: Profile['familyCredentials'] = {
  scim: { token: { env: 'LPC_SCIM_TOKEN' } },
  learner: { username: { env: 'LPC_LEARNER_USERNAME' }, password: { env: 'LPC_LEARNER_PASSWORD' } },
};

export const DEFAULT_OAUTH_CREDENTIALS: Profile['oauthCredentials'] = {
  clientId: { env: 'LPC_OAUTH_CLIENT_ID' },
  clientSecret: { env: 'LPC_OAUTH_CLIENT_SECRET' },
};

export const DEFAULT_EXPECTATIONS: Expectations = {
  scim: {
    unsupportedStatus: 501,
    unsupported: SCIM_UNSUPPORTED_ENDPOINTS,
    patchSuccess: 'either',
    itemsPerPage: 'returned',
    addUnmatchedValueFilter: 'either',
    sortSubAttributeStatus: 400,
    sort: true,
    filter: { operators: SCIM_FILTER_OPERATORS, logical: SCIM_FILTER_LOGICAL, attributes: 'all', valuePaths: true },
    defaultCount: 20,
  },
  learner: { branding: 'present', completedSessions: 'present' },
  versioning: { missingHeader: 1, unsupportedStatus: 400, v2OnlyWithV1Status: 404 },
  pathIdNotGuidStatus: 422,
  notJsonStatus: 400,
  bodies: { unsupportedMediaTypeStatus: 415, limitBytes: 1_048_576, tooLargeStatus: 413, unknownFieldStatus: 422 },
  submissions: { createStatus: 201, updateStatus: 200, unknownReferenceStatus: 404 },
  questionTypes: { SingleAnswer: 0, MultipleAnswer: 1, Text: 2 },
  oauth: {
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    redirectUri: 'https://client.lp-conformance.invalid/callback',
    scope: 'admin.v1',
    accessTokenMaxSeconds: 14400,
  },
  groups: { createStatus: 201, automaticAssignStatus: 409 },
  enrollments: { createStatus: 201 },
  lists: {
    maxLimit: 1000,
    defaultLimit: 20,
    maxOffset: 65535,
    // The reference server allows every field of each table.
    resources: { filterable: RESOURCE_FIELDS, sortable: RESOURCE_FIELDS },
    templates: { filterable: TEMPLATE_FIELDS, sortable: TEMPLATE_FIELDS },
    submissions: { filterable: SUBMISSION_FIELDS, sortable: SUBMISSION_FIELDS },
    users: { filterable: USER_FIELDS, sortable: USER_FIELDS },
    groups: { filterable: GROUP_FIELDS, sortable: GROUP_FIELDS },
  },
};

/** What `records.ruleEnrollment` leaves out: the specification's delay limit, and the reference
 * server's choice of unenrolling users who stop matching. */
export const DEFAULT_RULE_ENROLLMENT: Pick<RuleEnrollment, 'withinMs' | 'unenrolls'> = { withinMs: RULE_DELAY_LIMIT_MS, unenrolls: true };

/** The reference server's course player (reference-impl/player/, DEVELOPERS.md). */
export const DEFAULT_PLAYER: PlayerTarget = {
  url: '{target}/learn/course-player/{courseId}?token={token}',
  selectors: {
    root: '[data-player]',
    header: '[data-player-header]',
    tag: '[data-tag]',
    lesson: '[data-lesson-id]',
    play: '[data-play]',
    errorDialog: '[role="alertdialog"]',
    errorTitle: '[role="alertdialog"] h2',
  },
  defaultTheme: { primaryColor: '#24292f', backgroundColor: '#ffffff' },
};
