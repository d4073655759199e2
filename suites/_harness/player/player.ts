/**
 * The course player in headless Chromium (src/browser/chromium.ts): ONE browser per run, launched
 * by the first player check that needs it and shared by every player check of every target of the
 * run (a launch costs seconds); closed when the run ends (afterRun). The page comes from the
 * profile's `player` (URL template, selectors, default theme); `player: none` skips the checks, and
 * so does a missing browser, with the one line that says how to get one.
 *
 * The page source carries the portal's x-api-key and the learner token: nothing of the page's HTML
 * goes into a report, only the check's own expected/received lines (redacted) and, on a failure, a
 * screenshot of the page (in the run's attachments folder; each report copies it beside itself).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { CHROMIUM_ENV, ChromiumUnavailableError, launchChromium } from '../../../src/browser/chromium.js';
import { playerPageUrl, type PlayerTarget } from '../../../src/families/player/profile.js';
import { chromiumTlsArgs } from '../../../src/target/tls.js';
import { matrixConfig } from '../config.js';
import { afterRun } from '../registry.js';
import { CheckFailure, expectStatus } from '../failure.js';
import { walk } from '../learner/api.js';
import type { CheckContext } from '../requirement.js';

let browser: Promise<Browser> | undefined;

/** The run's browser, launched at the first call. A launch that failed is not tried again. */
function sharedBrowser(): Promise<Browser> {
  // The page's certificate is verified as the run says (`--ca`, `--insecure`).
  browser ??= launchChromium({ args: chromiumTlsArgs(matrixConfig().tls) });
  return browser;
}

/** Closes the browser if one was launched: after the run, as loading this module arranges. */
async function closePlayerBrowser(): Promise<void> {
  const launched = browser;
  browser = undefined;
  const b = await launched?.catch(() => undefined);
  await b?.close().catch(() => undefined);
}

// One browser a run: closed when the run's checks have all ended.
afterRun(closePlayerBrowser);

/** Where failure screenshots go without a run's attachments folder (RunConfig.attachmentsDir). */
const FALLBACK_ATTACHMENTS_DIR = join(tmpdir(), 'lp-conformance-attachments');
let shots = 0;

export interface Course {
  id: string;
  tags: string[];
  lessons: string[];
}

export interface PlayerSession {
  target: PlayerTarget;
  browser: Browser;
  course: Course;
}

/** The course the player checks open: records.playerCourseId, else the first catalog course with tags and lessons. */
async function playerCourse(t: CheckContext): Promise<Course> {
  const read = async (id: string): Promise<Course> => {
    const res = await t.http.send({ op: 'learner.courses.get', params: { courseId: id } });
    expectStatus(res, 200);
    const body = res.json as { tags?: unknown[]; lessons?: { id?: unknown }[] };
    return { id, tags: (body.tags ?? []).map(String), lessons: (body.lessons ?? []).map((l) => String(l.id)) };
  };
  const named = t.profile.records.playerCourseId;
  if (named) return read(named);
  for (const item of (await walk(t, 'learner.catalog.list')).items.slice(0, 20)) {
    const course = await read(String(item.id));
    if (course.tags.length > 0 && course.lessons.length > 0) return course;
  }
  return t.skip('no course among the first 20 of the catalog has tags and lessons (name one as records.playerCourseId)');
}

/** The profile's player, the browser and the course; skips on `player: none` or without a browser. */
export async function playerSession(t: CheckContext): Promise<PlayerSession> {
  const target = t.profile.player;
  if (target === 'none') t.skip('the profile says the target has no course player (player: none)');
  if (t.profile.families.learner.none) t.skip('the profile says the target has no learner API (families.learner: none), whose page the course player is');
  let b: Browser;
  try {
    b = await sharedBrowser();
  } catch (error) {
    if (error instanceof ChromiumUnavailableError) {
      const how = error.message.includes(`set ${CHROMIUM_ENV}`)
        ? ''
        : `; set ${CHROMIUM_ENV} to a Chromium or Chrome executable, or unset it for the one npm ci installs`;
      t.skip(`no browser for the player checks: ${error.message}${how}`);
    }
    throw error;
  }
  return { target, browser: b, course: await playerCourse(t) };
}

export interface OpenPage {
  page: Page;
  /** Every request the page made, in order. */
  requests: Request[];
  status: number | undefined;
}

/** The player page URL for a course and token, `extra` appended to the query (`hideTags=false`). */
export function playerUrl(t: CheckContext, target: PlayerTarget, courseId: string, token: string, extra = ''): string {
  const url = playerPageUrl(target, t.profile.families.intapi.baseUrl, courseId, token);
  return extra ? `${url}${url.includes('?') ? '&' : '?'}${extra}` : url;
}

/**
 * Opens the player, runs `body` on it, and closes it. `ready`: waits for the lessons (or the error
 * dialog) first. A failure (the check's own, or a wait that ran out) gets a screenshot of the page.
 */
export async function withPlayer<T>(
  t: CheckContext,
  s: PlayerSession,
  checkId: string,
  open: { token: string; extra?: string; ready?: boolean },
  body: (p: OpenPage) => Promise<T>,
): Promise<T> {
  const page = await s.browser.newPage();
  const requests: Request[] = [];
  page.on('request', (r) => requests.push(r));
  try {
    const res = await page.goto(playerUrl(t, s.target, s.course.id, open.token, open.extra), { timeout: t.config.timeoutMs });
    const opened = { page, requests, status: res?.status() };
    if (open.ready !== false) {
      const sel = s.target.selectors;
      await page.locator(`${sel.lesson}, ${sel.errorDialog}`).first().waitFor({ timeout: t.config.timeoutMs });
    }
    return await body(opened);
  } catch (error) {
    const failure =
      error instanceof CheckFailure
        ? error
        : new CheckFailure(
            'the player page to show what the check waits for',
            t.secrets.redact((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''),
          );
    try {
      const dir = t.config.attachmentsDir ?? FALLBACK_ATTACHMENTS_DIR;
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${checkId}-${process.pid}-${++shots}.png`);
      await page.screenshot({ path, timeout: 5000 });
      failure.attachments = [...(failure.attachments ?? []), path];
    } catch {
      // No screenshot: the failure stands without one.
    }
    throw failure;
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** `#rrggbb` as the `rgb(r, g, b)` a computed style reports. */
export function rgbOf(hex: string): string {
  const n = Number.parseInt(hex.replace(/^#/, ''), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
