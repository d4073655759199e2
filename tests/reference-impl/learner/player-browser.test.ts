// The course player's script in headless Chromium (one browser for the file): it renders the
// course's lessons and tags, applies the department's branding as its theme, saves progress while a
// lesson plays, and shows the Player Error dialog when a save fails because the token was revoked,
// then stops saving. The player faults are proven on the page's configuration in player.test.ts;
// here two faulty servers prove that the script honours what the configuration says.
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../../src/browser/chromium.js';
import { LEARNER_SEED_IDS } from '../../../reference-impl/index.js';
import { API, type LearnerHarness, startLearner } from './_learner.js';

const COURSE = LEARNER_SEED_IDS.playerCourse;
const rgb = (hex: string): string => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

let browser: Browser;
let sound: LearnerHarness;
let faulty: LearnerHarness;
let swallowing: LearnerHarness;

beforeAll(async () => {
  [browser, sound, faulty, swallowing] = await Promise.all([
    launchChromium(),
    startLearner(),
    startLearner({
      faults: [
        'player.tags-shown-with-hidetags-false',
        'player.tags-hidden-by-default',
        'player.branding-ignored',
        'player.error-title-wrong',
        'player.saves-after-error',
      ],
    }),
    startLearner({ faults: ['player.save-error-swallowed'] }),
  ]);
});

afterAll(async () => {
  await Promise.all([browser?.close(), sound?.close(), faulty?.close(), swallowing?.close()]);
});

interface Opened {
  page: Page;
  /** Every request the page made, in order. */
  requests: Request[];
  /** Content-Security-Policy violations and page errors. */
  problems: string[];
}

async function open(h: LearnerHarness, query: string, token = h.token): Promise<Opened> {
  const page = await browser.newPage();
  const requests: Request[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto(`${h.base}/learn/course-player/${COURSE}?token=${token}${query}`);
  await page.locator('[data-player]:is([data-state="ready"], [data-state="error"])').waitFor();
  return { page, requests, problems };
}

const colours = (page: Page) =>
  page.evaluate(() => {
    const bg = (selector: string) => getComputedStyle(document.querySelector(selector) as Element).backgroundColor;
    return { header: bg('[data-player-header]'), background: bg('[data-player]') };
  });

const saves = (requests: readonly Request[]) => requests.filter((r) => r.method() === 'PUT' && r.url().includes(`${API}/my-progress/`));

/** Plays the first lesson, revokes the token after the first save, and waits for the saves to stop or the dialog. */
async function playUntilRevoked(h: LearnerHarness, o: Opened): Promise<{ savesBefore: number; savesAfter: number }> {
  const firstSave = o.page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 200);
  await o.page.locator('[data-lesson-id] [data-play]').first().click();
  await firstSave;
  const refused = o.page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 401);
  h.token = await h.login('a');
  await refused;
  const savesBefore = saves(o.requests).length;
  // More than two save intervals (300 ms): a player that goes on saving has sent at least one more.
  await o.page.waitForTimeout(700);
  return { savesBefore, savesAfter: saves(o.requests).length - savesBefore };
}

describe('the course player in Chromium', () => {
  test('shows the lessons and tags, themed by the branding, loading nothing but its own origin', async () => {
    const { page, requests, problems } = await open(sound, '');
    expect(await page.locator('[data-lesson-id]').count()).toBe(3);
    expect(await page.locator('[data-tag]').allTextContents()).toHaveLength(3);
    expect(await colours(page)).toEqual({ header: rgb('#0b6e4f'), background: rgb('#f4efe6') });
    const logo = page.locator('img[data-logo]');
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(requests.every((r) => r.url().startsWith(sound.base))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  test('hideTags=false hides every tag; hideTags=true shows them', async () => {
    const hidden = await open(sound, '&hideTags=false');
    expect(await hidden.page.locator('[data-tag]').count()).toBe(0);
    const shown = await open(sound, '&hideTags=true');
    expect(await shown.page.locator('[data-tag]').count()).toBe(3);
    await Promise.all([hidden.page.close(), shown.page.close()]);
  });

  test('learner b (no branding) gets the default theme and no logo', async () => {
    const { page } = await open(sound, '', await sound.login('b'));
    expect(await colours(page)).toEqual({ header: rgb('#24292f'), background: rgb('#ffffff') });
    expect(await page.locator('img[data-logo]').count()).toBe(0);
    await page.close();
  });

  test('a revoked token mid-lesson: the Player Error dialog, and no save after it', async () => {
    const o = await open(sound, '');
    const { savesAfter } = await playUntilRevoked(sound, o);
    const dialog = o.page.getByRole('alertdialog');
    expect(await dialog.isVisible()).toBe(true);
    expect(await o.page.locator('#lpc-player-error-title').textContent()).toBe('Player Error');
    expect(await dialog.getAttribute('aria-labelledby')).toBe('lpc-player-error-title');
    expect(savesAfter).toBe(0);
    const progress = await sound.get(`/my-progress/${COURSE}`);
    expect((progress.obj.lessons as { progress: number }[])[0]?.progress).toBeGreaterThan(0);
    await o.page.close();
  });

  test('under the player faults the script shows tags with hideTags=false, hides them by default, ignores branding', async () => {
    const byDefault = await open(faulty, '');
    const hideFalse = await open(faulty, '&hideTags=false');
    expect(await byDefault.page.locator('[data-tag]').count()).toBe(0);
    expect(await hideFalse.page.locator('[data-tag]').count()).toBe(3);
    expect(await colours(byDefault.page)).toEqual({ header: rgb('#24292f'), background: rgb('#ffffff') });
    await Promise.all([byDefault.page.close(), hideFalse.page.close()]);
  });

  test('under the player faults the dialog has another title and saving goes on; swallowed, no dialog', async () => {
    const [o, quiet] = await Promise.all([open(faulty, ''), open(swallowing, '')]);
    const [{ savesAfter }] = await Promise.all([playUntilRevoked(faulty, o), playUntilRevoked(swallowing, quiet)]);
    expect(await o.page.locator('#lpc-player-error-title').textContent()).toBe('Playback error');
    expect(savesAfter).toBeGreaterThan(0);
    expect(await quiet.page.getByRole('alertdialog').count()).toBe(0);
    await Promise.all([o.page.close(), quiet.page.close()]);
  });
});
