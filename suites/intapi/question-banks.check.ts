// Question banks and their questions: statuses of every operation
// (spec#integration-api-question-banks-v2, spec#errors).
import { unknownId } from '../_harness/records.js';
import { expectStatus } from '../_harness/failure.js';
import { requirement } from '../_harness/requirement.js';
import { statusChecks } from '../_harness/statuses.js';
import { marked } from '../_harness/marker.js';
import { createdRecord, createQuestion, createQuestionBank, validQuestion, validQuestionBank } from '../_harness/intapi/records.js';

const SPEC = 'spec#integration-api-question-banks-v2';
/** Every check here creates or updates question banks and questions (scheduler.ts). */
const WRITES = { write: ['questionBanks', 'questions'] };
const bank = (questionBankId: string) => ({ questionBankId });

statusChecks(
  [
    {
      id: 'intapi.v2.question-banks.list.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'List question banks answers 200',
      status: 200,
      request: () => ({ op: 'questionBanks.list' }),
    },
    {
      id: 'intapi.v2.question-banks.create.status-201',
      level: 'MUST',
      spec: SPEC,
      title: 'Create question bank answers 201',
      status: 201,
      request: (t) => ({ op: 'questionBanks.create', json: validQuestionBank(t) }),
    },
    {
      id: 'intapi.v2.question-banks.get.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'Get question bank of an existing id answers 200',
      status: 200,
      request: async (t) => ({ op: 'questionBanks.get', params: bank(await createQuestionBank(t)) }),
    },
    {
      id: 'intapi.v2.question-banks.get.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Get question bank of an unknown id answers 404',
      status: 404,
      request: (t) => ({ op: 'questionBanks.get', params: bank(unknownId(t)) }),
    },
    {
      // spec#errors lists 422 for get question bank, and "when the request ... fail[s] validation, the
      // response is 422": a questionBankId that is not a GUID (the table types it guid) fails it.
      id: 'intapi.v2.question-banks.get.non-guid-id',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Get question bank with an id that is not a GUID answers 422',
      status: 422,
      request: () => ({ op: 'questionBanks.get', params: bank('not-a-guid') }),
    },
    {
      id: 'intapi.v2.question-banks.update.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'Update question bank answers 200',
      status: 200,
      request: async (t) => ({ op: 'questionBanks.update', params: bank(await createQuestionBank(t)), json: { name: marked(t, 'renamed') } }),
    },
    {
      id: 'intapi.v2.question-banks.update.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Update question bank of an unknown id answers 404',
      status: 404,
      request: (t) => ({ op: 'questionBanks.update', params: bank(unknownId(t)), json: { name: marked(t, 'renamed') } }),
    },
    {
      id: 'intapi.v2.questions.list.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'List questions of an existing bank answers 200',
      status: 200,
      request: async (t) => ({ op: 'questions.list', params: bank(await createQuestionBank(t)) }),
    },
    {
      id: 'intapi.v2.questions.list.unknown-bank-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'List questions of an unknown bank answers 404',
      status: 404,
      request: (t) => ({ op: 'questions.list', params: bank(unknownId(t)) }),
    },
    {
      id: 'intapi.v2.questions.create.status-201',
      level: 'MUST',
      spec: SPEC,
      title: 'Create question answers 201',
      status: 201,
      request: async (t) => ({ op: 'questions.create', params: bank(await createQuestionBank(t)), json: validQuestion(t) }),
    },
    {
      id: 'intapi.v2.questions.create.unknown-bank-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Create question in an unknown bank answers 404',
      status: 404,
      request: (t) => ({ op: 'questions.create', params: bank(unknownId(t)), json: validQuestion(t) }),
    },
    {
      id: 'intapi.v2.questions.get.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'Get question of an existing id answers 200',
      status: 200,
      request: async (t) => {
        const questionBankId = await createQuestionBank(t);
        return { op: 'questions.get', params: { questionBankId, questionId: await createQuestion(t, questionBankId) } };
      },
    },
    {
      id: 'intapi.v2.questions.get.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Get an unknown question of an existing bank answers 404',
      status: 404,
      request: async (t) => ({ op: 'questions.get', params: { questionBankId: await createQuestionBank(t), questionId: unknownId(t) } }),
    },
    {
      id: 'intapi.v2.questions.get.unknown-bank-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Get question of an unknown bank answers 404',
      status: 404,
      request: (t) => ({ op: 'questions.get', params: { questionBankId: unknownId(t), questionId: unknownId(t) } }),
    },
    {
      id: 'intapi.v2.questions.update.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'Update question answers 200',
      status: 200,
      request: async (t) => {
        const questionBankId = await createQuestionBank(t);
        return { op: 'questions.update', params: { questionBankId, questionId: await createQuestion(t, questionBankId) }, json: validQuestion(t) };
      },
    },
    {
      id: 'intapi.v2.questions.update.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Update an unknown question of an existing bank answers 404',
      status: 404,
      request: async (t) => ({
        op: 'questions.update',
        params: { questionBankId: await createQuestionBank(t), questionId: unknownId(t) },
        json: validQuestion(t),
      }),
    },
    {
      id: 'intapi.v2.questions.update.unknown-bank-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Update question of an unknown bank answers 404',
      status: 404,
      request: (t) => ({ op: 'questions.update', params: { questionBankId: unknownId(t), questionId: unknownId(t) }, json: validQuestion(t) }),
    },
  ],
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.question-banks.create.duplicate-id-409',
    level: 'PROFILE',
    spec: 'public-facts#errors',
    title: 'Create question bank with the id of an existing bank answers 409',
  },
  async (t) => {
    const first = await t.http.send({ op: 'questionBanks.create', json: { id: unknownId(t), name: marked(t, 'original') } });
    const id = createdRecord(first, 'the first bank, whose id the second create repeats');
    const again = await t.http.send({ op: 'questionBanks.create', json: { id, name: marked(t, 'duplicate') } });
    expectStatus(again, 409);
  },
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.questions.create.duplicate-id-409',
    level: 'PROFILE',
    // No source states it (public-facts#errors gives 409 for a duplicate bank id only): the reference
    // server's choice, by analogy with banks; the question table's optional client id is the anchor.
    spec: 'spec#integration-api-question-bank-question-v2',
    title: 'Create question with the id of a question of the same bank answers 409 (our choice)',
  },
  async (t) => {
    const questionBankId = await createQuestionBank(t);
    const questionId = await createQuestion(t, questionBankId, { ...validQuestion(t), id: unknownId(t) });
    expectStatus(await t.http.send({ op: 'questions.create', params: bank(questionBankId), json: { ...validQuestion(t), id: questionId } }), 409);
  },
  WRITES,
);
