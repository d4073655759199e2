// "Not set up": a check whose fixture the target refuses neither passes nor fails its
// rule. It ends skipped, naming the refused request and the answer, in every report, and the run
// counts such outcomes once per cause. Here the target (the reference server behind a proxy) refuses
// every POST /Users with 409 uniqueness, as a server whose emails must be unique refuses a second
// user with an address it holds: the create check fails (the create is its rule), the checks that
// only create users to work on are not set up.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, runCli, type CliResult } from '../support/cli.js';
import { PROXY_ENV, startProxied, type Proxied } from '../support/proxy.js';

const SCIM_TOKEN = 'lpc-outcomes-scim-token-7f3a';
const REFUSAL = { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '409', scimType: 'uniqueness', detail: 'The email is already taken.' };
const NOT_SET_UP = ['scim.users.duplicate-409', 'scim.users.username-unique-case-insensitive', 'scim.users.put-null-clears'];

interface RunJson {
  checks: { id: string; status: string; skipReason?: string; notSetUp?: { request: string; answer: string; what: string; key: string } }[];
}

let proxied: Proxied;
let cli: CliResult;
let run: RunJson;
let junit: string;

beforeAll(async () => {
  proxied = await startProxied({
    scimToken: SCIM_TOKEN,
    intercept: (req, res) => {
      if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://proxy').pathname !== '/scim/v2/Users') return false;
      res.writeHead(409, { 'content-type': 'application/scim+json' }).end(JSON.stringify(REFUSAL));
      return true;
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'lpc-outcomes-'));
  const only = ['scim.users.create-201', ...NOT_SET_UP].flatMap((id) => ['--only', id]);
  cli = await runCli(
    [
      'run',
      '--target',
      proxied.url,
      '--seed',
      '5',
      '--runs',
      '2',
      '--no-progress',
      '--junit',
      join(dir, 'junit.xml'),
      '--json',
      join(dir, 'run.json'),
      ...only,
    ],
    { env: { ...PROXY_ENV, LPC_SCIM_TOKEN: SCIM_TOKEN } },
  );
  run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunJson;
  junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
});

afterAll(async () => {
  await proxied.close();
});

describe('a check whose fixture the target refuses is "not set up"', () => {
  test('the create check fails its own rule; the others are skipped as not set up, naming the request and the answer', () => {
    expect(cli.code, cli.stderr).toBe(1);
    const byId = new Map(run.checks.map((c) => [c.id, c]));
    expect(byId.get('scim.users.create-201')?.status).toBe('failed');
    for (const id of NOT_SET_UP) {
      const check = byId.get(id);
      expect(check?.status, id).toBe('skipped');
      expect(check?.notSetUp).toMatchObject({ request: 'POST /scim/v2/Users', what: 'a user to work on', key: 'POST /scim/v2/Users answered 409 uniqueness' });
      expect(check?.notSetUp?.answer).toMatch(/^409 .*The email is already taken/);
      expect(check?.skipReason).toMatch(/^not set up: POST \/scim\/v2\/Users answered 409 /);
    }
  });

  test('the console counts the outcomes once per cause', () => {
    const lines = cli.stdout.split('\n').filter((l) => l.startsWith('NOT SET UP'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('POST /scim/v2/Users answered 409 uniqueness');
    expect(lines[0]).toContain(`${NOT_SET_UP.length} checks`);
    expect(cli.stdout).toMatch(new RegExp(`${NOT_SET_UP.length} skipped \\(${NOT_SET_UP.length} not set up by 1 cause\\)`));
  });

  test('JUnit reports them skipped, with the refused request in the message', () => {
    const testcase = new RegExp(`<testcase[^>]*scim\\.users\\.duplicate-409[^>]*>\\s*<skipped message="not set up: POST /scim/v2/Users answered 409`);
    expect(junit).toMatch(testcase);
  });

  test('the JSON report stays valid against reports/run.schema.json', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    ajvFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'reports/run.schema.json'), 'utf8')) as object);
    expect(validate(run), JSON.stringify(validate.errors)).toBe(true);
  });
});
