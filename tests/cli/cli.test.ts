// The command line as users meet it: exit codes, one-line errors, --list, serve, and a whole run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { beforeAll, describe, expect, test } from 'vitest';
import { type CliResult, profiledRunArgs, referenceProfileWith, ROOT, runCli, runMain, serveCli } from '../support/cli.js';

const oneLine = (text: string) => text.trim().split('\n').length === 1;

describe('usage and configuration errors exit 2 with one line', () => {
  // main() in one process for all of them (the exit code is main's; the tests below that start the
  // command line see it as the process's).
  const USAGE: [string[], RegExp][] = [
    [['run', '--bogus'], /unknown option '--bogus' for lp-conformance run/],
    [['run', '--runs', 'abc'], /--runs must be an integer/],
    [['run', '--runs', '0'], /--runs must be from 1/],
    [['run', '--target', 'not a url'], /--target must be an http\(s\) URL/],
    [['run', '--target', 'ftp://example.test/'], /--target must be an http\(s\) URL/],
    [['run', '--path', '1:2'], /--path replays one check/],
    [['run', '--faults', 'no-such-fault'], /unknown fault 'no-such-fault'/],
    [['run', '--profile', 'does/not/exist.yaml'], /does\/not\/exist\.yaml/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['serve', '--port', '70000'], /--port must be from 0 to 65535/],
    [['run', '--concurrency', '0'], /--concurrency must be from 1 to 256, not 0/],
    [['run', '--concurrency=-1'], /--concurrency must be from 1 to 256, not -1/],
    [['run', '--concurrency', '-1'], /--concurrency/],
    [['run', '--concurrency', 'abc'], /--concurrency must be an integer from 1 to 256, not 'abc'/],
    [['run', '--concurrency', '257'], /--concurrency must be from 1 to 256, not 257/],
    [['run', '--max-rps', '0'], /--max-rps must be from 1/],
    [['run', '--max-rps', 'fast'], /--max-rps must be an integer/],
    [['run', '--shard', '3/2'], /--shard must be I\/N with 1 <= I <= N/],
    [['run', '--shard-plan', 'earlier.json'], /--shard-plan needs --shard I\/N/],
    [['run', '--shard', '1/2', '--shard-plan', 'no/such.json'], /--shard-plan .*no\/such\.json: no such file/],
    [['run', '--shard', '1/2', '--compare', 'bundled'], /--shard does not combine with --compare/],
    [['run', '--shard', '1/2', '--run-id', '0a1b2c'], /--run-id names one run: each shard makes its own/],
    [['run', '--jobs', '0'], /--jobs must be from 1 to 64, not 0/],
    [['run', '--jobs', '2', '--target', 'http://127.0.0.1:9'], /--jobs applies to the bundled reference server only/],
    [['merge'], /merge needs the JSON reports of every shard/],
    [['merge', 'no/such.json'], /no\/such\.json: no such file/],
  ];
  let results: CliResult[] = [];
  beforeAll(async () => {
    results = await runMain(USAGE.map(([args]) => args));
  });
  test.each(USAGE.map(([args, message], i) => [args, message, i] as const))('%j', (_args, message, i) => {
    const r = results[i] as CliResult;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(oneLine(r.stderr)).toBe(true);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('a profile with a mistyped field names the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, readFileSync('fixtures/profiles/reference.yaml', 'utf8').replace('createStatus: 201', 'createStatus: created'));
    const r = await runCli(['run', '--profile', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/expectations\.submissions\.createStatus/);
    expect(oneLine(r.stderr)).toBe(true);
  });

  test('an unreachable target exits 2 naming it', async () => {
    const r = await runCli(['run', '--target', 'http://127.0.0.1:9'], {
      env: { LPC_API_KEY: 'k', LPC_USERNAME: 'u', LPC_PASSWORD: 'p', LPC_PRIVATE_KEY: 'q' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Integration API at http:\/\/127\.0\.0\.1:9 is unreachable: connection refused \(ECONNREFUSED\)/);
    expect(oneLine(r.stderr)).toBe(true);
  });

  test('credentials that are not set exit 2 naming the variables', async () => {
    const { url, stop } = await serveCli([]);
    try {
      const r = await runCli(['run', '--target', url], { env: { LPC_API_KEY: '', LPC_USERNAME: '', LPC_PASSWORD: '', LPC_PRIVATE_KEY: '' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/LPC_API_KEY/);
      expect(oneLine(r.stderr)).toBe(true);
    } finally {
      await stop();
    }
  });

  test('refused credentials exit 2 without showing them', async () => {
    const { url, stop } = await serveCli([]);
    try {
      const r = await runCli(['run', '--target', url], {
        env: { LPC_API_KEY: 'lpc-not-the-key-5150', LPC_USERNAME: 'x', LPC_PASSWORD: 'y', LPC_PRIVATE_KEY: 'z' },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/POST \/authenticate with x-api-key \$\{LPC_API_KEY\}.* was refused: 401/);
      expect(r.stderr).not.toContain('lpc-not-the-key-5150');
    } finally {
      await stop();
    }
  });
});

describe('--list', () => {
  test('lists every check with level and anchor, ids unique, invariants included', async () => {
    const r = await runCli(['run', '--list']);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^(intapi|scim|learner)\./.test(l));
    const ids = rows.map((l) => l.split(/\s+/)[0]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(150);
    expect(ids).toContain('intapi.invariant.no-5xx');
    expect(ids).toContain('intapi.v2.submissions.create.title.above-max');
    for (const row of rows) expect(row).toMatch(/\s(MUST|SHOULD|MAY|PROFILE)\s.*(spec|public-facts|rfc\d+)#/);
  });
});

describe('slow checks', () => {
  test('a rule bound over a minute skips the rule checks, naming --include-slow; with it they run', async () => {
    const { url, stop } = await serveCli([]);
    const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
    // Just over the minute of a run without --include-slow (polled every 3 s); the sandbox's batches run every second.
    const profile = referenceProfileWith(dir, 'slow.yaml', 'withinMs: 3000', 'withinMs: 61000');
    const env = { LPC_API_KEY: 'lpc-sandbox-key', LPC_USERNAME: 'lpc.admin', LPC_PASSWORD: 'lpc-sandbox-password', LPC_PRIVATE_KEY: 'lpc-sandbox-private-key' };
    const json = join(dir, 'run.json');
    const args = profiledRunArgs(url, profile, 'intapi.v2.lifecycle.rule-', dir);
    const checks = () => (JSON.parse(readFileSync(json, 'utf8')) as { checks: { id: string; status: string; skipReason?: string; slow?: true }[] }).checks;
    try {
      const skipped = await runCli(args, { env });
      expect(skipped.code, skipped.stderr).toBe(0);
      expect(checks()).toHaveLength(2);
      for (const check of checks()) {
        expect(check).toMatchObject({ status: 'skipped', slow: true });
        expect(check.skipReason).toMatch(/^slow: it waits up to \d+ ms .*--include-slow/);
      }
      const ran = await runCli([...args, '--include-slow'], { env });
      expect(ran.code, ran.stdout).toBe(0);
      expect(checks().map((c) => c.status)).toEqual(['passed', 'passed']);
    } finally {
      await stop();
    }
  });
});

describe('serve', () => {
  test('prints where it listens and answers the Integration API', async () => {
    const { url, stop } = await serveCli([]);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await request(`${url}/resources`, { headers: { 'x-api-version': '2' } });
      expect(res.statusCode).toBe(401);
      expect(await res.body.json()).toMatchObject({ code: 401 });
    } finally {
      await stop();
    }
  });
});

describe('output through a pipe', () => {
  test('a pipe read slowly still gets the whole report (more than a pipe buffer)', () => {
    // Many failures make a long report (about 120 KB: every rejection check of submissions fails);
    // the reader starts only after the writer has finished.
    const out = execFileSync(
      'sh',
      [
        '-c',
        `"${process.execPath}" bin/lp-conformance.js run --faults intapi.validations-unnamed --only 'intapi.v2.submissions.*' --runs 2 --seed 1 --no-color --junit "$JUNIT" | (sleep 1; cat)`,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, JUNIT: join(mkdtempSync(join(tmpdir(), 'lpc-')), 'junit.xml') },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).toString();
    expect(out.length).toBeGreaterThan(65536);
    // The last lines: the reports written, then how to start the run's server again.
    expect(out).toMatch(/\nJUnit report: \S+junit\.xml\nThe failures' curls name a server that is gone; [^\n]+\n$/);
  });

  // A reader that stops early closes the pipe: the listing ends with 0 and no stack trace, and a run
  // keeps its own exit code (a gate's `run | head` still fails on a failure). --no-progress: without a
  // terminal a run that outlasts 10 s (a loaded machine) prints a progress line on stderr, which is
  // not what this test is about.
  test.each([
    ['run --list', 'run --list', 0],
    [
      'a run with a failure',
      'run --faults intapi.validations-unnamed --only \'intapi.v2.submissions.*\' --runs 2 --seed 1 --no-color --no-progress --junit "$JUNIT"',
      1,
    ],
  ])('%s through | head -n 1: its own exit code, nothing on stderr', (_name, command, code) => {
    const out = execFileSync(
      'bash',
      ['-c', `"${process.execPath}" bin/lp-conformance.js ${command} 2>"$ERR" | head -n 1 >/dev/null; echo "exit \${PIPESTATUS[0]}"; cat "$ERR"`],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, JUNIT: join(mkdtempSync(join(tmpdir(), 'lpc-')), 'junit.xml'), ERR: join(mkdtempSync(join(tmpdir(), 'lpc-')), 'stderr') },
      },
    );
    expect(out).toBe(`exit ${code}\n`);
  });
});

describe('a whole run', () => {
  test('against the bundled reference server: exit 0, a JUnit report with no failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
    const junit = join(dir, 'junit.xml');
    const r = await runCli(['run', '--seed', '7', '--runs', '5', '--no-progress', '--junit', junit, '--json', join(dir, 'run.json')]);
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/0 failed/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites/);
    expect(xml).not.toMatch(/<failure/);
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { checks: { status: string }[]; requests: number };
    expect(run.checks.filter((c) => c.status === 'failed')).toEqual([]);
    expect(run.checks.filter((c) => c.status === 'passed').length).toBeGreaterThan(150);
    expect(run.requests).toBeGreaterThan(1000);
  });

  test('against a faulty server: exit 1, the failure fully described, and no secret anywhere', async () => {
    const secrets = { LPC_API_KEY: 'lpc-key-4d1c9e', LPC_USERNAME: 'lpc.admin', LPC_PASSWORD: 'lpc-pass-77aa1f', LPC_PRIVATE_KEY: 'lpc-priv-0b3e52' };
    const { url, stop } = await serveCli(['--faults', 'intapi.envelope-limit-echo-default'], secrets);
    const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
    const junit = join(dir, 'junit.xml');
    try {
      const r = await runCli(['run', '--target', url, '--only', 'intapi.v2.templates.list.envelope', '--seed', '3', '--runs', '20', '--junit', junit], {
        env: secrets,
      });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toContain('[intapi.v2.templates.list.envelope.limit-echo]');
      expect(r.stdout).toMatch(/Expected: limit \d+/);
      expect(r.stdout).toMatch(/Received: limit 20/);
      expect(r.stdout).toMatch(/Counterexample/);
      expect(r.stdout).toContain('x-api-key: ${LPC_API_KEY}');
      expect(r.stdout).toContain('Bearer ${LPC_TOKEN}');
      expect(r.stdout).toMatch(
        /Replay: +(npx )?lp-conformance run --target \S+ --runs 20 --run-id [0-9a-f]{6} --only intapi\.v2\.templates\.list\.envelope\.limit-echo --seed 3 --path \d/,
      );
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toMatch(/<failure[^>]*type="MUST"/);
      for (const value of [secrets.LPC_API_KEY, secrets.LPC_PASSWORD, secrets.LPC_PRIVATE_KEY]) {
        expect(r.stdout).not.toContain(value);
        expect(r.stderr).not.toContain(value);
        expect(xml).not.toContain(value);
      }
      // The session token is a secret too: it only ever shows as its variable.
      expect(r.stdout + xml).not.toMatch(/Bearer (?!\$\{LPC_TOKEN\})/);
      expect(existsSync(junit)).toBe(true);
    } finally {
      await stop();
    }
  });
});

describe('--concurrency', () => {
  test('1 and 16 pass the bundled run with the same checks passed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpc-'));
    const passed = async (concurrency: string) => {
      const json = join(dir, `run-${concurrency}.json`);
      const r = await runCli([
        'run',
        '--runs',
        '5',
        '--seed',
        '11',
        '--only',
        'intapi.v2.submissions.*,intapi.v2.question-banks.*,intapi.v2.questions.*,scim.users.*',
        '--concurrency',
        concurrency,
        '--junit',
        join(dir, `junit-${concurrency}.xml`),
        '--json',
        json,
      ]);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      const run = JSON.parse(readFileSync(json, 'utf8')) as { concurrency: number; checks: { id: string; status: string }[] };
      expect(run.concurrency).toBe(Number(concurrency));
      return run.checks
        .filter((c) => c.status === 'passed')
        .map((c) => c.id)
        .sort();
    };
    const [one, sixteen] = await Promise.all([passed('1'), passed('16')]);
    expect(one.length).toBeGreaterThan(150);
    expect(sixteen).toEqual(one);
  });
});

describe('the player checks without a browser', () => {
  test('are exit 2 with one line saying how to get one, before any check runs', async () => {
    const r = await runCli(['run', '--only', 'player.*', '--no-progress'], { env: { LPC_CHROMIUM: '/nonexistent/chromium' } });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^lp-conformance: the player checks need a browser: .*LPC_CHROMIUM/);
  });
});
