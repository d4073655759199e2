import type { Store } from '../store/store.js';

/**
 * Course evaluations (release 5.121.0; spec#integration-api-operations-named-by-release-notes: the
 * record fields are "not shown"). The reference server's records, PROFILE level (docs/decisions/intapi/evaluations-countries-oauth.md
 * "Course evaluations"): a question `{id, courseId, text, questionType, order, isRequired}`
 * (`questionType` one of EVALUATION_QUESTION_TYPES) and an answer
 * `{id, courseId, questionId, userId, answer, dateSubmitted}`.
 */
export const EVALUATION_QUESTION_TYPES = ['Rating', 'Text', 'YesNo'] as const;

export interface EvaluationQuestion {
  readonly id: string;
  readonly courseId: string;
  readonly text: string;
  readonly questionType: (typeof EVALUATION_QUESTION_TYPES)[number];
  readonly order: number;
  readonly isRequired: boolean;
}

export interface EvaluationAnswer {
  readonly id: string;
  readonly courseId: string;
  readonly questionId: string;
  readonly userId: string;
  readonly answer: string;
  readonly dateSubmitted: string;
}

export interface Evaluations {
  readonly questions: readonly EvaluationQuestion[];
  readonly answers: readonly EvaluationAnswer[];
}

const QUESTION_TEXTS: readonly [string, EvaluationQuestion['questionType']][] = [
  ['How would you rate this course overall?', 'Rating'],
  ['Was the content relevant to your role?', 'YesNo'],
  ['How would you rate the instructor?', 'Rating'],
  ['What would you improve?', 'Text'],
  ['Would you recommend this course to a colleague?', 'YesNo'],
];
const ANSWERS: Readonly<Record<EvaluationQuestion['questionType'], readonly string[]>> = {
  Rating: ['5', '4', '3'],
  YesNo: ['Yes', 'No'],
  Text: ['More examples, please.', 'Shorter videos.'],
};

/** Fixed GUIDs: question q of course c `…-0000e0c0000q`, answer a of it `…-0000ea0c0q0a` (hex digits). */
const questionId = (c: number, q: number) => `00000000-0000-4000-8000-0000e0${c.toString(16).padStart(2, '0')}${q.toString(16).padStart(4, '0')}`;
const answerId = (c: number, q: number, a: number) =>
  `00000000-0000-4000-8000-0000ea${c.toString(16).padStart(2, '0')}${q.toString(16).padStart(2, '0')}${a.toString(16).padStart(2, '0')}`;

/**
 * The seeded evaluations of the store's courses, deterministic: the first three courses have
 * 5, 3 and 2 questions, the others none; each question has one answer from each of the first
 * three users. Computed from the store's courses and users (first call), not stored by it.
 */
export function seedEvaluations(store: Store): Evaluations {
  const courses = store.courses.values().slice(0, 3);
  const users = store.users.values().slice(0, 3);
  const questions: EvaluationQuestion[] = [];
  const answers: EvaluationAnswer[] = [];
  courses.forEach((course, c) => {
    const count = [5, 3, 2][c] ?? 0;
    for (let q = 0; q < count; q++) {
      const [text, questionType] = QUESTION_TEXTS[q] ?? ['How was it?', 'Text'];
      const question: EvaluationQuestion = {
        id: store.seedIdOf(questionId(c + 1, q + 1)),
        courseId: course.id,
        text,
        questionType,
        order: q,
        isRequired: q === 0,
      };
      questions.push(question);
      users.forEach((user, u) => {
        const options = ANSWERS[questionType];
        answers.push({
          id: store.seedIdOf(answerId(c + 1, q + 1, u + 1)),
          courseId: course.id,
          questionId: question.id,
          userId: user.id,
          answer: options[(q + u) % options.length] ?? '',
          dateSubmitted: new Date(Date.UTC(2024, 2, 1 + c * 7 + u, 9, q * 5)).toISOString(),
        });
      });
    }
  });
  return { questions, answers };
}
