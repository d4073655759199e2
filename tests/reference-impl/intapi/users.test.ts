// The reference server's users and manager direct reports (docs/decisions/intapi/users-and-managers.md "Users and managers").
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, expectErrorBody, type Harness, itemsOf, names, startServer, UNKNOWN, USER2 } from './_support.js';

const MANAGER = '00000000-0000-4000-8000-000000000301';
const LEAD = '00000000-0000-4000-8000-000000000302';
const NO_REPORTS = '00000000-0000-4000-8000-000000000303';
const body = (username: string) => ({ username, firstName: 'F', lastName: 'L' });

let h: Harness;
beforeAll(async () => {
  h = await startServer();
});
afterAll(() => h.close());

describe('users', () => {
  test('v1 lists a bare array, v2 the envelope users; both carry IsManager', async () => {
    const v1 = await h.get('/users?_limit=1000', { version: '1' });
    const v2 = await h.get('/users?_limit=1000');
    expect(v1.list).toHaveLength(33);
    expect(itemsOf(v2, 'users')).toEqual(v1.list);
    expect(v2.obj.totalItems).toBe(33);
    expect(itemsOf(await h.get('/users?_filter=IsManager%20eq%20true&_limit=1000'), 'users').map((u) => u.id)).toEqual([
      USER2,
      '00000000-0000-4000-8000-000000000004',
      MANAGER,
      LEAD,
      '00000000-0000-4000-8000-000000000304',
    ]);
  });

  test('the current user answers on /users/my-details, /my-details and /mydetails', async () => {
    for (const path of ['/users/my-details', '/my-details', '/mydetails']) {
      for (const version of ['1', '2']) expect((await h.get(path, { version })).obj).toMatchObject({ id: ADMIN, IsManager: false });
    }
  });

  test('update and upsert refuse id; upsert creates (201), then updates by username (200)', async () => {
    expect(names(await h.call('PUT', `/users/${ADMIN}`, { body: { ...body('lpc.admin'), id: ADMIN } }), 'id')).toBe(true);
    expect(names(await h.call('POST', '/users', { body: { ...body('x'), id: UNKNOWN } }), 'id')).toBe(true);
    const created = await h.call('POST', '/users', { body: body('new.user') });
    expect(created.status).toBe(201);
    const again = await h.call('POST', '/users', { body: { ...body('NEW.user'), firstName: 'G' } });
    expect([again.status, again.obj.id, again.obj.firstName]).toEqual([200, created.obj.id, 'G']);
    expectErrorBody(await h.call('PUT', `/users/${UNKNOWN}`, { body: body('y') }), 404);
    expectErrorBody(await h.get('/users/not-a-guid'), 422);
  });
});

describe('manager direct reports', () => {
  test('a page of 20 of 24, each naming the manager with isManager; v1 and unknown managers are 404', async () => {
    const page = await h.get(`/managers/${MANAGER}/direct-reports`);
    expect([page.obj.totalItems, page.obj.returnedItems]).toEqual([24, 20]);
    for (const item of itemsOf(page, 'directReports')) expect([item.managerId, typeof item.isManager]).toEqual([MANAGER, 'boolean']);
    expectErrorBody(await h.get(`/managers/${MANAGER}/direct-reports`, { version: '1' }), 404);
    expectErrorBody(await h.get(`/managers/${UNKNOWN}/direct-reports`), 404);
    expectErrorBody(await h.get(`/managers/${MANAGER}/direct-reports?_filter=id%20eq%20null`), 422);
  });

  test('an update replaces the reports and IsManager follows; a cycle is refused', async () => {
    const before = itemsOf(await h.get(`/managers/${LEAD}/direct-reports`), 'directReports').map((u) => String(u.id));
    const moved = await h.call('POST', `/managers/${NO_REPORTS}/direct-reports`, { body: { userIds: before } });
    expect(itemsOf(moved, 'directReports').map((u) => u.id)).toEqual(before);
    expect((await h.get(`/users/${NO_REPORTS}`)).obj.IsManager).toBe(true);
    expect((await h.get(`/users/${LEAD}`)).obj.IsManager).toBe(false);
    expectErrorBody(await h.call('POST', `/managers/${LEAD}/direct-reports`, { body: { userIds: [MANAGER] } }), 422);
    expectErrorBody(await h.call('POST', `/managers/${LEAD}/direct-reports`, { body: { userIds: [UNKNOWN] } }), 404);
    await h.call('POST', `/managers/${LEAD}/direct-reports`, { body: { userIds: before } });
    expect([(await h.get(`/users/${NO_REPORTS}`)).obj.IsManager, (await h.get(`/users/${LEAD}`)).obj.IsManager]).toEqual([false, true]);
  });
});
