// Submissions and templates: statuses of every operation (spec#integration-api-submissions-and-templates-v2).
import { bodyOf, idOf, unknownId } from '../_harness/records.js';
import { boundsOf } from '../_harness/contracts.js';
import { expectClientError, expectRejected, expectStatus, expectSuccess, fail } from '../_harness/failure.js';
import { requirement } from '../_harness/requirement.js';
import { statusChecks } from '../_harness/statuses.js';
import { marked } from '../_harness/marker.js';
import { createSubmission, profileRecord, validSubmission } from '../_harness/intapi/records.js';

const SPEC = 'spec#integration-api-submissions-and-templates-v2';
/** Every check here creates or updates submissions (scheduler.ts). */
const WRITES = { write: ['submissions'] };

statusChecks(
  [
    {
      id: 'intapi.v2.submissions.list.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'List submissions answers 200',
      status: 200,
      request: () => ({ op: 'submissions.list' }),
    },
    {
      id: 'intapi.v2.submissions.create.success-status',
      level: 'PROFILE',
      spec: 'spec#errors',
      title: "Create submission with a valid body answers the profile's success status",
      status: (t) => t.profile.expectations.submissions.createStatus,
      request: (t) => ({ op: 'submissions.create', json: validSubmission(t) }),
    },
    {
      id: 'intapi.v2.submissions.create.unknown-user',
      level: 'PROFILE',
      spec: 'spec#errors',
      title: "Create submission for a userId that does not exist answers the profile's status",
      status: (t) => t.profile.expectations.submissions.unknownReferenceStatus,
      request: (t) => ({ op: 'submissions.create', json: { ...validSubmission(t), userId: unknownId(t) } }),
    },
    {
      id: 'intapi.v2.submissions.create.unknown-template',
      level: 'PROFILE',
      spec: 'spec#errors',
      title: "Create submission from a templateId that does not exist answers the profile's status",
      status: (t) => t.profile.expectations.submissions.unknownReferenceStatus,
      request: (t) => ({ op: 'submissions.create', json: { ...validSubmission(t), templateId: unknownId(t) } }),
    },
    {
      id: 'intapi.v2.submissions.get.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'Get submission of an existing id answers 200',
      status: 200,
      request: async (t) => ({ op: 'submissions.get', params: { id: await createSubmission(t) } }),
    },
    {
      id: 'intapi.v2.submissions.get.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Get submission of an unknown id answers 404',
      status: 404,
      request: (t) => ({ op: 'submissions.get', params: { id: unknownId(t) } }),
    },
    {
      id: 'intapi.v2.submissions.get.non-guid-id',
      level: 'PROFILE',
      spec: 'public-facts#errors',
      title: "Get submission with an id that is not a GUID answers the profile's status",
      status: (t) => t.profile.expectations.pathIdNotGuidStatus,
      request: () => ({ op: 'submissions.get', params: { id: 'not-a-guid' } }),
    },
    {
      id: 'intapi.v2.submissions.update.success-status',
      level: 'PROFILE',
      spec: 'spec#errors',
      title: "Update submission with a valid body answers the profile's success status",
      status: (t) => t.profile.expectations.submissions.updateStatus,
      request: async (t) => ({
        op: 'submissions.update',
        params: { id: await createSubmission(t) },
        json: { title: marked(t, 'updated'), completionDate: '2024-07-01T00:00:00Z' },
      }),
    },
    {
      id: 'intapi.v2.submissions.update.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Update submission of an unknown id answers 404',
      status: 404,
      request: (t) => ({
        op: 'submissions.update',
        params: { id: unknownId(t) },
        json: { title: marked(t, 'updated'), completionDate: '2024-07-01T00:00:00Z' },
      }),
    },
    {
      id: 'intapi.v2.templates.list.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'List templates answers 200',
      status: 200,
      request: () => ({ op: 'templates.list' }),
    },
    {
      id: 'intapi.v2.templates.get.status-200',
      level: 'MUST',
      spec: SPEC,
      title: 'Get template of an existing id answers 200',
      status: 200,
      request: (t) => ({ op: 'templates.get', params: { id: profileRecord(t, 'templateId') } }),
    },
    {
      id: 'intapi.v2.templates.get.unknown-id-404',
      level: 'MUST',
      spec: 'spec#errors',
      title: 'Get template of an unknown id answers 404',
      status: 404,
      request: (t) => ({ op: 'templates.get', params: { id: unknownId(t) } }),
    },
  ],
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.submissions.create.not-json-4xx',
    level: 'MUST',
    spec: 'spec#errors',
    title: 'Create submission with a body that is not JSON answers a 4xx status',
  },
  async (t) => {
    const res = await t.http.send({ op: 'submissions.create', rawBody: '{"title": "unterminated', contentType: 'application/json' });
    expectClientError(res);
  },
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.submissions.create.not-json-status',
    level: 'PROFILE',
    spec: 'spec#errors',
    title: "Create submission with a body that is not JSON answers the profile's status",
  },
  async (t) => {
    const res = await t.http.send({ op: 'submissions.create', rawBody: 'title=plain', contentType: 'application/json' });
    expectStatus(res, t.profile.expectations.notJsonStatus);
  },
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.submissions.create.wrong-content-type',
    level: 'PROFILE',
    spec: 'spec#errors',
    title: "Create submission with a JSON body labelled text/plain answers the profile's status",
  },
  async (t) => {
    const res = await t.http.send({ op: 'submissions.create', rawBody: JSON.stringify(validSubmission(t)), contentType: 'text/plain' });
    expectStatus(res, t.profile.expectations.bodies.unsupportedMediaTypeStatus);
  },
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.submissions.create.body-too-large',
    level: 'PROFILE',
    spec: 'spec#limits',
    title: "Create submission with a body over the profile's size limit answers the profile's status",
  },
  async (t) => {
    const { limitBytes, tooLargeStatus } = t.profile.expectations.bodies;
    // Valid JSON and a valid submission, made larger than the limit with insignificant whitespace.
    const json = JSON.stringify(validSubmission(t));
    const res = await t.http.send({ op: 'submissions.create', rawBody: `${json.slice(0, -1)}${' '.repeat(limitBytes + 1 - json.length)}}` });
    expectStatus(res, tooLargeStatus);
  },
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.submissions.create.unknown-field',
    level: 'PROFILE',
    spec: 'spec#integration-api-submission-v2',
    title: "Create submission with a field the table does not have answers the profile's status naming it",
  },
  async (t) => {
    const res = await t.http.send({ op: 'submissions.create', json: { ...validSubmission(t), lpcUnknownField: 'x' } });
    expectRejected(res, 'lpcUnknownField', t.profile.expectations.bodies.unknownFieldStatus);
  },
  WRITES,
);

requirement(
  {
    id: 'intapi.v2.submissions.create.optional-null',
    level: 'PROFILE',
    spec: 'spec#integration-api-submission-v2',
    title: 'Create submission with every optional field null is accepted and reads them back null',
  },
  async (t) => {
    const optional = boundsOf('intapi/submission.create')
      .filter((b) => !b.required)
      .map((b) => b.field);
    const res = await t.http.send({ op: 'submissions.create', json: { ...validSubmission(t), ...Object.fromEntries(optional.map((f) => [f, null])) } });
    // Accepted: the success status is create's success-status check's rule.
    expectSuccess(res);
    const stored = await t.http.send({ op: 'submissions.get', params: { id: idOf(res) } });
    expectStatus(stored, 200, 'reading it back');
    const notNull = optional.filter((f) => bodyOf(stored)[f] !== null);
    if (notNull.length > 0) fail('every optional field read back null', `${notNull.join(', ')} not null`, stored);
  },
  WRITES,
);
