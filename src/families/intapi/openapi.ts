/**
 * The OpenAPI 3.1 description of a target: `buildOpenApi(contracts, profile)` is a pure function of
 * the contracts (contracts/*.yaml, JSON Schema 2020-12) and a loaded profile (its paths, statuses,
 * list expectations and base URL). Mapping choices: docs/decisions/core/openapi.md, "OpenAPI document".
 *
 * Operations, their versions, path identifiers, bodies and statuses come from the specification's
 * operation tables (spec#integration-api-learning-resources-v1-and-v2 and the v2 tables) and its
 * Errors section; where the specification says "not shown", from the profile's expectations.
 */
import { ProfileError } from '../../profile/base/errors.js';
import type { OperationId } from '../../profile/base/routes.js';
import type { Profile } from '../../profile/base/types.js';
import { INTAPI_OPERATIONS } from './operations.js';

import type { BuildOptions, ContractSchemas, Json, JsonObject } from '../../openapi/base/document.js';
import { componentName, embedContracts, ref } from '../../openapi/base/document.js';

const INTAPI_PREFIX = 'intapi/';

type Version = '1' | '2';
type Collection = 'resources' | 'templates' | 'submissions' | 'users' | 'groups';
type Status = number | ((p: Profile) => number);

interface PathId {
  readonly what: string;
  /** The contract property whose type the identifier has; absent: a GUID by the spec's table. */
  readonly typedBy?: readonly [contract: string, property: string];
}

interface OperationDoc {
  /** The operation's name in the specification's table. */
  readonly summary: string;
  readonly versions: readonly Version[];
  readonly pathIds: Readonly<Record<string, PathId>>;
  /** The request body's contract. */
  readonly request?: string;
  readonly success: { readonly status: Status; readonly contract: string | Readonly<Record<Version, string>> };
  /** Takes `_limit`/`_offset`; with a collection, also `_filter`/`_sort` over the profile's fields. */
  readonly list?: { readonly collection?: Collection };
  /** Statuses the specification lists for this operation beyond the derived ones. */
  readonly listed?: readonly (readonly [Status, string])[];
  /** Query parameters beyond the list parameters. */
  readonly query?: readonly JsonObject[];
}

const BOTH: readonly Version[] = ['1', '2'];
const V2: readonly Version[] = ['2'];
const RESOURCE_ID: PathId = { what: 'resource id', typedBy: ['intapi/resource', 'id'] };
const USER_ID: PathId = { what: 'user id' };
const COURSE_ID: PathId = { what: 'course id' };
const SUBMISSION_ID: PathId = { what: 'submission id', typedBy: ['intapi/submission', 'id'] };
const TEMPLATE_ID: PathId = { what: 'template id', typedBy: ['intapi/template', 'id'] };
const BANK_ID: PathId = { what: 'question bank id', typedBy: ['intapi/questionBank', 'id'] };
const QUESTION_ID: PathId = { what: 'question id', typedBy: ['intapi/question', 'id'] };
const USER_ID_TYPED: PathId = { what: 'user id', typedBy: ['intapi/user', 'id'] };
const MANAGER_ID: PathId = { what: 'manager (user) id', typedBy: ['intapi/user', 'id'] };
const EVALUATION_QUESTION_ID: PathId = { what: 'evaluation question id', typedBy: ['intapi/evaluationQuestion', 'id'] };
const PROVINCE_ID: PathId = { what: 'province id', typedBy: ['intapi/province', 'id'] };
const GROUP_ID: PathId = { what: 'group id', typedBy: ['intapi/group', 'id'] };
const SESSION_ID: PathId = { what: 'session id' };
const FORBIDDEN = [403, 'listed by the specification (conditions not shown)'] as const;

/** The Integration API's operations (the document covers that family). */
type IntapiOperationId = keyof typeof INTAPI_OPERATIONS;

/** What the specification says of each operation (the table is complete: the Integration API's ids). */
const OPERATION_DOCS: Readonly<Record<IntapiOperationId, OperationDoc>> = {
  'auth.authenticate': {
    summary: 'Obtain a token (x-api-key and a JSON body username, password, privateKey; answered with the bare token string)',
    versions: BOTH,
    pathIds: {},
    success: { status: 200, contract: 'intapi/token' },
    listed: [
      [400, 'a body field is missing'],
      [401, 'wrong credentials'],
      [403, 'a disabled portal (public facts)'],
    ],
  },
  'resources.get': { summary: 'Get resource', versions: BOTH, pathIds: { resourceId: RESOURCE_ID }, success: { status: 200, contract: 'intapi/resource' } },
  'resources.list': {
    summary: 'List resources (general, with common list parameters)',
    versions: BOTH,
    pathIds: {},
    success: { status: 200, contract: { '1': 'intapi/resource.list', '2': 'intapi/envelope.resources' } },
    list: { collection: 'resources' },
  },
  'resources.listForUser': {
    summary: 'List resources available to a specific user',
    versions: BOTH,
    pathIds: { userId: USER_ID },
    success: { status: 200, contract: 'intapi/resource.list' },
  },
  'resources.listMine': {
    summary: 'List resources for the current authenticated user',
    versions: BOTH,
    pathIds: {},
    success: { status: 200, contract: 'intapi/resource.list' },
  },
  'resources.listForCourse': {
    summary: 'List resources from a specific course',
    versions: BOTH,
    pathIds: { courseId: COURSE_ID },
    success: { status: 200, contract: 'intapi/resource.list' },
  },
  'resources.getForCourse': {
    summary: 'Get resource from a specific course',
    versions: BOTH,
    pathIds: { courseId: COURSE_ID, resourceId: RESOURCE_ID },
    success: { status: 200, contract: 'intapi/resource' },
  },
  'resources.listForEnrollment': {
    summary: 'List resources associated with an enrollment of a specific user',
    versions: BOTH,
    pathIds: { userId: USER_ID, courseId: COURSE_ID },
    success: { status: 200, contract: 'intapi/resource.list' },
  },
  'resources.listMineForCourse': {
    summary: 'List resources from a course for the current authenticated user',
    versions: BOTH,
    pathIds: { courseId: COURSE_ID },
    success: { status: 200, contract: 'intapi/resource.list' },
  },
  'submissions.list': {
    summary: 'List submissions',
    versions: V2,
    pathIds: {},
    success: { status: 200, contract: 'intapi/envelope.submissions' },
    list: { collection: 'submissions' },
  },
  'submissions.create': {
    summary: 'Create a submission',
    versions: V2,
    pathIds: {},
    request: 'intapi/submission.create',
    success: { status: (p) => p.expectations.submissions.createStatus, contract: 'intapi/submission' },
    listed: [[(p) => p.expectations.submissions.unknownReferenceStatus, 'the userId or templateId does not exist']],
  },
  'submissions.get': { summary: 'Get submission by id', versions: V2, pathIds: { id: SUBMISSION_ID }, success: { status: 200, contract: 'intapi/submission' } },
  'submissions.update': {
    summary: 'Update a submission',
    versions: V2,
    pathIds: { id: SUBMISSION_ID },
    request: 'intapi/submission.update',
    success: { status: (p) => p.expectations.submissions.updateStatus, contract: 'intapi/submission' },
  },
  'templates.list': {
    summary: 'List templates',
    versions: V2,
    pathIds: {},
    success: { status: 200, contract: 'intapi/envelope.templates' },
    list: { collection: 'templates' },
  },
  'templates.get': { summary: 'Get template by id', versions: V2, pathIds: { id: TEMPLATE_ID }, success: { status: 200, contract: 'intapi/template' } },
  'questionBanks.list': {
    summary: 'List question banks',
    versions: V2,
    pathIds: {},
    success: { status: 200, contract: 'intapi/envelope.questionBanks' },
    list: {},
  },
  'questionBanks.create': {
    summary: 'Create question bank',
    versions: V2,
    pathIds: {},
    request: 'intapi/questionBank.create',
    success: { status: 201, contract: 'intapi/questionBank' },
    listed: [FORBIDDEN, [409, 'listed by the specification: a question bank with this id exists (public facts)']],
  },
  'questionBanks.get': {
    summary: 'Get question bank',
    versions: V2,
    pathIds: { questionBankId: BANK_ID },
    success: { status: 200, contract: 'intapi/questionBank' },
    listed: [[422, 'listed by the specification']],
  },
  'questionBanks.update': {
    summary: 'Update question bank',
    versions: V2,
    pathIds: { questionBankId: BANK_ID },
    request: 'intapi/questionBank.update',
    success: { status: 200, contract: 'intapi/questionBank' },
    listed: [FORBIDDEN],
  },
  'questions.list': {
    summary: 'List question bank questions',
    versions: V2,
    pathIds: { questionBankId: BANK_ID },
    success: { status: 200, contract: 'intapi/envelope.questions' },
    list: {},
  },
  'questions.create': {
    summary: 'Create question bank question',
    versions: V2,
    pathIds: { questionBankId: BANK_ID },
    request: 'intapi/question.create',
    success: { status: 201, contract: 'intapi/question' },
  },
  'questions.get': {
    summary: 'Get question bank question',
    versions: V2,
    pathIds: { questionBankId: BANK_ID, questionId: QUESTION_ID },
    success: { status: 200, contract: 'intapi/question' },
  },
  'questions.update': {
    summary: 'Update question bank question',
    versions: V2,
    pathIds: { questionBankId: BANK_ID, questionId: QUESTION_ID },
    request: 'intapi/question.update',
    success: { status: 200, contract: 'intapi/question' },
  },
  // Users and manager direct reports: the specification's table "operations named by
  // release notes" and public-facts' paths; bodies and success statuses are the reference server's choices.
  'users.list': {
    summary: 'List users (includes IsManager)',
    versions: BOTH,
    pathIds: {},
    success: { status: 200, contract: { '1': 'intapi/user.list', '2': 'intapi/envelope.users' } },
    list: { collection: 'users' },
  },
  'users.get': {
    summary: 'Get user (includes IsManager)',
    versions: BOTH,
    pathIds: { userId: USER_ID_TYPED },
    success: { status: 200, contract: 'intapi/user' },
  },
  'users.myDetails': {
    summary: 'Details of the authenticated user (includes IsManager)',
    versions: BOTH,
    pathIds: {},
    success: { status: 200, contract: 'intapi/user' },
  },
  'users.update': {
    summary: 'Update user (public facts; id not accepted in the body)',
    versions: BOTH,
    pathIds: { userId: USER_ID_TYPED },
    request: 'intapi/user.write',
    success: { status: 200, contract: 'intapi/user' },
  },
  'users.upsert': {
    summary: 'Create or update a user by username (public facts; id not accepted in the body)',
    versions: BOTH,
    pathIds: {},
    request: 'intapi/user.write',
    success: { status: 201, contract: 'intapi/user' },
  },
  'managers.listDirectReports': {
    summary: 'Direct reports of a manager',
    versions: V2,
    pathIds: { managerId: MANAGER_ID },
    success: { status: 200, contract: 'intapi/envelope.directReports' },
    list: {},
  },
  'managers.updateDirectReports': {
    summary: 'Update and return the direct reports of a manager',
    versions: V2,
    pathIds: { managerId: MANAGER_ID },
    request: 'intapi/directReports.update',
    success: { status: 200, contract: 'intapi/envelope.directReports' },
  },
  // Course evaluations (v2 only, release 5.121.0), countries and provinces (public facts).
  'evaluationQuestions.list': {
    summary: 'List the evaluation questions of a course',
    versions: V2,
    pathIds: { courseId: COURSE_ID },
    success: { status: 200, contract: 'intapi/envelope.evaluationQuestions' },
    list: {},
  },
  'evaluationQuestions.get': {
    summary: 'Get an evaluation question of a course',
    versions: V2,
    pathIds: { courseId: COURSE_ID, questionId: EVALUATION_QUESTION_ID },
    success: { status: 200, contract: 'intapi/evaluationQuestion' },
  },
  'evaluationAnswers.list': {
    summary: 'List the evaluation answers of a course',
    versions: V2,
    pathIds: { courseId: COURSE_ID },
    success: { status: 200, contract: 'intapi/envelope.evaluationAnswers' },
    list: {},
  },
  'countries.list': { summary: 'List countries (ISO 3166-1)', versions: BOTH, pathIds: {}, success: { status: 200, contract: 'intapi/country.list' } },
  'provinces.list': {
    summary: 'List the provinces (ISO 3166-2 subdivisions) of a country',
    versions: BOTH,
    pathIds: {},
    query: [
      { name: 'countryId', in: 'query', required: true, description: 'The id of a country of GET /countries.', schema: { type: 'string', format: 'uuid' } },
    ],
    success: { status: 200, contract: 'intapi/province.list' },
    listed: [
      [422, 'countryId is missing or not a GUID'],
      [404, 'no country has the countryId'],
    ],
  },
  'provinces.get': { summary: 'Get province', versions: BOTH, pathIds: { id: PROVINCE_ID }, success: { status: 200, contract: 'intapi/province' } },
  'groups.list': {
    summary: 'List groups',
    versions: BOTH,
    pathIds: {},
    success: { status: 200, contract: 'intapi/envelope.groups' },
    list: { collection: 'groups' },
  },
  'groups.get': { summary: 'Get group', versions: BOTH, pathIds: { groupId: GROUP_ID }, success: { status: 200, contract: 'intapi/group' } },
  'groups.create': {
    summary: 'Create a group',
    versions: V2,
    pathIds: {},
    request: 'intapi/group.create',
    success: { status: (p) => p.expectations.groups.createStatus, contract: 'intapi/group' },
  },
  'groups.update': {
    summary: 'Update an existing group',
    versions: V2,
    pathIds: { groupId: GROUP_ID },
    request: 'intapi/group.update',
    success: { status: 200, contract: 'intapi/group' },
  },
  'groups.assignUsers': {
    summary: 'Assign users to an existing manual group',
    versions: V2,
    pathIds: { groupId: GROUP_ID },
    request: 'intapi/group.assign',
    success: { status: 200, contract: 'intapi/group' },
    listed: [[(p) => p.expectations.groups.automaticAssignStatus, 'the group is automatic (reference server choice)']],
  },
  'groups.unassignUsers': {
    summary: 'Unassign users from an existing manual group',
    versions: V2,
    pathIds: { groupId: GROUP_ID },
    request: 'intapi/group.assign',
    success: { status: 200, contract: 'intapi/group' },
    listed: [[(p) => p.expectations.groups.automaticAssignStatus, 'the group is automatic (reference server choice)']],
  },
  'groups.listUsers': {
    summary: "List a group's users",
    versions: V2,
    pathIds: { groupId: GROUP_ID },
    success: { status: 200, contract: 'intapi/envelope.groupUsers' },
    list: {},
  },
  'enrollments.list': {
    summary: "List a user's enrollments",
    versions: BOTH,
    pathIds: { userId: USER_ID },
    success: { status: 200, contract: 'intapi/envelope.enrollments' },
    list: {},
  },
  'enrollments.create': {
    summary: 'Enroll a user in a course',
    versions: BOTH,
    pathIds: { userId: USER_ID },
    request: 'intapi/enrollment.create',
    success: { status: (p) => p.expectations.enrollments.createStatus, contract: 'intapi/enrollment' },
  },
  'enrollments.enrollSession': {
    summary: 'Enroll in a session (multi-session enrollment supported; query reEnroll, cancelSession)',
    versions: BOTH,
    pathIds: { userId: USER_ID, courseId: COURSE_ID, sessionId: SESSION_ID },
    success: { status: 200, contract: 'intapi/enrollment' },
  },
};

// ---------------------------------------------------------------------------------------------
// Operations.

const statusOf = (s: Status, p: Profile): number => (typeof s === 'number' ? s : s(p));

function contract(contracts: ContractSchemas, name: string): Readonly<Record<string, unknown>> {
  const schema = contracts.get(name);
  if (!schema) throw new Error(`contracts: no contract ${name} (contracts/${componentName(name)}.yaml)`);
  return schema;
}

function pathIdSchema(contracts: ContractSchemas, id: PathId): JsonObject {
  if (!id.typedBy) return { type: 'string', format: 'uuid' };
  const [name, property] = id.typedBy;
  const properties = contract(contracts, name).properties as Record<string, { type?: unknown; format?: unknown }> | undefined;
  const field = properties?.[property];
  if (typeof field?.type !== 'string') throw new Error(`contracts: ${name} has no property ${property} of one type`);
  return { type: field.type, ...(typeof field.format === 'string' ? { format: field.format } : {}) };
}

const json = (schema: JsonObject): JsonObject => ({ 'application/json': { schema } });

/** Error statuses of an operation, each with its reasons joined. */
function errorsOf(id: OperationId, doc: OperationDoc, p: Profile): Map<number, string[]> {
  const e = p.expectations;
  const errors = new Map<number, string[]>();
  const add = (status: number, reason: string): void => {
    const reasons = errors.get(status) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    errors.set(status, reasons);
  };
  add(401, id === 'auth.authenticate' ? 'x-api-key missing or wrong' : 'x-api-key missing or wrong, or the Bearer token missing or unknown');
  add(e.versioning.unsupportedStatus, 'x-api-version is neither 1 nor 2');
  if (!doc.versions.includes('1'))
    add(
      e.versioning.v2OnlyWithV1Status,
      `version 1 asked${e.versioning.missingHeader === 1 ? ', or x-api-version missing,' : ''} of a version-2-only operation`,
    );
  if (Object.keys(doc.pathIds).length > 0) {
    add(404, 'an identifier in the path does not exist');
    add(e.pathIdNotGuidStatus, 'an identifier in the path is not a GUID');
  }
  if (doc.list) add(422, 'a list parameter fails validation');
  if (doc.request || id === 'auth.authenticate') {
    add(e.notJsonStatus, 'the body is not JSON');
    add(e.bodies.unsupportedMediaTypeStatus, 'the body is not application/json');
    add(e.bodies.tooLargeStatus, `the body is larger than ${e.bodies.limitBytes} bytes`);
  }
  if (doc.request) {
    add(422, 'the body fails validation (reasons in validations)');
    add(e.bodies.unknownFieldStatus, 'the body has a field its table does not have');
  }
  for (const [status, reason] of doc.listed ?? []) add(statusOf(status, p), reason);
  return new Map([...errors].sort(([a], [b]) => a - b));
}

function listParameters(doc: OperationDoc, p: Profile): JsonObject[] {
  if (!doc.list) return [];
  const { lists } = p.expectations;
  const params: JsonObject[] = [];
  const collection = doc.list.collection;
  if (collection) {
    const { filterable, sortable } = lists[collection];
    if (filterable.length > 0) {
      params.push({
        name: '_filter',
        in: 'query',
        required: false,
        description: `OData-style filter (eq ne gt ge lt le, and or not, parentheses; substringof, startswith, endswith, tolower, toupper). Filterable fields: ${filterable.join(', ')}.`,
        schema: { type: 'string' },
      });
    }
    if (sortable.length > 0) {
      params.push({
        name: '_sort',
        in: 'query',
        required: false,
        description: `Comma-separated fields, a - prefix for descending. Sortable fields: ${sortable.join(', ')}.`,
        schema: { type: 'string' },
      });
    }
  }
  params.push(
    {
      name: '_limit',
      in: 'query',
      required: false,
      description: 'Page size.',
      schema: { type: 'integer', minimum: 1, maximum: lists.maxLimit, default: lists.defaultLimit },
    },
    {
      name: '_offset',
      in: 'query',
      required: false,
      description: 'Page number, 0-based.',
      schema: { type: 'integer', minimum: 0, maximum: lists.maxOffset, default: 0 },
    },
  );
  return params;
}

function successContent(doc: OperationDoc): { description: string; schema: JsonObject } {
  const c = doc.success.contract;
  if (typeof c === 'string') return { description: 'Success.', schema: ref(c) };
  return {
    description: `Success: with x-api-version 2 ${componentName(c['2'])}, with version 1 ${componentName(c['1'])}.`,
    schema: { oneOf: [ref(c['2']), ref(c['1'])] },
  };
}

function operationObject(id: IntapiOperationId, contracts: ContractSchemas, p: Profile): JsonObject {
  const doc = OPERATION_DOCS[id];
  const parameters: Json[] = [
    ...Object.entries(doc.pathIds).map(([name, pathId]) => ({
      name,
      in: 'path',
      required: true,
      description: pathId.what,
      schema: pathIdSchema(contracts, pathId),
    })),
    { $ref: doc.versions.includes('1') ? '#/components/parameters/apiVersion' : '#/components/parameters/apiVersion2' },
    ...listParameters(doc, p),
    ...(doc.query ?? []),
  ];
  const success = successContent(doc);
  const responses: JsonObject = { [String(statusOf(doc.success.status, p))]: { description: success.description, content: json(success.schema) } };
  for (const [status, reasons] of errorsOf(id, doc, p)) {
    const key = String(status);
    if (key in responses) throw new ProfileError(`profile ${p.source}: ${id} answers ${status} both on success and on error`);
    // Lower case throughout: reasons may start with a header's name (x-api-key).
    responses[key] = { description: `${reasons.join('; ')}.`, content: json(ref('intapi/error')) };
  }
  const op: JsonObject = { operationId: id, summary: doc.summary, tags: [id.split('.')[0] ?? id], parameters };
  if (id === 'auth.authenticate') {
    // No contract describes this body: its three fields are public facts (H); every one is required.
    op.requestBody = {
      required: true,
      content: json({
        type: 'object',
        required: ['username', 'password', 'privateKey'],
        properties: { username: { type: 'string' }, password: { type: 'string' }, privateKey: { type: 'string' } },
        'x-spec': 'public-facts#authentication-integration-api',
      }),
    };
    op.security = [{ apiKey: [] }];
  } else if (doc.request) {
    contract(contracts, doc.request);
    op.requestBody = { required: true, content: json(ref(doc.request)) };
  }
  op.responses = responses;
  return op;
}

/** Two templates that differ only in their parameters' names are the same path to OpenAPI. */
const shapeOf = (path: string): string => path.replace(/\{[^{}]*\}/g, '{}');

function pathsOf(contracts: ContractSchemas, p: Profile): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const byShape = new Map<string, { path: string; id: OperationId }>();
  // The document covers the Integration API (its servers entry and security schemes are its own).
  for (const id of Object.keys(INTAPI_OPERATIONS) as IntapiOperationId[]) {
    const { method, path } = p.operations[id];
    const seen = byShape.get(shapeOf(path));
    if (seen && seen.path !== path)
      throw new ProfileError(
        `profile ${p.source}: operations.${id}.path ${path} is the path of operations.${seen.id} (${seen.path}) under other parameter names`,
      );
    byShape.set(shapeOf(path), { path, id });
    const item = (paths[path] ??= {});
    const key = method.toLowerCase();
    const other = Object.entries(item).find(([m]) => m === key)?.[1] as { operationId?: string } | undefined;
    if (other) throw new ProfileError(`profile ${p.source}: operations.${id} and operations.${other.operationId ?? '?'} are both ${method} ${path}`);
    item[key] = operationObject(id, contracts, p);
  }
  return Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function versionParameter(versions: readonly Version[], p: Profile): JsonObject {
  const missing = String(p.expectations.versioning.missingHeader);
  const optional = versions.includes(missing as Version);
  return {
    name: 'x-api-version',
    in: 'header',
    required: !optional,
    description: `API version (${versions.join(' or ')}); without the header the target behaves as version ${missing}.`,
    schema: { type: 'string', enum: [...versions], ...(optional ? { default: missing } : {}) },
  };
}

/** The OAuth 2.0 authorization-code flow's endpoints (public-facts#authentication-integration-api, RFC
 * 6749 §4.1): not JSON operations of the API but the flow that issues its Bearer tokens, described by
 * RFC 6749's parameters; the paths are the profile's. */
function oauthPaths(p: Profile): JsonObject {
  const o = p.expectations.oauth;
  const query = (name: string, description: string, required = false, schema: JsonObject = { type: 'string' }): JsonObject => ({
    name,
    in: 'query',
    required,
    description,
    schema,
  });
  const oauthError: JsonObject = {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
    'x-spec': 'public-facts#authentication-integration-api',
  };
  const authorize: JsonObject = {
    operationId: 'oauth.authorize',
    summary: 'Authorization endpoint: the user signs in, and is redirected to the client with a single-use code (RFC 6749 §4.1.1)',
    tags: ['oauth'],
    security: [],
    parameters: [
      query('response_type', 'code', true, { type: 'string', const: 'code' }),
      query('client_id', 'The client.', true),
      query('redirect_uri', 'The registered redirect URI.'),
      query('scope', `Scope (${o.scope}).`),
      query('state', 'Returned unchanged with the code.'),
      query('code_challenge', 'PKCE (RFC 7636).'),
      query('code_challenge_method', 'PKCE method (S256).'),
    ],
    responses: {
      '302': { description: 'To the sign-in page, or to the redirect URI with `code` and `state` (or `error`).' },
      '303': { description: 'As 302.' },
      '400': { description: 'The client or its redirect URI is not known: no redirect (RFC 6749 §4.1.2.1).' },
    },
  };
  const token: JsonObject = {
    operationId: 'oauth.token',
    summary: `Token endpoint: a code or a refresh token for an access token (scope ${o.scope}, at most ${o.accessTokenMaxSeconds} s) and a refresh token (RFC 6749 §4.1.3, §6)`,
    tags: ['oauth'],
    security: [{ oauthClient: [] }],
    parameters: [],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            required: ['grant_type'],
            properties: {
              grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
              code: { type: 'string' },
              redirect_uri: { type: 'string' },
              code_verifier: { type: 'string' },
              refresh_token: { type: 'string' },
            },
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The tokens (RFC 6749 §5.1).',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['access_token', 'token_type'],
              properties: {
                access_token: { type: 'string' },
                token_type: { type: 'string' },
                expires_in: { type: 'integer', maximum: o.accessTokenMaxSeconds },
                refresh_token: { type: 'string' },
                scope: { type: 'string' },
              },
            },
          },
        },
      },
      '400': {
        description: 'invalid_request, invalid_grant (a used or unknown code), unsupported_grant_type (RFC 6749 §5.2).',
        content: { 'application/json': { schema: oauthError } },
      },
      '401': { description: 'invalid_client: the client authentication failed (RFC 6749 §5.2).', content: { 'application/json': { schema: oauthError } } },
    },
  };
  return { [o.authorizePath]: { get: authorize }, [o.tokenPath]: { post: token } };
}

/** The OpenAPI 3.1 document of the profile's Integration API. */
export function intapiOpenApi(contracts: ContractSchemas, p: Profile, options: BuildOptions): JsonObject {
  // The document describes the Integration API: its components are that family's contracts only
  // (the SCIM and learner contracts describe other hosts and paths, docs/decisions/core/openapi.md "OpenAPI document").
  const schemas = embedContracts(contracts, INTAPI_PREFIX);
  return {
    openapi: '3.1.0',
    info: {
      title: `Learning platform APIs (profile ${p.name})`,
      version: options.documentVersion,
      description:
        'Generated by lp-conformance from its contracts and the target profile. The API version is chosen with the x-api-version header; ' +
        'operations available in version 1 answer version-1 shapes when it is asked (the general resource list: a bare array). ' +
        'The paths of the other APIs (SCIM, the learner API) carry their own servers and security.',
    },
    servers: [{ url: p.families.intapi.baseUrl, description: `Integration API (profile ${p.name})` }],
    security: [
      { apiKey: [], bearerAuth: [] },
      { apiKey: [], oauth2: [p.expectations.oauth.scope] },
    ],
    paths: { ...pathsOf(contracts, p), ...oauthPaths(p) },
    components: {
      schemas,
      parameters: { apiVersion: versionParameter(BOTH, p), apiVersion2: versionParameter(V2, p) },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'API key, on every operation.' },
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The token the operation auth.authenticate answers.' },
        oauth2: {
          type: 'oauth2',
          description: 'An access token of the authorization-code flow, sent as Authorization: Bearer.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${p.families.intapi.baseUrl}${p.expectations.oauth.authorizePath}`,
              tokenUrl: `${p.families.intapi.baseUrl}${p.expectations.oauth.tokenPath}`,
              refreshUrl: `${p.families.intapi.baseUrl}${p.expectations.oauth.tokenPath}`,
              scopes: { [p.expectations.oauth.scope]: 'The Integration API.' },
            },
          },
        },
        oauthClient: { type: 'http', scheme: 'basic', description: 'The OAuth client id and secret (client_secret_basic).' },
      },
    },
  };
}
