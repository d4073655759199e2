import { notFound } from '../../http/errors.js';
import { formatInstant } from '../../rules/datetime.js';
import type { SubmissionRecord } from '../store/records.js';
import type { IntapiValidators } from '../bodies.js';
import { type IntapiDeps, type IntapiOperation, V2_ONLY } from '../context.js';
import { readListParams } from '../lists/params.js';
import { envelope, runList } from '../lists/run.js';
import { freshId, guidParams, NIL_GUID, unknownId, validBody } from '../requests.js';
import { SUBMISSION_SCHEMA, submissionSerializer, writtenFields } from './fields.js';

/**
 * Submissions, version 2 only (spec#integration-api-submissions-and-templates-v2).
 * Create 201 (unknown userId/templateId 404), update 200 as a full replacement.
 */

/**
 * The blank submission (the answer for an unknown id under `intapi.unknown-id-ok:`): the requested id, the
 * nil GUID for userId and templateId, the shortest valid title, the zero instant, nulls elsewhere.
 */
const blankSubmission = (id: string): SubmissionRecord => ({
  id,
  userId: NIL_GUID,
  templateId: NIL_GUID,
  title: ' ',
  completionDate: formatInstant(0),
  status: null,
  cost: null,
  credits: null,
  description: null,
  expiryDate: null,
  startDate: null,
  score: null,
  grade: null,
  totalTimeSpent: null,
  vendor: null,
  vendorAddress: null,
});

const CRASH_TEXT = 'System.NullReferenceException: Object reference not set to an instance of an object.\n   at Submissions.Get(Guid id)';

export function submissionOperations(deps: IntapiDeps, validators: IntapiValidators): IntapiOperation[] {
  const { store, behaviour, ids } = deps;
  const { errors, lists, writes, http } = behaviour;
  const serialize = submissionSerializer(behaviour.responses);

  const exists = (table: { has(id: string): boolean }, value: unknown): boolean => typeof value === 'string' && table.has(value);

  return [
    {
      id: 'submissions.list',
      method: 'GET',
      path: '/submissions',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const params = readListParams(call.query, 'full', lists);
        const records = lists.view === 'current' ? store.submissions : store.submissions.valuesBeforeLastUpdate();
        const outcome = runList(records, params, SUBMISSION_SCHEMA, lists);
        return { status: 200, body: envelope('submissions', outcome, outcome.page.map(serialize), behaviour.envelope) };
      },
    },
    {
      id: 'submissions.create',
      method: 'POST',
      path: '/submissions',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        let sent: ReturnType<typeof validBody>;
        try {
          sent = validBody(validators['submissions.create'].validate, call.body);
        } catch (refusal) {
          // Fault intapi.rejected-create-stored: the refusal is answered, but a record is stored all the same.
          const model = store.submissions.values()[0];
          if (writes.rejectedCreate === 'stored' && model)
            store.submissions.insert({ ...model, id: freshId(ids, (candidate) => store.submissions.has(candidate)) });
          throw refusal;
        }
        const body = validators['submissions.create'].stored(sent, () => freshId(ids, (candidate) => store.submissions.has(candidate)));
        const { userId, templateId } = body;
        if (writes.submissionUser === 'must-exist' && !exists(store.users, userId)) {
          throw notFound(`User with identifier ${String(userId)} does not exist.`, [`userId: no user ${String(userId)}`]);
        }
        if (writes.submissionTemplate === 'must-exist' && !exists(store.templates, templateId)) {
          throw notFound(`Template with identifier ${String(templateId)} does not exist.`, [`templateId: no template ${String(templateId)}`]);
        }
        const id = freshId(ids, (candidate) => store.submissions.has(candidate));
        const record: SubmissionRecord = { id, userId: userId ?? null, templateId: templateId ?? null, ...writtenFields(body, undefined, writes.update) };
        store.submissions.insert(record);
        return { status: writes.createStatus.submission, body: serialize(record) };
      },
    },
    {
      id: 'submissions.get',
      method: 'GET',
      path: '/submissions/:id',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { id } = guidParams(call, ['id'], errors);
        const found = store.submissions.get(id);
        if (found === undefined) {
          if (http.crashOnUnknownId.has('submissions.get')) return { status: 500, text: CRASH_TEXT };
          throw unknownId(`Submission with identifier ${id} does not exist.`, () => serialize(blankSubmission(id)));
        }
        return { status: 200, body: serialize(found) };
      },
    },
    {
      id: 'submissions.update',
      method: 'PUT',
      path: '/submissions/:id',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { id } = guidParams(call, ['id'], errors);
        const previous = store.submissions.get(id);
        if (previous === undefined && writes.updateUnknownSubmission === 'not-found') {
          throw unknownId(`Submission with identifier ${id} does not exist.`, () => serialize(blankSubmission(id)));
        }
        const sent = validBody(validators['submissions.update'].validate, call.body);
        const body = validators['submissions.update'].stored(sent, () => freshId(ids, (candidate) => store.submissions.has(candidate)));
        // userId/templateId are "not accepted" in an update; only a skipped rule lets them through.
        const userId = body.userId ?? previous?.userId ?? call.context.userId ?? null;
        const templateId = body.templateId ?? previous?.templateId ?? store.templates.values()[0]?.id ?? null;
        const record: SubmissionRecord = { id: previous?.id ?? id, userId, templateId, ...writtenFields(body, previous, writes.update) };
        if (previous === undefined) store.submissions.insert(record);
        else if (writes.updatePersistence === 'stored') store.submissions.update(record);
        return { status: writes.updateStatus.submission, body: serialize(record) };
      },
    },
  ];
}
