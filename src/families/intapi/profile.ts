/**
 * The Integration API's part of a target profile: its credentials at the top of `credentials` (and
 * the OAuth 2.0 client under `credentials.oauth`), the records its checks read, its expectations at
 * the top of `expectations`, and `mailbox`. The defaults are the reference server's behaviour
 * (fixtures/profiles/reference.yaml; tests/profile keeps the two equal).
 */
import { oauthClientSchema, oauthFlowSchema } from '../../profile/base/oauth.js';
import { closed } from '../../profile/base/schema-parts.js';
import type { EnvRef, FamilyTarget, OAuthClientCredentials, OAuthFlowExpectations, Profile } from '../../profile/base/types.js';
import type { FamilyProfile, ProfileDocument } from '../family.js';

/** Either the POST /authenticate body (username, password, privateKey) or a token issued elsewhere. */
export type Credentials =
  | {
      readonly apiKey: EnvRef;
      readonly username: EnvRef;
      readonly password: EnvRef;
      readonly privateKey: EnvRef;
      readonly token?: undefined;
    }
  | {
      readonly apiKey: EnvRef;
      readonly token: EnvRef;
      readonly username?: undefined;
      readonly password?: undefined;
      readonly privateKey?: undefined;
    };

/** The OAuth 2.0 client of the Integration API's authorization-code flow (`credentials.oauth`); its
 * log-in is the Integration API's username and password. */
export type OAuthCredentials = Omit<OAuthClientCredentials, 'username' | 'password'>;

/** An automatic enrollment rule: the users whose `property` equals `value` are enrolled in `courseId`. */
export interface RuleEnrollment {
  readonly courseId: string;
  readonly property: 'jobTitle';
  readonly value: string;
  /** How long after a user change its effect may come, in milliseconds: at most the specification's
   * 10 minutes (spec#limits, the default), less where the target promises less. */
  readonly withinMs: number;
  /** Whether a user who stops matching loses the enrollment the rule made (the reference server's
   * choice, the default); false skips that check. */
  readonly unenrolls: boolean;
}

/** A mailbox the suite reads (a Mailpit-style HTTP API: `GET <api>/api/v1/messages`): its URL, when
 * known (the profile's, or its variable's value when the profile was loaded), and the variable the
 * profile names for it. */
export interface Mailbox {
  readonly api?: string;
  readonly env?: string;
}

/** The mailbox of the profile document: `api` a URL, or `{ env: NAME }` read from the environment. */
function mailboxOf(given: { api: string | EnvRef } | undefined, env: NodeJS.ProcessEnv = process.env): Mailbox | undefined {
  if (!given) return undefined;
  if (typeof given.api === 'string') return { api: given.api };
  const value = env[given.api.env];
  return value ? { api: value, env: given.api.env } : { env: given.api.env };
}

/** Fields that a target may allow in `_filter` and `_sort`, per collection (spec field tables). */
export const RESOURCE_FIELDS = ['id', 'name', 'description', 'file'] as const;
export const TEMPLATE_FIELDS = ['id', 'name', 'isActive'] as const;
/** The user record's fields (docs/decisions/intapi/users-and-managers.md "Users and managers"; `IsManager` from the specification). */
export const USER_FIELDS = ['id', 'username', 'firstName', 'lastName', 'email', 'managerId', 'jobTitle', 'IsManager'] as const;
/** The group fields the reference server lists by (the group's shape is its choice). */
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

export type ResourceField = (typeof RESOURCE_FIELDS)[number];
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
export type SubmissionField = (typeof SUBMISSION_FIELDS)[number];
export type UserField = (typeof USER_FIELDS)[number];
export type GroupField = (typeof GROUP_FIELDS)[number];

export interface ListFields<F extends string> {
  readonly filterable: readonly F[];
  readonly sortable: readonly F[];
}

/** spec#limits: "Dynamic-rule processing delay: up to 10 minutes" (records.ruleEnrollment.withinMs). */
export const RULE_DELAY_LIMIT_MS = 10 * 60 * 1000;

/** The Integration API's expectations: the top-level keys of `expectations`. */
export interface IntapiExpectations {
  readonly versioning: {
    readonly missingHeader: 1 | 2;
    readonly unsupportedStatus: number;
    readonly v2OnlyWithV1Status: number;
  };
  readonly pathIdNotGuidStatus: number;
  readonly notJsonStatus: number;
  /** How the target answers bodies it cannot or will not read. */
  readonly bodies: {
    /** A body of a content type other than JSON. */
    readonly unsupportedMediaTypeStatus: number;
    /** The largest body the target reads, in bytes, and its answer to a larger one. */
    readonly limitBytes: number;
    readonly tooLargeStatus: number;
    /** A field the body's table does not have. */
    readonly unknownFieldStatus: number;
  };
  readonly submissions: {
    readonly createStatus: number;
    readonly updateStatus: number;
    readonly unknownReferenceStatus: number;
  };
  readonly questionTypes: {
    readonly SingleAnswer: number;
    readonly MultipleAnswer: number;
    readonly Text: number;
  };
  /** The OAuth 2.0 authorization-code flow (public-facts#authentication-integration-api). */
  readonly oauth: OAuthFlowExpectations;
  /** Groups: the create status, and the answer to assign/unassign on an automatic group. */
  readonly groups: { readonly createStatus: number; readonly automaticAssignStatus: number };
  /** Enrollments: the status of a create that makes a new enrollment. */
  readonly enrollments: { readonly createStatus: number };
  readonly lists: {
    readonly maxLimit: number;
    readonly defaultLimit: number;
    readonly maxOffset: number;
    readonly resources: ListFields<ResourceField>;
    readonly templates: ListFields<TemplateField>;
    readonly submissions: ListFields<SubmissionField>;
    readonly users: ListFields<UserField>;
    readonly groups: ListFields<GroupField>;
  };
}

/** The records the Integration API's checks read. */
export interface IntapiRecords {
  readonly userId?: string;
  readonly otherUserId?: string;
  readonly courseId?: string;
  readonly enrollment?: { readonly userId: string; readonly courseId: string };
  readonly templateId?: string;
  /** A user with direct reports (users and managers). */
  readonly managerId?: string;
  /** A user the enrollment checks enroll and re-enroll, and the address their mail goes to. */
  readonly learner?: { readonly userId: string; readonly email: string };
  /** A multi-session course (release 5.127.0) and two of its sessions. */
  readonly multiSessionCourse?: { readonly courseId: string; readonly sessionIds: readonly [string, string] };
  /** A user's enrollment in a course that has been deleted (spec#states-and-transitions). */
  readonly deletedCourseEnrollment?: { readonly userId: string; readonly courseId: string };
  /** An automatic enrollment rule of the target (spec#what-the-service-does 5), which the API cannot create. */
  readonly ruleEnrollment?: RuleEnrollment;
}

declare module '../../profile/base/types.js' {
  interface FamilyTargets {
    readonly intapi: FamilyTarget;
  }

  interface Records extends IntapiRecords {}

  interface Expectations extends IntapiExpectations {}
  interface ProfileParts {
    /** The Integration API's credentials (the top-level keys of `credentials`). */
    readonly credentials: Credentials;
    /** The OAuth 2.0 client (`credentials.oauth`). */
    readonly oauthCredentials: OAuthCredentials;
    /** Where the target's mail can be read; absent: the mail checks are skipped. */
    readonly mailbox?: Mailbox;
  }
}

export const DEFAULT_CREDENTIALS: Credentials = {
  apiKey: { env: 'LPC_API_KEY' },
  username: { env: 'LPC_USERNAME' },
  password: { env: 'LPC_PASSWORD' },
  privateKey: { env: 'LPC_PRIVATE_KEY' },
};

export const DEFAULT_OAUTH_CREDENTIALS: OAuthCredentials = {
  clientId: { env: 'LPC_OAUTH_CLIENT_ID' },
  clientSecret: { env: 'LPC_OAUTH_CLIENT_SECRET' },
};

export const DEFAULT_INTAPI_EXPECTATIONS: IntapiExpectations = {
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

const SCHEMA = {
  credentials: {
    properties: {
      apiKey: { $ref: '#/$defs/envRef', description: 'Sent as x-api-key.' },
      username: { $ref: '#/$defs/envRef', description: 'POST /authenticate body.' },
      password: { $ref: '#/$defs/envRef', description: 'POST /authenticate body.' },
      privateKey: { $ref: '#/$defs/envRef', description: 'POST /authenticate body.' },
      token: { $ref: '#/$defs/envRef', description: 'A token issued elsewhere, instead of username, password and privateKey.' },
      oauth: oauthClientSchema(
        DEFAULT_OAUTH_CREDENTIALS,
        "The OAuth 2.0 client of the authorization-code flow; the log-in uses the Integration API's username and password.",
      ),
    },
    dependentRequired: {
      username: ['password', 'privateKey'],
      password: ['username', 'privateKey'],
      privateKey: ['username', 'password'],
    },
    dependentSchemas: {
      token: { type: 'object', properties: { username: false, password: false, privateKey: false } },
    },
  },
  records: {
    userId: { $ref: '#/$defs/guid', description: 'The authenticated user.' },
    otherUserId: { $ref: '#/$defs/guid', description: 'A user other than the authenticated one.' },
    courseId: { $ref: '#/$defs/guid', description: 'A course with resources.' },
    enrollment: closed(
      { userId: { $ref: '#/$defs/guid' }, courseId: { $ref: '#/$defs/guid' } },
      { required: ['userId', 'courseId'], description: 'A user enrolled in a course with resources.' },
    ),
    templateId: { $ref: '#/$defs/guid', description: 'An active template.' },
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
  expectations: {
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
    oauth: oauthFlowSchema('the Integration API base URL'),
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
  },
  top: {
    mailbox: closed(
      {
        api: {
          oneOf: [{ type: 'string', pattern: '^https?://' }, { $ref: '#/$defs/envRef' }],
          description: 'Base URL of a Mailpit-style API (GET <api>/api/v1/messages), or the variable that holds it (`{ env: NAME }`).',
        },
      },
      { required: ['api'], description: "Where the target's mail can be read; without it (or with its variable unset) the mail checks are skipped." },
    ),
  },
};

type GivenCredentials = Partial<Record<'apiKey' | 'username' | 'password' | 'privateKey' | 'token', EnvRef>> & {
  oauth?: Partial<Record<'clientId' | 'clientSecret' | 'refreshToken', EnvRef>>;
};

function credentialsOf(given: GivenCredentials = {}): Credentials {
  const apiKey = given.apiKey ?? DEFAULT_CREDENTIALS.apiKey;
  if (given.token) return { apiKey, token: given.token };
  const { username, password, privateKey } = given;
  // The schema admits the three login variables only together.
  if (username && password && privateKey) return { apiKey, username, password, privateKey };
  return { ...DEFAULT_CREDENTIALS, apiKey };
}

type GivenRecords = Omit<IntapiRecords, 'ruleEnrollment'> & { ruleEnrollment?: Omit<RuleEnrollment, 'withinMs' | 'unenrolls'> & Partial<RuleEnrollment> };

/** The records as given; the rule's bound and unenrollment default where left out. */
function recordsOf(given: GivenRecords = {}): IntapiRecords {
  const { ruleEnrollment, ...records } = given;
  return ruleEnrollment ? { ...records, ruleEnrollment: { ...DEFAULT_RULE_ENROLLMENT, ...ruleEnrollment } } : records;
}

export const INTAPI_PROFILE: FamilyProfile = {
  baseUrl: { at: 'target' },
  schema: SCHEMA,
  expectations: DEFAULT_INTAPI_EXPECTATIONS as unknown as Readonly<Record<string, unknown>>,
  load(doc: ProfileDocument) {
    const given = doc.credentials as GivenCredentials | undefined;
    const mailbox = mailboxOf(doc.mailbox as { api: string | EnvRef } | undefined);
    return {
      credentials: credentialsOf(given),
      oauthCredentials: { ...DEFAULT_OAUTH_CREDENTIALS, ...given?.oauth },
      records: recordsOf(doc.records as GivenRecords | undefined),
      ...(mailbox ? { mailbox } : {}),
    };
  },
  problems(p: Profile) {
    const problems: [string, string][] = [];
    const types = Object.values(p.expectations.questionTypes);
    if (new Set(types).size !== types.length) {
      problems.push(['expectations.questionTypes', 'must give each question type a different integer']);
    }
    const { defaultLimit, maxLimit } = p.expectations.lists;
    if (defaultLimit > maxLimit) {
      problems.push(['expectations.lists.defaultLimit', `must be at most expectations.lists.maxLimit (${maxLimit})`]);
    }
    return problems;
  },
};
