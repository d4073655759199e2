// The list parameters and the paged envelope of every general list
// (spec#integration-api-common-list-parameters-v1-and-v2-list-operations-that-list-below-as-list).
import { listChecks } from '../_harness/intapi/lists.js';
import { perServer } from '../_harness/records.js';
import { createQuestion, createQuestionBank, createSubmission } from '../_harness/intapi/records.js';

listChecks({
  idPrefix: 'intapi.v1.resources.list',
  label: 'List resources (v1)',
  op: 'resources.list',
  version: '1',
  itemContract: 'intapi/resource',
  collection: 'resources',
});
listChecks({
  idPrefix: 'intapi.v2.resources.list',
  label: 'List resources',
  op: 'resources.list',
  version: '2',
  key: 'resources',
  itemContract: 'intapi/resource',
  collection: 'resources',
});
listChecks({
  idPrefix: 'intapi.v2.submissions.list',
  label: 'List submissions',
  op: 'submissions.list',
  version: '2',
  key: 'submissions',
  itemContract: 'intapi/submission',
  collection: 'submissions',
  create: (t) => createSubmission(t),
});
listChecks({
  idPrefix: 'intapi.v2.templates.list',
  label: 'List templates',
  op: 'templates.list',
  version: '2',
  key: 'templates',
  itemContract: 'intapi/template',
  collection: 'templates',
});
listChecks({
  idPrefix: 'intapi.v2.question-banks.list',
  label: 'List question banks',
  op: 'questionBanks.list',
  version: '2',
  key: 'questionBanks',
  itemContract: 'intapi/questionBank',
  create: (t) => createQuestionBank(t),
});

/** One bank with enough questions to page through, made once per target server. */
const questionBank = perServer(async (t) => {
  const id = await createQuestionBank(t);
  for (let i = 0; i < 45; i++) await createQuestion(t, id);
  return id;
});

listChecks({
  idPrefix: 'intapi.v2.questions.list',
  label: 'List questions',
  op: 'questions.list',
  version: '2',
  key: 'questionBanks',
  itemContract: 'intapi/question',
  params: async (t) => ({ questionBankId: await questionBank(t) }),
  prepare: async (t) => void (await questionBank(t)),
  prepareWrites: ['questionBanks', 'questions'],
  // The bank is the suite's own (made once per server, whole before any of these checks lists it):
  // no other check writes its questions, so its list needs no still questions collection.
  observes: [],
});
