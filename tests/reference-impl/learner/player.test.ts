// The course player page, read statically (fast): what the server decides (token, course, tag
// visibility, the configuration the script reads), the Content-Security-Policy that keeps the page
// to its own origin, and a script that parses. player-browser.test.ts runs the script in Chromium.
import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, LEARNER_SEED_IDS, SANDBOX_CREDENTIALS, SANDBOX_LEARNERS } from '../../../reference-impl/index.js';
import { send } from '../intapi/_support.js';
import { API, configOf, expectLearnerError, type LearnerHarness, playerPath, startLearner, UNKNOWN } from './_learner.js';

const COURSE = LEARNER_SEED_IDS.playerCourse;
let h: LearnerHarness;
beforeAll(async () => {
  h = await startLearner();
});
afterAll(() => h.close());

const inline = (page: string, tag: 'script' | 'style'): string => {
  const m = new RegExp(`<${tag}>(.*?)</${tag}>`, 's').exec(page);
  if (m?.[1] === undefined) throw new Error(`no inline ${tag}`);
  return m[1];
};
const hash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('GET /learn/course-player/{courseId}', () => {
  test('an HTML page, not cached, no referrer, allowed only its own script, style, images and fetches', async () => {
    const page = await h.raw(playerPath(h.token));
    expect(page.status).toBe(200);
    expect(page.contentType).toBe('text/html; charset=utf-8');
    const res = await fetch(`${h.base}${playerPath(h.token)}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src ${hash(inline(page.text, 'script'))}; style-src ${hash(inline(page.text, 'style'))}; ` +
        "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.text).toMatch(/<main data-player data-state="loading" data-course-id="[^"]+">/);
    expect(page.text).not.toMatch(/\b(src|href)=/);
  });

  test('the script is JavaScript that parses', async () => {
    const page = await h.raw(playerPath(h.token));
    expect(() => new Script(inline(page.text, 'script'))).not.toThrow();
  });

  test("the configuration: the course, the API base, the portal key and the learner's token, the save interval", async () => {
    const config = configOf(await h.raw(playerPath(h.token)));
    expect(config).toMatchObject({
      courseId: COURSE,
      apiBase: API,
      apiKey: SANDBOX_CREDENTIALS.apiKey,
      token: h.token,
      saveIntervalMs: 300,
      progressStep: 2,
      branding: 'applied',
      saveError: 'dialog',
      errorTitle: 'Player Error',
      afterError: 'stop',
    });
  });

  test.each([
    ['', true],
    ['&hideTags=false', false],
    ['&hideTags=FALSE', false],
    ['&hideTags=true', true],
    ['&hideTags=0', true],
    ['&hideTags=', true],
    ['&hideTags=false&hideTags=true', false],
  ])('tags with "%s": visible %s', async (query, visible) => {
    expect(configOf(await h.raw(playerPath(h.token, query))).tagsVisible).toBe(visible);
  });

  test('no token, an unknown or a revoked token: 401; unknown course 404; not a GUID 422', async () => {
    expectLearnerError(await h.raw(`/learn/course-player/${COURSE}`), 401);
    expectLearnerError(await h.raw(playerPath('nope')), 401);
    const old = h.token;
    h.token = await h.login('a');
    expectLearnerError(await h.raw(playerPath(old)), 401);
    expectLearnerError(await h.raw(playerPath(h.token, '', UNKNOWN)), 404);
    expectLearnerError(await h.raw(playerPath(h.token, '', 'x')), 422);
    expectLearnerError(await h.raw('/learn/elsewhere'), 404);
  });

  test('no value of the configuration can close its script element', async () => {
    const credentials = { ...SANDBOX_CREDENTIALS, apiKey: '</script><script>alert(1)</script>' };
    const server = createReferenceServer({ families: { intapi: { credentials } } });
    const base = await server.listen();
    try {
      const login = await send(base, 'POST', `${API}/token`, SANDBOX_LEARNERS.a, { 'x-api-key': credentials.apiKey });
      const page = await send(base, 'GET', playerPath(String(login.obj.access_token)), undefined, {});
      expect(page.text.match(/<\/script>/g)).toHaveLength(2);
      expect(configOf(page).apiKey).toBe(credentials.apiKey);
    } finally {
      await server.close();
    }
  });
});
