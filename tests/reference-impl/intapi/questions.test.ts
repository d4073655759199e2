import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectErrorBody, type Harness, itemsOf, names, startServer, UNKNOWN } from './_support.js';

const QUESTION = {
  questionType: 'MultipleAnswer',
  name: 'Which?',
  questionOptions: [{ name: 'a', isCorrect: true }, { name: 'b' }],
};

let h: Harness;
let bank: string;
const path = (suffix = '') => `/question-banks/${bank}/questions${suffix}`;

beforeAll(async () => {
  h = await startServer();
  bank = String((await h.call('POST', '/question-banks', { body: { name: 'Q bank' } })).obj.id);
});
afterAll(() => h.close());

describe('create', () => {
  test('answers 201; questionType string in, integer out; option defaults', async () => {
    const res = await h.call('POST', path(), { body: QUESTION });
    expect(res.status).toBe(201);
    expect(Object.keys(res.obj)).toEqual(['id', 'questionType', 'name', 'correctReply', 'incorrectReply', 'attachment', 'questionOptions']);
    expect(res.obj).toMatchObject({ questionType: 1, name: 'Which?', correctReply: null, incorrectReply: null, attachment: null });
    const options = res.obj.questionOptions as Record<string, unknown>[];
    expect(options.map(({ id: _id, ...rest }) => rest)).toEqual([
      { name: 'a', isCorrect: true, order: 0 },
      { name: 'b', isCorrect: false, order: 1 },
    ]);
    expect(options.every((o) => typeof o.id === 'string')).toBe(true);
    expect((await h.get(path(`/${String(res.obj.id)}`))).obj).toEqual(res.obj);
  });

  test.each([
    ['SingleAnswer', 0],
    ['MultipleAnswer', 1],
    ['Text', 2],
  ])('questionType %s answers %i', async (questionType, code) => {
    expect((await h.call('POST', path(), { body: { ...QUESTION, questionType } })).obj.questionType).toBe(code);
  });

  test('questionType outside the enum, or an integer, answers 422 naming it', async () => {
    expect(names(await h.call('POST', path(), { body: { ...QUESTION, questionType: 'Essay' } }), 'questionType')).toBe(true);
    expect(names(await h.call('POST', path(), { body: { ...QUESTION, questionType: 1 } }), 'questionType')).toBe(true);
  });

  test('questionOptions is required (may be empty); option name is required', async () => {
    const { questionOptions: _o, ...without } = QUESTION;
    expect((await h.call('POST', path(), { body: without })).obj.validations).toEqual(['questionOptions: is required']);
    expect((await h.call('POST', path(), { body: { ...QUESTION, questionOptions: [] } })).status).toBe(201);
    const res = await h.call('POST', path(), { body: { ...QUESTION, questionOptions: [{ isCorrect: 'yes' }, 5] } });
    expect(res.obj.validations).toEqual([
      'questionOptions[0].name: is required',
      'questionOptions[0].isCorrect: must be a boolean',
      'questionOptions[1]: must be an object',
    ]);
  });

  test('a given id is kept; the same id in the bank answers 409', async () => {
    const id = randomUUID();
    expect((await h.call('POST', path(), { body: { ...QUESTION, id } })).obj.id).toBe(id);
    expectErrorBody(await h.call('POST', path(), { body: { ...QUESTION, id } }), 409, 'Conflict');
  });

  test('under an unknown bank answers 404', async () => {
    expectErrorBody(await h.call('POST', `/question-banks/${UNKNOWN}/questions`, { body: QUESTION }), 404);
  });

  test.each([
    ['name', 4000],
    ['correctReply', 2000],
    ['incorrectReply', 2000],
    ['attachment', 255],
  ])('%s accepts %i characters and refuses one more', async (field, max) => {
    expect((await h.call('POST', path(), { body: { ...QUESTION, [field]: 'x'.repeat(max) } })).status).toBe(201);
    const res = await h.call('POST', path(), { body: { ...QUESTION, [field]: 'x'.repeat(max + 1) } });
    expect(res.obj.validations).toEqual([`${field}: must be at most ${max} characters`]);
  });
});

describe('get / update / list', () => {
  test('update answers 200, full replacement, id refused', async () => {
    const created = (await h.call('POST', path(), { body: { ...QUESTION, correctReply: 'yes' } })).obj;
    const id = String(created.id);
    const res = await h.call('PUT', path(`/${id}`), { body: { questionType: 'Text', name: 'Now text', questionOptions: [] } });
    expect(res.status).toBe(200);
    expect(res.obj).toEqual({ id, questionType: 2, name: 'Now text', correctReply: null, incorrectReply: null, attachment: null, questionOptions: [] });
    expect((await h.get(path(`/${id}`))).obj).toEqual(res.obj);
    const bad = await h.call('PUT', path(`/${id}`), { body: { ...QUESTION, id } });
    expect(bad.obj.validations).toEqual(['id: is not accepted by this operation']);
  });

  test('unknown bank or question 404, non-GUID 422 naming the parameter', async () => {
    expectErrorBody(await h.get(path(`/${UNKNOWN}`)), 404);
    expectErrorBody(await h.get(`/question-banks/${UNKNOWN}/questions/${UNKNOWN}`), 404);
    expectErrorBody(await h.call('PUT', path(`/${UNKNOWN}`), { body: QUESTION }), 404);
    expectErrorBody(await h.get(`/question-banks/${UNKNOWN}/questions`), 404);
    const res = await h.get(path('/q1'));
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual(['questionId: Invalid format provided for questionId']);
  });

  test('the list envelope uses the key questionBanks, paged', async () => {
    const fresh = String((await h.call('POST', '/question-banks', { body: { name: 'paged' } })).obj.id);
    for (let i = 0; i < 5; i++) await h.call('POST', `/question-banks/${fresh}/questions`, { body: { ...QUESTION, name: `q${i}` } });
    const res = await h.get(`/question-banks/${fresh}/questions?_limit=2&_offset=2`);
    expect(res.obj).toMatchObject({ totalItems: 5, returnedItems: 1, limit: 2, offset: 2 });
    expect(itemsOf(res, 'questionBanks').map((q) => q.name)).toEqual(['q4']);
    expectErrorBody(await h.get(`/question-banks/${fresh}/questions?_sort=name`), 422);
  });

  test('seeded banks hold 0..4 questions each', async () => {
    const t = await startServer();
    try {
      const banks = itemsOf(await t.get('/question-banks?_limit=100'), 'questionBanks');
      const counts: number[] = [];
      for (const b of banks) counts.push(Number((await t.get(`/question-banks/${String(b.id)}/questions`)).obj.totalItems));
      expect(new Set(counts)).toEqual(new Set([0, 1, 2, 3, 4]));
    } finally {
      await t.close();
    }
  });
});
