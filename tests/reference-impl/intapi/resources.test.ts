import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN,
  COURSE1,
  COURSE2,
  COURSE4,
  expectErrorBody,
  type Harness,
  idsOf,
  type JsonRecord,
  names,
  startServer,
  UNKNOWN,
  USER2,
  USER5,
} from './_support.js';

let h: Harness;
let course1: JsonRecord[];
let course2Ids: string[];
let course4Ids: string[];

beforeAll(async () => {
  h = await startServer();
  course1 = (await h.get(`/courses/${COURSE1}/resources`)).list as JsonRecord[];
  course2Ids = idsOf((await h.get(`/courses/${COURSE2}/resources`)).list);
  course4Ids = idsOf((await h.get(`/courses/${COURSE4}/resources`)).list);
});
afterAll(() => h.close());

describe.each(['1', '2'])('version %s', (version) => {
  test('GET /resources/{id} answers the resource with every field', async () => {
    const first = course1[0];
    const res = await h.get(`/resources/${String(first?.id)}`, { version });
    expect(res.status).toBe(200);
    expect(res.obj).toEqual(first);
    expect(Object.keys(res.obj)).toEqual(['id', 'name', 'description', 'file']);
  });

  test('ids are found case-insensitively', async () => {
    expect((await h.get(`/resources/${String(course1[0]?.id).toUpperCase()}`, { version })).status).toBe(200);
  });

  test('GET /courses/{courseId}/resources lists the course resources (course 1 has at least 5)', async () => {
    const res = await h.get(`/courses/${COURSE1}/resources`, { version });
    expect(res.list.length).toBeGreaterThanOrEqual(5);
  });

  test('GET /courses/{courseId}/resources/{resourceId}', async () => {
    const id = String(course1[1]?.id);
    expect((await h.get(`/courses/${COURSE1}/resources/${id}`, { version })).obj.id).toBe(id);
    expectErrorBody(await h.get(`/courses/${COURSE2}/resources/${id}`, { version }), 404);
    expectErrorBody(await h.get(`/courses/${UNKNOWN}/resources/${id}`, { version }), 404);
  });

  test('GET /users/{userId}/resources lists the resources of the enrolled courses', async () => {
    const res = await h.get(`/users/${USER2}/resources`, { version });
    expect(idsOf(res.list)).toEqual(course2Ids);
    expect((await h.get(`/users/${USER5}/resources`, { version })).list).toEqual([]);
  });

  test('GET /enrollments/myresources lists the current user resources (courses 1, 2, 3)', async () => {
    const res = await h.get('/enrollments/myresources', { version });
    expect(res.list.length).toBeGreaterThan(course1.length + course2Ids.length);
    expect(idsOf(res.list)).toEqual(expect.arrayContaining([...idsOf(course1), ...course2Ids]));
    expect(idsOf(res.list)).not.toEqual(expect.arrayContaining(course4Ids));
  });

  test('GET /users/{userId}/enrollments/{courseId}/resources', async () => {
    expect(idsOf((await h.get(`/users/${USER2}/enrollments/${COURSE2}/resources`, { version })).list)).toEqual(course2Ids);
    expectErrorBody(await h.get(`/users/${USER2}/enrollments/${COURSE1}/resources`, { version }), 404);
    expectErrorBody(await h.get(`/users/${UNKNOWN}/enrollments/${COURSE1}/resources`, { version }), 404);
    expectErrorBody(await h.get(`/users/${ADMIN}/enrollments/${UNKNOWN}/resources`, { version }), 404);
  });

  test('GET /enrollments/{courseId}/myresources', async () => {
    expect(idsOf((await h.get(`/enrollments/${COURSE1}/myresources`, { version })).list)).toEqual(idsOf(course1));
    expectErrorBody(await h.get(`/enrollments/${COURSE4}/myresources`, { version }), 404);
    expectErrorBody(await h.get(`/enrollments/${UNKNOWN}/myresources`, { version }), 404);
  });

  test('per-user, per-course and current-user lists ignore list parameters', async () => {
    const res = await h.get(`/courses/${COURSE1}/resources?_limit=1&_filter=bad((`, { version });
    expect(res.list).toHaveLength(course1.length);
  });

  test.each([
    ['/resources/{id}', `/resources/${UNKNOWN}`],
    ['/users/{id}/resources', `/users/${UNKNOWN}/resources`],
    ['/courses/{id}/resources', `/courses/${UNKNOWN}/resources`],
  ])('unknown id in %s answers 404', async (_shape, path) => {
    expectErrorBody(await h.get(path, { version }), 404, 'NotFound');
  });

  test.each([
    ['resourceId', '/resources/abc'],
    ['userId', '/users/123/resources'],
    ['courseId', '/courses/not-a-guid/resources'],
    ['courseId', '/enrollments/x/myresources'],
    ['resourceId', `/courses/${COURSE1}/resources/zzz`],
  ])('a path %s that is not a GUID answers 422 naming it', async (param, path) => {
    const res = await h.get(path, { version });
    expectErrorBody(res, 422, 'ValidationFailed');
    expect(res.obj.validations).toEqual([`${param}: Invalid format provided for ${param}`]);
  });
});

test('a non-GUID id is 422 before an unknown course is 404', async () => {
  const res = await h.get(`/courses/${UNKNOWN}/resources/nope`);
  expectErrorBody(res, 422);
  expect(names(res, 'resourceId')).toBe(true);
});
