// The course player in headless Chromium (spec#learner-facing-api: `hideTags`, department branding
// as the theme, `Player Error` when the token stops being valid while a lesson plays). The page,
// its selectors and its default theme come from the profile's `player` (suites/_harness/player/player.ts).
import { expectStatus, fail } from '../_harness/failure.js';
import { playerSession, rgbOf, withPlayer } from '../_harness/player/player.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';

const SPEC = 'spec#learner-facing-api';
const AUTH = 'spec#learner-facing-api-1';
const TITLE = 'Player Error';
/** How long a player may take to show the dialog once the token is revoked: a lesson saves every few
 * hundred milliseconds (the reference player: 300 ms), so a few seconds, not the request deadline. */
const DIALOG_WAIT_MS = 5_000;

const learnerToken = async (t: CheckContext): Promise<string> => (await t.secrets.token('learner')).value;

requirement(
  { id: 'player.page-token-401', level: 'PROFILE', spec: AUTH, title: 'The player page answers a token the target never issued with 401' },
  async (t) => {
    const s = await playerSession(t);
    await withPlayer(t, s, 'player.page-token-401', { token: 'lpc-not-a-token-0000', ready: false }, async ({ status }) => {
      if (status !== 401) fail('401 for the player page with a token the target never issued', `${String(status)}`);
    });
  },
);

requirement(
  { id: 'player.tags-visible-by-default', level: 'MUST', spec: SPEC, title: "Without hideTags the player shows every one of the course's tags" },
  async (t) => {
    const s = await playerSession(t);
    t.requireData(s.course.tags.length > 0, `course ${s.course.id} has no tags`);
    await withPlayer(t, s, 'player.tags-visible-by-default', { token: await learnerToken(t) }, async ({ page }) => {
      const shown = (await page.locator(`${s.target.selectors.tag}:visible`).allTextContents()).map((x) => x.trim());
      const missing = s.course.tags.filter((tag) => !shown.includes(tag.trim()));
      if (missing.length > 0)
        fail(`the ${s.course.tags.length} tags of course ${s.course.id} visible`, `visible: ${JSON.stringify(shown)}; missing ${JSON.stringify(missing)}`);
    });
  },
);

requirement(
  { id: 'player.tags-hidden-with-hidetags-false', level: 'MUST', spec: SPEC, title: 'With hideTags=false the player hides every course tag' },
  async (t) => {
    const s = await playerSession(t);
    t.requireData(s.course.tags.length > 0, `course ${s.course.id} has no tags`);
    await withPlayer(t, s, 'player.tags-hidden-with-hidetags-false', { token: await learnerToken(t), extra: 'hideTags=false' }, async ({ page }) => {
      const shown = (await page.locator(`${s.target.selectors.tag}:visible`).allTextContents()).map((x) => x.trim());
      if (shown.length > 0) fail('no visible tag with hideTags=false', `${shown.length} visible: ${JSON.stringify(shown)}`);
    });
  },
);

requirement(
  {
    id: 'player.branding-theme',
    level: 'MUST',
    spec: SPEC,
    title: "The player's header and background colours are the department's branding, or the default theme",
  },
  async (t) => {
    const s = await playerSession(t);
    const res = await t.http.send({ op: 'learner.branding.get' });
    expectStatus(res, 200);
    const branding = (res.json as { branding?: { primaryColor?: unknown; backgroundColor?: unknown } | null }).branding ?? null;
    const theme = branding ? { primaryColor: String(branding.primaryColor), backgroundColor: String(branding.backgroundColor) } : s.target.defaultTheme;
    const source = branding ? 'the branding of GET /my-branding' : 'the default theme (GET /my-branding: no branding)';
    await withPlayer(t, s, 'player.branding-theme', { token: await learnerToken(t) }, async ({ page }) => {
      const sel = s.target.selectors;
      const bg = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => getComputedStyle(el).backgroundColor);
      const got = { header: await bg(sel.header), background: await bg(sel.root) };
      const want = { header: rgbOf(theme.primaryColor), background: rgbOf(theme.backgroundColor) };
      if (got.header !== want.header || got.background !== want.background) {
        fail(`header ${want.header} and background ${want.background}: ${source}`, `header ${got.header}, background ${got.background}`);
      }
    });
  },
);

requirement(
  {
    id: 'player.revoked-token-player-error',
    level: 'MUST',
    spec: SPEC,
    title: 'A token revoked while a lesson plays: a dialog titled exactly Player Error, and no save after it',
  },
  async (t) => {
    const c = t.profile.familyCredentials.learner;
    if (!c.username || !c.password) t.skip('revoking the page token needs learner username and password credentials (a new token revokes the old)');
    const s = await playerSession(t);
    t.requireData(s.course.lessons.length > 0, `course ${s.course.id} has no lessons`);
    const learnerBase = t.profile.families.learner.baseUrl.replace(/\/+$/, '');
    const timeout = t.config.timeoutMs;
    await withPlayer(t, s, 'player.revoked-token-player-error', { token: await learnerToken(t) }, async ({ page, requests }) => {
      const sel = s.target.selectors;
      const isSave = (method: string, url: string) => method !== 'GET' && url.startsWith(learnerBase);
      const firstSave = page.waitForResponse((r) => isSave(r.request().method(), r.url()) && r.ok(), { timeout });
      await page.locator(sel.lesson).first().locator(sel.play).first().click({ timeout });
      await firstSave;
      // A new token for the same learner revokes the page's (the session takes the new one).
      await t.secrets.authenticate('learner');
      const dialog = page.locator(sel.errorDialog).first();
      try {
        await dialog.waitFor({ state: 'visible', timeout: DIALOG_WAIT_MS });
      } catch {
        fail(`a dialog titled "${TITLE}" once the token was revoked mid-lesson`, `no ${sel.errorDialog} within ${DIALOG_WAIT_MS / 1000} s of the revocation`);
      }
      const title = (await page.locator(sel.errorTitle).first().textContent({ timeout }))?.trim();
      if (title !== TITLE) fail(`the dialog titled exactly "${TITLE}"`, `titled ${JSON.stringify(title)}`);
      const sentBefore = requests.filter((r) => isSave(r.method(), r.url())).length;
      const before = await t.http.send({ op: 'learner.progress.get', params: { courseId: s.course.id } });
      expectStatus(before, 200);
      // Over three save intervals of the reference player (300 ms): a player that goes on has sent more.
      await page.waitForTimeout(1000);
      const after = await t.http.send({ op: 'learner.progress.get', params: { courseId: s.course.id } });
      expectStatus(after, 200);
      const sentAfter = requests.filter((r) => isSave(r.method(), r.url())).length - sentBefore;
      if (JSON.stringify(after.json) !== JSON.stringify(before.json))
        fail('no progress saved after the Player Error dialog', 'GET /my-progress changed', after);
      if (sentAfter > 0) fail('no progress save sent after the Player Error dialog', `${sentAfter} more save requests`);
    });
  },
  { rotatesSession: true, write: ['learner.progress'], observe: ['learner.progress'] },
);
