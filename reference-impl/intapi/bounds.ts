import type { BodySpec, FieldSpec } from '../rules/bounds.js';

/**
 * The Integration API field tables as bounds rules, exactly as the specification gives them.
 * spec#integration-api-submission-v2, spec#integration-api-question-bank-v2,
 * spec#integration-api-question-bank-question-v2. Question option fields: docs/decisions/intapi/reference-choices.md "Question".
 */
export type IntapiBodyOperation =
  'submissions.create' | 'submissions.update' | 'questionBanks.create' | 'questionBanks.update' | 'questions.create' | 'questions.update';

const NOT_ACCEPTED = (name: string): FieldSpec => ({ name, notAccepted: true });
const TEXT = (name: string, maxLength: number): FieldSpec => ({ name, type: 'string', maxLength });
const DATE_TIME: FieldSpec = { name: '', type: 'string', format: 'date-time' };

// spec#integration-api-submission-v2: the fields create and update share.
const SUBMISSION_FIELDS: readonly FieldSpec[] = [
  { name: 'title', type: 'string', required: true, minLength: 1, maxLength: 255 },
  { ...DATE_TIME, name: 'completionDate', required: true },
  { name: 'status', type: 'integer', enum: [0, 1, 2] },
  TEXT('cost', 255),
  { name: 'credits', type: 'number', minimum: 0, maximum: 1_000_000 },
  TEXT('description', 10_000),
  { ...DATE_TIME, name: 'expiryDate' },
  { ...DATE_TIME, name: 'startDate' },
  { name: 'score', type: 'number', minimum: 0, maximum: 100 },
  TEXT('grade', 255),
  { name: 'totalTimeSpent', type: 'number', minimum: 0, maximum: 1_000_000 },
  TEXT('vendor', 255),
  TEXT('vendorAddress', 255),
];

// spec#integration-api-question-bank-v2: name 0..255 characters, "" is valid.
const BANK_NAME: FieldSpec = { name: 'name', type: 'string', required: true, minLength: 0, maxLength: 255 };

// docs/decisions/intapi/reference-choices.md "Question": option id (guid, generated), name (required), isCorrect, order.
const QUESTION_OPTION_FIELDS: readonly FieldSpec[] = [
  { name: 'id', type: 'string', format: 'guid' },
  { name: 'name', type: 'string', required: true },
  { name: 'isCorrect', type: 'boolean' },
  { name: 'order', type: 'integer' },
];

// spec#integration-api-question-bank-question-v2
const QUESTION_FIELDS: readonly FieldSpec[] = [
  { name: 'questionType', type: 'string', required: true, enum: ['SingleAnswer', 'MultipleAnswer', 'Text'] },
  { name: 'name', type: 'string', required: true, minLength: 0, maxLength: 4000 },
  { name: 'correctReply', type: 'string', minLength: 0, maxLength: 2000 },
  { name: 'incorrectReply', type: 'string', minLength: 0, maxLength: 2000 },
  { name: 'attachment', type: 'string', minLength: 0, maxLength: 255 },
  { name: 'questionOptions', type: 'array', required: true, items: QUESTION_OPTION_FIELDS },
];

const GUID_ID: FieldSpec = { name: 'id', type: 'string', format: 'guid' };
const REQUIRED_GUID = (name: string): FieldSpec => ({ name, type: 'string', required: true, format: 'guid' });

export const INTAPI_BODIES: Readonly<Record<IntapiBodyOperation, BodySpec>> = {
  'submissions.create': {
    operation: 'submissions.create',
    // id is "response only" in create as well.
    fields: [NOT_ACCEPTED('id'), REQUIRED_GUID('userId'), REQUIRED_GUID('templateId'), ...SUBMISSION_FIELDS],
  },
  'submissions.update': {
    operation: 'submissions.update',
    fields: [NOT_ACCEPTED('id'), NOT_ACCEPTED('userId'), NOT_ACCEPTED('templateId'), ...SUBMISSION_FIELDS],
  },
  'questionBanks.create': { operation: 'questionBanks.create', fields: [GUID_ID, BANK_NAME] },
  'questionBanks.update': { operation: 'questionBanks.update', fields: [NOT_ACCEPTED('id'), BANK_NAME] },
  'questions.create': { operation: 'questions.create', fields: [GUID_ID, ...QUESTION_FIELDS] },
  'questions.update': { operation: 'questions.update', fields: [NOT_ACCEPTED('id'), ...QUESTION_FIELDS] },
};
