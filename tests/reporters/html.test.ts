// The HTML report (--html): one self-contained page that renders in a real browser, filters by status
// and level, shows every failure's details, makes no request, and keeps a hostile body as text.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../reporters/html.js';
import { ChromiumUnavailableError, launchChromium, resolveChromium } from '../../src/browser/chromium.js';
import type { CheckResult, RunResult } from '../../src/runner/base/model.js';
import { runCli, type CliResult } from '../support/cli.js';
import { HOSTILE_RUN, MUST_FAILED, ORDINARY_RUN, PASSED, redactSecret, SECRET, SKIPPED } from './run-results.js';

/** Would run if the page let it: a script, an event handler, and a request (the image). */
const PAYLOAD = `<script>alert('pwned')</script><img src="x.png" onerror="alert('img')">`;
const HOSTILE_BODY: CheckResult = {
  ...MUST_FAILED,
  id: 'hostile.body',
  area: 'hostile',
  title: `Title ${PAYLOAD}`,
  failure: {
    expected: 'a clean body',
    received: `${PAYLOAD} ${SECRET}`,
    replay: `lp-conformance run --only hostile.body --seed 1`,
    curl: `curl -d '${PAYLOAD}'`,
  },
};
const FIXTURE: RunResult = { ...ORDINARY_RUN, checks: [...ORDINARY_RUN.checks, HOSTILE_BODY], waited: { retryAfterMs: 1500, maxRpsMs: 0, retries: 2 } };

const dir = mkdtempSync(join(tmpdir(), 'lpc-html-'));
const PLAYER_CHECK = 'player.tags-visible-by-default';
let browser: Browser;
let cli: Promise<CliResult>;

beforeAll(async () => {
  // The CLI run and the browser's start (and first unpacking) overlap.
  // A player fault too: its check's screenshot is embedded in the page, and copied beside the JUnit report.
  cli = runCli(
    [
      'run',
      '--faults',
      'intapi.sort-ignored,player.tags-hidden-by-default',
      '--only',
      'intapi.v2.templates.list',
      '--only',
      PLAYER_CHECK,
      '--runs',
      '5',
      '--seed',
      '1',
      '--no-progress',
      '--junit',
      join(dir, 'j.xml'),
      '--html',
      join(dir, 'cli.html'),
    ],
    { cwd: dir },
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

interface Opened {
  page: Page;
  requests: string[];
  dialogs: string[];
  problems: string[];
  url: string;
}

/** Opens a report from disk, recording every request, dialog, CSP violation and page error. */
async function open(file: string): Promise<Opened> {
  const page = await browser.newPage();
  const url = pathToFileURL(file).href;
  const opened: Opened = { page, requests: [], dialogs: [], problems: [], url };
  page.on('request', (request) => opened.requests.push(request.url()));
  page.on('dialog', (dialog) => {
    opened.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => opened.problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') opened.problems.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { violations?: string[] }).violations ??= [];
      (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(url);
  return opened;
}

const visible = (page: Page, selector = '.check'): Promise<number> => page.locator(`${selector}:visible`).count();

describe('renderHtml in Chromium', () => {
  it('renders the fixture run: verdict, failure details, skipped reasons; opens on the failures; filters by status and level', async () => {
    const file = join(dir, 'fixture.html');
    writeFileSync(file, renderHtml(FIXTURE, { redact: redactSecret }));
    const { page, requests, dialogs, problems, url } = await open(file);
    const total = FIXTURE.checks.length;
    const byStatus = (s: string) => FIXTURE.checks.filter((c) => c.status === s).length;

    expect(await page.locator('#verdict').textContent()).toBe('FAILED: 4 checks fail the run (3 MUST, 1 PROFILE); 2 advisory (1 SHOULD, 1 MAY)');
    expect(await page.locator('#tally').textContent()).toBe('9 checks, 2 passed, 4 failed, 2 advisory, 1 skipped');
    // The areas with a failure at the top, with their counts; every area's counts a click away.
    expect(await page.locator('#failing-areas tbody tr').allInnerTexts()).toEqual([
      'intapi.v2.submissions\t1\t0\t0\t1\t1',
      'intapi.invariant\t1\t0\t0\t1\t0',
      'intapi.v2.errors\t0\t2\t0\t0\t0',
      'intapi.v2.lists\t1\t0\t0\t0\t0',
      'hostile\t1\t0\t0\t0\t0',
    ]);
    await page.locator('#run summary').click();
    const figures = await page.locator('#figures').innerText();
    for (const text of ['requests\n15123', 'seed\n1392788', 'duration\n8.4 s', '1.5 s on 429 Retry-After (2 retries)']) expect(figures).toContain(text);

    // It opens on the failures: the status filter starts at failed.
    expect(await visible(page)).toBe(byStatus('failed'));
    expect(await page.locator('#shown').textContent()).toBe(`${byStatus('failed')} of ${total} checks shown`);
    // The failure block: each field visible, the curl and replay in copyable blocks.
    const block = page.locator('.check', { hasText: MUST_FAILED.id });
    for (const text of [MUST_FAILED.failure?.expected, MUST_FAILED.failure?.counterexample, MUST_FAILED.failure?.replay, "-H 'x-api-version: 2'"]) {
      await expect
        .poll(() =>
          block
            .getByText(text ?? '', { exact: false })
            .first()
            .isVisible(),
        )
        .toBe(true);
    }
    await block.locator('button.copy').last().click();
    await expect.poll(() => block.locator('button.copy').last().textContent()).toMatch(/^(Copied|Selected)$/);
    // An RFC anchor links to the RFC's section; the specification's anchors stay text.
    expect(await page.locator('.check', { hasText: 'intapi.v2.errors.message-names-field' }).locator('a.spec').getAttribute('href')).toBe(
      'https://www.rfc-editor.org/rfc/rfc7644#section-3.12',
    );
    expect(await block.locator('a').count()).toBe(0);

    await page.getByLabel('all').first().check();
    expect(await visible(page)).toBe(total);
    expect(await page.getByText(`Skipped: ${SKIPPED.skipReason}`).isVisible()).toBe(true);
    expect(await page.locator('#shown').textContent()).toBe(`${total} of ${total} checks shown`);
    await page.getByLabel('failed').check();
    expect(await visible(page)).toBe(byStatus('failed'));
    expect(await visible(page, '.check[data-status="passed"]')).toBe(0);
    // Both filters at once: failed SHOULD checks only; an area with none left is hidden.
    await page.getByLabel('SHOULD').check();
    expect(await visible(page)).toBe(1);
    expect(await visible(page, '.area')).toBe(1);
    await page.getByLabel('all').first().check();
    expect(await visible(page)).toBe(FIXTURE.checks.filter((c) => c.level === 'SHOULD').length);
    await page.getByLabel('PROFILE').check();
    expect(await visible(page, '.check[data-level="PROFILE"]')).toBe(2);
    expect(await visible(page)).toBe(2);

    // The hostile body is text: shown literally, nothing ran, nothing was requested.
    await page.getByLabel('all').last().check();
    expect(await page.locator('.check', { hasText: 'hostile.body' }).getByText(PAYLOAD).first().isVisible()).toBe(true);
    expect(await page.evaluate(() => [document.scripts.length, document.images.length])).toEqual([1, 0]);
    expect(await page.content()).not.toContain(SECRET);
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([url]);
    expect(await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a run of 826 checks with failures deep in it opens on them: the first failure within the first screen', async () => {
    // The size of a default run: 46 areas of 18 checks, the failures in the last areas.
    const checks: CheckResult[] = Array.from({ length: 826 }, (_, i) => ({
      ...PASSED,
      id: `intapi.v2.area${Math.floor(i / 18)}.check${i}`,
      area: `intapi.v2.area${Math.floor(i / 18)}`,
    }));
    for (const i of [700, 760, 800]) checks[i] = { ...MUST_FAILED, id: checks[i]!.id, area: checks[i]!.area };
    const file = join(dir, 'large.html');
    writeFileSync(file, renderHtml({ ...ORDINARY_RUN, checks }));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(pathToFileURL(file).href);
    const top = await page
      .locator('.check[data-status="failed"]')
      .first()
      .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    expect(top).toBeLessThan(800);
    expect(await visible(page)).toBe(3);
    await page.close();
  });

  it('reads on a phone: at 400 px no sideways scroll, commands wrap only between their words', async () => {
    const file = join(dir, 'phone.html');
    writeFileSync(file, renderHtml(FIXTURE, { redact: redactSecret }));
    const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
    await page.goto(pathToFileURL(file).href);
    // Every check and every area's counts shown, the run's figures too.
    await page.getByLabel('all').first().check();
    await page.locator('#all-areas summary').click();
    await page.locator('#run summary').click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    // Each word of a command (`--only`, an id, a URL) on one line: no word is broken.
    const words = await page.locator('pre.cmd .w').evaluateAll((spans) => spans.map((s) => ({ text: s.textContent, lines: s.getClientRects().length })));
    expect(words.length).toBeGreaterThan(0);
    expect(words.filter((w) => w.lines > 1)).toEqual([]);
    expect(words.map((w) => w.text)).toContain('--only');
    // The copy button still copies the command as it is: its text has no mark-up of its own.
    const texts = await page.locator('pre.cmd').allTextContents();
    expect(texts.some((t) => /^lp-conformance run --only \S+ --seed \d+/.test(t))).toBe(true);
    await page.close();
  });

  it('renders a real run with faults: opens on the failures, the failure blocks, the screenshot embedded', async () => {
    const r = await cli;
    expect(r.code, r.stderr).toBe(1);
    const { page, requests, dialogs, problems, url } = await open(join(dir, 'cli.html'));
    const failed = await page.locator('.check[data-status="failed"]').count();
    const passed = await page.locator('.check[data-status="passed"]').count();
    expect(failed).toBeGreaterThan(0);
    expect(passed).toBeGreaterThan(0);
    expect(await visible(page)).toBe(failed);

    const block = page.locator('.check', { hasText: 'intapi.v2.templates.list.sort.ascending' });
    expect(await block.locator('.badge').textContent()).toBe('FAIL');
    for (const text of [
      'Expected',
      'items ordered by _sort=id',
      'Counterexample (shrunk)',
      'curl -sS -i -X GET',
      'lp-conformance run --faults intapi.sort-ignored,player.tags-hidden-by-default --runs 5',
      '--only intapi.v2.templates.list.sort.ascending --seed 1 --path',
    ]) {
      expect(await block.getByText(text, { exact: false }).first().isVisible(), text).toBe(true);
    }
    // The player check's screenshot, in the page (a data: image, which the policy allows), drawn.
    const shot = page.locator('.check', { hasText: PLAYER_CHECK }).locator('img');
    expect(await shot.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.locator('#run summary').click();
    expect(await page.locator('#figures').innerText()).toMatch(/seed\n1\n/);

    await page.getByLabel('all').first().check();
    expect(await visible(page)).toBe(failed + passed);
    await page.getByLabel('passed').check();
    expect(await visible(page)).toBe(passed);
    await page.getByLabel('all').first().check();
    await page.getByLabel('PROFILE').check();
    expect(await visible(page)).toBe(await page.locator('.check[data-level="PROFILE"]').count());

    expect(dialogs).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('data:'))).toEqual([url]);
    expect(await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the screenshot goes beside the JUnit report that names it, not to the working directory', async () => {
    await cli;
    const junit = readFileSync(join(dir, 'j.xml'), 'utf8');
    const named = /\[\[ATTACHMENT\|([^\]]+)\]\]/.exec(junit)?.[1];
    expect(named).toBe(`failures/${PLAYER_CHECK}.1.png`);
    expect(readFileSync(join(dir, named!)).subarray(1, 4).toString()).toBe('PNG');
    expect(existsSync(join(dir, 'reports'))).toBe(false);
  });
});

describe('renderHtml as text', () => {
  it('escapes and redacts every string of a hostile run: one script (its own), no secret, no raw markup', () => {
    const html = renderHtml({ ...HOSTILE_RUN, checks: [...HOSTILE_RUN.checks, HOSTILE_BODY] }, { redact: redactSecret });
    expect(html).not.toContain(SECRET);
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).not.toMatch(/<img\b|<\/failure>|<!\[CDATA\[/);
    expect(html).toContain('&#60;script&#62;alert(&#39;pwned&#39;)&#60;/script&#62;');
    expect(html).toContain('\\u001B[31mred');
    // The 1 MB body is cut to the field bound.
    expect(html.length).toBeLessThan(200_000);
    expect(html).toMatch(/…\(\d+ more chars, \d+ in all; in full: the JSON report \(--json\)\)/);
  });
});

describe('launchChromium', () => {
  it('says what to set when LPC_CHROMIUM names no executable', async () => {
    const missing = join(dir, 'no-such-chromium');
    await expect(resolveChromium({ LPC_CHROMIUM: missing })).rejects.toThrow(ChromiumUnavailableError);
    await expect(resolveChromium({ LPC_CHROMIUM: missing })).rejects.toThrow(`LPC_CHROMIUM=${missing} is not an executable file`);
    await expect(resolveChromium({ LPC_CHROMIUM: dir })).rejects.toThrow(/not an executable file \(not a file\)/);
  });

  it("starts the bundled binary with the page's defences and without an emulated GPU", async () => {
    const { args, source } = await resolveChromium({});
    expect(source).toBe('@sparticuz/chromium');
    for (const dropped of ['--disable-web-security', '--allow-running-insecure-content', '--single-process', '--use-angle=swiftshader', '--in-process-gpu']) {
      expect(args).not.toContain(dropped);
    }
    expect(args).toContain('--disable-gpu');
    expect(args).toContain('--no-sandbox');
  });
});
