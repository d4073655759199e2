import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN,
  expectErrorBody,
  type Harness,
  itemsOf,
  names,
  startServer,
  SUBMISSION_FIELDS,
  TEMPLATE,
  UNKNOWN,
  USER2,
  VALID_SUBMISSION,
} from './_support.js';

const FIELDS = ['id', 'userId', 'templateId', ...SUBMISSION_FIELDS];
const FULL = {
  ...VALID_SUBMISSION,
  status: 2,
  cost: '$10',
  credits: 1.5,
  description: 'd',
  expiryDate: '2025-03-01T00:00:00.000Z',
  startDate: '2024-02-01T00:00:00.000Z',
  score: 99.5,
  grade: 'A',
  totalTimeSpent: 12.25,
  vendor: 'Acme',
  vendorAddress: 'Road 1',
};

let h: Harness;
let counter = 0;
const ids = () => `aaaaaaaa-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
beforeAll(async () => {
  h = await startServer({ ids });
});
afterAll(() => h.close());

describe('create', () => {
  test('answers 201 with every field, null when unset, and the generated id', async () => {
    const res = await h.call('POST', '/submissions', { body: VALID_SUBMISSION });
    expect(res.status).toBe(201);
    expect(Object.keys(res.obj)).toEqual(FIELDS);
    expect(res.obj).toMatchObject({ ...VALID_SUBMISSION, completionDate: '2024-03-01T10:00:00.000Z', status: null, vendor: null });
    expect(res.obj.id).toMatch(/^aaaaaaaa-0000-4000-8000-\d{12}$/);
    expect((await h.get(`/submissions/${String(res.obj.id)}`)).obj).toEqual(res.obj);
  });

  test('stores date-times as instants in toISOString form', async () => {
    const res = await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, completionDate: '2024-03-01t12:30:00.1234+02:30' } });
    expect(res.obj.completionDate).toBe('2024-03-01T10:00:00.123Z');
  });

  test('optional fields sent as null are absent', async () => {
    const res = await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, cost: null, score: null } });
    expect(res.status).toBe(201);
    expect(res.obj.cost).toBeNull();
  });

  test('a full body reads back equal', async () => {
    const res = await h.call('POST', '/submissions', { body: FULL });
    expect(res.status).toBe(201);
    const { id, ...rest } = res.obj;
    expect(rest).toEqual({ ...FULL, completionDate: '2024-03-01T10:00:00.000Z' });
    expect(typeof id).toBe('string');
  });

  test.each([
    ['userId', { userId: UNKNOWN }],
    ['templateId', { templateId: UNKNOWN }],
  ])('an unknown %s answers 404 naming it', async (field, patch) => {
    const res = await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, ...patch } });
    expectErrorBody(res, 404, 'NotFound');
    expect(names(res, field)).toBe(true);
  });

  test('id is response only: 422 naming id', async () => {
    const res = await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, id: UNKNOWN } });
    expectErrorBody(res, 422);
    expect(names(res, 'id')).toBe(true);
  });

  test('an unknown field answers 422 naming it', async () => {
    const res = await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, colour: 'red' } });
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual(['colour: is not a known field']);
  });

  test('every failure is listed', async () => {
    const res = await h.call('POST', '/submissions', { body: { title: '', credits: -1, status: 3 } });
    expect(res.obj.validations).toEqual([
      'userId: is required',
      'templateId: is required',
      'title: must be at least 1 characters',
      'completionDate: is required',
      'status: must be one of 0, 1, 2',
      'credits: must be at least 0',
    ]);
  });
});

describe('get', () => {
  test('unknown id 404, non-GUID 422', async () => {
    expectErrorBody(await h.get(`/submissions/${UNKNOWN}`), 404, 'NotFound');
    const res = await h.get('/submissions/12345');
    expectErrorBody(res, 422, 'ValidationFailed');
    expect(res.obj.validations).toEqual(['id: Invalid format provided for id']);
  });
});

describe('update', () => {
  test('answers 200 and is a full replacement', async () => {
    const created = (await h.call('POST', '/submissions', { body: FULL })).obj;
    const id = String(created.id);
    const res = await h.call('PUT', `/submissions/${id}`, { body: { title: 'New', completionDate: '2020-01-01T00:00:00Z', grade: 'B' } });
    expect(res.status).toBe(200);
    expect(res.obj).toEqual({
      ...Object.fromEntries(FIELDS.map((f) => [f, null])),
      id,
      userId: ADMIN,
      templateId: TEMPLATE,
      title: 'New',
      completionDate: '2020-01-01T00:00:00.000Z',
      grade: 'B',
    });
    expect((await h.get(`/submissions/${id}`)).obj).toEqual(res.obj);
    const listed = itemsOf(await h.get(`/submissions?_filter=id eq guid'${id}'`), 'submissions');
    expect(listed).toEqual([res.obj]);
  });

  test.each(['userId', 'templateId', 'id'])('%s in the body answers 422 naming it', async (field) => {
    const created = (await h.call('POST', '/submissions', { body: VALID_SUBMISSION })).obj;
    const res = await h.call('PUT', `/submissions/${String(created.id)}`, { body: { title: 't', completionDate: '2020-01-01T00:00:00Z', [field]: USER2 } });
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual([`${field}: is not accepted by this operation`]);
  });

  test('unknown id 404, non-GUID 422', async () => {
    expectErrorBody(await h.call('PUT', `/submissions/${UNKNOWN}`, { body: { title: 't', completionDate: '2020-01-01T00:00:00Z' } }), 404);
    expectErrorBody(await h.call('PUT', '/submissions/x', { body: { title: 't', completionDate: '2020-01-01T00:00:00Z' } }), 422);
  });

  test('a required field missing in the update answers 422', async () => {
    const created = (await h.call('POST', '/submissions', { body: VALID_SUBMISSION })).obj;
    const res = await h.call('PUT', `/submissions/${String(created.id)}`, { body: { title: 't' } });
    expectErrorBody(res, 422);
    expect(res.obj.validations).toEqual(['completionDate: is required']);
  });
});

test('the list carries created submissions with every field', async () => {
  const res = await h.get('/submissions?_limit=1000');
  expect(res.obj.totalItems).toBe(res.obj.returnedItems);
  for (const item of itemsOf(res, 'submissions')) expect(Object.keys(item)).toEqual(FIELDS);
});
