// A target whose largest page is smaller than the harness's pages of 1000 (servers that are
// not ours): the profile declares `expectations.lists.maxLimit: 40`, and the target (the reference
// server behind a proxy) refuses a larger `_limit` with its documented 422, as such a server would
// (public-facts: a `_limit` above the maximum is refused). The Integration API checks must then read
// collections in pages of 40 and draw every limit within it: one deviation (a refused limit), one
// failure, in the check of that rule only.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, runCli, type CliResult } from '../support/cli.js';
import { PROXY_ENV, startProxied, type Proxied } from '../support/proxy.js';

const MAX_LIMIT = 40;

interface RunJson {
  checks: { id: string; status: string }[];
}

let proxied: Proxied;
let cli: CliResult;
let run: RunJson;
/** The checks that sent a `_limit` above MAX_LIMIT (`x-lpc-check`), and the pages past the first read at MAX_LIMIT. */
const over = new Set<string>();
let pagedAtMax = 0;

beforeAll(async () => {
  proxied = await startProxied({
    intercept: (req) => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const limit = url.searchParams.get('_limit');
      if (limit !== null && /^\d+$/.test(limit)) {
        if (Number(limit) > MAX_LIMIT) {
          over.add(String(req.headers['x-lpc-check']));
          // Out of the reference server's range (its maxLimit is 1000): it answers its own 422.
          url.searchParams.set('_limit', '1000000');
          req.url = `${url.pathname}${url.search}`;
        } else if (Number(limit) === MAX_LIMIT && Number(url.searchParams.get('_offset') ?? 0) > 0) pagedAtMax++;
      }
      return false;
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'lpc-max-limit-'));
  const reference = readFileSync(join(ROOT, 'fixtures/profiles/reference.yaml'), 'utf8');
  const declared = reference.replace(/^ {4}maxLimit: 1000$/m, `    maxLimit: ${MAX_LIMIT}`);
  expect(declared, 'the reference profile declares maxLimit: 1000').not.toBe(reference);
  writeFileSync(join(dir, 'max-40.yaml'), declared);
  // Every check of the two versions (the OAuth checks, whose issuer is the upstream's URL, aside).
  const only = ['intapi.v1.*', 'intapi.v2.*', 'intapi.versions.*'].flatMap((p) => ['--only', p]);
  cli = await runCli(
    [
      'run',
      '--target',
      proxied.url,
      '--profile',
      join(dir, 'max-40.yaml'),
      '--seed',
      '3',
      '--runs',
      '2',
      '--no-progress',
      '--json',
      join(dir, 'run.json'),
      ...only,
    ],
    { env: PROXY_ENV },
  );
  run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunJson;
});

afterAll(async () => {
  await proxied.close();
});

describe(`a profile that declares maxLimit ${MAX_LIMIT}, on a target that refuses more`, () => {
  test('every check passes: collections are read in pages of the declared maximum', () => {
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    expect(run.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
    expect(run.checks.length).toBeGreaterThan(500);
    // The harness read collections larger than a page, page by page at the maximum.
    expect(pagedAtMax).toBeGreaterThan(0);
  });

  test('only the check of the refusal sends a _limit above the maximum', () => {
    expect([...over].filter((id) => !id.endsWith('.params.limit-above-max'))).toEqual([]);
    expect([...over].length).toBeGreaterThan(0);
  });
});
