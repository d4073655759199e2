import { conflict } from '../../http/errors.js';
import type { JsonObject } from '../../rules/json.js';
import type { QuestionBankRecord } from '../store/records.js';
import type { IntapiValidators } from '../bodies.js';
import { type IntapiDeps, type IntapiOperation, V2_ONLY } from '../context.js';
import { readListParams } from '../lists/params.js';
import { envelope, runList } from '../lists/run.js';
import { finishObject, freshId, guidParams, unknownId, validBody } from '../requests.js';

/**
 * Question banks, version 2 only (spec#integration-api-question-banks-v2): list (`_limit`,
 * `_offset` only), create 201 (duplicate id 409), get, update (full replacement, `id` refused).
 */
export function questionBankOperations(deps: IntapiDeps, validators: IntapiValidators): IntapiOperation[] {
  const { store, behaviour, ids } = deps;
  const { errors, lists, writes } = behaviour;
  const serialize = (bank: QuestionBankRecord): JsonObject => finishObject({ id: bank.id, name: bank.name }, behaviour.responses.nulls);
  /** An unknown bank: 404, or (a fault) the blank bank `{id, name: ""}`. */
  const missing = (id: string) => unknownId(`QuestionBank with identifier ${id} does not exist.`, () => serialize({ id, name: '' }));
  const fresh = () => freshId(ids, (candidate) => store.questionBanks.has(candidate));

  return [
    {
      id: 'questionBanks.list',
      method: 'GET',
      path: '/question-banks',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const records = lists.view === 'current' ? store.questionBanks.values() : store.questionBanks.valuesBeforeLastUpdate();
        const outcome = runList(records, readListParams(call.query, 'paging-only', lists), undefined, lists);
        return { status: 200, body: envelope('questionBanks', outcome, outcome.page.map(serialize), behaviour.envelope) };
      },
    },
    {
      id: 'questionBanks.create',
      method: 'POST',
      path: '/question-banks',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const sent = validBody(validators['questionBanks.create'].validate, call.body);
        // A duplicate is the id sent, whatever id the bank is then stored under.
        const given = sent.id;
        if (typeof given === 'string' && store.questionBanks.has(given) && writes.duplicateBankId === 'conflict') {
          throw conflict(`QuestionBank with identifier ${given} already exists.`, [`id: a question bank ${given} already exists`]);
        }
        const body = validators['questionBanks.create'].stored(sent, fresh);
        const record: QuestionBankRecord = { id: typeof body.id === 'string' ? body.id : fresh(), name: body.name ?? null };
        if (!store.insertQuestionBank(record)) store.questionBanks.update(record);
        return { status: writes.createStatus.questionBank, body: serialize(record) };
      },
    },
    {
      id: 'questionBanks.get',
      method: 'GET',
      path: '/question-banks/:questionBankId',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { questionBankId } = guidParams(call, ['questionBankId'], errors);
        const found = store.questionBanks.get(questionBankId);
        if (found === undefined) throw missing(questionBankId);
        return { status: 200, body: serialize(found) };
      },
    },
    {
      id: 'questionBanks.update',
      method: 'PUT',
      path: '/question-banks/:questionBankId',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { questionBankId } = guidParams(call, ['questionBankId'], errors);
        const previous = store.questionBanks.get(questionBankId);
        if (previous === undefined) throw missing(questionBankId);
        const body = validators['questionBanks.update'].stored(validBody(validators['questionBanks.update'].validate, call.body), fresh);
        const name = body.name === undefined && writes.update === 'merge' ? previous.name : (body.name ?? null);
        const record: QuestionBankRecord = { id: previous.id, name };
        if (writes.updatePersistence === 'stored') store.questionBanks.update(record);
        return { status: 200, body: serialize(record) };
      },
    },
  ];
}
