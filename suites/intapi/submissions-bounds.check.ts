// Bounds of the submission create and update bodies (spec#integration-api-submission-v2).
import { boundsChecks } from '../_harness/intapi/bounds.js';
import { memo } from '../_harness/records.js';
import { marked } from '../_harness/marker.js';
import { countOf, createSubmission, validSubmission } from '../_harness/intapi/records.js';
import { leaveSubmission } from '../_harness/intapi/leave.js';

const SPEC = 'spec#integration-api-submission-v2';

boundsChecks({
  idPrefix: 'intapi.v2.submissions.create',
  spec: SPEC,
  label: 'Create submission',
  contract: 'intapi/submission.create',
  references: ['userId', 'templateId'],
  // spec#integration-api-submission-v2: id is "response only" (not "not accepted"): refusing it is our choice.
  notAccepted: { id: (t) => t.uuid() },
  refusedByChoice: ['id'],
  // The marker in description too: a title under test that is shorter than the marker cannot carry it.
  validBody: async (t) => ({ ...validSubmission(t), description: marked(t, 'lp-conformance submission') }),
  creates: true,
  leave: (t, res) => leaveSubmission(t, String((res.json as { id?: unknown }).id)),
  send: (t, body) => t.http.send({ op: 'submissions.create', json: body }),
  readBack: (t, res) => t.http.send({ op: 'submissions.get', params: { id: String((res.json as { id?: unknown }).id) } }),
  snapshot: (t) => countOf(t, 'submissions.list'),
  uses: { accept: { write: ['submissions'] }, reject: { observe: ['submissions'] } },
});

const submissionToUpdate = memo(createSubmission);

boundsChecks({
  idPrefix: 'intapi.v2.submissions.update',
  spec: SPEC,
  label: 'Update submission',
  contract: 'intapi/submission.update',
  notAccepted: {
    userId: (t) => t.profile.records.userId ?? t.uuid(),
    templateId: (t) => t.profile.records.templateId ?? t.uuid(),
    id: (t) => t.uuid(),
  },
  // userId and templateId are "not accepted" in the table; id is "response only".
  refusedByChoice: ['id'],
  validBody: async (t) => ({ title: marked(t, 'lp-conformance submission, updated'), completionDate: '2024-06-01T10:00:00.000Z' }),
  leaveAfter: async (t) => leaveSubmission(t, await submissionToUpdate(t)),
  send: async (t, body) => t.http.send({ op: 'submissions.update', params: { id: await submissionToUpdate(t) }, json: body }),
  readBack: async (t) => t.http.send({ op: 'submissions.get', params: { id: await submissionToUpdate(t) } }),
  snapshot: async (t) => (await t.http.send({ op: 'submissions.get', params: { id: await submissionToUpdate(t) } })).json,
  uses: { accept: { write: ['submissions'] }, reject: { write: ['submissions'] } },
});
