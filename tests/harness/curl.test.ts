import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { renderTokenPreamble } from '../../src/families/intapi/auth.js';
import { renderCurl, shellQuote } from '../../src/target/base/curl.js';

describe('curl lines', () => {
  test('single-quoting survives any text through a real shell', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0')),
        (text) => {
          expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`]).toString()).toBe(text);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('secret headers are variables the shell expands; literals are quoted', () => {
    const line = renderCurl({
      method: 'POST',
      url: "http://127.0.0.1:8080/submissions?_filter=title eq 'a'",
      headers: { 'x-api-version': '2', 'x-api-key': { env: 'LPC_API_KEY' }, authorization: { env: 'LPC_TOKEN', prefix: 'Bearer ' } },
      body: `{"title":"it's"}`,
    });
    expect(line).toContain(`-H "x-api-key: \${LPC_API_KEY}"`);
    expect(line).toContain(`-H "authorization: Bearer \${LPC_TOKEN}"`);
    expect(line).toContain(`--data-raw '{"title":"it'\\''s"}'`);
    // The shell sees the secrets only through the environment.
    const argv = execFileSync('sh', ['-c', `set -- ${line.replace(/^curl/, '').replace(/\\\n/g, ' ')}; for a; do printf '%s\\n' "$a"; done`], {
      env: { LPC_API_KEY: 'k-123', LPC_TOKEN: 't-456', PATH: process.env.PATH },
    }).toString();
    expect(argv).toContain('x-api-key: k-123');
    expect(argv).toContain('authorization: Bearer t-456');
    expect(argv).toContain(`{"title":"it's"}`);
  });

  test('the token line names every credential by its variable', () => {
    const line = renderTokenPreamble({
      url: 'http://h/authenticate',
      tokenVar: 'LPC_TOKEN',
      apiKeyVar: 'K',
      usernameVar: 'U',
      passwordVar: 'P',
      privateKeyVar: 'Q',
    });
    for (const name of ['${K}', '${U}', '${P}', '${Q}']) expect(line).toContain(name);
    expect(line).toMatch(/^LPC_TOKEN=\$\(curl /);
  });
});
