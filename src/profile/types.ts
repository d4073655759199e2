/**
 * A target profile after loading: validated, defaults filled. See src/profile/schema.ts for the
 * YAML form and fixtures/profiles/reference.yaml for an example.
 */
import type { OperationId, OperationRoute } from './operations.js';
import type { GROUP_FIELDS, RESOURCE_FIELDS, SUBMISSION_FIELDS, TEMPLATE_FIELDS, USER_FIELDS } from './schema.js';

/** A secret, named by the environment variable that holds it; never the value itself. */
export interface EnvRef {
  readonly env: string;
}

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

/** A family's own credentials (SCIM, learner API): a ready bearer token, or the username and
 * password its token exchange takes. */
export type FamilyCredentials =
  | { readonly token: EnvRef; readonly username?: undefined; readonly password?: undefined }
  | { readonly username: EnvRef; readonly password: EnvRef; readonly token?: undefined };

/** The OAuth 2.0 client of the Integration API's authorization-code flow (`credentials.oauth`):
 * its id and secret, and optionally a refresh token (a deployed server whose log-in page the suite
 * cannot drive: the checks that need a log-in are then skipped). */
export interface OAuthCredentials {
  readonly clientId: EnvRef;
  readonly clientSecret: EnvRef;
  readonly refreshToken?: EnvRef;
}

export interface FamilyTarget {
  readonly baseUrl: string;
  /** True when the profile gave this base URL; false when derived from the Integration API's. */
  readonly explicit: boolean;
}

/** Records the suites read but cannot create. Absent when the profile does not name them: the
 * checks that need one are skipped (they are target data, so they have no defaults). */
export interface Records {
  readonly userId?: string;
  readonly otherUserId?: string;
  readonly courseId?: string;
  readonly enrollment?: { readonly userId: string; readonly courseId: string };
  readonly templateId?: string;
  /** The course the player checks open (default: the first catalog course with lessons and tags). */
  readonly playerCourseId?: string;
  /** A user with direct reports (users and managers, issue 8). */
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

/** A mailbox the suite reads (a Mailpit-style HTTP API: `GET <api>/api/v1/messages`). */
export interface Mailbox {
  readonly api: string;
}

export type ResourceField = (typeof RESOURCE_FIELDS)[number];
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
export type SubmissionField = (typeof SUBMISSION_FIELDS)[number];
export type UserField = (typeof USER_FIELDS)[number];
export type GroupField = (typeof GROUP_FIELDS)[number];

export interface ListFields<F extends string> {
  readonly filterable: readonly F[];
  readonly sortable: readonly F[];
}

/** The target's behaviour where the specification says "not shown". */
export interface Expectations {
  /** The SCIM target's choices where RFC 7644 or the specification leave one open (level PROFILE). */
  readonly scim: ScimExpectations;
  readonly learner: LearnerExpectations;
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
  readonly oauth: {
    /** Paths under the Integration API's base URL. */
    readonly authorizePath: string;
    readonly tokenPath: string;
    /** The redirect URI registered for the client (never fetched: the code is read from the redirect). */
    readonly redirectUri: string;
    readonly scope: string;
    /** The longest access token lifetime (`expires_in`) allowed, in seconds. */
    readonly accessTokenMaxSeconds: number;
    /** The issuer (RFC 9207 `iss`); default: the Integration API's base URL + /oauth. */
    readonly issuer?: string;
  };
  /** Groups (issue 8): the create status, and the answer to assign/unassign on an automatic group. */
  readonly groups: { readonly createStatus: number; readonly automaticAssignStatus: number };
  /** Enrollments (issue 8): the status of a create that makes a new enrollment. */
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

/** CSS selectors of the course player page (defaults: the reference player's). */
export interface PlayerSelectors {
  /** The player's root; its computed background-color is the theme's background. */
  readonly root: string;
  /** The header; its computed background-color is the theme's primary colour. */
  readonly header: string;
  /** One element per course tag. */
  readonly tag: string;
  /** One element per lesson. */
  readonly lesson: string;
  /** Inside a lesson: the control that plays it. */
  readonly play: string;
  /** The error dialog, and its title inside it. */
  readonly errorDialog: string;
  readonly errorTitle: string;
}

/** The course player page of the target (`player` in the profile). */
export interface PlayerTarget {
  /** URL template: `{target}` (the Integration API base URL), `{courseId}`, `{token}` (a learner token). */
  readonly url: string;
  readonly selectors: PlayerSelectors;
  /** The theme without department branding: computed colours as `#rrggbb`. */
  readonly defaultTheme: { readonly primaryColor: string; readonly backgroundColor: string };
}

/** The learner API where the specification says "not shown". */
export interface LearnerExpectations {
  /** Whether GET /my-branding of the profile's learner has department branding: `present`, `absent` or `either`. */
  readonly branding: 'present' | 'absent' | 'either';
  /** Whether the profile's learner has completed sessions to list with includeCompletedSessions=true
   * (in the instructor-led courses' session lists or the calendar): `present`, `absent` or `either`. */
  readonly completedSessions: 'present' | 'absent' | 'either';
}

export interface Profile {
  readonly name: string;
  /** Where the profile came from (the file as given, or the bundled reference profile's path). */
  readonly source: string;
  readonly families: {
    readonly intapi: { readonly baseUrl: string };
    readonly scim: FamilyTarget;
    readonly learner: FamilyTarget;
  };
  /** The Integration API's credentials (the top-level keys of `credentials`). */
  readonly credentials: Credentials;
  /** The SCIM and learner API credentials (`credentials.scim`, `credentials.learner`). */
  readonly familyCredentials: { readonly scim: FamilyCredentials; readonly learner: FamilyCredentials };
  /** The OAuth 2.0 client (`credentials.oauth`). */
  readonly oauthCredentials: OAuthCredentials;
  readonly records: Records;
  /** The course player page, or `none`: the target has none (the player checks are skipped). */
  readonly player: PlayerTarget | 'none';
  /** Where the target's mail can be read; absent: the mail checks are skipped. */
  readonly mailbox?: Mailbox;
  readonly operations: Readonly<Record<OperationId, OperationRoute>>;
  readonly expectations: Expectations;
}

/** Where RFC 7643/7644 and the specification leave a SCIM choice open, the target declares it. */
export interface ScimExpectations {
  /** Status of the unsupported endpoints of specification rule 4 (/Me, /ServiceProviderConfig,
   * /ResourceTypes, POST /Bulk, POST .search); RFC 7644 §3.11 and §3.7 name 501. */
  readonly unsupportedStatus: number;
  /** The endpoints the target does not support (specification rule 4, by default all of them);
   * an endpoint the target supports is left out, and its check skipped. */
  readonly unsupported: readonly string[];
  /** A PATCH that succeeds answers 200 with the resource, 204 without a body, or either (RFC 7644 §3.5.2;
   * with `attributes` in the query it is 200 whatever this says). */
  readonly patchSuccess: 200 | 204 | 'either';
  /** `itemsPerPage` is the number of resources returned (RFC 7644 §3.4.2 text), or may be the count asked. */
  readonly itemsPerPage: 'returned' | 'either';
  /** A PATCH `add` whose value filter matches nothing: 400 noTarget, creates the value, or either. */
  readonly addUnmatchedValueFilter: 'noTarget' | 'creates' | 'either';
  /** Status of sortBy naming a sub-attribute of a multi-valued attribute (emails.type), which the
   * specification says is unsupported; 0: not checked. */
  readonly sortSubAttributeStatus: number;
  /** Whether the target sorts (RFC 7644 §3.4.2.3 makes sorting optional; the specification names it). */
  readonly sort: boolean;
  /** What the target's `filter` supports (RFC 7644 §3.4.2.2 makes filtering optional; Table 9 lets a
   * server refuse an unsupported comparison with 400 invalidFilter): filters within it are judged,
   * others may be refused, and the checks scope their lists with what it allows. */
  readonly filter: ScimFilterSupport;
  /** The page size without `count` (RFC 7644 §3.4.2.4 leaves it to the provider; the platform's is 20, spec#limits). */
  readonly defaultCount: number;
}

/** The comparison operators, logical operators, attributes and value paths a target's filter supports. */
export interface ScimFilterSupport {
  readonly operators: readonly ScimFilterOperator[];
  readonly logical: readonly ('and' | 'or' | 'not')[];
  /** Top-level attribute names (case-insensitive; `emails` covers `emails.value`), or `all`. */
  readonly attributes: 'all' | readonly string[];
  /** Value paths (`emails[type eq "work"]`). */
  readonly valuePaths: boolean;
}

export type ScimFilterOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'pr' | 'gt' | 'ge' | 'lt' | 'le';
