// A SCIM fixture refused with an answer that names an attribute (docs/scim.md): the check learns it,
// tries once more with it, and, refused again, ends "not set up" naming both requests and answers.
// Here the target (the reference server behind a proxy) refuses every POST /Users with 400
// invalidValue naming emails, whatever the body carries: the minimal user's check fails (its rule),
// the checks that need a valid user are not set up, and their cause says both tries.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli, type CliResult } from '../../support/cli.js';
import { PROXY_ENV, startProxied, type Proxied } from '../../support/proxy.js';

const SCIM_TOKEN = 'lpc-learning-scim-token-51c2';
const DETAIL = 'emails must contain an email when userName is not an email address';
const REFUSAL = { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType: 'invalidValue', detail: DETAIL };

interface RunJson {
  checks: { id: string; status: string; notSetUp?: { request: string; answer: string; what: string }; failure?: unknown }[];
}

let proxied: Proxied;
let cli: CliResult;
let run: RunJson;
const bodies: string[] = [];

beforeAll(async () => {
  proxied = await startProxied({
    scimToken: SCIM_TOKEN,
    intercept: (req, res, _n, body) => {
      if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://proxy').pathname !== '/scim/v2/Users') return false;
      bodies.push(body);
      res.writeHead(400, { 'content-type': 'application/scim+json' }).end(JSON.stringify(REFUSAL));
      return true;
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'lpc-learning-'));
  const only = ['scim.users.create-201', 'scim.users.create-location'].flatMap((id) => ['--only', id]);
  cli = await runCli(['run', '--target', proxied.url, '--seed', '5', '--runs', '1', '--no-progress', '--json', join(dir, 'run.json'), ...only], {
    env: { ...PROXY_ENV, LPC_SCIM_TOKEN: SCIM_TOKEN },
  });
  run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunJson;
});

afterAll(() => proxied.close());

test('the minimal user is judged once, without what a refusal taught', () => {
  expect(cli.code, cli.stdout).toBe(1);
  expect(run.checks.find((c) => c.id === 'scim.users.create-201')?.status).toBe('failed');
});

test('a check needing a valid user tries once more with the attribute the refusal named, then is not set up, naming both tries', () => {
  const check = run.checks.find((c) => c.id === 'scim.users.create-location');
  expect(check?.status, JSON.stringify(check)).toBe('skipped');
  expect(check?.notSetUp?.answer).toMatch(
    /^POST \/scim\/v2\/Users answered 400 .*emails must contain.*; tried again with emails, POST \/scim\/v2\/Users answered 400 /,
  );
  // The second try carried a unique e-mail under the run's marker; the minimal user and the first try none.
  const withEmail = bodies.filter((b) => /"emails":\[\{"value":"lpc-[0-9a-f]+-req-[0-9a-f]{8}@example\.com"/.test(b));
  expect(withEmail).toHaveLength(1);
  expect(bodies).toHaveLength(3);
});
