// The CI examples in docs/ci/ are linted: each is valid against its platform's JSON Schema
// (vendored in fixtures/ci-schemas/, see SOURCE.md there), every `lp-conformance` command line in
// them goes through the real CLI's parser, and no secret is written inline, only referenced.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import { beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runMain, type CliResult } from './support/cli.js';

const GITHUB = 'docs/ci/github-actions.yml';
const GITLAB = 'docs/ci/gitlab-ci.yml';

/** Flags that name a file of the user's repository (absent here): the dry run as written stops at
 *  reading it; without them (and their values) it must get as far as contacting the target. */
const PENDING_FLAGS: Record<string, { takesValue: boolean }> = { '--baseline': { takesValue: true } };

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
  if (file === GITHUB) {
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
  type Ref = { env: string };
  const profile = parse(readFileSync(join(ROOT, 'fixtures/profiles/reference.yaml'), 'utf8')) as { credentials: Record<string, Ref | Record<string, Ref>> };
  // The Integration API's variables, then each family's (credentials.scim, credentials.learner, …).
  return Object.values(profile.credentials).flatMap((c) => (typeof c.env === 'string' ? [c.env] : Object.values(c as Record<string, Ref>).map((r) => r.env)));
}

/** Every string in the document, with its path. */
function* strings(node: Json, path = ''): Generator<[string, string]> {
  if (typeof node === 'string') yield [path, node];
  else if (Array.isArray(node)) for (const [i, v] of node.entries()) yield* strings(v, `${path}[${i}]`);
  else if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) yield* strings(v, `${path}.${k}`);
}

/** The example's invocation as the dry run sends it: the target variable replaced by a closed port. */
function dryArgs(file: string): string[] {
  return invocations(file)[0]!.map((a) => (a === '$LPC_TARGET_URL' ? 'http://127.0.0.1:9' : a));
}

/** The argv without the file flags (and their values). */
function withoutPending(args: string[]): string[] {
  return args.filter((a, i) => !(a in PENDING_FLAGS) && !(i > 0 && PENDING_FLAGS[args[i - 1]!]?.takesValue));
}

// --help, then for each example its command as written and without the file flags.
let help = '';
const dryRuns = new Map<string, { asWritten: CliResult; withoutPending: CliResult }>();
beforeAll(async () => {
  const files = [GITHUB, GITLAB];
  const env = Object.fromEntries(credentialVariables().map((v) => [v, 'dry-run']));
  const results = await runMain([['--help'], ...files.flatMap((f) => [dryArgs(f), withoutPending(dryArgs(f))])], env);
  expect(results[0]!.code).toBe(0);
  help = results[0]!.stdout;
  files.forEach((f, i) => dryRuns.set(f, { asWritten: results[1 + 2 * i]!, withoutPending: results[2 + 2 * i]! }));
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

  test('runs lp-conformance once, with flags the CLI knows and values it accepts', () => {
    const runs = invocations(file);
    expect(runs).toHaveLength(1);
    const argv = runs[0]!;
    expect(argv[0]).toBe('run');
    // The deployed target comes from a variable; the report paths are where the uploads look.
    expect(argv.slice(argv.indexOf('--target'), argv.indexOf('--target') + 2)).toEqual(['--target', '$LPC_TARGET_URL']);
    expect(argv.slice(argv.indexOf('--baseline'), argv.indexOf('--baseline') + 2)).toEqual(['--baseline', 'lp-conformance-baseline.yml']);
    expect(argv).toContain('--junit');
    const args = dryArgs(file);
    for (const flag of args.filter((a) => a.startsWith('--'))) expect(help, `${flag} is not in lp-conformance --help`).toContain(`${flag} `);
    expect(args.some((a) => a.includes('$'))).toBe(false);
    // The real parser, in a dry form: parseArgs is strict (flag names and arity), and every value
    // (numbers, the URL, the profile) is validated before the target is contacted, so against a
    // closed port the run must get as far as "unreachable" (exit 2), not stop at a bad flag.
    // (Faster than `--list`, which loads every suite, and it checks the values too.)
    const results = dryRuns.get(file)!;
    // The baseline is read (and checked) before the target is contacted: the example's baseline
    // lives in the user's repository, not here, so "no such file" is as far as it goes as written.
    expect(results.asWritten.code, results.asWritten.stderr).toBe(2);
    expect(results.asWritten.stderr).toMatch(/baseline \S*lp-conformance-baseline\.yml: no such file/);
    expect(results.withoutPending.code, results.withoutPending.stderr).toBe(2);
    expect(results.withoutPending.stderr).toMatch(/target http:\/\/127\.0\.0\.1:9\/? is unreachable/);
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
      expect(upload.if).toBe('${{ !cancelled() }}');
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
