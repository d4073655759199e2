// Bounds of the question bank and question bodies (spec#integration-api-question-bank-v2,
// spec#integration-api-question-bank-question-v2).
import { boundsChecks } from '../_harness/intapi/bounds.js';
import { memo, perServer } from '../_harness/records.js';
import { leaveQuestion, leaveQuestionBank } from '../_harness/intapi/leave.js';
import type { CheckContext } from '../_harness/requirement.js';
import { marked } from '../_harness/marker.js';
import { countOf, createQuestion, createQuestionBank, validQuestion, validQuestionBank } from '../_harness/intapi/records.js';

const BANK_SPEC = 'spec#integration-api-question-bank-v2';
const QUESTION_SPEC = 'spec#integration-api-question-bank-question-v2';
const idOfBody = (json: unknown): string => String((json as { id?: unknown }).id);

boundsChecks({
  idPrefix: 'intapi.v2.question-banks.create',
  spec: BANK_SPEC,
  label: 'Create question bank',
  contract: 'intapi/questionBank.create',
  validBody: async (t) => validQuestionBank(t),
  creates: true,
  leave: (t, res) => leaveQuestionBank(t, idOfBody(res.json)),
  send: (t, body) => t.http.send({ op: 'questionBanks.create', json: body }),
  readBack: (t, res) => t.http.send({ op: 'questionBanks.get', params: { questionBankId: idOfBody(res.json) } }),
  snapshot: (t) => countOf(t, 'questionBanks.list'),
  uses: { accept: { write: ['questionBanks'] }, reject: { observe: ['questionBanks'] } },
});

const bankToUpdate = memo((t) => createQuestionBank(t));

boundsChecks({
  idPrefix: 'intapi.v2.question-banks.update',
  spec: BANK_SPEC,
  label: 'Update question bank',
  contract: 'intapi/questionBank.update',
  notAccepted: { id: (t) => t.uuid() },
  validBody: async (t) => ({ name: marked(t, 'lp-conformance bank, updated') }),
  leaveAfter: async (t) => leaveQuestionBank(t, await bankToUpdate(t)),
  send: async (t, body) => t.http.send({ op: 'questionBanks.update', params: { questionBankId: await bankToUpdate(t) }, json: body }),
  readBack: async (t) => t.http.send({ op: 'questionBanks.get', params: { questionBankId: await bankToUpdate(t) } }),
  snapshot: async (t) => (await t.http.send({ op: 'questionBanks.get', params: { questionBankId: await bankToUpdate(t) } })).json,
  uses: { accept: { write: ['questionBanks'] }, reject: { write: ['questionBanks'] } },
});

/** Requests carry the question type as a string, responses as the integer the profile maps it to. */
function questionReadBack(t: CheckContext, field: string, sent: unknown): unknown {
  if (field !== 'questionType' || typeof sent !== 'string') return sent;
  return t.profile.expectations.questionTypes[sent as keyof typeof t.profile.expectations.questionTypes];
}

const bankForQuestions = memo((t) => createQuestionBank(t));

boundsChecks({
  idPrefix: 'intapi.v2.questions.create',
  spec: QUESTION_SPEC,
  label: 'Create question',
  contract: 'intapi/question.create',
  validBody: async (t) => validQuestion(t),
  creates: true,
  leave: async (t, res) => leaveQuestion(t, await bankForQuestions(t), idOfBody(res.json)),
  send: async (t, body) => t.http.send({ op: 'questions.create', params: { questionBankId: await bankForQuestions(t) }, json: body }),
  readBack: async (t, res) => t.http.send({ op: 'questions.get', params: { questionBankId: await bankForQuestions(t), questionId: idOfBody(res.json) } }),
  snapshot: async (t) => countOf(t, 'questions.list', { questionBankId: await bankForQuestions(t) }),
  expectedReadBack: questionReadBack,
  // Each check's questions are in a bank of its own: the count snapshot reads only that bank.
  uses: { accept: { write: ['questionBanks', 'questions'] }, reject: { write: ['questionBanks', 'questions'] } },
});

// The update checks' questions (one each) are in one bank of the run: each judges only its own question.
const bankOfUpdatedQuestions = perServer((t) => createQuestionBank(t));
const questionToUpdate = memo(async (t) => {
  const questionBankId = await bankOfUpdatedQuestions(t);
  return { questionBankId, questionId: await createQuestion(t, questionBankId) };
});

boundsChecks({
  idPrefix: 'intapi.v2.questions.update',
  spec: QUESTION_SPEC,
  label: 'Update question',
  contract: 'intapi/question.update',
  // The question table says id is "create only" (the operation "question body without id"), not
  // "not accepted": refusing it is our choice.
  notAccepted: { id: (t) => t.uuid() },
  refusedByChoice: ['id'],
  validBody: async (t) => validQuestion(t),
  leaveAfter: async (t) => {
    const { questionBankId, questionId } = await questionToUpdate(t);
    await leaveQuestion(t, questionBankId, questionId);
  },
  send: async (t, body) => t.http.send({ op: 'questions.update', params: await questionToUpdate(t), json: body }),
  readBack: async (t) => t.http.send({ op: 'questions.get', params: await questionToUpdate(t) }),
  snapshot: async (t) => (await t.http.send({ op: 'questions.get', params: await questionToUpdate(t) })).json,
  expectedReadBack: questionReadBack,
  // Each check's questions are in a bank of its own: the count snapshot reads only that bank.
  uses: { accept: { write: ['questionBanks', 'questions'] }, reject: { write: ['questionBanks', 'questions'] } },
});
