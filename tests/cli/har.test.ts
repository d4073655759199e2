// `--har FILE` writes the run's exchanges as HAR 1.2, valid against the HAR schema (har-schema, the
// schema har-validator uses, compiled with ajv), secrets replaced by their variable names as in every
// report; `--har-failures` keeps only the exchanges of the checks that failed. The target is the
// reference server (with a fault, so that a check fails) behind the counting proxy.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { PROXY_CREDENTIALS, PROXY_ENV, startProxied, type Proxied } from '../support/proxy.js';

const require = createRequire(import.meta.url);
const FAILING = 'intapi.auth.wrong-key-401.templates';
const PASSING = ['intapi.v2.templates.list.paging.walk-once', 'intapi.v2.submissions.create.title.accepts-bounds'];
const ONLY = ['--only', [FAILING, ...PASSING].join(','), '--runs', '3', '--seed', '6'];

interface HarEntry {
  _check: string;
  request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { text: string } };
  response: { status: number };
}
interface HarFile {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] };
}

/** The HAR 1.2 schema of har-schema (JSON Schema draft-06, one file per object, each by its `$id`). */
function harValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajvFormats.default(ajv);
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  const schemas = require('har-schema') as Record<string, object>;
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#') as ReturnType<Ajv['compile']>;
}

let proxied: Proxied;
const dir = mkdtempSync(join(tmpdir(), 'lpc-har-'));
let all: CliResult;
let failures: CliResult;

beforeAll(async () => {
  proxied = await startProxied({ faults: ['intapi.accept-wrong-api-key'] });
  const run = (name: string, more: string[]) =>
    runCli(['run', '--target', proxied.url, ...ONLY, '--no-progress', '--junit', join(dir, `${name}.xml`), '--har', join(dir, `${name}.har`), ...more], {
      env: PROXY_ENV,
    });
  all = await run('all', []);
  failures = await run('failures', ['--har-failures']);
});

afterAll(async () => {
  await proxied.close();
});

const harOf = (name: string) => JSON.parse(readFileSync(join(dir, `${name}.har`), 'utf8')) as HarFile;

describe('--har FILE', () => {
  test('is HAR 1.2, valid against the HAR schema, with every exchange of the run', () => {
    expect(all.code, `${all.stdout}\n${all.stderr}`).toBe(1);
    const har = harOf('all');
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    // The schema holds: an entry without its timings is no HAR.
    const broken = { log: { ...har.log, entries: har.log.entries.map(({ timings: _t, ...e }: HarEntry & { timings?: unknown }) => e) } };
    expect(validate(broken)).toBe(false);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('lp-conformance');
    const checks = new Set(har.log.entries.map((e) => e._check));
    expect([...checks].sort()).toEqual([FAILING, ...PASSING].sort());
    expect(har.log.entries.some((e) => e.request.method === 'POST' && e.request.postData !== undefined && e.response.status === 201)).toBe(true);
    expect(all.stdout).toContain(`HAR: ${har.log.entries.length} exchanges written to ${join(dir, 'all.har')}`);
  });

  test('holds no secret: each is its variable', () => {
    for (const name of ['all', 'failures']) {
      const text = readFileSync(join(dir, `${name}.har`), 'utf8');
      for (const secret of Object.values(PROXY_CREDENTIALS)) expect(text, name).not.toContain(secret);
    }
    const headers = harOf('all').log.entries.flatMap((e) => e.request.headers);
    expect(headers).toContainEqual({ name: 'x-api-key', value: '${LPC_API_KEY}' });
    const bearer = headers.filter((h) => h.name === 'authorization').map((h) => h.value);
    expect(bearer.length).toBeGreaterThan(0);
    // The session token is the run's secret too: shown as its variable.
    expect(bearer.every((v) => /^Bearer \$\{[A-Z_]+\}$/.test(v))).toBe(true);
  });

  test('--har-failures: only the exchanges of the checks that failed', () => {
    expect(failures.code).toBe(1);
    const har = harOf('failures');
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(har.log.entries.length).toBeGreaterThan(0);
    expect(new Set(har.log.entries.map((e) => e._check))).toEqual(new Set([FAILING]));
    expect(failures.stdout).toMatch(/HAR: \d+ exchanges? of the failed checks written to /);
  });

  test('--har-failures without --har is exit 2, one line', async () => {
    const r = await runCli(['run', '--har-failures', '--only', FAILING]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("lp-conformance: --har-failures keeps the failing checks' exchanges of --har FILE: give --har FILE");
  });
});
