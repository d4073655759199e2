import type { JsonObject } from '../../rules/json.js';
import { type IntapiDeps, type IntapiOperation, V1_AND_V2, V2_ONLY } from '../context.js';
import { readListParams } from '../lists/params.js';
import type { QueryValue } from '../../http/route.js';
import { envelope, runList } from '../lists/run.js';
import { guidParams, NIL_GUID, unknownId } from '../requests.js';
import { type EvaluationAnswer, type EvaluationQuestion, type Evaluations, seedEvaluations } from './seed.js';

const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const serializeQuestion = (q: EvaluationQuestion): JsonObject => ({
  id: q.id,
  courseId: q.courseId,
  text: q.text,
  questionType: q.questionType,
  order: q.order,
  isRequired: q.isRequired,
});

const serializeAnswer = (a: EvaluationAnswer): JsonObject => ({
  id: a.id,
  courseId: a.courseId,
  questionId: a.questionId,
  userId: a.userId,
  answer: a.answer,
  dateSubmitted: a.dateSubmitted,
});

/**
 * Course evaluations, version 2 only (release 5.121.0, spec#integration-api-operations-named-by-release-notes):
 * the questions of a course (list, get) and its answers (list). Lists take `_limit` and `_offset`
 * only and answer the paged envelope (keys `evaluationQuestions`, `evaluationAnswers`); an unknown
 * course, or a question not of that course, answers 404.
 */
export function evaluationOperations(deps: IntapiDeps): IntapiOperation[] {
  const { store, behaviour } = deps;
  const { errors, lists, evaluations: rules } = behaviour;
  const versions = rules.onV1 === 'served' ? V1_AND_V2 : V2_ONLY;
  let seeded: Evaluations | undefined;
  const data = (): Evaluations => (seeded ??= seedEvaluations(store));

  const paged = <R extends { readonly id: string }>(
    key: string,
    query: Readonly<Record<string, QueryValue>>,
    items: readonly R[],
    serialize: (item: R) => JsonObject,
  ) => {
    const outcome = runList(items, readListParams(query, 'paging-only', lists), undefined, lists);
    return envelope(key, outcome, outcome.page.map(serialize), behaviour.envelope);
  };
  /** The course of the path: 404 for an unknown one, or (a fault) the blank answer. */
  const course = (courseId: string, blank: () => JsonObject) => {
    if (!store.courses.has(courseId)) throw unknownId(`Course with identifier ${courseId} does not exist.`, blank);
  };
  const questionsOf = (courseId: string) => data().questions.filter((q) => sameId(q.courseId, courseId));

  return [
    {
      id: 'evaluationQuestions.list',
      method: 'GET',
      path: '/courses/:courseId/evaluation-questions',
      versions,
      auth: 'token',
      handle: (call) => {
        const { courseId } = guidParams(call, ['courseId'], errors);
        course(courseId, () => paged('evaluationQuestions', call.query, [], serializeQuestion));
        return { status: 200, body: paged('evaluationQuestions', call.query, questionsOf(courseId), serializeQuestion) };
      },
    },
    {
      id: 'evaluationQuestions.get',
      method: 'GET',
      path: '/courses/:courseId/evaluation-questions/:questionId',
      versions,
      auth: 'token',
      handle: (call) => {
        const { courseId, questionId } = guidParams(call, ['courseId', 'questionId'], errors);
        const blank = () => serializeQuestion({ id: questionId, courseId: NIL_GUID, text: '', questionType: 'Text', order: 0, isRequired: false });
        course(courseId, blank);
        const questions = questionsOf(courseId);
        const index = questions.findIndex((q) => sameId(q.id, questionId));
        if (index < 0) throw unknownId(`Evaluation question with identifier ${questionId} does not exist in course ${courseId}.`, blank);
        const answered = questions[rules.get === 'asked' ? index : (index + 1) % questions.length];
        if (answered === undefined) throw unknownId(`Evaluation question with identifier ${questionId} does not exist.`, blank);
        return { status: 200, body: serializeQuestion(answered) };
      },
    },
    {
      id: 'evaluationAnswers.list',
      method: 'GET',
      path: '/courses/:courseId/evaluation-answers',
      versions,
      auth: 'token',
      handle: (call) => {
        const { courseId } = guidParams(call, ['courseId'], errors);
        course(courseId, () => paged('evaluationAnswers', call.query, [], serializeAnswer));
        const answers = rules.answers === 'of-course' ? data().answers.filter((a) => sameId(a.courseId, courseId)) : data().answers;
        return { status: 200, body: paged('evaluationAnswers', call.query, answers, serializeAnswer) };
      },
    },
  ];
}
