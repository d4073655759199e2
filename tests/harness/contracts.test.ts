/**
 * The contracts and their loader. The expected field tables below are written out literally from
 * the specification's tables (learning-platform-apis.md, "Resources and their fields"): they are
 * the guard against a contract drifting from the spec, so they are not derived from anything.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  CONTRACT_NAMES,
  isContractName,
  schemaOf,
  validate,
  type ContractName,
  type FieldBounds,
  type JsonSchema,
} from '../../suites/_harness/contracts.js';
import { INTAPI_CONTRACT_NAMES } from '../../suites/_harness/intapi/contracts.js';
import { readContractFiles } from '../../src/util/contract-files.js';
import { loadAnchorTargets, resolves } from '../support/anchors.js';

const SUB = 'spec#integration-api-submission-v2';
const QB = 'spec#integration-api-question-bank-v2';
const Q = 'spec#integration-api-question-bank-question-v2';
const ENV = 'spec#paged-list-envelope-v2-list-operations';
const ERR = 'spec#error-body';
const TPL = 'spec#integration-api-template-v2';
const RES = 'spec#integration-api-resource-learning-resource';

// ---------------------------------------------------------------------------------------------
// The spec's field tables, literally.

const SUBMISSION_CREATE: FieldBounds[] = [
  { field: 'userId', required: true, type: 'string', nullable: false, format: 'uuid', spec: SUB },
  { field: 'templateId', required: true, type: 'string', nullable: false, format: 'uuid', spec: SUB },
  { field: 'title', required: true, type: 'string', nullable: false, minLength: 1, maxLength: 255, spec: SUB },
  { field: 'completionDate', required: true, type: 'string', nullable: false, format: 'date-time', spec: SUB },
  { field: 'status', required: false, type: 'integer', nullable: true, enum: [0, 1, 2], spec: SUB },
  { field: 'cost', required: false, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'credits', required: false, type: 'number', nullable: true, minimum: 0, maximum: 1000000, spec: SUB },
  { field: 'description', required: false, type: 'string', nullable: true, maxLength: 10000, spec: SUB },
  { field: 'expiryDate', required: false, type: 'string', nullable: true, format: 'date-time', spec: SUB },
  { field: 'startDate', required: false, type: 'string', nullable: true, format: 'date-time', spec: SUB },
  { field: 'score', required: false, type: 'number', nullable: true, minimum: 0, maximum: 100, spec: SUB },
  { field: 'grade', required: false, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'totalTimeSpent', required: false, type: 'number', nullable: true, minimum: 0, maximum: 1000000, spec: SUB },
  { field: 'vendor', required: false, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'vendorAddress', required: false, type: 'string', nullable: true, maxLength: 255, spec: SUB },
];

const SUBMISSION_UPDATE: FieldBounds[] = [
  { field: 'title', required: true, type: 'string', nullable: false, minLength: 1, maxLength: 255, spec: SUB },
  { field: 'completionDate', required: true, type: 'string', nullable: false, format: 'date-time', spec: SUB },
  { field: 'status', required: false, type: 'integer', nullable: true, enum: [0, 1, 2], spec: SUB },
  { field: 'cost', required: false, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'credits', required: false, type: 'number', nullable: true, minimum: 0, maximum: 1000000, spec: SUB },
  { field: 'description', required: false, type: 'string', nullable: true, maxLength: 10000, spec: SUB },
  { field: 'expiryDate', required: false, type: 'string', nullable: true, format: 'date-time', spec: SUB },
  { field: 'startDate', required: false, type: 'string', nullable: true, format: 'date-time', spec: SUB },
  { field: 'score', required: false, type: 'number', nullable: true, minimum: 0, maximum: 100, spec: SUB },
  { field: 'grade', required: false, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'totalTimeSpent', required: false, type: 'number', nullable: true, minimum: 0, maximum: 1000000, spec: SUB },
  { field: 'vendor', required: false, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'vendorAddress', required: false, type: 'string', nullable: true, maxLength: 255, spec: SUB },
];

// Responses carry all sixteen fields as keys; the optional ones are null when unset.
const SUBMISSION_RESPONSE: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: SUB },
  { field: 'userId', required: true, type: 'string', nullable: false, format: 'uuid', spec: SUB },
  { field: 'templateId', required: true, type: 'string', nullable: false, format: 'uuid', spec: SUB },
  { field: 'title', required: true, type: 'string', nullable: false, minLength: 1, maxLength: 255, spec: SUB },
  { field: 'completionDate', required: true, type: 'string', nullable: false, format: 'date-time', spec: SUB },
  { field: 'status', required: true, type: 'integer', nullable: true, enum: [0, 1, 2], spec: SUB },
  { field: 'cost', required: true, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'credits', required: true, type: 'number', nullable: true, minimum: 0, maximum: 1000000, spec: SUB },
  { field: 'description', required: true, type: 'string', nullable: true, maxLength: 10000, spec: SUB },
  { field: 'expiryDate', required: true, type: 'string', nullable: true, format: 'date-time', spec: SUB },
  { field: 'startDate', required: true, type: 'string', nullable: true, format: 'date-time', spec: SUB },
  { field: 'score', required: true, type: 'number', nullable: true, minimum: 0, maximum: 100, spec: SUB },
  { field: 'grade', required: true, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'totalTimeSpent', required: true, type: 'number', nullable: true, minimum: 0, maximum: 1000000, spec: SUB },
  { field: 'vendor', required: true, type: 'string', nullable: true, maxLength: 255, spec: SUB },
  { field: 'vendorAddress', required: true, type: 'string', nullable: true, maxLength: 255, spec: SUB },
];

const QUESTION_BANK_CREATE: FieldBounds[] = [
  { field: 'id', required: false, type: 'string', nullable: true, format: 'uuid', spec: QB },
  { field: 'name', required: true, type: 'string', nullable: false, minLength: 0, maxLength: 255, spec: QB },
];
const QUESTION_BANK_UPDATE: FieldBounds[] = [{ field: 'name', required: true, type: 'string', nullable: false, minLength: 0, maxLength: 255, spec: QB }];
const QUESTION_BANK_RESPONSE: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: QB },
  { field: 'name', required: true, type: 'string', nullable: false, minLength: 0, maxLength: 255, spec: QB },
];

const QUESTION_CREATE: FieldBounds[] = [
  { field: 'id', required: false, type: 'string', nullable: true, format: 'uuid', spec: Q },
  { field: 'questionType', required: true, type: 'string', nullable: false, enum: ['SingleAnswer', 'MultipleAnswer', 'Text'], spec: Q },
  { field: 'name', required: true, type: 'string', nullable: false, minLength: 0, maxLength: 4000, spec: Q },
  { field: 'correctReply', required: false, type: 'string', nullable: true, minLength: 0, maxLength: 2000, spec: Q },
  { field: 'incorrectReply', required: false, type: 'string', nullable: true, minLength: 0, maxLength: 2000, spec: Q },
  { field: 'attachment', required: false, type: 'string', nullable: true, minLength: 0, maxLength: 255, spec: Q },
  { field: 'questionOptions', required: true, type: 'array', nullable: false, itemType: 'object', itemContract: 'intapi/questionOption.request', spec: Q },
];
const QUESTION_UPDATE: FieldBounds[] = [
  { field: 'questionType', required: true, type: 'string', nullable: false, enum: ['SingleAnswer', 'MultipleAnswer', 'Text'], spec: Q },
  { field: 'name', required: true, type: 'string', nullable: false, minLength: 0, maxLength: 4000, spec: Q },
  { field: 'correctReply', required: false, type: 'string', nullable: true, minLength: 0, maxLength: 2000, spec: Q },
  { field: 'incorrectReply', required: false, type: 'string', nullable: true, minLength: 0, maxLength: 2000, spec: Q },
  { field: 'attachment', required: false, type: 'string', nullable: true, minLength: 0, maxLength: 255, spec: Q },
  { field: 'questionOptions', required: true, type: 'array', nullable: false, itemType: 'object', itemContract: 'intapi/questionOption.request', spec: Q },
];
const QUESTION_RESPONSE: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: Q },
  { field: 'questionType', required: true, type: 'integer', nullable: false, enum: [0, 1, 2], spec: Q },
  { field: 'name', required: true, type: 'string', nullable: false, minLength: 0, maxLength: 4000, spec: Q },
  { field: 'correctReply', required: true, type: 'string', nullable: true, minLength: 0, maxLength: 2000, spec: Q },
  { field: 'incorrectReply', required: true, type: 'string', nullable: true, minLength: 0, maxLength: 2000, spec: Q },
  { field: 'attachment', required: true, type: 'string', nullable: true, minLength: 0, maxLength: 255, spec: Q },
  { field: 'questionOptions', required: true, type: 'array', nullable: false, itemType: 'object', itemContract: 'intapi/questionOption', spec: Q },
];
// Question option: fields and types only ("Length and bounds of question option fields: not shown").
const QUESTION_OPTION_REQUEST: FieldBounds[] = [
  { field: 'id', required: false, type: 'string', nullable: true, format: 'uuid', spec: Q },
  { field: 'name', required: true, type: 'string', nullable: false, spec: Q },
  { field: 'isCorrect', required: false, type: 'boolean', nullable: true, spec: Q },
  { field: 'order', required: false, type: 'integer', nullable: true, spec: Q },
];
const QUESTION_OPTION_RESPONSE: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: Q },
  { field: 'name', required: true, type: 'string', nullable: false, spec: Q },
  { field: 'isCorrect', required: true, type: 'boolean', nullable: false, spec: Q },
  { field: 'order', required: true, type: 'integer', nullable: false, spec: Q },
];

const TEMPLATE: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: TPL },
  { field: 'name', required: true, type: 'string', nullable: false, spec: TPL },
  { field: 'isActive', required: true, type: 'boolean', nullable: false, spec: TPL },
];
// "file: associated file, if any" is the only nullable resource field.
const RESOURCE: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: RES },
  { field: 'name', required: true, type: 'string', nullable: false, spec: RES },
  { field: 'description', required: true, type: 'string', nullable: false, spec: RES },
  { field: 'file', required: true, type: 'string', nullable: true, spec: RES },
];
const ERROR_BODY: FieldBounds[] = [
  { field: 'validations', required: true, type: 'array', nullable: false, itemType: 'string', spec: ERR },
  { field: 'code', required: true, type: 'integer', nullable: false, spec: ERR },
  { field: 'message', required: true, type: 'string', nullable: false, spec: ERR },
  { field: 'term', required: true, type: 'string', nullable: false, spec: ERR },
  { field: '_meta', required: true, type: 'object', nullable: false, spec: ERR },
];
const INT32_MAX = 2147483647;
const envelope = (key: string, item: ContractName): FieldBounds[] => [
  { field: 'totalItems', required: true, type: 'integer', nullable: false, minimum: 0, maximum: INT32_MAX, spec: ENV },
  { field: 'returnedItems', required: true, type: 'integer', nullable: false, minimum: 0, maximum: INT32_MAX, spec: ENV },
  { field: 'limit', required: true, type: 'integer', nullable: false, minimum: 0, maximum: INT32_MAX, spec: ENV },
  { field: 'offset', required: true, type: 'integer', nullable: false, minimum: 0, maximum: INT32_MAX, spec: ENV },
  { field: key, required: true, type: 'array', nullable: false, itemType: 'object', itemContract: item, spec: ENV },
];

// Users and direct reports: the specification shows IsManager only; the other fields are the
// reference server's choices modelled on public-facts (docs/decisions/intapi/users-and-managers.md "Users and managers").
const OPS = 'spec#integration-api-operations-named-by-release-notes';
const RECORDS = 'spec#other-records-named-by-release-notes';
const FACTS = 'public-facts#integration-api-paths-seen-in-public-clients-the-v1-surface-which-v2-keeps';
/** The user property of the automatic enrollment rules (specification rule 5). */
const RULES = 'spec#what-the-service-does';
const userRecord = (flag: 'IsManager' | 'isManager', flagSpec: string): FieldBounds[] => [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: OPS },
  { field: 'username', required: false, type: 'string', nullable: false, spec: FACTS },
  { field: 'firstName', required: false, type: 'string', nullable: false, spec: FACTS },
  { field: 'lastName', required: false, type: 'string', nullable: false, spec: FACTS },
  { field: 'email', required: false, type: 'string', nullable: true, spec: FACTS },
  { field: 'managerId', required: false, type: 'string', nullable: true, format: 'uuid', spec: FACTS },
  { field: 'jobTitle', required: false, type: 'string', nullable: true, spec: RULES },
  { field: flag, required: true, type: 'boolean', nullable: false, spec: flagSpec },
];
const USER_WRITE: FieldBounds[] = [
  { field: 'username', required: true, type: 'string', nullable: false, minLength: 1, maxLength: 255, spec: FACTS },
  { field: 'firstName', required: true, type: 'string', nullable: false, minLength: 1, maxLength: 255, spec: FACTS },
  { field: 'lastName', required: true, type: 'string', nullable: false, minLength: 1, maxLength: 255, spec: FACTS },
  { field: 'email', required: false, type: 'string', nullable: true, maxLength: 255, spec: FACTS },
  { field: 'managerId', required: false, type: 'string', nullable: true, format: 'uuid', spec: FACTS },
  { field: 'jobTitle', required: false, type: 'string', nullable: true, maxLength: 255, spec: RULES },
];

// Course evaluations, countries and provinces: the specification shows no fields; the shapes
// are the reference server's choices (docs/decisions/intapi/evaluations-countries-oauth.md "Course evaluations", "Countries and provinces").
const EVAL: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: OPS },
  { field: 'courseId', required: true, type: 'string', nullable: false, format: 'uuid', spec: OPS },
  { field: 'text', required: true, type: 'string', nullable: false, spec: OPS },
  { field: 'questionType', required: true, type: 'string', nullable: false, enum: ['Rating', 'Text', 'YesNo'], spec: OPS },
  { field: 'order', required: true, type: 'integer', nullable: false, minimum: 0, spec: OPS },
  { field: 'isRequired', required: true, type: 'boolean', nullable: false, spec: OPS },
];
const EVAL_ANSWER: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: OPS },
  { field: 'courseId', required: true, type: 'string', nullable: false, format: 'uuid', spec: OPS },
  { field: 'questionId', required: true, type: 'string', nullable: false, format: 'uuid', spec: OPS },
  { field: 'userId', required: true, type: 'string', nullable: false, format: 'uuid', spec: OPS },
  { field: 'answer', required: true, type: 'string', nullable: false, spec: OPS },
  { field: 'dateSubmitted', required: true, type: 'string', nullable: false, format: 'date-time', spec: OPS },
];
const COUNTRY: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: FACTS },
  { field: 'code', required: true, type: 'string', nullable: false, pattern: '^[A-Z]{2}$', spec: FACTS },
  { field: 'alpha3', required: false, type: 'string', nullable: false, pattern: '^[A-Z]{3}$', spec: FACTS },
  { field: 'name', required: true, type: 'string', nullable: false, spec: FACTS },
];
const PROVINCE: FieldBounds[] = [
  { field: 'id', required: true, type: 'string', nullable: false, format: 'uuid', spec: FACTS },
  { field: 'countryId', required: true, type: 'string', nullable: false, format: 'uuid', spec: FACTS },
  { field: 'code', required: true, type: 'string', nullable: false, pattern: '^[A-Z]{2}-[A-Z0-9]{1,3}$', spec: 'spec#versioning' },
  { field: 'name', required: true, type: 'string', nullable: false, spec: FACTS },
];

const G1 = '00000000-0000-4000-8000-000000000001';
const G2 = '00000000-0000-4000-8000-000000000201';

/** Per object contract: its expected table and a valid document to vary one field of. */
// Groups and enrollments: the reference server's shapes (docs/decisions/intapi/groups-enrollments-sessions.md "Groups, enrollments and sessions"); OPS above.
const GROUP_NAME: FieldBounds = { field: 'name', required: true, type: 'string', nullable: false, minLength: 1, maxLength: 255, spec: OPS };
const GROUP_DESCRIPTION = (required: boolean): FieldBounds => ({ field: 'description', required, type: 'string', nullable: true, maxLength: 1000, spec: OPS });
const GROUP_TYPE: FieldBounds = { field: 'groupType', required: true, type: 'string', nullable: false, enum: ['Manual', 'Automatic'], spec: OPS };
const GUID_FIELD = (field: string): FieldBounds => ({ field, required: true, type: 'string', nullable: false, format: 'uuid', spec: OPS });
const USER_IDS: FieldBounds = { field: 'userIds', required: true, type: 'array', nullable: false, itemType: 'string', spec: OPS };
const ENROLLMENT_STATUS = (required: boolean): FieldBounds => ({
  field: 'status',
  required,
  type: 'integer',
  nullable: false,
  enum: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  spec: 'public-facts#enumerations-known',
});
const GROUP_TABLES = [
  {
    name: 'intapi/group',
    table: [GUID_FIELD('id'), GROUP_NAME, GROUP_DESCRIPTION(true), GROUP_TYPE, USER_IDS],
    base: { id: G1, name: 'G', description: null, groupType: 'Manual', userIds: [] },
  },
  { name: 'intapi/group.create', table: [GROUP_NAME, GROUP_DESCRIPTION(false), GROUP_TYPE], base: { name: 'G', groupType: 'Manual' } },
  { name: 'intapi/group.update', table: [GROUP_NAME, GROUP_DESCRIPTION(false)], base: { name: 'G' } },
  { name: 'intapi/group.assign', table: [USER_IDS], base: { userIds: [G1] } },
  { name: 'intapi/groupUser', table: [GUID_FIELD('id')], base: { id: G1 } },
  {
    name: 'intapi/enrollment',
    table: [
      GUID_FIELD('id'),
      GUID_FIELD('userId'),
      GUID_FIELD('courseId'),
      { field: 'sessionIds', required: true, type: 'array', nullable: false, itemType: 'string', spec: OPS },
      ENROLLMENT_STATUS(true),
      { field: 'credits', required: true, type: 'number', nullable: true, minimum: 0, spec: 'spec#states-and-transitions' },
      { field: 'enrollmentDate', required: true, type: 'string', nullable: false, format: 'date-time', spec: OPS },
    ],
    base: { id: G1, userId: G1, courseId: G2, sessionIds: [], status: 0, credits: null, enrollmentDate: '2024-03-01T10:00:00.000Z' },
  },
  {
    name: 'intapi/enrollment.create',
    table: [
      GUID_FIELD('courseId'),
      ENROLLMENT_STATUS(false),
      { field: 'credits', required: false, type: 'number', nullable: true, maximum: 1_000_000, spec: 'spec#states-and-transitions' },
      { field: 'enrollmentDate', required: false, type: 'string', nullable: true, format: 'date-time', spec: OPS },
    ],
    base: { courseId: G2 },
  },
] as const;

const TABLES: { name: ContractName; table: FieldBounds[]; base: Record<string, unknown> }[] = [
  { name: 'intapi/submission.create', table: SUBMISSION_CREATE, base: { userId: G1, templateId: G2, title: 'T', completionDate: '2024-03-01T10:00:00Z' } },
  { name: 'intapi/submission.update', table: SUBMISSION_UPDATE, base: { title: 'T', completionDate: '2024-03-01T10:00:00Z' } },
  {
    name: 'intapi/submission',
    table: SUBMISSION_RESPONSE,
    base: {
      id: G1,
      userId: G1,
      templateId: G2,
      title: 'T',
      completionDate: '2024-03-01T10:00:00.000Z',
      status: null,
      cost: null,
      credits: null,
      description: null,
      expiryDate: null,
      startDate: null,
      score: null,
      grade: null,
      totalTimeSpent: null,
      vendor: null,
      vendorAddress: null,
    },
  },
  { name: 'intapi/questionBank.create', table: QUESTION_BANK_CREATE, base: { name: 'B' } },
  { name: 'intapi/questionBank.update', table: QUESTION_BANK_UPDATE, base: { name: 'B' } },
  { name: 'intapi/questionBank', table: QUESTION_BANK_RESPONSE, base: { id: G1, name: 'B' } },
  { name: 'intapi/question.create', table: QUESTION_CREATE, base: { questionType: 'Text', name: 'Q', questionOptions: [] } },
  { name: 'intapi/question.update', table: QUESTION_UPDATE, base: { questionType: 'Text', name: 'Q', questionOptions: [] } },
  {
    name: 'intapi/question',
    table: QUESTION_RESPONSE,
    base: { id: G1, questionType: 2, name: 'Q', correctReply: null, incorrectReply: null, attachment: null, questionOptions: [] },
  },
  { name: 'intapi/questionOption.request', table: QUESTION_OPTION_REQUEST, base: { name: 'O' } },
  { name: 'intapi/questionOption', table: QUESTION_OPTION_RESPONSE, base: { id: G1, name: 'O', isCorrect: false, order: 0 } },
  { name: 'intapi/template', table: TEMPLATE, base: { id: G2, name: 'T', isActive: true } },
  { name: 'intapi/resource', table: RESOURCE, base: { id: G1, name: 'R', description: 'D', file: null } },
  { name: 'intapi/error', table: ERROR_BODY, base: { validations: [], code: 404, message: 'Not found', term: 'NotFound', _meta: {} } },
  { name: 'intapi/user', table: userRecord('IsManager', RECORDS), base: { id: G1, IsManager: false } },
  { name: 'intapi/directReport', table: userRecord('isManager', FACTS), base: { id: G1, isManager: false } },
  { name: 'intapi/user.write', table: USER_WRITE, base: { username: 'u', firstName: 'F', lastName: 'L' } },
  {
    name: 'intapi/directReports.update',
    table: [{ field: 'userIds', required: true, type: 'array', nullable: false, itemType: 'string', spec: OPS }],
    base: { userIds: [] },
  },
  { name: 'intapi/evaluationQuestion', table: EVAL, base: { id: G1, courseId: G2, text: 'Q', questionType: 'Rating', order: 0, isRequired: true } },
  {
    name: 'intapi/evaluationAnswer',
    table: EVAL_ANSWER,
    base: { id: G1, courseId: G2, questionId: G1, userId: G1, answer: '5', dateSubmitted: '2024-03-01T10:00:00Z' },
  },
  { name: 'intapi/country', table: COUNTRY, base: { id: G1, code: 'CA', name: 'Canada' } },
  { name: 'intapi/province', table: PROVINCE, base: { id: G1, countryId: G2, code: 'CA-ON', name: 'Ontario' } },
  ...(
    [
      ['intapi/envelope.resources', 'resources', 'intapi/resource'],
      ['intapi/envelope.submissions', 'submissions', 'intapi/submission'],
      ['intapi/envelope.templates', 'templates', 'intapi/template'],
      ['intapi/envelope.questionBanks', 'questionBanks', 'intapi/questionBank'],
      ['intapi/envelope.questions', 'questionBanks', 'intapi/question'],
      ['intapi/envelope.users', 'users', 'intapi/user'],
      ['intapi/envelope.directReports', 'directReports', 'intapi/directReport'],
      ['intapi/envelope.evaluationQuestions', 'evaluationQuestions', 'intapi/evaluationQuestion'],
      ['intapi/envelope.evaluationAnswers', 'evaluationAnswers', 'intapi/evaluationAnswer'],
      ['intapi/envelope.groups', 'groups', 'intapi/group'],
      ['intapi/envelope.groupUsers', 'users', 'intapi/groupUser'],
      ['intapi/envelope.enrollments', 'enrollments', 'intapi/enrollment'],
    ] as const
  ).map(([name, key, item]) => ({
    name,
    table: envelope(key, item),
    base: { totalItems: 0, returnedItems: 0, limit: 20, offset: 0, [key]: [] },
  })),
  ...GROUP_TABLES.map((t) => ({ ...t, table: [...t.table] as FieldBounds[] })),
];

describe('boundsOf matches the specification tables', () => {
  it.each(TABLES)('$name', ({ name, table }) => {
    expect(boundsOf(name)).toStrictEqual(table);
  });

  it('non-object contracts have no field bounds', () => {
    expect(boundsOf('intapi/token')).toEqual([]);
    expect(boundsOf('intapi/resource.list')).toEqual([]);
  });

  // The flat contracts of the Integration API; the SCIM contracts nest and are not field tables.
  it('every object contract of the Integration API has an expected table here', () => {
    const covered = new Set<ContractName>(TABLES.map((t) => t.name));
    const objects = INTAPI_CONTRACT_NAMES.filter((n) => schemaOf(n).type === 'object');
    expect(objects.filter((n) => !covered.has(n))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Each bound of the literal tables, at and beyond its limit, against the contract itself.

interface Case {
  what: string;
  value: unknown;
  valid: boolean;
}
const ABSENT = Symbol('absent');

function casesOf(b: FieldBounds): Case[] {
  const cases: Case[] = [
    { what: 'null', value: null, valid: b.nullable },
    { what: 'absent', value: ABSENT, valid: !b.required },
  ];
  const wrongType: Record<FieldBounds['type'], unknown> = { string: 1, integer: '1', number: '1', boolean: 'true', array: {}, object: [] };
  cases.push({ what: `a value of another type than ${b.type}`, value: wrongType[b.type], valid: false });
  if (b.type === 'integer' && b.enum === undefined) cases.push({ what: 'a fraction', value: 1.5, valid: false });
  if (b.maxLength !== undefined) {
    const max = b.maxLength;
    cases.push(
      { what: `${max} characters`, value: 'a'.repeat(max), valid: true },
      { what: `${max + 1} characters`, value: 'a'.repeat(max + 1), valid: false },
      { what: `${max} astral characters`, value: '\u{1F600}'.repeat(max), valid: true },
      { what: `${max + 1} astral characters`, value: '\u{1F600}'.repeat(max + 1), valid: false },
    );
  }
  if (b.minLength !== undefined) {
    cases.push({ what: `${b.minLength} characters`, value: 'a'.repeat(b.minLength), valid: true });
    if (b.minLength > 0) cases.push({ what: `${b.minLength - 1} characters`, value: 'a'.repeat(b.minLength - 1), valid: false });
  }
  // Decimals step by a cent beyond the limit; integers by one.
  const step = b.type === 'integer' ? 1 : 0.01;
  if (b.minimum !== undefined) {
    cases.push({ what: `${b.minimum}`, value: b.minimum, valid: true }, { what: `${b.minimum - step}`, value: b.minimum - step, valid: false });
  }
  if (b.maximum !== undefined) {
    cases.push({ what: `${b.maximum}`, value: b.maximum, valid: true }, { what: `${b.maximum + step}`, value: b.maximum + step, valid: false });
  }
  if (b.type === 'number') cases.push({ what: 'a decimal inside the range', value: 0.5, valid: true });
  if (b.enum !== undefined) {
    for (const v of b.enum) cases.push({ what: JSON.stringify(v), value: v, valid: true });
    if (b.type === 'integer') {
      const numbers = b.enum as number[];
      cases.push(
        { what: 'below the enum', value: Math.min(...numbers) - 1, valid: false },
        { what: 'above the enum', value: Math.max(...numbers) + 1, valid: false },
      );
    } else {
      cases.push({ what: 'an enum value in lower case', value: String(b.enum[0]).toLowerCase(), valid: false }, { what: 'empty', value: '', valid: false });
    }
  }
  if (b.format === 'uuid') {
    cases.push(
      { what: 'an upper-case guid', value: '6F1C2A9E-3B4D-4E5F-8A9B-0C1D2E3F4A5B', valid: true },
      { what: 'a guid without dashes', value: '6f1c2a9e3b4d4e5f8a9b0c1d2e3f4a5b', valid: false },
      { what: 'empty', value: '', valid: false },
    );
  }
  if (b.pattern !== undefined) cases.push({ what: `a value outside the pattern ${b.pattern}`, value: 'lower-case!', valid: false });
  if (b.format === 'date-time') {
    cases.push(
      { what: 'a date-time with an offset', value: '2024-03-01T10:00:00+05:30', valid: true },
      { what: 'a date only', value: '2024-03-01', valid: false },
      { what: 'empty', value: '', valid: false },
    );
  }
  return cases;
}

describe.each(TABLES)('bounds of $name, at and beyond each limit', ({ name, table, base }) => {
  it('the base document is valid', () => {
    expect(validate(name, base)).toEqual([]);
  });
  const cases = table.flatMap((b) => casesOf(b).map((c) => ({ ...c, field: b.field })));
  it.each(cases)('$field: $what → valid $valid', ({ field, value, valid }) => {
    const doc: Record<string, unknown> = { ...base };
    if (value === ABSENT) delete doc[field];
    else doc[field] = value;
    const errors = validate(name, doc);
    expect(errors.length === 0, JSON.stringify(errors)).toBe(valid);
    // An error about this field points at it (or, for a missing field, names it).
    if (!valid) expect(errors.some((e) => e.instancePath === `/${field}` || e.message.includes(`'${field}'`))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Example documents (fixtures/contracts, JSON-Schema-Test-Suite form).

interface FixtureGroup {
  description: string;
  schema: ContractName;
  tests: { description: string; data: unknown; valid: boolean }[];
}
const FIXTURES = new URL('../../fixtures/contracts/', import.meta.url);
const groups: (FixtureGroup & { file: string })[] = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((file) => (JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as FixtureGroup[]).map((g) => ({ ...g, file })));

describe.each(groups)('$file: $description ($schema)', ({ schema, tests }) => {
  it.each(tests)('$description → valid $valid', ({ data, valid }) => {
    const errors = validate(schema, data);
    expect(errors.length === 0, JSON.stringify(errors)).toBe(valid);
  });
});

describe('example documents', () => {
  it('name known contracts only', () => {
    expect(groups.map((g) => g.schema).filter((s) => !isContractName(s))).toEqual([]);
  });
  it.each([...CONTRACT_NAMES])('%s has a valid and an invalid example', (name) => {
    const tests = groups.filter((g) => g.schema === name).flatMap((g) => g.tests);
    expect(tests.some((t) => t.valid)).toBe(true);
    expect(tests.some((t) => !t.valid)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// The loader.

function nodes(schema: unknown, path = '#'): { path: string; node: JsonSchema }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as JsonSchema;
  const found = [{ path, node: s }];
  for (const [field, property] of Object.entries(s.properties ?? {})) found.push(...nodes(property, `${path}/properties/${field}`));
  if (s.items) found.push(...nodes(s.items, `${path}/items`));
  if (typeof s.additionalProperties === 'object') found.push(...nodes(s.additionalProperties, `${path}/additionalProperties`));
  return found;
}

describe('discovery of the contract files (src/util/contract-files.ts)', () => {
  const folder = (files: Record<string, string>): string => {
    const dir = join(mkdtempSync(join(tmpdir(), 'lpc-contracts-')), 'contracts');
    mkdirSync(dir);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    return dir;
  };
  const schema = (id: string): string => `$schema: https://json-schema.org/draft/2020-12/schema\n$id: ${id}\ntype: object\n`;

  it('names each contract <family>/<name> from its file <family>.<name>.yaml, any family of the three', () => {
    const dir = folder({
      'intapi.submission.create.yaml': schema('lp:intapi/submission.create'),
      'scim.user.yaml': schema('lp:scim/user'),
      'learner.course.yaml': schema('lp:learner/course'),
      'README.md': 'not a contract',
    });
    expect([...readContractFiles(dir).keys()]).toEqual(['intapi/submission.create', 'learner/course', 'scim/user']);
  });

  it.each([
    [
      'an $id that disagrees with the file name',
      { 'scim.user.yaml': schema('lp:scim/users') },
      'contracts/scim.user.yaml: $id "lp:scim/users" does not match the file name: it must be lp:scim/user',
    ],
    ['no $id', { 'scim.user.yaml': 'type: object\n' }, 'contracts/scim.user.yaml: $id undefined does not match the file name: it must be lp:scim/user'],
    ['an unknown family', { 'ldap.user.yaml': schema('lp:ldap/user') }, 'contracts/ldap.user.yaml: family ldap is not one of intapi, scim, learner'],
    ['a file name without a family', { 'user.yaml': schema('lp:user') }, 'contracts/user.yaml: a contract file is named <family>.<name>.yaml'],
    ['YAML that does not parse', { 'scim.user.yaml': 'a: [1\n' }, /^contracts\/scim\.user\.yaml: /],
    ['a document that is not a schema object', { 'scim.user.yaml': '- 1\n' }, 'contracts/scim.user.yaml: not a schema object'],
  ])('rejects %s, naming the file', (_, files, message) => {
    expect(() => readContractFiles(folder(files))).toThrow(message);
  });

  it('a family name without a file is an error when it is used, naming the file it looked for', () => {
    expect(isContractName('scim/user')).toBe(true);
    expect(isContractName('scim/nothing')).toBe(false);
    expect(() => validate('scim/nothing', {})).toThrow('contracts: unknown contract scim/nothing (no file contracts/scim.nothing.yaml)');
  });
});

/** The 2020-12 meta-schema, with the contracts' own keyword. */
const META = new Ajv2020({ strict: true });
META.addKeyword({ keyword: 'x-spec', schemaType: 'string' });
const RAW = readContractFiles();

describe('contracts', () => {
  // The loader reads every contract when it is imported (a file that is missing or does not parse
  // fails the import of this file) and compiles each, in strict mode, at its first validation: here.
  it.each([...CONTRACT_NAMES])('%s compiled, as JSON Schema 2020-12 with its $id', (name) => {
    expect(validate(name, Symbol('not JSON')).length).toBeGreaterThan(0);
    const schema = schemaOf(name);
    // The loader does not check the contracts against the meta-schema (its comment says why): here.
    const raw = RAW.get(name);
    expect(raw, `${name}: no contract file read`).toBeDefined();
    expect(META.validateSchema(raw as object), JSON.stringify(META.errors)).toBe(true);
    expect(schema.$id).toBe(`lp:${name}`);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it.each([...CONTRACT_NAMES])('%s: every constrained schema carries x-spec', (name) => {
    const missing = nodes(schemaOf(name)).filter(({ node }) => node.type !== undefined && !node['x-spec']);
    expect(missing.map((m) => m.path)).toEqual([]);
  });

  it('schemaOf inlines references to other contracts and is frozen', () => {
    const schema = schemaOf('intapi/envelope.questions');
    expect(JSON.stringify(schema)).not.toContain('$ref');
    const item = schema.properties?.questionBanks?.items;
    expect(item?.properties?.questionType?.enum).toEqual([0, 1, 2]);
    expect(item?.properties?.questionOptions?.items?.required).toEqual(['id', 'name', 'isCorrect', 'order']);
    expect(Object.isFrozen(item)).toBe(true);
  });

  it('validate answers [] for a valid value', () => {
    expect(validate('intapi/token', 'abc')).toEqual([]);
  });

  it('an error carries instance path, contract-qualified schema path, message and spec anchor', () => {
    const errors = validate('intapi/submission.create', { userId: G1, templateId: G2, title: 'a'.repeat(256), completionDate: '2024-03-01T10:00:00Z', foo: 1 });
    expect(errors).toContainEqual({
      instancePath: '/title',
      schemaPath: 'lp:intapi/submission.create#/properties/title/maxLength',
      keyword: 'maxLength',
      message: 'must NOT have more than 255 characters',
      spec: SUB,
    });
    expect(errors).toContainEqual(
      expect.objectContaining({ instancePath: '', keyword: 'additionalProperties', message: "must NOT have additional property 'foo'" }),
    );
  });

  it('an error inside a referenced contract names that contract and its anchor', () => {
    const errors = validate('intapi/envelope.submissions', { totalItems: 1, returnedItems: 1, limit: 20, offset: 0, submissions: [{}] });
    expect(errors).toContainEqual(
      expect.objectContaining({ instancePath: '/submissions/0', keyword: 'required', schemaPath: 'lp:intapi/submission#/required', spec: SUB }),
    );
  });

  it('a required-property error carries the anchor of the missing property', () => {
    const [error] = validate('intapi/error', { validations: [], code: 400, message: 'm', _meta: {} });
    expect(error).toMatchObject({ keyword: 'required', message: "must have required property 'term'", spec: ERR });
  });

  it('enum and nullable type errors list what is allowed', () => {
    const errors = validate('intapi/submission.update', { title: 'T', completionDate: '2024-03-01T10:00:00Z', status: 7, credits: 'x' });
    expect(errors.map((e) => e.message)).toEqual(['must be one of 0, 1, 2, null', 'must be number or null']);
  });
});

// ---------------------------------------------------------------------------------------------
// Every anchor resolves: to a heading of the specification or of public-facts.md, or to a section
// of RFC 7643/7644 (tests/support/anchors.ts: the indexes shipped in fixtures/spec and fixtures/rfc).

/** Every x-spec anywhere in a schema, also under if/then, allOf, not and contains. */
function anchorsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(anchorsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'x-spec' && typeof v === 'string' ? [v] : anchorsOf(v)));
}

describe('x-spec anchors', () => {
  it('resolve to headings of the specification documents and sections of the RFCs', () => {
    const targets = loadAnchorTargets();
    const used = new Set(CONTRACT_NAMES.flatMap((n) => anchorsOf(schemaOf(n))));
    expect([...used].filter((anchor) => !resolves(anchor, targets))).toEqual([]);
    expect(used.size).toBeGreaterThan(5);
  });
});
