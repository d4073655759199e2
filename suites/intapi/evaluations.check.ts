// Course evaluations, version 2 only (release 5.121.0, spec#integration-api-operations-named-by-release-notes):
// the questions of a course (list, get) and its answers. The records' fields are "not shown": the
// reference server's shapes (docs/decisions/intapi/evaluations-countries-oauth.md "Course evaluations") are PROFILE level; 404 for an
// unknown path id is the specification's (spec#errors). The course is the profile's records.courseId.
import { isDeepStrictEqual } from 'node:util';
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { type Json, unknownId } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { statusChecks } from '../_harness/statuses.js';
import { profileRecord } from '../_harness/intapi/records.js';
import { readAll } from '../_harness/intapi/lists.js';

const SPEC = 'spec#integration-api-operations-named-by-release-notes';
const P = 'intapi.v2.evaluations';
/** Every item of a course's evaluation list, page by page (pages within the profile's maxLimit). */
async function listOf(
  t: CheckContext,
  op: 'evaluationQuestions.list' | 'evaluationAnswers.list',
  courseId: string,
): Promise<{ items: Json[]; res: ApiResponse }> {
  const key = op === 'evaluationQuestions.list' ? 'evaluationQuestions' : 'evaluationAnswers';
  const label = `the ${op === 'evaluationQuestions.list' ? 'evaluation questions' : 'evaluation answers'} of the profile course`;
  const { items, last } = await readAll(t, { label, op, version: '2', params: () => Promise.resolve({ courseId }), key });
  return { items: items as Json[], res: last.res };
}

async function questionsOf(t: CheckContext, courseId: string): Promise<Json[]> {
  return (await listOf(t, 'evaluationQuestions.list', courseId)).items;
}

/** An evaluation question of the profile's course, or the check is skipped (the course has none). */
async function aQuestion(t: CheckContext): Promise<{ courseId: string; questionId: string }> {
  const courseId = profileRecord(t, 'courseId');
  const questions = await questionsOf(t, courseId);
  const id = questions[0]?.id;
  t.requireData(typeof id === 'string', `course ${courseId} (records.courseId) has no evaluation questions`);
  return { courseId, questionId: String(id) };
}

statusChecks([
  {
    id: `${P}.questions.list.status-200`,
    level: 'PROFILE',
    spec: SPEC,
    title: 'List the evaluation questions of an existing course answers 200',
    status: 200,
    request: (t) => ({ op: 'evaluationQuestions.list', params: { courseId: profileRecord(t, 'courseId') } }),
  },
  {
    id: `${P}.questions.list.unknown-course-404`,
    level: 'MUST',
    spec: 'spec#errors',
    title: 'List the evaluation questions of an unknown course answers 404',
    status: 404,
    request: (t) => ({ op: 'evaluationQuestions.list', params: { courseId: unknownId(t) } }),
  },
  {
    id: `${P}.questions.get.status-200`,
    level: 'PROFILE',
    spec: SPEC,
    title: 'Get an evaluation question of a course answers 200',
    status: 200,
    request: async (t) => ({ op: 'evaluationQuestions.get', params: await aQuestion(t) }),
  },
  {
    id: `${P}.questions.get.unknown-id-404`,
    level: 'MUST',
    spec: 'spec#errors',
    title: 'Get an unknown evaluation question of an existing course answers 404',
    status: 404,
    request: (t) => ({ op: 'evaluationQuestions.get', params: { courseId: profileRecord(t, 'courseId'), questionId: unknownId(t) } }),
  },
  {
    id: `${P}.questions.get.unknown-course-404`,
    level: 'MUST',
    spec: 'spec#errors',
    title: 'Get an evaluation question of an unknown course answers 404',
    status: 404,
    request: async (t) => ({ op: 'evaluationQuestions.get', params: { ...(await aQuestion(t)), courseId: unknownId(t) } }),
  },
  {
    id: `${P}.answers.list.status-200`,
    level: 'PROFILE',
    spec: SPEC,
    title: 'List the evaluation answers of an existing course answers 200',
    status: 200,
    request: (t) => ({ op: 'evaluationAnswers.list', params: { courseId: profileRecord(t, 'courseId') } }),
  },
  {
    id: `${P}.answers.list.unknown-course-404`,
    level: 'MUST',
    spec: 'spec#errors',
    title: 'List the evaluation answers of an unknown course answers 404',
    status: 404,
    request: (t) => ({ op: 'evaluationAnswers.list', params: { courseId: unknownId(t) } }),
  },
  // Version 2 only (spec#versioning, item 3): version 1 answers the profile's status.
  {
    id: `${P}.questions.list.v1-status`,
    level: 'PROFILE',
    spec: 'spec#versioning',
    title: "List evaluation questions with x-api-version 1 answers the profile's version-2-only status",
    status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
    request: (t) => ({ op: 'evaluationQuestions.list', version: '1', params: { courseId: profileRecord(t, 'courseId') } }),
  },
  {
    id: `${P}.questions.get.v1-status`,
    level: 'PROFILE',
    spec: 'spec#versioning',
    title: "Get an evaluation question with x-api-version 1 answers the profile's version-2-only status",
    status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
    request: async (t) => ({ op: 'evaluationQuestions.get', version: '1', params: await aQuestion(t) }),
  },
  {
    id: `${P}.answers.list.v1-status`,
    level: 'PROFILE',
    spec: 'spec#versioning',
    title: "List evaluation answers with x-api-version 1 answers the profile's version-2-only status",
    status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
    request: (t) => ({ op: 'evaluationAnswers.list', version: '1', params: { courseId: profileRecord(t, 'courseId') } }),
  },
]);

requirement(
  {
    id: `${P}.questions.get.agrees-with-list`,
    level: 'PROFILE',
    spec: SPEC,
    title: 'Each evaluation question of a course, got by its id, equals its item in the list',
  },
  async (t) => {
    const courseId = profileRecord(t, 'courseId');
    const questions = await questionsOf(t, courseId);
    t.requireData(questions.length > 0, `course ${courseId} (records.courseId) has no evaluation questions`);
    const judged = questions.slice(0, 50);
    // A sample only when the course has more questions than the check gets one by one.
    if (judged.length < questions.length) t.sampled(questions.length, judged.length);
    for (const listed of judged) {
      const res = await t.http.send({ op: 'evaluationQuestions.get', params: { courseId, questionId: String(listed.id) } });
      expectStatus(res, 200, `getting evaluation question ${String(listed.id)}`);
      if (!isDeepStrictEqual(res.json, listed)) fail(`the listed question ${JSON.stringify(listed).slice(0, 160)}`, describeResponse(res), res);
    }
  },
);

requirement(
  {
    id: `${P}.answers.list.names-course-question`,
    level: 'PROFILE',
    spec: SPEC,
    title: "Every evaluation answer of a course names that course and one of the course's evaluation questions",
  },
  async (t) => {
    const courseId = profileRecord(t, 'courseId');
    const questionIds = new Set((await questionsOf(t, courseId)).map((q) => String(q.id).toLowerCase()));
    const { items: answers, res } = await listOf(t, 'evaluationAnswers.list', courseId);
    t.requireData(answers.length > 0, `course ${courseId} (records.courseId) has no evaluation answers`);
    for (const answer of answers) {
      const names = `answer ${String(answer.id)} (courseId ${String(answer.courseId)}, questionId ${String(answer.questionId)})`;
      if (String(answer.courseId).toLowerCase() !== courseId.toLowerCase()) fail(`every answer of course ${courseId}`, names, res);
      if (!questionIds.has(String(answer.questionId).toLowerCase())) fail(`every answer to name one of the course's ${questionIds.size} questions`, names, res);
    }
  },
);
