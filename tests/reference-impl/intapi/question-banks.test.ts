import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectErrorBody, type Harness, itemsOf, names, startServer, UNKNOWN } from './_support.js';

let h: Harness;
beforeAll(async () => {
  h = await startServer();
});
afterAll(() => h.close());

describe('create', () => {
  test('answers 201 with a generated id when none is given', async () => {
    const res = await h.call('POST', '/question-banks', { body: { name: 'Bank' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.obj)).toEqual(['id', 'name']);
    expect(res.obj.name).toBe('Bank');
    expect((await h.get(`/question-banks/${String(res.obj.id)}`)).obj).toEqual(res.obj);
  });

  test('keeps a given id; the same id again (any case) answers 409', async () => {
    const id = randomUUID();
    expect((await h.call('POST', '/question-banks', { body: { id, name: 'A' } })).obj).toEqual({ id, name: 'A' });
    const again = await h.call('POST', '/question-banks', { body: { id: id.toUpperCase(), name: 'B' } });
    expectErrorBody(again, 409, 'Conflict');
    expect(names(again, 'id')).toBe(true);
    expect((await h.get(`/question-banks/${id}`)).obj.name).toBe('A');
  });

  test.each([
    ['an empty name', '', 201],
    ['a 255-character name', 'n'.repeat(255), 201],
    ['a 256-character name', 'n'.repeat(256), 422],
  ])('%s answers %s', async (_what, name, status) => {
    expect((await h.call('POST', '/question-banks', { body: { name } })).status).toBe(status);
  });

  test('a missing name or a bad id answers 422 naming it', async () => {
    const res = await h.call('POST', '/question-banks', { body: { id: 'nope' } });
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual(['id: must be a GUID', 'name: is required']);
  });
});

describe('get / update', () => {
  test('update answers 200 and stores the new name', async () => {
    const id = String((await h.call('POST', '/question-banks', { body: { name: 'old' } })).obj.id);
    const res = await h.call('PUT', `/question-banks/${id}`, { body: { name: 'new' } });
    expect(res.status).toBe(200);
    expect(res.obj).toEqual({ id, name: 'new' });
    expect((await h.get(`/question-banks/${id}`)).obj).toEqual({ id, name: 'new' });
  });

  test('id in the update body answers 422 naming id', async () => {
    const id = String((await h.call('POST', '/question-banks', { body: { name: 'x' } })).obj.id);
    const res = await h.call('PUT', `/question-banks/${id}`, { body: { id, name: 'y' } });
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual(['id: is not accepted by this operation']);
  });

  test('unknown bank 404, non-GUID 422', async () => {
    const res = await h.get(`/question-banks/${UNKNOWN}`);
    expectErrorBody(res, 404);
    expect(res.obj.message).toBe(`QuestionBank with identifier ${UNKNOWN} does not exist.`);
    expectErrorBody(await h.call('PUT', `/question-banks/${UNKNOWN}`, { body: { name: 'x' } }), 404);
    const bad = await h.get('/question-banks/abc');
    expectErrorBody(bad, 422);
    expect(names(bad, 'questionBankId')).toBe(true);
  });
});

describe('list', () => {
  test('the envelope with key questionBanks; 25 seeded banks', async () => {
    const t = await startServer();
    try {
      const res = await t.get('/question-banks?_limit=10&_offset=2');
      expect(res.obj).toMatchObject({ totalItems: 25, returnedItems: 5, limit: 10, offset: 2 });
      expect(itemsOf(res, 'questionBanks')).toHaveLength(5);
    } finally {
      await t.close();
    }
  });

  test.each(['_filter', '_sort'])('%s answers 422 naming it (only _limit and _offset)', async (param) => {
    const res = await h.get(`/question-banks?${param}=name`);
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual([`${param}: is not supported by this list`]);
  });
});
