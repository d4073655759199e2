import type { Behaviour } from '../behaviour.js';
import type { JsonObject, JsonValue } from '../../rules/json.js';
import { parseDateTime, formatInstant } from '../../rules/datetime.js';
import { type FieldDef, FieldSchema, type ValueType } from '../../rules/fields.js';
import { SUBMISSION_FIELDS, type SubmissionField, type SubmissionRecord } from '../store/records.js';
import { finishObject } from '../requests.js';

/** spec#integration-api-submission-v2: the type of each field, for `_filter`, `_sort` and storage. */
const FIELD_TYPES: Readonly<Record<SubmissionField, ValueType>> = {
  id: 'guid',
  userId: 'guid',
  templateId: 'guid',
  title: 'string',
  completionDate: 'datetime',
  status: 'number',
  cost: 'string',
  credits: 'number',
  description: 'string',
  expiryDate: 'datetime',
  startDate: 'datetime',
  score: 'number',
  grade: 'string',
  totalTimeSpent: 'number',
  vendor: 'string',
  vendorAddress: 'string',
};

/** Every field of the table filters and sorts (docs/decisions/intapi/reference-choices.md "Lists"). */
export const SUBMISSION_SCHEMA = new FieldSchema<SubmissionRecord>(
  SUBMISSION_FIELDS.map((name): FieldDef<SubmissionRecord> => ({ name, type: FIELD_TYPES[name], get: (record) => record[name] })),
);

/** The fields a create or update body writes (all but id, userId, templateId). */
export const WRITABLE_FIELDS = SUBMISSION_FIELDS.filter(
  (name): name is Exclude<SubmissionField, 'id' | 'userId' | 'templateId'> => name !== 'id' && name !== 'userId' && name !== 'templateId',
);
export type WritableField = (typeof WRITABLE_FIELDS)[number];

/** A body value as stored: a date-time as its canonical instant; anything else as it came. */
export function storedValue(name: SubmissionField, value: JsonValue | undefined): JsonValue {
  if (value === undefined) return null;
  if (FIELD_TYPES[name] === 'datetime' && typeof value === 'string') {
    const instant = parseDateTime(value);
    return instant === undefined ? value : formatInstant(instant);
  }
  return value;
}

/**
 * The writable fields of a stored submission from a body. An update is a full replacement
 * (docs/decisions/intapi/reference-choices.md "Bodies and bounds"); with a merge (a fault) absent fields keep their old value.
 */
export function writtenFields(
  body: JsonObject,
  previous: SubmissionRecord | undefined,
  update: Behaviour['writes']['update'],
): Record<WritableField, JsonValue> {
  const keep = update === 'merge' && previous !== undefined;
  return Object.fromEntries(WRITABLE_FIELDS.map((name) => [name, keep && body[name] === undefined ? previous[name] : storedValue(name, body[name])])) as Record<
    WritableField,
    JsonValue
  >;
}

/** Response fields in table order, less those a fault leaves out. */
export function submissionSerializer(responses: Behaviour['responses']): (record: SubmissionRecord) => JsonObject {
  const fields = SUBMISSION_FIELDS.filter((name) => !responses.omitSubmissionFields.has(name));
  return (record) => {
    const out: JsonObject = {};
    for (const name of fields) out[name] = record[name];
    return finishObject(out, responses.nulls);
  };
}
