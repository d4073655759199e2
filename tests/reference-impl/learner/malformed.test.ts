// Whatever a client sends to the learner API or the course player, the answer is never a 5xx, and
// every 4xx carries the learner error body (a fast-check property over paths, ids, query parameters,
// bodies and content types).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { LEARNER_SEED_IDS } from '../../../reference-impl/index.js';
import { send } from '../intapi/_support.js';
import { API, expectLearnerError, KEY, type LearnerHarness, startLearner } from './_learner.js';

let h: LearnerHarness;
beforeAll(async () => {
  h = await startLearner();
});
afterAll(() => h.close());

const id = fc.oneof(
  fc.constantFrom(LEARNER_SEED_IDS.playerCourse, LEARNER_SEED_IDS.categoryWithDescendants, '5e550000-0000-4000-8000-000000000001'),
  fc.uuid(),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '..', '%2F', 'a%00b'),
);
const path = fc.oneof(
  fc
    .constantFrom('/token', '/my-catalog', '/my-catalog/categories', '/my-catalog-calendar', '/my-catalog-calendar/sessions', '/my-branding')
    .map((p) => `${API}${p}`),
  id.map((c) => `${API}/courses/${c}`),
  id.map((c) => `${API}/my-progress/${c}`),
  fc.tuple(id, id).map(([c, l]) => `${API}/my-progress/${c}/lessons/${l}`),
  fc.tuple(id, fc.constantFrom('calendar', 'sessions')).map(([c, p]) => `${API}/instructor-led-courses/${c}/${p}`),
  fc.tuple(id, id).map(([c, s]) => `${API}/instructor-led-courses/${c}/sessions/${s}`),
  id.map((c) => `/learn/course-player/${c}`),
  id.map((f) => `/learn/assets/${f}`),
);
const param = fc.tuple(
  fc.constantFrom('_limit', '_offset', 'categoryId', 'includeSubcategories', 'includeCompletedSessions', 'hideTags', 'token', 'x'),
  fc.oneof(fc.constantFrom('true', 'false', '0', '30', '31', '-1', '1e3', ''), fc.string({ maxLength: 12 })),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json().map((j) => ({ text: j, type: 'application/json' })),
  fc.string({ maxLength: 30 }).map((text) => ({ text, type: 'application/json' })),
  fc.string({ maxLength: 30 }).map((text) => ({ text, type: 'text/plain' })),
);

test('no 5xx, and every 4xx is the learner error body', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      path,
      fc.array(param, { maxLength: 3 }),
      body,
      fc.boolean(),
      async (method, target, params, payload, authenticated) => {
        const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const headers: Record<string, string> = authenticated ? { 'x-api-key': KEY, authorization: `Bearer ${h.token}` } : {};
        if (payload !== undefined) headers['content-type'] = payload.type;
        const answer = await send(h.base, method, query === '' ? target : `${target}?${query}`, payload?.text, headers);
        expect(answer.status).toBeLessThan(500);
        if (answer.status >= 400) expectLearnerError(answer, answer.status);
      },
    ),
    { numRuns: 300, seed: 7 },
  );
});
