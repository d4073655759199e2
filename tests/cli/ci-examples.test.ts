// The CI examples in docs/ci/ are linted and run: each is valid against its platform's JSON Schema
// (vendored in fixtures/ci-schemas/, see SOURCE.md there); its install step, run in a repository set
// up as docs/ci/README.md says (the tool on no registry: a tarball in vendor/, pinned by the lock
// file), installs a working `lp-conformance`; its command line, run as written by that installed
// tool, gets past every check of its flags and values; and no secret is written inline.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runShell, type CliResult } from '../support/cli.js';

const GITHUB = 'docs/ci/github-actions.yml';
const GITLAB = 'docs/ci/gitlab-ci.yml';
/** The sharded examples (a job matrix and a merge job), each beside its platform's single-job one. */
const GITHUB_SHARDS = 'docs/ci/github-actions-shards.yml';
const GITLAB_SHARDS = 'docs/ci/gitlab-ci-shards.yml';
const GITLAB_SHARDS_TRIGGER = 'docs/ci/gitlab-ci-shards-trigger.yml';
const SHARDED: Record<string, string> = { [GITHUB]: GITHUB_SHARDS, [GITLAB]: GITLAB_SHARDS };
/** What each platform sets in a shard's environment: its place in the matrix, the run's number. */
const SHARD_ENV: Record<string, NodeJS.ProcessEnv> = {
  [GITHUB_SHARDS]: { LPC_SHARD: '1/3', GITHUB_RUN_NUMBER: '7' },
  [GITLAB_SHARDS]: { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '3', CI_PIPELINE_IID: '7' },
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

function load(file: string): Obj {
  return parse(readFileSync(join(ROOT, file), 'utf8')) as Obj;
}

/** Draft-07 schemas (both declare http://json-schema.org/draft-07/schema#): ajv's default class.
 *  strict: false, because the schemas carry editor keywords ajv does not know (markdownDescription). */
function compile(schemaFile: string): ValidateFunction {
  const schema = JSON.parse(readFileSync(join(ROOT, 'fixtures/ci-schemas', schemaFile), 'utf8')) as { $schema: string };
  expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajvFormats.default(ajv);
  return ajv.compile(schema);
}

/** Shell words of one command line: quotes removed, no expansion (enough for the examples). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** Every shell script of the example: GitHub steps' `run`, GitLab jobs' script lists. */
function scripts(file: string): string[] {
  const doc = load(file);
  if (file === GITHUB || file === GITHUB_SHARDS) {
    const jobs = doc.jobs as Record<string, { steps?: { run?: string }[] }>;
    return Object.values(jobs).flatMap((job) => (job.steps ?? []).flatMap((s) => (s.run === undefined ? [] : [s.run])));
  }
  return Object.values(doc).flatMap((job) => {
    if (job === null || typeof job !== 'object' || Array.isArray(job)) return [];
    return (['before_script', 'script', 'after_script'] as const).flatMap((k) => {
      const v = job[k];
      return v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)];
    });
  });
}

/** The arguments after `lp-conformance` of each invocation in the example's scripts. */
function invocations(file: string): string[][] {
  return scripts(file)
    .flatMap((script) => script.replace(/\\\n/g, ' ').split('\n'))
    .map(words)
    .filter((w) => w.includes('lp-conformance'))
    .map((w) => w.slice(w.indexOf('lp-conformance') + 1));
}

/** Environment variable names that carry credentials: those the bundled profile reads. */
function credentialVariables(): string[] {
  type Refs = { env: string } | { [key: string]: Refs };
  const profile = parse(readFileSync(join(ROOT, 'fixtures/profiles/reference.yaml'), 'utf8')) as { credentials: Record<string, Refs> };
  // The Integration API's variables, then each family's (credentials.scim, credentials.learner, …), an
  // OAuth client's within them (credentials.scim.oauth).
  const envs = (c: Refs): string[] => (typeof c.env === 'string' ? [c.env] : Object.values(c as Record<string, Refs>).flatMap(envs));
  return Object.values(profile.credentials).flatMap(envs);
}

/** Every string in the document, with its path. */
function* strings(node: Json, path = ''): Generator<[string, string]> {
  if (typeof node === 'string') yield [path, node];
  else if (Array.isArray(node)) for (const [i, v] of node.entries()) yield* strings(v, `${path}[${i}]`);
  else if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) yield* strings(v, `${path}.${k}`);
}

/** Runs a shell command line in `cwd`: how a CI runner runs a script line. */
const sh = (command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runShell(command, { cwd, env });

/** The example's install step: its one `npm ci` (or `npm install`) line. */
function installStep(file: string): string {
  const steps = scripts(file).filter((script) => /^npm (ci|install)\b/.test(script.trim()));
  expect(steps, `${file}: one install step`).toHaveLength(1);
  return steps[0]!.trim();
}

/** An install line as this environment runs it: --prefer-offline is NPM_OFFLINE's for every install. */
const sameInstall = (line: string): string =>
  words(line)
    .filter((w) => w !== '--prefer-offline')
    .join(' ');

/** The example's script lines that run lp-conformance, as written. */
const runSteps = (file: string): string[] => scripts(file).filter((script) => /\blp-conformance\b/.test(script));
const runStep = (file: string): string => runSteps(file)[0]!;

// A repository set up as docs/ci/README.md says, once; then, per example, a copy of it in which the
// example's install step runs, and in which its command line runs as written (LPC_TARGET_URL a
// closed local port, a baseline file present). npm's cache on this machine holds every package (a
// CI runner has the registry): offline is preferred, and nothing is downloaded when it does.
interface Installed {
  install: CliResult;
  version: CliResult;
  help: CliResult;
  run: CliResult;
}
const installed = new Map<string, Installed>();
/** Each lp-conformance line of a sharded example, run as written in its platform's installed repository. */
const shardedRuns = new Map<string, CliResult[]>();
const NPM_OFFLINE = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const dir = mkdtempSync(join(tmpdir(), 'lpc-ci-'));
// The scratch repositories hold an install (about 150 MB): not left behind.
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  const base = join(dir, 'gate');
  mkdirSync(join(base, 'vendor'), { recursive: true });
  // `npm pack`, as the README says; its prepare (the build) already ran: npm test builds first.
  const pack = await sh(`npm pack --ignore-scripts --pack-destination ${JSON.stringify(join(base, 'vendor'))}`, ROOT, NPM_OFFLINE);
  expect(pack.code, pack.stderr).toBe(0);
  const tarball = readdirSync(join(base, 'vendor')).find((f) => f.endsWith('.tgz'))!;
  expect(tarball).toMatch(/^lp-conformance-\d+\.\d+\.\d+\.tgz$/);
  writeFileSync(join(base, 'package.json'), '{ "name": "gate", "private": true }\n');
  // The README's `npm install --save-dev --save-exact ./vendor/…` (only the lock: each example installs).
  const pin = await sh(`npm install --save-dev --save-exact --package-lock-only ./vendor/${tarball}`, base, NPM_OFFLINE);
  expect(pin.code, pin.stderr).toBe(0);
  expect(JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'))).toMatchObject({ devDependencies: { 'lp-conformance': `file:vendor/${tarball}` } });
  const env = { ...Object.fromEntries(credentialVariables().map((v) => [v, 'dry-run'])), LPC_TARGET_URL: 'http://127.0.0.1:9' };
  // Each example in a repository of its own. An install step that is another example's in this
  // environment (the same line once --prefer-offline, which NPM_OFFLINE sets for every install, is
  // left out) installs the same tree from the same lock file: that example's repository shares the
  // first one's node_modules instead of a second install (about as much CPU as a whole test file).
  const installs = new Map<string, { install: CliResult; modules: string }>();
  for (const file of [GITHUB, GITLAB]) {
    const repo = join(dir, file.replace(/\W/g, '-'));
    mkdirSync(join(repo, 'vendor'), { recursive: true });
    for (const f of ['package.json', 'package-lock.json', `vendor/${tarball}`]) copyFileSync(join(base, f), join(repo, f));
    writeFileSync(join(repo, 'lp-conformance-baseline.yml'), 'failures: []\n');
    mkdirSync(join(repo, '.tmp'));
    const line = installStep(file);
    const same = installs.get(sameInstall(line));
    if (same) symlinkSync(same.modules, join(repo, 'node_modules'), 'dir');
    const install = same?.install ?? (await sh(line, repo, NPM_OFFLINE));
    if (!same) installs.set(sameInstall(line), { install, modules: join(repo, 'node_modules') });
    // The installed command itself for --version and --help (npx finds the same one; the run step uses it).
    const version = await sh('node_modules/.bin/lp-conformance --version', repo);
    const help = await sh('node_modules/.bin/lp-conformance --help', repo);
    // Its caches (vitest's module cache, one per installation) inside the scratch repository.
    installed.set(file, { install, version, help, run: await sh(runStep(file), repo, { ...env, TMPDIR: join(repo, '.tmp') }) });
    // The sharded example installs as its platform's does (asserted below), so it runs in that repository.
    const sharded = SHARDED[file]!;
    const runs: CliResult[] = [];
    for (const step of runSteps(sharded)) runs.push(await sh(step, repo, { ...env, ...SHARD_ENV[sharded], TMPDIR: join(repo, '.tmp') }));
    shardedRuns.set(sharded, runs);
  }
});

describe.each([
  { file: GITHUB, schema: 'github-workflow.json' },
  { file: GITLAB, schema: 'gitlab-ci.json' },
])('$file', ({ file, schema }) => {
  test(`is valid against ${schema}`, () => {
    const validate = compile(schema);
    expect(validate(load(file)), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The schema is not vacuous: a job without a runner, or with an artifact rule GitLab lacks, is refused.
    const broken = load(file);
    if (file === GITHUB) delete (broken.jobs as Record<string, Obj>).conformance!['runs-on'];
    else ((broken.conformance as Obj).artifacts as Obj).when = 'sometimes';
    expect(validate(broken)).toBe(false);
  });

  test('its install step installs lp-conformance from the tarball the repository holds', () => {
    const { install, version } = installed.get(file)!;
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toMatch(/^lp-conformance \d+\.\d+\.\d+\n$/);
  });

  test('runs lp-conformance once, with flags the CLI knows and values it accepts', () => {
    const runs = invocations(file);
    expect(runs).toHaveLength(1);
    const argv = runs[0]!;
    expect(argv[0]).toBe('run');
    // The deployed target comes from a variable; the report paths are where the uploads look.
    expect(argv.slice(argv.indexOf('--target'), argv.indexOf('--target') + 2)).toEqual(['--target', '$LPC_TARGET_URL']);
    expect(argv.slice(argv.indexOf('--baseline'), argv.indexOf('--baseline') + 2)).toEqual(['--baseline', 'lp-conformance-baseline.yml']);
    expect(argv).toContain('--junit');
    const { help, run } = installed.get(file)!;
    for (const flag of argv.filter((a) => a.startsWith('--'))) expect(help.stdout, `${flag} is not in lp-conformance --help`).toContain(`${flag} `);
    // The command as written, by the installed tool: the option table is strict (flag names and arity), the
    // baseline is read and checked, and every value (numbers, the URL) is validated before the target
    // is contacted, so against a closed port the run must get as far as "unreachable" (exit 2).
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^lp-conformance: [\w ]+ at http:\/\/127\.0\.0\.1:9\/?\S* is unreachable/);
  });

  test('writes no secret inline: credentials are variable references only', () => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const credentials = credentialVariables();
    // The bundled server's sandbox secrets are the likeliest to be pasted in.
    for (const value of ['lpc-sandbox-key', 'lpc-sandbox-password', 'lpc-sandbox-private-key', 'lpc.admin']) expect(text).not.toContain(value);
    const doc = load(file);
    for (const [path, value] of strings(doc)) {
      const key = path.slice(path.lastIndexOf('.') + 1);
      if (credentials.includes(key) || /key|token|password|secret|private/i.test(key)) {
        if (file === GITHUB) expect(value, path).toMatch(/^\$\{\{ secrets\.[A-Z0-9_]+ \}\}$/);
        else expect.fail(`${path}: a credential is set in the file; it belongs in a masked CI/CD variable`);
      }
    }
    if (file === GITHUB) {
      // Each credential the profile reads is mapped from the secret of the same name, in the step's env.
      const step = ((doc.jobs as Record<string, Obj>).conformance!.steps as Obj[]).find((s) => typeof s.run === 'string' && s.run.includes('lp-conformance'))!;
      expect(step.env).toMatchObject(Object.fromEntries(credentials.map((v) => [v, `\${{ secrets.${v} }}`])));
      // No ${{ }} pasted into shell code: values reach the script through env only.
      for (const script of scripts(file)) expect(script).not.toContain('${{');
    } else {
      expect(Object.keys((doc.conformance as Obj).variables as Obj)).not.toContain('LPC_TARGET_URL');
    }
  });

  test('uploads the JUnit report whatever the verdict', () => {
    const doc = load(file);
    const argv = invocations(file)[0]!;
    const junit = argv[argv.indexOf('--junit') + 1]!;
    if (file === GITHUB) {
      const steps = (doc.jobs as Record<string, Obj>).conformance!.steps as Obj[];
      const upload = steps.find((s) => typeof s.uses === 'string' && s.uses.startsWith('actions/upload-artifact@'))!;
      expect(upload.if).toBe('${{ always() }}');
      expect(junit.startsWith(String((upload.with as Obj).path))).toBe(true);
      expect((steps.find((s) => typeof s.uses === 'string' && s.uses.startsWith('actions/setup-node@'))!.with as Obj).cache).toBe('npm');
      expect(Object.keys(doc.on as Obj)).toContain('schedule');
    } else {
      const artifacts = (doc.conformance as Obj).artifacts as Obj;
      expect(artifacts.when).toBe('always');
      expect((artifacts.reports as Obj).junit).toBe(junit);
      expect(((doc.conformance as Obj).cache as { key: { files: string[] } }).key.files).toEqual(['package-lock.json']);
    }
  });
});

describe.each([
  { file: GITHUB_SHARDS, single: GITHUB, schema: 'github-workflow.json' },
  { file: GITLAB_SHARDS, single: GITLAB, schema: 'gitlab-ci.json' },
])('$file', ({ file, single, schema }) => {
  test(`is valid against ${schema}`, () => {
    const validate = compile(schema);
    expect(validate(load(file)), JSON.stringify(validate.errors, null, 2)).toBe(true);
    if (file === GITLAB_SHARDS) expect(validate(load(GITLAB_SHARDS_TRIGGER)), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  test(`installs as ${single} does`, () => {
    const steps = scripts(file).filter((script) => /^npm (ci|install)\b/.test(script.trim()));
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(step.trim()).toBe(installStep(single));
  });

  test('runs one shard per matrix job and merges their JSON reports, with flags the CLI knows', () => {
    const [shard, merge] = invocations(file) as [string[], string[]];
    expect(invocations(file)).toHaveLength(2);
    expect(shard[0]).toBe('run');
    expect(shard[shard.indexOf('--shard') + 1]).toBe(file === GITHUB_SHARDS ? '$LPC_SHARD' : '$CI_NODE_INDEX/$CI_NODE_TOTAL');
    expect(shard).toContain('--seed');
    expect(shard.slice(shard.indexOf('--target'), shard.indexOf('--target') + 2)).toEqual(['--target', '$LPC_TARGET_URL']);
    // The merge reads every shard's --json report, where the shard jobs wrote them and the merge job finds them.
    expect(merge[0]).toBe('merge');
    const json = shard[shard.indexOf('--json') + 1]!;
    const glob = merge[1]!;
    expect(glob).toMatch(/^shards\/\*\/run\.json$/);
    if (file === GITLAB_SHARDS) expect(json).toBe('shards/$CI_NODE_INDEX/run.json');
    else expect(json).toBe('reports/run.json');
    const { help } = installed.get(single)!;
    for (const flag of [...shard, ...merge].filter((a) => a.startsWith('--')))
      expect(help.stdout, `${flag} is not in lp-conformance --help`).toContain(`${flag} `);
    // As written, by the installed tool: the shard gets past its flags and plans its shard (the target
    // a closed port), and the merge, finding no shard report, names the missing file.
    const [shardRun, mergeRun] = shardedRuns.get(file)!;
    expect(shardRun!.code, shardRun!.stderr).toBe(2);
    expect(shardRun!.stderr).toMatch(/^lp-conformance: Integration API at http:\/\/127\.0\.0\.1:9\/? is unreachable/);
    expect(mergeRun!.code, mergeRun!.stderr).toBe(2);
    expect(mergeRun!.stderr).toBe('lp-conformance: shards/*/run.json: no such file\n');
  });

  test('writes no secret inline', () => {
    const doc = load(file);
    const credentials = credentialVariables();
    for (const [path, value] of strings(doc)) {
      const key = path.slice(path.lastIndexOf('.') + 1);
      if (credentials.includes(key) || /key|token|password|secret|private/i.test(key)) {
        if (file === GITHUB_SHARDS) expect(value, path).toMatch(/^\$\{\{ secrets\.[A-Z0-9_]+ \}\}$/);
        else expect.fail(`${path}: a credential is set in the file; it belongs in a masked CI/CD variable`);
      }
    }
    for (const script of scripts(file)) expect(script).not.toContain('${{');
  });

  test("keeps every shard's reports and merges them whatever the shards' verdicts; one run at a time", () => {
    const doc = load(file);
    if (file === GITHUB_SHARDS) {
      const jobs = doc.jobs as Record<string, Obj>;
      expect((jobs.shard!.strategy as Obj)['fail-fast']).toBe(false);
      const upload = (jobs.shard!.steps as Obj[]).find((s) => typeof s.uses === 'string' && s.uses.startsWith('actions/upload-artifact@'))!;
      expect(upload.if).toBe('${{ !cancelled() }}');
      expect(jobs.merge!.needs).toBe('shard');
      expect(jobs.merge!.if).toBe('${{ !cancelled() }}');
      const download = (jobs.merge!.steps as Obj[]).find((s) => typeof s.uses === 'string' && s.uses.startsWith('actions/download-artifact@'))!;
      expect(download.with).toMatchObject({ path: 'shards/' });
      expect(String((upload.with as Obj).name)).toMatch(new RegExp(`^${String((download.with as Obj).pattern).replace('*', '')}`));
      // The workflow's concurrency group holds every job of a run.
      expect(doc.concurrency).toMatchObject({ group: 'lp-conformance', 'cancel-in-progress': false });
    } else {
      const shard = doc.conformance as Obj;
      expect(shard.parallel).toBe(3);
      expect(shard.resource_group).toBeUndefined();
      expect((shard.artifacts as Obj).when).toBe('always');
      const merge = doc.merge as Obj;
      expect(merge.needs).toEqual([{ job: 'conformance', artifacts: true }]);
      expect(merge.rules).toEqual([{ when: 'always' }]);
      expect((merge.artifacts as Obj).when).toBe('always');
      // Two runs never overlap: the trigger job of the child pipeline holds the resource group until it ends.
      const trigger = load(GITLAB_SHARDS_TRIGGER).conformance as Obj;
      expect(trigger.resource_group).toBeTruthy();
      expect(trigger.trigger).toEqual({ include: 'ci/lp-conformance-shards.yml', strategy: 'depend' });
    }
  });
});
