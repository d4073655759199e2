// The CI action (action.yml at the repository root, a composite action) and its example workflow
// (docs/ci/github-action.yml). The action is checked for its shape (no schema of GitHub's action
// metadata is vendored in fixtures/ci-schemas; the workflow schema is, and the example passes it),
// and its shell steps are run as a runner would: each `run:` with bash -eo pipefail, its inputs and
// step outputs substituted for `${{ … }}`, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files of its own,
// against the bundled reference server (`serve`, with a fault so that a check fails). `npm ci` is a
// stub on PATH that notes where it ran: the tests run the built tool of this checkout.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT, serveCli } from '../support/cli.js';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number>;
  'working-directory'?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const EXAMPLE = 'docs/ci/github-action.yml';

/** The sandbox credentials `lp-conformance serve` takes (docs/sandbox.md). */
const SANDBOX_ENV = {
  LPC_API_KEY: 'lpc-sandbox-key',
  LPC_USERNAME: 'lpc.admin',
  LPC_PASSWORD: 'lpc-sandbox-password',
  LPC_PRIVATE_KEY: 'lpc-sandbox-private-key',
};
const FAILING = 'intapi.auth.wrong-key-401.templates';
const ONLY = `${FAILING},intapi.v2.templates.list.paging.walk-once`;

/** The `${{ … }}` expressions of a text. */
const expressions = (text: string) => [...text.matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)].map((m) => m[1] as string);

/** `text` with each `${{ inputs.x }}`, `${{ steps.id.outputs.y }}` and `${{ github.action_path }}`
 * replaced by its value, as the runner does before a step runs. */
function substitute(text: string, context: { inputs: Record<string, string>; steps: Record<string, Record<string, string>> }): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) return context.inputs[input[1] as string] ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output) return context.steps[output[1] as string]?.[output[2] as string] ?? '';
    if (expr === 'github.action_path') return ROOT;
    throw new Error(`an expression the test does not evaluate: ${expr}`);
  });
}

/** A GITHUB_OUTPUT file's `name=value` lines. */
const outputsOf = (file: string) =>
  Object.fromEntries(
    (existsSync(file) ? readFileSync(file, 'utf8') : '')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

interface Ran {
  /** Each shell step's exit status, by id or name. */
  status: Record<string, number | null>;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  npm: string;
  log: string;
}

/** Runs the action's shell steps in a fresh workspace, as a runner would, with `inputs` (the
 * defaults for the others) and `env` in every step; the `uses:` steps are left out. */
function runAction(given: Record<string, string>, env: NodeJS.ProcessEnv): Ran {
  const workspace = mkdtempSync(join(tmpdir(), 'lpc-action-'));
  const bin = join(workspace, '.stub-bin');
  mkdirSync(bin);
  const npmLog = join(workspace, '.npm-calls');
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$PWD $*" >> "${npmLog}"\n`);
  chmodSync(join(bin, 'npm'), 0o755);
  const summary = join(workspace, '.step-summary.md');
  writeFileSync(summary, '');
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, given[name] ?? spec.default ?? '']));
  const steps: Record<string, Record<string, string>> = {};
  const status: Record<string, number | null> = {};
  let log = '';
  let failed = false;
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.run === undefined || failed) continue;
    const key = step.id ?? step.name ?? String(i);
    const output = join(workspace, `.output-${i}`);
    writeFileSync(output, '');
    const script = join(workspace, `.step-${i}.sh`);
    writeFileSync(script, substitute(step.run, { inputs, steps }));
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, { inputs, steps })]));
    const cwd = step['working-directory'] ? substitute(step['working-directory'], { inputs, steps }) : workspace;
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      env: {
        ...process.env,
        ...env,
        NO_COLOR: '1',
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        GITHUB_ACTION_PATH: ROOT,
        GITHUB_WORKSPACE: workspace,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        ...stepEnv,
      },
      encoding: 'utf8',
      timeout: 10 * 60_000,
    });
    log += `--- ${key}\n${r.stdout}${r.stderr}`;
    status[key] = r.status;
    if (step.id) steps[step.id] = outputsOf(output);
    failed = r.status !== 0;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, o]) => [name, substitute(o.value, { inputs, steps })]));
  return { status, outputs, summary: readFileSync(summary, 'utf8'), workspace, npm: existsSync(npmLog) ? readFileSync(npmLog, 'utf8') : '', log };
}

describe('action.yml', () => {
  test('is a composite action: its inputs and outputs described, each shell step in bash, every expression one it declares', () => {
    expect(action.name).toBe('lp-conformance');
    expect(action.description.length).toBeGreaterThan(0);
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['target', 'profile', 'only', 'skip', 'baseline', 'args', 'node-version']));
    expect(action.inputs.target?.required).toBe(true);
    for (const [name, spec] of Object.entries({ ...action.inputs, ...action.outputs })) expect(spec.description, name).toBeTruthy();
    const ids = new Set(action.runs.steps.flatMap((s) => (s.id ? [s.id] : [])));
    for (const step of action.runs.steps) {
      expect(step.run === undefined ? step.uses : step.shell, JSON.stringify(step)).toBeTruthy();
      if (step.run !== undefined) {
        expect(step.shell).toBe('bash');
        // Inputs reach the scripts through env: none is pasted into shell code.
        expect(expressions(step.run), step.name).toEqual([]);
      }
      const texts = [step.if ?? '', ...Object.values(step.env ?? {}), ...Object.values(step.with ?? {}).map(String), step['working-directory'] ?? ''];
      for (const expr of texts.flatMap(expressions)) {
        for (const m of expr.matchAll(/inputs\.([\w-]+)/g)) expect(action.inputs, expr).toHaveProperty([m[1] as string]);
        for (const m of expr.matchAll(/steps\.([\w-]+)\./g)) expect(ids.has(m[1] as string), expr).toBe(true);
      }
    }
    for (const o of Object.values(action.outputs)) expect(o.value).toMatch(/^\$\{\{ steps\.[\w-]+\.outputs\.[\w-]+ \}\}$/);
    const uses = action.runs.steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses).toEqual(['actions/setup-node@v4', 'actions/upload-artifact@v4']);
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.if).toMatch(/always\(\)/);
    expect(upload?.with?.path).toBe('${{ inputs.reports }}');
  });

  test('the example workflow that uses it is valid against the GitHub workflow schema', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'fixtures/ci-schemas/github-workflow.json'), 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajvFormats.default(ajv);
    const validate = ajv.compile(schema);
    const workflow = parse(readFileSync(join(ROOT, EXAMPLE), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
    expect(validate(workflow), JSON.stringify(validate.errors)).toBe(true);
    const step = Object.values(workflow.jobs)
      .flatMap((j) => j.steps)
      .find((s) => s.uses?.includes('lp-conformance@'));
    expect(step?.with?.target).toBeTruthy();
    for (const name of Object.keys(step?.with ?? {})) expect(action.inputs, name).toHaveProperty([name]);
    // Secrets go in as environment variables, never as inputs.
    expect(
      Object.values(step?.with ?? {})
        .map(String)
        .join(' '),
    ).not.toMatch(/secrets\./);
    expect(Object.values(step?.env ?? {}).every((v) => /^\$\{\{ secrets\.LPC_[A-Z_]+ \}\}$/.test(v))).toBe(true);
  });
});

describe("the action's steps, run as a workflow would", () => {
  let served: { url: string; stop: () => Promise<void> };
  beforeAll(async () => {
    served = await serveCli(['--faults', 'intapi.accept-wrong-api-key']);
  });
  afterAll(() => served.stop());

  test('with a profile: installs in the action path, runs, fills the outputs, the job summary and the reports', () => {
    const profile = join(ROOT, 'fixtures/profiles/reference.yaml');
    const ran = runAction({ target: served.url, profile, only: ONLY, args: '--runs 3 --seed 4' }, SANDBOX_ENV);
    expect(ran.npm.trim()).toBe(`${ROOT} ci --no-audit --no-fund`);
    // The run's exit code fails the step (a check fails), and its outputs are set even so.
    expect(ran.status.run, ran.log).toBe(1);
    expect(ran.outputs).toMatchObject({ 'exit-code': '1', verdict: 'failed', profile });
    const reports = join(ran.workspace, 'lp-conformance-reports');
    for (const name of ['junit', 'markdown', 'html', 'json', 'har'] as const) {
      expect(ran.outputs[name], name).toMatch(/^lp-conformance-reports\//);
      expect(existsSync(join(ran.workspace, ran.outputs[name] as string)), name).toBe(true);
    }
    expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toContain(FAILING);
    const har = JSON.parse(readFileSync(join(reports, 'failures.har'), 'utf8')) as { log: { entries: { _check: string }[] } };
    expect(new Set(har.log.entries.map((e) => e._check))).toEqual(new Set([FAILING]));
    // The job summary is the Markdown report, which names the failure.
    expect(ran.summary.trim()).toBe(readFileSync(join(reports, 'summary.md'), 'utf8').trim());
    expect(ran.summary).toContain(FAILING);
    for (const secret of Object.values(SANDBOX_ENV)) expect(ran.log + ran.summary, secret).not.toContain(secret);
  });

  test('without a profile: init writes one beside the reports, and the run uses it', () => {
    const ran = runAction({ target: served.url, only: 'intapi.v2.templates.list.paging.walk-once', args: '--runs 2', 'artifact-name': '' }, SANDBOX_ENV);
    expect(ran.status.profile, ran.log).toBe(0);
    expect(ran.outputs.profile).toBe('lp-conformance-reports/profile.yaml');
    expect(existsSync(join(ran.workspace, 'lp-conformance-reports/profile.yaml'))).toBe(true);
    expect(ran.status.run, ran.log).toBe(0);
    expect(ran.outputs).toMatchObject({ 'exit-code': '0', verdict: 'passed' });
    expect(ran.summary).toMatch(/lp-conformance/);
  });
});
