// What a report cannot hold goes beside it (reporters/side-files.ts): a reproduction too long to show
// as a script whose bodies are files (byte for byte, quotes and all), a failure cut in the reports
// uncut, and nothing for a failure the reports show whole.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFailureBlock, NO_PAINT, PREVIEW_CHARS } from '../../reporters/failure-block.js';
import { fileNameOf, reproductionScript, writeSideFiles } from '../../reporters/side-files.js';
import { makeCleaner } from '../../reporters/text.js';
import { renderCurl } from '../../src/target/base/curl.js';
import type { CheckResult } from '../../src/runner/base/model.js';
import { baseRun, MUST_FAILED, PASSED, redactSecret, SECRET } from './run-results.js';

const BODY = `{"title":"it's a \\"quote\\" ${'x'.repeat(3000)}","emoji":"😀"}`;
const LONG: CheckResult = {
  ...MUST_FAILED,
  id: 'intapi.v2.submissions.create.long',
  failure: {
    ...MUST_FAILED.failure!,
    expected: `201 for ${'e'.repeat(PREVIEW_CHARS + 500)}`,
    curl: `LPC_TOKEN=x\n${renderCurl({ method: 'POST', url: 'http://127.0.0.1:9/submissions', headers: { 'x-api-key': { env: 'LPC_API_KEY' } }, body: BODY })}`,
  },
};

describe('reproductionScript', () => {
  it('moves each --data-raw body into a file the script sends with --data-binary, unquoted exactly', () => {
    const { script, bodies } = reproductionScript(LONG, LONG.failure!.curl!, (n) => `b.${n}.body`);
    expect(bodies).toEqual([BODY]);
    expect(script).toContain(`--data-binary @"$here/b.1.body"`);
    expect(script).not.toContain('--data-raw');
    expect(script).toMatch(/^#!\/usr\/bin\/env bash\n/);
    expect(script).toContain('\nLPC_TOKEN=x\ncurl -sS -i -X POST ');
    // It is a bash script: it parses.
    const dir = mkdtempSync(join(tmpdir(), 'lpc-side-'));
    const file = join(dir, 's.sh');
    writeFileSync(file, script);
    expect(() => execFileSync('bash', ['-n', file])).not.toThrow();
    // An id or title from a hand-edited run stays inside its comment line.
    const hostile = reproductionScript({ ...LONG, id: 'x\ntouch pwned', title: 't\r\nrm -rf y' }, 'curl', () => 'b');
    expect(hostile.script.split('\n').filter((l) => /touch pwned|rm -rf y/.test(l) && !l.startsWith('# '))).toEqual([]);
  });
});

describe('writeSideFiles', () => {
  it('writes the script and body of a long reproduction, and the uncut failure of a cut one; names them from the working directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpc-side-'));
    const index = writeSideFiles(baseRun([LONG, MUST_FAILED, PASSED]), join(dir, 'reports'), { cwd: dir });
    expect(readdirSync(join(dir, 'reports/failures')).sort()).toEqual([`${LONG.id}.1.body`, `${LONG.id}.sh`, `${LONG.id}.txt`]);
    expect(index.get(LONG.id)).toEqual({ script: `reports/failures/${LONG.id}.sh`, text: `reports/failures/${LONG.id}.txt`, attachments: [] });
    expect(index.has(MUST_FAILED.id)).toBe(false);
    expect(readFileSync(join(dir, 'reports/failures', `${LONG.id}.1.body`), 'utf8')).toBe(BODY);
    // The uncut failure: every character of Expected, and the curl whole.
    const text = readFileSync(join(dir, 'reports/failures', `${LONG.id}.txt`), 'utf8');
    expect(text).toContain(LONG.failure!.expected);
    expect(text).toContain(`--data-raw '`);
    // What the reports show: a preview naming that file, the command that runs the script.
    const block = formatFailureBlock(LONG, {
      clean: makeCleaner({ maxFieldChars: 4096, maxLineChars: 400 }),
      paint: NO_PAINT,
      strict: false,
      side: index.get(LONG.id)!,
    });
    expect(block).toContain(`…(508 more chars, ${PREVIEW_CHARS + 508} in all; in full: reports/failures/${LONG.id}.txt)`);
    expect(block).toContain(`  Reproduce:  bash 'reports/failures/${LONG.id}.sh'\n`);
    expect(block).toMatch(
      / {2}Request: {4}curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:9\/submissions' -H "x-api-key: \$\{LPC_API_KEY\}" --data-raw .*…\(\d+ more chars, \d+ in all; in full: reports\/failures\/intapi\.v2\.submissions\.create\.long\.sh\)\n/,
    );
  });

  it('redacts what it writes, and names files outside the working directory by their absolute path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpc-side-'));
    const leaky: CheckResult = { ...LONG, failure: { ...LONG.failure!, curl: `${LONG.failure!.curl!} -H 'x: ${SECRET}'` } };
    const index = writeSideFiles(baseRun([leaky]), dir, { redact: redactSecret, cwd: join(dir, 'elsewhere') });
    for (const f of readdirSync(join(dir, 'failures'))) expect(readFileSync(join(dir, 'failures', f), 'utf8')).not.toContain(SECRET);
    expect(index.get(LONG.id)?.script).toBe(join(dir, 'failures', `${LONG.id}.sh`));
  });

  it('makes a file name of any id', () => {
    expect(fileNameOf('intapi.v2.a-b_c')).toBe('intapi.v2.a-b_c');
    expect(fileNameOf('../x/y z')).toBe('__x_y_z');
  });
});

describe('writeReports names what it wrote', () => {
  it('each report and the side-file folder beside them, in the order written; a report that cannot be written is named with why, the others still written', async () => {
    const { writeReports } = await import('../../reporters/write.js');
    const dir = mkdtempSync(join(tmpdir(), 'lpc-side-'));
    writeFileSync(join(dir, 'a-file'), '');
    const { summary, reports } = writeReports(baseRun([LONG, PASSED]), {
      junit: join(dir, 'j.xml'),
      json: join(dir, 'a-file', 'r.json'),
      html: join(dir, 'r.html'),
    });
    expect(reports).toEqual([
      { kind: 'Side files', path: join(dir, 'failures') },
      { kind: 'JUnit report', path: join(dir, 'j.xml') },
      // A folder that is a file takes neither the report nor its side files.
      { kind: 'Side files', path: join(dir, 'a-file', 'failures'), error: expect.stringMatching(/^E[A-Z]+$/) },
      { kind: 'JSON report', path: join(dir, 'a-file', 'r.json'), error: expect.stringMatching(/^E[A-Z]+$/) },
      { kind: 'HTML report', path: join(dir, 'r.html') },
    ]);
    expect(readdirSync(join(dir, 'failures')).length).toBeGreaterThan(0);
    expect(summary).toContain(LONG.id);
  });
});
