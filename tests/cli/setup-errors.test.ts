// A user's first hour: every set-up mistake is exit 2 and one line on stderr, before any
// check runs, for every family; `--help` answers on every command; and the sandbox `serve` prints
// (and `serve --env` writes) every credential, so that the README's block runs every check.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, runCli, runMain, runShell, serveCli, type CliResult } from '../support/cli.js';
import { declaredChoice } from '../support/skips.js';

const dir = mkdtempSync(join(tmpdir(), 'lpc-setup-'));

/** Exit 2, one line on stderr (no stack), matching `message`. */
function oneLineError(r: CliResult, message: RegExp): void {
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(2);
  expect(r.stderr.trim()).toMatch(message);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** The sandbox's credentials as `serve --env` writes them (variable → value). */
function envOf(file: string): Record<string, string> {
  return Object.fromEntries([...readFileSync(file, 'utf8').matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')]));
}

const listen = (server: Server): Promise<string> =>
  new Promise((done) => server.listen(0, '127.0.0.1', () => done(`127.0.0.1:${(server.address() as AddressInfo).port}`)));

let sandbox: { url: string; stop: () => Promise<void> };
let env: Record<string, string>;
/** A web server that is not the API: `python3 -m http.server`'s answers (an HTML listing, 501 HTML to a POST). */
let web: Server;
let webUrl: string;
/** An HTTPS front of the sandbox with a self-signed certificate made here, and that certificate's file. */
let https: Server;
let httpsUrl: string;
let caFile: string;

beforeAll(async () => {
  const envFile = join(dir, 'sandbox.env');
  const served = await serveCli(['--env', envFile]);
  sandbox = served;
  env = envOf(envFile);
  web = createHttpServer((req, res) => {
    req.resume();
    const page =
      req.method === 'GET'
        ? '<!DOCTYPE HTML>\n<html><body><h1>Directory listing for /</h1></body></html>'
        : '<!DOCTYPE HTML><html><body>Error response 501</body></html>';
    res.writeHead(req.method === 'GET' ? 200 : 501, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  webUrl = `http://${await listen(web)}`;
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pems.cert);
  const upstream = new URL(sandbox.url);
  https = createHttpsServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  httpsUrl = `https://${await listen(https)}`;
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  web?.close();
  https?.closeAllConnections();
  https?.close();
});

describe("the issue's table: each mistake is exit 2 (0 for --help) with one line", () => {
  test('a wrong SCIM token names SCIM, its URL, what was sent and the 401, never the token', async () => {
    const r = await runCli(['run', '--target', sandbox.url, '--only', 'scim', '--no-progress'], { env: { ...env, LPC_SCIM_TOKEN: 'lpc-wrong-scim-token-42' } });
    oneLineError(
      r,
      /^lp-conformance: SCIM at http:\/\/\S+\/scim\/v2: GET \/scim\/v2\/Users\?count=1 with authorization Bearer \$\{LPC_SCIM_TOKEN\} was refused: 401 application\/scim\+json/,
    );
    expect(r.stderr).not.toContain('lpc-wrong-scim-token-42');
  });

  test('a wrong learner password names the learner API and its log-in', async () => {
    const r = await runCli(['run', '--target', sandbox.url, '--only', 'learner', '--no-progress'], {
      env: { ...env, LPC_LEARNER_PASSWORD: 'lpc-wrong-password-42' },
    });
    oneLineError(
      r,
      /^lp-conformance: learner API at http:\/\/\S+\/api\/rest\/v2: POST \/api\/rest\/v2\/token with .*password \$\{LPC_LEARNER_PASSWORD\} was refused: 401/,
    );
    expect(r.stderr).not.toContain('lpc-wrong-password-42');
  });

  test('a family the run does not select is not contacted: a wrong SCIM token does not stop an Integration API run; --skip leaves checks out', async () => {
    const json = join(dir, 'skip.json');
    const args = ['run', '--target', sandbox.url, '--only', 'intapi.auth.*-token*', '--skip', 'intapi.auth.missing-token-401', '--runs', '1', '--no-progress'];
    const r = await runCli([...args, '--junit', join(dir, 'skip.xml'), '--json', json], { env: { ...env, LPC_SCIM_TOKEN: 'lpc-wrong-scim-token-42' } });
    expect(r.code, r.stderr).toBe(0);
    const ids = (JSON.parse(readFileSync(json, 'utf8')) as { checks: { id: string }[] }).checks.map((c) => c.id).sort();
    expect(ids).toEqual(['intapi.auth.authenticate-token', 'intapi.auth.raw-token-accepted']);
  });

  test('a target that is not this API (a web server) is said so, for the first family tried', async () => {
    const r = await runCli(['run', '--target', webUrl, '--no-progress'], { env });
    oneLineError(
      r,
      /^lp-conformance: Integration API at http:\/\/\S+: POST \/authenticate with x-api-key \$\{LPC_API_KEY\}.* answered a web page \(HTML\), not an API answer, so this is not the Integration API/,
    );
    const scim = await runCli(['run', '--target', webUrl, '--only', 'scim', '--no-progress'], { env });
    oneLineError(scim, /^lp-conformance: SCIM at http:\/\/\S+\/scim\/v2: GET \/scim\/v2\/Users\?count=1 .*answered a web page \(HTML\)/);
  });

  test("the API's JSON labelled text/html is a finding, not a set-up error: a warning, the checks run, the media-type check fails (exit 1)", async () => {
    const r = await runCli([
      'run',
      '--faults',
      'intapi.html-content-type',
      '--only',
      'intapi.invariant.json-content-type,intapi.v2.resources.*',
      '--runs',
      '1',
      '--no-progress',
    ]);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(r.stderr).toMatch(
      /warning: Integration API at http:\/\/\S+: GET \/resources\S* .*answered its JSON labelled text\/html; going on, the checks judge the media type/,
    );
    expect(r.stderr).not.toMatch(/not the Integration API/);
    expect(r.stdout).toMatch(/FAIL {2}\[intapi\.invariant\.json-content-type\]/);
    expect(r.stdout).toMatch(/content-type text\/html/);
  });

  test('a self-signed certificate names TLS and the way out; --ca trusts it; --insecure runs and every report says so', async () => {
    const only = ['--only', 'intapi.auth.authenticate-token', '--runs', '1', '--no-progress'];
    const refused = await runCli(['run', '--target', httpsUrl, ...only], { env });
    oneLineError(
      refused,
      /^lp-conformance: Integration API at https:\/\/\S+ refused the connection: TLS: its certificate is self-signed \(DEPTH_ZERO_SELF_SIGNED_CERT\); trust its CA with --ca FILE/,
    );
    const trusted = await runCli(['run', '--target', httpsUrl, ...only, '--ca', caFile, '--junit', join(dir, 'ca.xml')], { env });
    expect(trusted.code, trusted.stderr).toBe(0);
    const json = join(dir, 'insecure.json');
    const md = join(dir, 'insecure.md');
    const insecure = await runCli(
      ['run', '--target', httpsUrl, ...only, '--insecure', '--junit', join(dir, 'insecure.xml'), '--json', json, '--markdown', md],
      { env },
    );
    expect(insecure.code, insecure.stderr).toBe(0);
    expect(insecure.stdout).toMatch(/TLS certificates were not verified \(--insecure\)/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { tls?: unknown; verdict: { caveats: string[] } };
    expect(report.tls).toEqual({ insecure: true });
    expect(report.verdict.caveats.join()).toMatch(/--insecure/);
    expect(readFileSync(join(dir, 'insecure.xml'), 'utf8')).toMatch(/name="caveat" value="TLS certificates were not verified/);
    expect(readFileSync(md, 'utf8')).toMatch(/Caveat:\*\* TLS certificates were not verified/);
    // The same run without the flag, after it in the same command-line host (runCli, one call at a
    // time): refused again. Each run verifies as its own flags say, not as the call before it did.
    oneLineError(
      await runCli(['run', '--target', httpsUrl, ...only], { env }),
      /^lp-conformance: Integration API at https:\/\/\S+ refused the connection: TLS/,
    );
    oneLineError(await runCli(['run', '--target', httpsUrl, '--ca', join(dir, 'sandbox.env')]), /--ca \S+: no PEM certificate in it/);
  });

  test('useTls closes the dispatcher it set when a later call replaces it (main() called again in one process)', () => {
    // In a process of its own: the global dispatcher is process-wide state.
    const script = [
      "const { getGlobalDispatcher } = await import('undici');",
      "const { useTls } = await import('./dist/src/target/tls.js');",
      'useTls({ insecure: true });',
      'const first = getGlobalDispatcher();',
      'useTls(undefined);',
      'const second = getGlobalDispatcher();',
      'await new Promise((r) => setTimeout(r, 50));',
      'console.log(JSON.stringify({ replaced: first !== second, firstClosed: first.closed, secondClosed: second.closed }));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ replaced: true, firstClosed: true, secondClosed: false });
  });

  test('a profile that names only SCIM, without --target, says which URLs are missing instead of trying a default', async () => {
    const profile = join(dir, 'scim-only.yaml');
    writeFileSync(
      profile,
      `name: scim-only\nfamilies:\n  scim:\n    baseUrl: ${sandbox.url}/scim/v2\ncredentials:\n  scim:\n    token: { env: LPC_SCIM_TOKEN }\n`,
    );
    const r = await runCli(['run', '--profile', profile, '--no-progress'], { env });
    oneLineError(
      r,
      /gives no URL for the Integration API, learner API \(families\.intapi\.baseUrl, families\.learner\.baseUrl\) and no --target was given: .*--only 'scim\.\*'/,
    );
    expect(r.stderr).not.toContain('8080');
  });

  // The calls answered before any run starts share one node process (runMain).
  const HELP = ['init', 'run', 'baseline', 'serve', 'openapi', 'cleanup'];
  const USAGE: readonly (readonly [readonly string[], RegExp])[] = [
    [['run', '--runs', '-5'], /^lp-conformance: --runs must be from 1 to 1000000, not -5$/],
    [['run', '--runs=-5'], /^lp-conformance: --runs must be from 1 to 1000000, not -5$/],
    [['run', '--rnus', '5'], /unknown option '--rnus' for lp-conformance run; did you mean --runs\?/],
    [['serve', '--prot', '0'], /unknown option '--prot' for lp-conformance serve; did you mean --port\?/],
    [['serve', '--hepl'], /unknown option '--hepl' for lp-conformance serve; did you mean --help\?/],
    [['serve', '--only', 'scim'], /--only is an option of lp-conformance run, not of serve/],
    [['run', '--fail-on', 'may'], /--fail-on must be must or should, not 'may'/],
    [['run', '--runs'], /--runs needs a value: N/],
    [['run', '--runs', '--seed', '3'], /--runs needs a value: N/],
    [['run', '--ca', 'x.pem', '--insecure'], /--ca and --insecure contradict each other/],
    [['rnu'], /unknown command 'rnu'; did you mean run\?/],
    // Faults and profile fields suggest the closest name too; a profile field says where it is.
    [
      ['run', '--faults', 'crash-on-unknown-submision'],
      /^lp-conformance: unknown fault 'crash-on-unknown-submision'; did you mean intapi\.crash-on-unknown-submission\? \((npx )?lp-conformance serve --list-faults lists them\)$/,
    ],
    [
      ['run', '--profile', join(dir, 'typo.yaml'), '--target', 'http://127.0.0.1:9'],
      /^lp-conformance: profile \S+typo\.yaml:4:5: expectations\.lists\.defaultLimt is not allowed \(did you mean defaultLimit\?\)$/,
    ],
    [
      ['run', '--profile', join(dir, 'inline.yaml'), '--target', 'http://127.0.0.1:9'],
      /^lp-conformance: profile \S+inline\.yaml:3:3: credentials\.apiKey must be a mapping: \{ env: NAME \}, naming the environment variable that holds it$/,
    ],
  ];
  const aFile = join(dir, 'a-file');
  const OUTPUTS: readonly (readonly [readonly string[], RegExp])[] = [
    // The target is a closed port: the paths are checked before it would be tried.
    [['run', '--target', 'http://127.0.0.1:9', '--html', join(aFile, 'r.html')], /^lp-conformance: --html \S+r\.html: \S+a-file is a file, not a folder$/],
    [['run', '--target', 'http://127.0.0.1:9', '--json', dir], /--json \S+: is a folder; give a file name/],
    [['baseline', '--out', join(aFile, 'b.yml')], /--out \S+b\.yml: \S+a-file is a file, not a folder/],
    [['serve', '--env', join(aFile, 'sandbox.env')], /--env \S+sandbox\.env: \S+a-file is a file, not a folder/],
  ];
  let answers: CliResult[] = [];
  beforeAll(async () => {
    writeFileSync(aFile, '');
    writeFileSync(join(dir, 'typo.yaml'), 'name: typo\nexpectations:\n  lists:\n    defaultLimt: 20\n');
    writeFileSync(join(dir, 'inline.yaml'), 'name: inline\ncredentials:\n  apiKey: abc123\n');
    answers = await runMain([...HELP.map((c) => [c, '--help']), ...USAGE.map(([args]) => args), ...OUTPUTS.map(([args]) => args)], env);
  });

  test.each(HELP.map((c, i) => [c, i] as const))('%s --help prints its options and exits 0', (command, i) => {
    const r = answers[i]!;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^lp-conformance ${command} `));
    expect(r.stdout).toMatch(/^ {2}--\w/m);
    expect(r.stderr).toBe('');
  });

  test.each(USAGE.map(([args, message], i) => [args, message, HELP.length + i] as const))('%j', (_args, message, i) => {
    oneLineError(answers[i]!, message);
  });

  test.each(OUTPUTS.map(([args, message], i) => [args, message, HELP.length + USAGE.length + i] as const))(
    'an output path that cannot be written is said before anything starts: %j',
    (_args, message, i) => {
      oneLineError(answers[i]!, message);
    },
  );

  test('--only selecting no check is said in one line', async () => {
    oneLineError(await runCli(['run', '--list', '--only', 'no.such.check']), /--only no\.such\.check selects no check/);
  });
});

describe('noise', () => {
  // oidc-provider warns of Node 20 on the console, painted red on a terminal, when the bundled server's
  // OAuth provider starts (at its first OAuth request): a run on a terminal (`script` gives it one,
  // where the machine has it) shows none of it. Without the colour-blind filter, this test fails.
  test.skipIf(spawnSync('script', ['--version']).status !== 0)('a run on a terminal shows no library warning, and its progress total is the summary', () => {
    const bin = join(ROOT, 'bin/lp-conformance.js');
    const command = `${process.execPath} ${bin} run --only intapi.oauth.wrong-redirect-uri-refused,intapi.invariant --runs 1 --junit ${join(dir, 'tty.xml')}`;
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stdout).toBe(0);
    const total = Number(/lp-conformance: (\d+) checks, 1 passed, 0 failed/.exec(r.stdout)?.[1]);
    expect(total).toBeGreaterThan(1);
    expect(r.stdout).not.toMatch(/oidc-provider|Unsupported runtime/);
    // The live progress line counts what the summary counts: the check and the invariants it reports.
    const totals = [...r.stdout.matchAll(/\d+\/(\d+) checks/g)].map((m) => Number(m[1]));
    expect(totals.length).toBeGreaterThan(0);
    for (const seen of totals) expect(seen).toBe(total);
  });
});

describe('--list and --skip', () => {
  test('--list honours --only and --skip', async () => {
    const r = await runCli(['run', '--list', '--only', 'scim.users', '--skip', 'scim.users.create*']);
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.split('\n').map((l) => l.split(/\s+/)[0] ?? '');
    expect(ids.filter(Boolean).length).toBeGreaterThan(3);
    for (const id of ids.filter(Boolean)) {
      expect(id.startsWith('scim.users')).toBe(true);
      expect(id.startsWith('scim.users.create')).toBe(false);
    }
  });
});

describe('the sandbox', () => {
  test('serve prints every credential of every family and its mailbox as export lines', () => {
    for (const name of [
      'LPC_API_KEY',
      'LPC_USERNAME',
      'LPC_PASSWORD',
      'LPC_PRIVATE_KEY',
      'LPC_SCIM_TOKEN',
      'LPC_LEARNER_USERNAME',
      'LPC_LEARNER_PASSWORD',
      'LPC_OAUTH_CLIENT_ID',
      'LPC_OAUTH_CLIENT_SECRET',
      'LPC_MAILBOX_API',
    ]) {
      expect(env[name], name).toBeTruthy();
    }
  });

  test("the README's block, pasted, then a run against serve: no check skipped for want of a credential, and the progress total is the summary's", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /## The sandbox\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'the README has the sandbox block').toBeDefined();
    const port = await new Promise<number>((done) => {
      const probe = createHttpServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => done(port));
      });
    });
    const cwd = mkdtempSync(join(tmpdir(), 'lpc-sandbox-'));
    const json = join(cwd, 'run.json');
    // The block as written, with this test's port and the built tool; the run kept cheap (few runs).
    const script = block!
      .replaceAll('npx lp-conformance', `node ${join(ROOT, 'bin/lp-conformance.js')}`)
      .replaceAll('8080', String(port))
      .replace(/(lp-conformance\.js run --target \S+)/, `$1 --runs 5 --json ${json} --junit ${join(cwd, 'junit.xml')}`);
    const clean = Object.fromEntries(
      Object.keys(process.env)
        .filter((k) => k.startsWith('LPC_'))
        .map((k) => [k, '']),
    );
    const r = await runShell(`${script}\nrc=$?; kill %1; wait; exit $rc`, { cwd, env: clean, timeoutMs: 240_000 });
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      verdict: { counts: { checks: number; skipped: number } };
      checks: { id: string; status: string; skipReason?: string }[];
    };
    // Nothing is skipped for want of a credential or a mailbox: only what the reference server
    // declares it does not serve (Bulk, discovery, versions, /Me) and identity providers' requests.
    const skipped = report.checks.filter((c) => c.status === 'skipped');
    const gaps = skipped.filter((c) => !declaredChoice(c.skipReason)).map((c) => `${c.id}: ${c.skipReason ?? ''}`);
    expect(gaps, r.stderr).toEqual([]);
    expect(report.verdict.counts.skipped).toBe(skipped.length);
    // The progress line's last total is the summary's; nothing else reaches the terminal.
    const totals = [...r.stderr.matchAll(/\/(\d+) checks/g)].map((m) => Number(m[1]));
    for (const total of totals) expect(total).toBe(report.verdict.counts.checks);
    expect(r.stderr).not.toMatch(/oidc-provider|WARNING/);
  }, 300_000);
});
