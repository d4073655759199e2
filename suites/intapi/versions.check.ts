// The version header (spec#versioning): v1 and v2 answers of the same list agree on the items and
// differ in shape exactly as documented; the profile declares the rest.
import fc from 'fast-check';
import { pageWithin } from '../_harness/intapi/arbitraries.js';
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import { survey } from '../_harness/intapi/lists.js';
import type { ApiRequest } from '../_harness/http.js';
import { idsOf, perServer } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { statusChecks } from '../_harness/statuses.js';
import { marked } from '../_harness/marker.js';
import {
  createQuestion,
  createQuestionBank,
  createSubmission,
  profileRecord,
  validQuestion,
  validQuestionBank,
  validSubmission,
} from '../_harness/intapi/records.js';

const SPEC = 'spec#versioning';
const ids = (items: unknown): string => (Array.isArray(items) ? idsOf(items).join() : '(not an array)');
const isArray = (items: unknown): items is unknown[] => Array.isArray(items);

requirement(
  { id: 'intapi.v1.resources.list.bare-array', level: 'MUST', spec: SPEC, title: 'List resources with x-api-version 1 answers a bare array' },
  async (t) => {
    const res = await t.http.send({ op: 'resources.list', version: '1' });
    expectStatus(res, 200);
    if (!Array.isArray(res.json)) fail('a bare JSON array', describeResponse(res), res);
  },
);

requirement(
  {
    id: 'intapi.v2.resources.list.envelope',
    level: 'MUST',
    spec: SPEC,
    title: 'List resources with x-api-version 2 answers the paged envelope with key resources',
  },
  async (t) => {
    const res = await t.http.send({ op: 'resources.list', version: '2' });
    expectStatus(res, 200);
    const body = res.json as { resources?: unknown } | undefined;
    if (Array.isArray(res.json) || !Array.isArray(body?.resources)) fail('an envelope with the array resources', describeResponse(res), res);
  },
);

requirement(
  {
    id: 'intapi.versions.resources.list.same-items',
    level: 'MUST',
    spec: SPEC,
    title: 'List resources answers the same items in v1 and v2 for the same list parameters',
  },
  async (t) => {
    // Pages drawn among the collection's pages (read first), so that the lists compared hold items.
    // (A large collection is not read whole: its size is where its pages end, lists.ts survey.)
    const { size } = await survey(t, { label: 'List resources (v1)', op: 'resources.list', version: '1' });
    t.requireData(size >= 2, `List resources has ${size} items; pages of items need at least 2`);
    const query = fc
      .tuple(
        pageWithin(size, { maxLimit: Math.min(50, t.profile.expectations.lists.maxLimit), maxOffset: t.profile.expectations.lists.maxOffset }),
        fc.constantFrom(undefined, 'name', '-name', 'id'),
      )
      .map(([{ limit, offset }, sort]) => ({ _limit: limit, _offset: offset, _sort: sort }));
    await t.property(query, async (q) => {
      const v1 = await t.http.send({ op: 'resources.list', version: '1', query: q });
      const v2 = await t.http.send({ op: 'resources.list', version: '2', query: q });
      expectStatus(v1, 200);
      expectStatus(v2, 200);
      const v2items = (v2.json as { resources?: unknown } | undefined)?.resources;
      if (!isArray(v1.json)) fail('a bare array in v1', describeResponse(v1), v1);
      if (!isArray(v2items)) fail('an envelope with resources in v2', describeResponse(v2), v2);
      if (v1.json.length === 0 && v2items.length === 0) t.degenerate('two empty lists');
      else t.outcome(q._sort === undefined ? 'same-items-default-order' : 'same-items-sorted');
      if (ids(v1.json) !== ids(v2items)) fail(`the v1 items (${ids(v1.json).slice(0, 80)})`, `v2 items ${ids(v2items).slice(0, 80)}`, v2);
    });
  },
);

requirement(
  {
    id: 'intapi.versions.missing-header',
    level: 'PROFILE',
    spec: 'public-facts#version-header',
    title: "A request without x-api-version behaves as the profile's version",
  },
  async (t) => {
    const res = await t.http.send({ op: 'resources.list', version: null });
    expectStatus(res, 200);
    const asV1 = Array.isArray(res.json);
    if (asV1 !== (t.profile.expectations.versioning.missingHeader === 1)) {
      fail(
        `version ${t.profile.expectations.versioning.missingHeader} behaviour`,
        `version ${asV1 ? 1 : 2} behaviour: ${describeResponse(res).slice(0, 80)}`,
        res,
      );
    }
  },
);

statusChecks([
  {
    id: 'intapi.versions.unsupported-value',
    level: 'PROFILE',
    spec: 'spec#versioning',
    title: "A request with x-api-version 3 answers the profile's status",
    status: (t) => t.profile.expectations.versioning.unsupportedStatus,
    request: () => ({ op: 'resources.list', version: '3' }),
  },
  {
    id: 'intapi.versions.v2-only-with-v1',
    level: 'PROFILE',
    spec: 'spec#versioning',
    title: "A version-2-only operation called with x-api-version 1 answers the profile's status",
    status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
    request: () => ({ op: 'submissions.list', version: '1' }),
  },
]);

/** Records the version-2-only probes name, made once per target server: an existing record, so that
 * a target serving the operation with version 1 answers 200 rather than the 404 of an unknown id. */
const submission = perServer((t) => createSubmission(t));
const questionBank = perServer((t) => createQuestionBank(t));
const bank = async (t: CheckContext) => ({ questionBankId: await questionBank(t) });
const bankAndQuestion = perServer(async (t) => {
  const questionBankId = await questionBank(t);
  return { questionBankId, questionId: await createQuestion(t, questionBankId) };
});

/** The other version-2-only operations (docs/decisions/intapi/reference-choices.md "Versions": submissions, templates, question
 * banks, questions), one check each; `intapi.versions.v2-only-with-v1` above probes List submissions. */
const V2_ONLY: readonly { name: string; label: string; writes: readonly string[]; request: (t: CheckContext) => Promise<ApiRequest> | ApiRequest }[] = [
  { name: 'submissions.create', label: 'create submission', writes: ['submissions'], request: (t) => ({ op: 'submissions.create', json: validSubmission(t) }) },
  {
    name: 'submissions.get',
    label: 'get submission',
    writes: ['submissions'],
    request: async (t) => ({ op: 'submissions.get', params: { id: await submission(t) } }),
  },
  {
    name: 'submissions.update',
    label: 'update submission',
    writes: ['submissions'],
    request: async (t) => ({
      op: 'submissions.update',
      params: { id: await submission(t) },
      json: { title: marked(t, 'lp-conformance submission, updated'), completionDate: '2024-06-01T10:00:00.000Z' },
    }),
  },
  { name: 'templates.list', label: 'list templates', writes: [], request: () => ({ op: 'templates.list' }) },
  { name: 'templates.get', label: 'get template', writes: [], request: (t) => ({ op: 'templates.get', params: { id: profileRecord(t, 'templateId') } }) },
  { name: 'question-banks.list', label: 'list question banks', writes: [], request: () => ({ op: 'questionBanks.list' }) },
  {
    name: 'question-banks.create',
    label: 'create question bank',
    writes: ['questionBanks'],
    request: (t) => ({ op: 'questionBanks.create', json: validQuestionBank(t) }),
  },
  {
    name: 'question-banks.get',
    label: 'get question bank',
    writes: ['questionBanks', 'questions'],
    request: async (t) => ({ op: 'questionBanks.get', params: await bank(t) }),
  },
  {
    name: 'question-banks.update',
    label: 'update question bank',
    writes: ['questionBanks', 'questions'],
    request: async (t) => ({ op: 'questionBanks.update', params: await bank(t), json: validQuestionBank(t) }),
  },
  {
    name: 'questions.list',
    label: 'list questions',
    writes: ['questionBanks', 'questions'],
    request: async (t) => ({ op: 'questions.list', params: await bank(t) }),
  },
  {
    name: 'questions.create',
    label: 'create question',
    writes: ['questionBanks', 'questions'],
    request: async (t) => ({ op: 'questions.create', params: await bank(t), json: validQuestion(t) }),
  },
  {
    name: 'questions.get',
    label: 'get question',
    writes: ['questionBanks', 'questions'],
    request: async (t) => ({ op: 'questions.get', params: await bankAndQuestion(t) }),
  },
  {
    name: 'questions.update',
    label: 'update question',
    writes: ['questionBanks', 'questions'],
    request: async (t) => ({ op: 'questions.update', params: await bankAndQuestion(t), json: validQuestion(t) }),
  },
];

for (const { name, label, writes, request } of V2_ONLY) {
  requirement(
    {
      id: `intapi.versions.v2-only-on-v1.${name}`,
      level: 'PROFILE',
      spec: 'spec#versioning',
      title: `Version-2-only ${label} with x-api-version 1 answers the profile's status`,
    },
    async (t) => {
      const req = await request(t);
      expectStatus(await t.http.send({ ...req, version: '1' }), t.profile.expectations.versioning.v2OnlyWithV1Status, 'with x-api-version 1');
    },
    { write: writes },
  );
}
