// A reproduction that always runs: against a `serve` with faults on, a run whose failures include a
// request of 40,000 characters (a description at its 10,000-character bound) and an ordinary one.
// The reproduction pasted from the HTML report's Copy text, and from the JUnit failure text, is run
// by bash as a reader would, and the failing answer comes back. The long one is a script beside the
// reports (its body a file, sent byte for byte); no secret is written in any of them.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, runShell, serveCli, type CliResult } from '../support/cli.js';

const ENV = { LPC_API_KEY: 'repro-key-5c1e', LPC_USERNAME: 'lpc.admin', LPC_PASSWORD: 'repro-password-77d0', LPC_PRIVATE_KEY: 'repro-private-9a3b' };
const LONG = 'intapi.v2.submissions.create.description.accepts-bounds';
const SHORT = 'intapi.v2.templates.list.sort.ascending';

const dir = mkdtempSync(join(tmpdir(), 'lpc-repro-'));
let serve: Awaited<ReturnType<typeof serveCli>>;
let run: CliResult;

beforeAll(async () => {
  serve = await serveCli(['--faults', 'intapi.exclusive-bound:submissions.create.description,intapi.sort-ignored'], ENV);
  // From the folder the reader works in: the reports name their side files from there.
  run = await runCli(
    [
      'run',
      '--target',
      serve.url,
      '--only',
      LONG,
      '--only',
      SHORT,
      '--seed',
      '2',
      '--runs',
      '3',
      '--no-progress',
      '--junit',
      'reports/junit.xml',
      '--html',
      'reports/run.html',
    ],
    { cwd: dir, env: ENV },
  );
});

afterAll(async () => {
  await serve?.stop();
});

/** Runs pasted text with bash, in the reader's folder, with the credentials exported. */
const paste = (text: string): Promise<CliResult> => runShell(text, { cwd: dir, env: ENV });

const unescapeHtml = (html: string): string => html.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
const unescapeXml = (xml: string): string =>
  xml.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e] ?? '');

/** What the HTML report's Copy button of a check's reproduction copies: the text of the element it
 * names (its textContent: the words' spans without their tags). */
function htmlCopyText(check: string): string {
  const html = readFileSync(join(dir, 'reports/run.html'), 'utf8');
  const article = html.slice(html.indexOf(`<code class="id">${check}</code>`));
  const id = /<dt>Reproduce<\/dt><dd><div class="copyable"><pre class="cmd" id="(copy-\d+)">/.exec(article.slice(0, article.indexOf('</article>')))?.[1];
  expect(id, `${check}: a Reproduce with a Copy button`).toBeDefined();
  const inner = new RegExp(`<pre class="cmd" id="${id}">([\\s\\S]*?)</pre>`).exec(html)?.[1] ?? '';
  return unescapeHtml(inner.replace(/<[^>]*>/g, ''));
}

/** The Reproduce value of a check's JUnit failure text: its first line and the lines indented under it. */
function junitReproduction(check: string): string {
  const xml = readFileSync(join(dir, 'reports/junit.xml'), 'utf8');
  const testcase = xml.slice(xml.indexOf(`name="[${check}] `));
  const failure = unescapeXml(/<failure [^>]*>([^<]*)<\/failure>/.exec(testcase)?.[1] ?? '');
  const lines = failure.split('\n');
  const start = lines.findIndex((l) => l.startsWith('  Reproduce:  '));
  expect(start, `${check}: a Reproduce line in its JUnit failure`).toBeGreaterThanOrEqual(0);
  const indent = ' '.repeat('  Reproduce:  '.length);
  const value = [lines[start]!.slice(indent.length)];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith(indent)) break;
    value.push(l.slice(indent.length));
  }
  return value.join('\n');
}

/** The ids of a template list answer, in its order (the body after curl -i's headers). */
function listedIds(answer: string): string[] {
  const body = answer.slice(answer.lastIndexOf('\r\n\r\n') + 4);
  const items = (JSON.parse(body) as { templates: { id: string }[] }).templates;
  return items.map((t) => t.id);
}

describe('a failure whose request is too long to show', () => {
  test('the run fails on both checks, and writes the long request beside the reports as a script and a body', () => {
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const files = readdirSync(join(dir, 'reports/failures')).sort();
    expect(files).toEqual([`${LONG}.1.body`, `${LONG}.sh`]);
    expect(readFileSync(join(dir, 'reports/failures', `${LONG}.1.body`), 'utf8')).toMatch(/"description":"(?:[^"]){10000}"/u);
    for (const file of files)
      for (const secret of Object.values(ENV).filter((v) => v !== 'lpc.admin'))
        expect(readFileSync(join(dir, 'reports/failures', file), 'utf8')).not.toContain(secret);
    // The block shows the command that runs it, and a preview of the request naming the script.
    expect(run.stdout).toContain(`  Reproduce:  bash 'reports/failures/${LONG}.sh'\n`);
    expect(run.stdout).toMatch(
      new RegExp(`  Request:    curl -sS -i -X POST '[^']+/submissions' .*…\\(\\d+ more chars, \\d+ in all; in full: reports/failures/${LONG}\\.sh\\)\\n`),
    );
  });

  test.each([
    ['the HTML Copy text', htmlCopyText],
    ['the JUnit failure text', junitReproduction],
  ])('pasted from %s, it runs and the failing answer comes back: 422 for a description at its bound', async (_, reproduction) => {
    const text = reproduction(LONG);
    expect(text).toBe(`bash 'reports/failures/${LONG}.sh'`);
    const answer = await paste(text);
    expect(answer.code, answer.stderr).toBe(0);
    expect(answer.stdout).toMatch(/^HTTP\/1\.1 422 /m);
    expect(answer.stdout).toContain('description: must be fewer than 10000 characters');
  });
});

describe('a failure whose request is shown whole', () => {
  test.each([
    ['the HTML Copy text', htmlCopyText],
    ['the JUnit failure text', junitReproduction],
  ])('pasted from %s, the curl runs and the failing answer comes back: a page not in _sort order', async (_, reproduction) => {
    const text = reproduction(SHORT);
    expect(text).toMatch(/^LPC_TOKEN=\$\(curl [^\n]+\ncurl -sS -i -X GET '[^']+\/templates\?_sort=id&/);
    const answer = await paste(text);
    expect(answer.code, answer.stderr).toBe(0);
    expect(answer.stdout).toMatch(/^HTTP\/1\.1 200 /m);
    const ids = listedIds(answer.stdout);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids).not.toEqual([...ids].sort());
  });
});
