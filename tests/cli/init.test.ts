// `lp-conformance init`: from a URL to a working profile. Against `serve --id-seed 7`, whose records
// no profile knows, init finds them through the API and the run with the profile it wrote passes,
// skipping only what init says it could not find; the same at --scale 100000; a target without SCIM
// or a learner API gets a profile whose run skips those families by name; init reads unless
// --probe-writes, which says what it created.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, mergeServerOptions, SANDBOX, sandboxOptions } from '../../reference-impl/index.js';
import { loadProfile } from '../../src/profile/index.js';
import type { RunResult } from '../../src/runner/base/model.js';
import { PROXY_CREDENTIALS, PROXY_ENV, startProxied, type Proxied } from '../support/proxy.js';
import { runCli, serveCli } from '../support/cli.js';
import { declaredChoice } from '../support/skips.js';

/** The sandbox of `serve`, in the variables of every family. */
const SERVE_ENV = {
  LPC_API_KEY: SANDBOX.intapi.apiKey,
  LPC_USERNAME: SANDBOX.intapi.username,
  LPC_PASSWORD: SANDBOX.intapi.password,
  LPC_PRIVATE_KEY: SANDBOX.intapi.privateKey,
  LPC_OAUTH_CLIENT_ID: SANDBOX.intapi.oauthClientId,
  LPC_OAUTH_CLIENT_SECRET: SANDBOX.intapi.oauthClientSecret,
  LPC_SCIM_TOKEN: SANDBOX.scim.token,
  LPC_SCIM_OAUTH_CLIENT_ID: SANDBOX.scim.oauthClientId,
  LPC_SCIM_OAUTH_CLIENT_SECRET: SANDBOX.scim.oauthClientSecret,
  LPC_SCIM_USERNAME: SANDBOX.scim.username,
  LPC_SCIM_PASSWORD: SANDBOX.scim.password,
  LPC_LEARNER_USERNAME: SANDBOX.learner.username,
  LPC_LEARNER_PASSWORD: SANDBOX.learner.password,
};

const dir = mkdtempSync(join(tmpdir(), 'lpc-init-'));

/** The paths the profile says init did not find (`# records.x: not found: …`). */
const notFound = (profile: string): string[] => [...profile.matchAll(/^\s*# ([\w.]+): not found: /gm)].map((m) => m[1] ?? '');

/** The paths of the values the profile names (uncommented), as `a.b.c`. */
function namedPaths(file: string): string[] {
  const p = loadProfile(file);
  const records = Object.keys(p.records).map((k) => `records.${k}`);
  return [...records, `player:${p.player === 'none' ? 'none' : 'page'}`].sort();
}

async function init(url: string, name: string, env: NodeJS.ProcessEnv, extra: string[] = []): Promise<{ file: string; text: string; stderr: string }> {
  const file = join(dir, name);
  const r = await runCli(['init', '--target', url, '--out', file, ...extra], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  return { file, text: readFileSync(file, 'utf8'), stderr: r.stderr };
}

async function runWith(
  url: string,
  file: string,
  json: string,
  env: NodeJS.ProcessEnv,
  only: string[] = [],
): Promise<{ code: number | null; run: RunResult; out: string }> {
  const args = [
    'run',
    '--target',
    url,
    '--profile',
    file,
    '--check-profile',
    '--seed',
    '11',
    '--runs',
    '2',
    '--no-progress',
    '--json',
    json,
    '--junit',
    `${json}.xml`,
  ];
  const r = await runCli([...args, ...only.flatMap((o) => ['--only', o])], { env });
  return { code: r.code, run: JSON.parse(readFileSync(json, 'utf8')) as RunResult, out: `${r.stdout}\n${r.stderr}` };
}

/** Every skip says what init could not find (besides those the target's declared choices give:
 * a capability it does not serve, an identity provider it is not meant for); those skipped checks' ids. */
function expectSkipsNamed(run: RunResult, missing: readonly string[]): string[] {
  const skipped = run.checks.filter((c) => c.status === 'skipped' && !declaredChoice(c.skipReason));
  for (const c of skipped)
    expect(
      missing.some((path) => c.skipReason?.includes(path)),
      `${c.id}: ${c.skipReason}`,
    ).toBe(true);
  return skipped.map((c) => c.id);
}

describe('against serve --id-seed 7, whose records no profile knows', () => {
  let seven: { url: string; stop: () => Promise<void> };
  let found: { file: string; text: string };
  /** The checks the whole run skipped. */
  let skippedWhole: string[] = [];
  beforeAll(async () => {
    seven = await serveCli(['--id-seed', '7']);
    found = await init(seven.url, 'seven.yaml', SERVE_ENV);
  });
  afterAll(() => seven.stop());

  test('the profile init wrote runs every check: exit 0, at most 5 % skipped for what init did not find, each skip naming it', async () => {
    // It does not name the bundled profile's ids, which this server does not have.
    expect(found.text).not.toMatch(/00000000-0000-4000-8000-0000000001/);
    const missing = notFound(found.text);
    expect(missing).toEqual(['records.deletedCourseEnrollment', 'records.ruleEnrollment', 'mailbox']);
    const { code, run, out } = await runWith(seven.url, found.file, join(dir, 'seven.json'), SERVE_ENV);
    expect(code, out).toBe(0);
    expect(run.checks.length).toBeGreaterThan(800);
    expect(run.checks.filter((c) => c.status === 'failed')).toEqual([]);
    skippedWhole = expectSkipsNamed(run, missing);
    // At most 5 % skipped in all, those of the capabilities the server declares it does not serve included.
    const skippedAll = run.checks.filter((c) => c.status === 'skipped');
    expect(skippedAll.length, skippedAll.map((c) => c.id).join(', ')).toBeLessThanOrEqual(0.05 * run.checks.length);
  });

  test('at --scale 100000 init finds the same records, and the checks that read them pass', async () => {
    const large = await serveCli(['--id-seed', '7', '--scale', '100000']);
    try {
      const scaled = await init(large.url, 'large.yaml', SERVE_ENV);
      expect(notFound(scaled.text)).toEqual(notFound(found.text));
      expect(namedPaths(scaled.file)).toEqual(namedPaths(found.file));
      // The checks that read the profile's records (the whole run is measured in docs/decisions/core/init.md "init").
      const only = [
        'intapi.v?.resources.get*',
        'intapi.v?.resources.list-*',
        'intapi.v?.users.get.*',
        'intapi.v2.users.my-details.*',
        'intapi.v2.users.is-manager.*',
        'intapi.v2.managers.direct-reports.list.name-the-manager',
        'intapi.v?.enrollments.*',
        'intapi.v?.lifecycle.*',
        'intapi.v2.evaluations.*',
        'intapi.v2.groups.assign-users.*',
        'intapi.v2.templates.get.*',
      ];
      const { code, run, out } = await runWith(large.url, scaled.file, join(dir, 'large.json'), SERVE_ENV, only);
      expect(code, out).toBe(0);
      expect(run.checks.length).toBeGreaterThan(80);
      expect(run.checks.filter((c) => c.status === 'failed')).toEqual([]);
      // The checks skipped are among those the whole run above skipped (what init could not find):
      // the whole run at scale skips the same few of its 800 checks.
      const skipped = expectSkipsNamed(run, notFound(scaled.text));
      expect(skipped.length).toBeGreaterThan(0);
      if (skippedWhole.length > 0) expect(skipped.filter((id) => !skippedWhole.includes(id))).toEqual([]);
    } finally {
      await large.stop();
    }
  });
});

describe('against a target without SCIM and without a learner API', () => {
  let proxied: Proxied;
  beforeAll(async () => {
    // The proxy answers 404 for everything of SCIM, the learner API and the player's page.
    proxied = await startProxied({
      intercept: (req, res) => {
        if (!/^\/(scim|api\/rest|learn)\//.test(req.url ?? '')) return false;
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return true;
      },
    });
  });
  afterAll(() => proxied.close());

  test('init sends reads only and writes families: none, and the run skips those families by name', async () => {
    const env = { ...PROXY_ENV, LPC_SCIM_TOKEN: 'a-token', LPC_LEARNER_USERNAME: 'someone', LPC_LEARNER_PASSWORD: 'secret-4a2f' };
    const { file, text } = await init(proxied.url, 'partial.yaml', env);
    const writes = proxied.stats.requests.filter((r) => !r.startsWith('GET ') && r !== 'POST /authenticate' && r !== 'POST /api/rest/v2/token');
    expect(writes).toEqual([]);
    expect(text).toMatch(/^ {2}scim: none$/m);
    expect(text).toMatch(/^ {2}learner: none$/m);
    expect(text).toMatch(/^player: none$/m);
    expect(text).not.toContain('secret-4a2f');
    const p = loadProfile(file);
    expect(p.families.scim.none).toBe(true);
    // Run without the absent families' credentials: they are not needed.
    const bare = { ...PROXY_ENV, LPC_SCIM_TOKEN: '', LPC_LEARNER_USERNAME: '', LPC_LEARNER_PASSWORD: '' };
    const { code, run, out } = await runWith(proxied.url, file, join(dir, 'partial.json'), bare, ['scim.*', 'learner.*', 'player.*']);
    expect(code, out).toBe(0);
    expect(run.checks.length).toBeGreaterThan(100);
    const reasons = new Set(run.checks.map((c) => c.skipReason));
    expect([...reasons].sort()).toEqual([
      'the profile says the target has no SCIM (families.scim: none)',
      'the profile says the target has no course player (player: none)',
      'the profile says the target has no learner API (families.learner: none)',
    ]);
  });
});

describe('init against a SCIM server built for identity providers (serve --variant scim.idp-minimal)', () => {
  test('reads the filter it refuses and the page it gives without count', async () => {
    const idp = await serveCli(['--variant', 'scim.idp-minimal']);
    try {
      const { file, text } = await init(idp.url, 'idp.yaml', SERVE_ENV);
      expect(text).toMatch(/# filters on userName: refused with 400 ne, co, sw, ew, pr, gt, ge, lt, le, or, not, value paths/);
      // The attributes its eq takes: the four it filters on; title and emails.value are refused.
      expect(text.replace(/\n\s*# /g, ' ')).toMatch(
        /refused with 400: title eq, emails\.value eq, name\.familyName eq \(attributes: userName, externalId, displayName, active\)/,
      );
      const scim = loadProfile(file).expectations.scim;
      expect(scim.filter).toEqual({ operators: ['eq'], logical: ['and'], attributes: ['userName', 'externalId', 'displayName', 'active'], valuePaths: false });
      expect(scim.sort).toBe(false);
      // The variant's page is 100; the seed holds more users than that.
      expect(scim.defaultCount).toBe(100);
    } finally {
      await idp.stop();
    }
  });
});

describe('init --probe-writes on a server holding less than one page', () => {
  test('fills a page with users of its own to read the default page size, deletes them, and probes /Me with every method but DELETE', async () => {
    const server = createReferenceServer(mergeServerOptions(sandboxOptions(SANDBOX), { families: { scim: { seed: false, variant: 'idp-minimal' } } }));
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { file, text, stderr } = await init(url, 'small.yaml', SERVE_ENV, ['--probe-writes']);
      const scim = loadProfile(file).expectations.scim;
      expect(scim.defaultCount).toBe(100);
      const said = text.replace(/\n\s*# /g, ' ');
      expect(said).toMatch(/with 101 users of init's own added, a list without count held 100 of totalResults 101/);
      expect(stderr).toMatch(/101 SCIM users named lpc-\S+page-…, to fill a page: 101 deleted/);
      expect(said).toMatch(/POST \/Me answered 501, PUT \/Me answered 501, PATCH \/Me answered 501 \(DELETE \/Me never probed/);
      expect(scim.unsupported).toContain('/Me');
      // Nothing of init's is left.
      const left = await fetch(`${url}/scim/v2/Users?count=1`, { headers: { authorization: `Bearer ${SANDBOX.scim.token}` } });
      expect(((await left.json()) as { totalResults: number }).totalResults).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('init --probe-writes', () => {
  let proxied: Proxied;
  beforeAll(async () => {
    proxied = await startProxied();
  });
  afterAll(() => proxied.close());

  test('probes what only a write shows, and says what it created', async () => {
    const env = { ...PROXY_ENV, LPC_SCIM_TOKEN: '', LPC_SCIM_USERNAME: PROXY_CREDENTIALS.username, LPC_SCIM_PASSWORD: PROXY_CREDENTIALS.password };
    const base = join(dir, 'scim-login.yaml');
    writeFileSync(base, 'name: x\ncredentials:\n  scim: { username: { env: LPC_SCIM_USERNAME }, password: { env: LPC_SCIM_PASSWORD } }\n');
    const { file, text, stderr } = await init(proxied.url, 'writes.yaml', env, ['--probe-writes', '--profile', base]);
    const writes = proxied.stats.requests.filter((r) => !r.startsWith('GET '));
    expect(writes).toEqual(
      expect.arrayContaining([
        'POST /submissions',
        'POST /groups',
        'POST /scim/v2/Users',
        'DELETE /scim/v2/Users/' + (/SCIM user (\S+)/.exec(stderr)?.[1] ?? '?'),
      ]),
    );
    expect(stderr).toMatch(
      /created: submission \S+ "lpc-[0-9a-f]{6}-init submission" .*; group \S+ "lpc-[0-9a-f]{6}-init group" .*; SCIM user \S+ \(lpc-[0-9a-f]{6}-init@example\.test\), deleted/,
    );
    const p = loadProfile(file);
    expect(p.expectations.submissions).toEqual({ createStatus: 201, updateStatus: 200, unknownReferenceStatus: 404 });
    expect(p.expectations.notJsonStatus).toBe(400);
    expect(p.expectations.scim.patchSuccess).toBe(200);
    const login = { username: { env: 'LPC_SCIM_USERNAME' }, password: { env: 'LPC_SCIM_PASSWORD' } };
    expect(p.familyCredentials.scim).toEqual({
      ...login,
      oauth: { clientId: { env: 'LPC_SCIM_OAUTH_CLIENT_ID' }, clientSecret: { env: 'LPC_SCIM_OAUTH_CLIENT_SECRET' }, ...login },
    });
    expect(text).toMatch(/^# init sent \d+ requests, writes included \(--probe-writes\); it created: submission/m);
  });
});

describe('init --probe-writes against a served /Bulk that refuses a request without operations', () => {
  let proxied: Proxied;
  beforeAll(async () => {
    // As SCIMMY answers init's probe (a BulkRequest with an empty Operations): 400 invalidValue.
    proxied = await startProxied({
      intercept: (req, res) => {
        if (req.method !== 'POST' || req.url !== '/scim/v2/Bulk') return false;
        const body = { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType: 'invalidValue', detail: 'no Operations' };
        res.writeHead(400, { 'content-type': 'application/scim+json' }).end(JSON.stringify(body));
        return true;
      },
    });
  });
  afterAll(() => proxied.close());

  test('takes the 400 for a served /Bulk: not in unsupported, and not the unsupported endpoints status', async () => {
    const env = { ...PROXY_ENV, LPC_SCIM_TOKEN: '', LPC_SCIM_USERNAME: PROXY_CREDENTIALS.username, LPC_SCIM_PASSWORD: PROXY_CREDENTIALS.password };
    const base = join(dir, 'scim-login-bulk.yaml');
    writeFileSync(base, 'name: x\ncredentials:\n  scim: { username: { env: LPC_SCIM_USERNAME }, password: { env: LPC_SCIM_PASSWORD } }\n');
    const { file, text } = await init(proxied.url, 'bulk-400.yaml', env, ['--probe-writes', '--profile', base]);
    expect(text).toMatch(/POST\s+(# )?\/Bulk answered 400/);
    const scim = loadProfile(file).expectations.scim;
    // The reference server serves none of the others (501).
    expect(scim.unsupported).toEqual(['/Me', '/ServiceProviderConfig', '/ResourceTypes', '/.search']);
    expect(scim.unsupportedStatus).toBe(501);
  });
});

describe('init: usage and set-up errors exit 2 with one line', () => {
  test.each([
    [['init'], /init needs --target URL/],
    [['init', '--target', 'http://127.0.0.1:9', '--timeout', 'soon'], /--timeout must be an integer/],
    [['init', '--target', 'http://127.0.0.1:9'], /http:\/\/127\.0\.0\.1:9: no session \(ECONNREFUSED\)/],
    [['serve', '--id-seed', 'seven'], /--id-seed must be an integer from 0 to 2147483647, not 'seven'/],
  ])('%j', async (args, message) => {
    const r = await runCli(args, { env: SERVE_ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('an existing --out is not replaced without --force', async () => {
    const file = join(dir, 'exists.yaml');
    writeFileSync(file, 'mine\n');
    const r = await runCli(['init', '--target', 'http://127.0.0.1:9', '--out', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exists: give another --out, or --force to replace it/);
    expect(existsSync(file) && readFileSync(file, 'utf8')).toBe('mine\n');
  });
});
