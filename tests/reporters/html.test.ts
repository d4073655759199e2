// The HTML report (--html): one self-contained page that renders in a real browser, filters by status
// and level, shows every failure's details, makes no request, and keeps a hostile body as text.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../reporters/html.js';
import { ChromiumUnavailableError, launchChromium, resolveChromium } from '../../src/browser/chromium.js';
import type { CheckResult, RunResult } from '../../src/runner/model.js';
import { runCli, type CliResult } from '../support/cli.js';
import { HOSTILE_RUN, MUST_FAILED, ORDINARY_RUN, redactSecret, SECRET, SKIPPED } from './run-results.js';

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
let browser: Browser;
let cli: Promise<CliResult>;

beforeAll(async () => {
  // The CLI run and the browser's start (and first unpacking) overlap.
  cli = runCli([
    'run',
    '--faults',
    'sort-ignored',
    '--only',
    'intapi.v2.templates.list',
    '--runs',
    '5',
    '--seed',
    '1',
    '--no-progress',
    '--junit',
    join(dir, 'j.xml'),
    '--html',
    join(dir, 'cli.html'),
  ]);
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
  it('renders the fixture run: figures, failure details, skipped reasons; filters by status and level', async () => {
    const file = join(dir, 'fixture.html');
    writeFileSync(file, renderHtml(FIXTURE, { redact: redactSecret }));
    const { page, requests, dialogs, problems, url } = await open(file);
    const total = FIXTURE.checks.length;
    const byStatus = (s: string) => FIXTURE.checks.filter((c) => c.status === s).length;

    expect(await page.locator('#verdict').textContent()).toBe('4 failed · 2 advisory');
    const figures = await page.locator('#figures').innerText();
    for (const text of ['checks\n9', 'requests\n15123', 'seed\n1392788', 'duration\n8.4 s', '1.5 s on 429 Retry-After (2 retries)'])
      expect(figures).toContain(text);

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
    expect(await page.getByText(`Skipped: ${SKIPPED.skipReason}`).isVisible()).toBe(true);

    expect(await visible(page)).toBe(total);
    expect(await page.locator('#shown').textContent()).toBe(`${total} of ${total} checks shown`);
    await page.getByLabel('failed').check();
    expect(await visible(page)).toBe(byStatus('failed'));
    expect(await visible(page, '.check[data-status="passed"]')).toBe(0);
    expect(await page.locator('#shown').textContent()).toBe(`${byStatus('failed')} of ${total} checks shown`);
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

  it('renders a real run with a fault: the failure blocks, and the failed filter hides the passed checks', async () => {
    const r = await cli;
    expect(r.code, r.stderr).toBe(1);
    const { page, requests, dialogs, problems, url } = await open(join(dir, 'cli.html'));
    const failed = await page.locator('.check[data-status="failed"]').count();
    const passed = await page.locator('.check[data-status="passed"]').count();
    expect(failed).toBeGreaterThan(0);
    expect(passed).toBeGreaterThan(0);

    const block = page.locator('.check', { hasText: 'intapi.v2.templates.list.sort.ascending' });
    expect(await block.locator('.badge').textContent()).toBe('FAIL');
    for (const text of [
      'Expected',
      'items ordered by _sort=id',
      'Counterexample (shrunk)',
      'curl -sS -i -X GET',
      '--only intapi.v2.templates.list.sort.ascending --seed 1 --path',
    ]) {
      expect(await block.getByText(text, { exact: false }).first().isVisible(), text).toBe(true);
    }
    expect(await page.locator('#figures').innerText()).toMatch(/seed\n1\n/);

    expect(await visible(page)).toBe(failed + passed);
    await page.getByLabel('failed').check();
    expect(await visible(page)).toBe(failed);
    expect(await visible(page, '.check[data-status="passed"]')).toBe(0);
    await page.getByLabel('passed').check();
    expect(await visible(page)).toBe(passed);
    await page.getByLabel('all').first().check();
    await page.getByLabel('PROFILE').check();
    expect(await visible(page)).toBe(await page.locator('.check[data-level="PROFILE"]').count());

    expect(dialogs).toEqual([]);
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await page.close();
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
    expect(html).toMatch(/…\(\d+ more chars\)/);
  });
});

describe('launchChromium', () => {
  it('says what to set when LPC_CHROMIUM names no executable', async () => {
    const missing = join(dir, 'no-such-chromium');
    await expect(resolveChromium({ LPC_CHROMIUM: missing })).rejects.toThrow(ChromiumUnavailableError);
    await expect(resolveChromium({ LPC_CHROMIUM: missing })).rejects.toThrow(`LPC_CHROMIUM=${missing} is not an executable file`);
    await expect(resolveChromium({ LPC_CHROMIUM: dir })).rejects.toThrow(/not an executable file \(not a file\)/);
  });
});
