import { afterAll, beforeAll, expect, test } from 'vitest';
import { expectErrorBody, type Harness, itemsOf, startServer, TEMPLATE, UNKNOWN } from './_support.js';

let h: Harness;
beforeAll(async () => {
  h = await startServer();
});
afterAll(() => h.close());

test('GET /templates answers the envelope of 70 templates, active and inactive', async () => {
  const res = await h.get('/templates?_limit=1000');
  expect(res.obj).toMatchObject({ totalItems: 70, returnedItems: 70, limit: 1000, offset: 0 });
  const items = itemsOf(res, 'templates');
  expect(items.some((t) => t.isActive === true) && items.some((t) => t.isActive === false)).toBe(true);
  for (const t of items) expect(Object.keys(t)).toEqual(['id', 'name', 'isActive']);
});

test('GET /templates/{id} answers the template; the fixed one is active', async () => {
  const res = await h.get(`/templates/${TEMPLATE}`);
  expect(res.obj).toEqual({ id: TEMPLATE, name: 'External Course', isActive: true });
});

test('unknown template 404, non-GUID 422', async () => {
  expectErrorBody(await h.get(`/templates/${UNKNOWN}`), 404);
  expectErrorBody(await h.get('/templates/201'), 422);
});

test('templates filter on isActive (boolean eq/ne only)', async () => {
  const active = await h.get('/templates?_filter=isActive eq true&_limit=1000');
  const inactive = await h.get('/templates?_filter=isActive ne true&_limit=1000');
  expect(Number(active.obj.totalItems) + Number(inactive.obj.totalItems)).toBe(70);
  expectErrorBody(await h.get('/templates?_filter=isActive gt false'), 422);
  expectErrorBody(await h.get("/templates?_filter=isActive eq 'true'"), 422);
});
