import type { JsonValue } from '../../rules/json.js';

/**
 * Stored records. Fields a request writes hold the JSON value as validated (date-times as the
 * canonical instant text): typed as JsonValue because a fault may let any value in, and the store
 * keeps what came.
 */
export interface UserRecord {
  readonly id: string;
  readonly userName: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  /** The user this user reports to (docs/decisions/intapi/users-and-managers.md "Users and managers"); null: none. */
  readonly managerId: string | null;
  /** The user property the automatic enrollment rules read (spec#what-the-service-does 5: "a user
   * property such as job title"); null: none. */
  readonly jobTitle: string | null;
}

export interface CourseRecord {
  readonly id: string;
  readonly name: string;
}

export interface ResourceRecord {
  readonly id: string;
  readonly courseId: string;
  readonly name: string;
  readonly description: string;
  readonly file: string | null;
}

export interface TemplateRecord {
  readonly id: string;
  readonly name: string;
  readonly isActive: boolean;
}

/** spec#integration-api-submission-v2, in the order of the field table. */
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
export type SubmissionField = (typeof SUBMISSION_FIELDS)[number];
export type SubmissionRecord = { readonly id: string } & { readonly [F in Exclude<SubmissionField, 'id'>]: JsonValue };

export interface QuestionBankRecord {
  readonly id: string;
  readonly name: JsonValue;
}

/** spec#integration-api-question-bank-question-v2; questionType as the request string. */
export interface QuestionRecord {
  readonly id: string;
  readonly questionType: JsonValue;
  readonly name: JsonValue;
  readonly correctReply: JsonValue;
  readonly incorrectReply: JsonValue;
  readonly attachment: JsonValue;
  readonly questionOptions: JsonValue;
}
