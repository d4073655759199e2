import type { Behaviour } from '../behaviour.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../rules/json.js';
import type { QuestionRecord } from '../store/records.js';
import { finishObject } from '../requests.js';

/**
 * spec#integration-api-question-bank-question-v2: questionType is a string in requests and an
 * integer in responses, 0 SingleAnswer, 1 MultipleAnswer, 2 Text (public-facts "Enumerations known").
 */
export const QUESTION_TYPES = ['SingleAnswer', 'MultipleAnswer', 'Text'] as const;

/**
 * Question options as stored: `id` generated when absent, `isCorrect` false by default, `order`
 * the element's index by default (docs/decisions/intapi/reference-choices.md "Question"). A value a fault let in stays as it came.
 */
export function storedOptions(value: JsonValue | undefined, ids: () => string): JsonValue {
  if (!Array.isArray(value)) return value ?? null;
  return value.map((option, index): JsonValue => {
    if (!isJsonObject(option)) return option;
    return { id: option.id ?? ids(), name: option.name ?? null, isCorrect: option.isCorrect ?? false, order: option.order ?? index };
  });
}

export function questionSerializer(responses: Behaviour['responses']): (question: QuestionRecord) => JsonObject {
  const typeOf = (value: JsonValue): JsonValue => {
    if (responses.questionType === 'string' || typeof value !== 'string') return value;
    const index = QUESTION_TYPES.indexOf(value as (typeof QUESTION_TYPES)[number]);
    return index < 0 ? value : index;
  };
  return (question) =>
    finishObject(
      {
        id: question.id,
        questionType: typeOf(question.questionType),
        name: question.name,
        correctReply: question.correctReply,
        incorrectReply: question.incorrectReply,
        attachment: question.attachment,
        questionOptions: question.questionOptions,
      },
      responses.nulls,
    );
}
