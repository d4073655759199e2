import { conflict } from '../../http/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../rules/json.js';
import { isGuid } from '../../rules/guid.js';
import type { QuestionRecord } from '../store/records.js';
import type { Table } from '../../store/table.js';
import type { IntapiValidators } from '../bodies.js';
import { type IntapiDeps, type IntapiOperation, V2_ONLY } from '../context.js';
import { readListParams } from '../lists/params.js';
import { envelope, runList } from '../lists/run.js';
import { freshId, guidParams, NIL_GUID, unknownId, validBody } from '../requests.js';
import { QUESTION_TYPES, questionSerializer, storedOptions } from './serialize.js';

/**
 * Questions of a question bank, version 2 only (spec#integration-api-question-banks-v2):
 * list (`_limit`, `_offset` only; envelope key `questionBanks`, as the spec says), create 201
 * (existing id in the bank 409), get, update (full replacement, `id` refused). Every operation
 * under an unknown bank answers 404.
 */
export function questionOperations(deps: IntapiDeps, validators: IntapiValidators): IntapiOperation[] {
  const { store, behaviour, ids } = deps;
  const { errors, lists, writes } = behaviour;
  const serialize = questionSerializer(behaviour.responses);

  /** The blank question (the answer for an unknown id under `intapi.unknown-id-ok:`). */
  const blank = (id: string): JsonObject =>
    serialize({ id, questionType: QUESTION_TYPES[0], name: '', correctReply: null, incorrectReply: null, attachment: null, questionOptions: [] });
  /** An unknown bank: 404, or (a fault) the blank answer of the operation. */
  const unknownBank = (questionBankId: string, blankAnswer: () => JsonValue) =>
    unknownId(`QuestionBank with identifier ${questionBankId} does not exist.`, blankAnswer);
  const bankOf = (questionBankId: string, blankAnswer: () => JsonValue): Table<QuestionRecord> => {
    const questions = store.questionsOf(questionBankId);
    if (questions === undefined) throw unknownBank(questionBankId, blankAnswer);
    return questions;
  };
  const unknownQuestion = (questionBankId: string, questionId: string) =>
    unknownId(`Question with identifier ${questionId} does not exist in question bank ${questionBankId}.`, () => blank(questionId));

  /** The stored question of a body; with a merge (a fault) absent fields keep their old value. */
  const questionOf = (id: string, body: JsonObject, previous: QuestionRecord | undefined): QuestionRecord => {
    const keep = writes.update === 'merge' && previous !== undefined;
    const field = <K extends Exclude<keyof QuestionRecord, 'id' | 'questionOptions'>>(name: K) =>
      keep && body[name] === undefined ? previous[name] : (body[name] ?? null);
    return {
      id,
      questionType: field('questionType'),
      name: field('name'),
      correctReply: field('correctReply'),
      incorrectReply: field('incorrectReply'),
      attachment: field('attachment'),
      questionOptions: keep && body.questionOptions === undefined ? previous.questionOptions : storedOptions(body.questionOptions, ids),
    };
  };

  return [
    {
      id: 'questions.list',
      method: 'GET',
      path: '/question-banks/:questionBankId/questions',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { questionBankId } = guidParams(call, ['questionBankId'], errors);
        const questions = bankOf(questionBankId, () => {
          const outcome = runList([], readListParams(call.query, 'paging-only', lists), undefined, lists);
          return envelope('questionBanks', outcome, [], behaviour.envelope);
        });
        const records = lists.view === 'current' ? questions.values() : questions.valuesBeforeLastUpdate();
        const outcome = runList(records, readListParams(call.query, 'paging-only', lists), undefined, lists);
        return { status: 200, body: envelope('questionBanks', outcome, outcome.page.map(serialize), behaviour.envelope) };
      },
    },
    {
      id: 'questions.create',
      method: 'POST',
      path: '/question-banks/:questionBankId/questions',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { questionBankId } = guidParams(call, ['questionBankId'], errors);
        const questions = store.questionsOf(questionBankId);
        if (questions === undefined && writes.questionUnderUnknownBank === 'not-found') {
          // The blank question takes the id the body asks for, if any.
          const asked = isJsonObject(call.body) && typeof call.body.id === 'string' && isGuid(call.body.id) ? call.body.id : NIL_GUID;
          throw unknownBank(questionBankId, () => blank(asked));
        }
        const sent = validBody(validators['questions.create'].validate, call.body);
        // A duplicate is the id sent, whatever id the question is then stored under.
        const given = sent.id;
        if (typeof given === 'string' && questions?.has(given) === true && writes.duplicateQuestionId === 'conflict') {
          throw conflict(`Question with identifier ${given} already exists in question bank ${questionBankId}.`, [`id: a question ${given} already exists`]);
        }
        const fresh = () => freshId(ids, (candidate) => questions?.has(candidate) === true);
        const body = validators['questions.create'].stored(sent, fresh);
        const record = questionOf(typeof body.id === 'string' ? body.id : fresh(), body, undefined);
        if (questions === undefined) return { status: 201, body: serialize(record) }; // a fault: answered, not stored
        if (!questions.insert(record)) questions.update(record);
        return { status: writes.createStatus.question, body: serialize(record) };
      },
    },
    {
      id: 'questions.get',
      method: 'GET',
      path: '/question-banks/:questionBankId/questions/:questionId',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { questionBankId, questionId } = guidParams(call, ['questionBankId', 'questionId'], errors);
        const found = bankOf(questionBankId, () => blank(questionId)).get(questionId);
        if (found === undefined) throw unknownQuestion(questionBankId, questionId);
        return { status: 200, body: serialize(found) };
      },
    },
    {
      id: 'questions.update',
      method: 'PUT',
      path: '/question-banks/:questionBankId/questions/:questionId',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { questionBankId, questionId } = guidParams(call, ['questionBankId', 'questionId'], errors);
        const questions = bankOf(questionBankId, () => blank(questionId));
        const previous = questions.get(questionId);
        if (previous === undefined) throw unknownQuestion(questionBankId, questionId);
        const sent = validBody(validators['questions.update'].validate, call.body);
        const body = validators['questions.update'].stored(sent, () => freshId(ids, (candidate) => questions.has(candidate)));
        const record = questionOf(previous.id, body, previous);
        if (writes.updatePersistence === 'stored') questions.update(record);
        return { status: 200, body: serialize(record) };
      },
    },
  ];
}
