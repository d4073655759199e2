/**
 * Runs the conformance suites (suites/*.check.ts) with vitest's Node API and turns the results into
 * the run model. The target is reached only over HTTP by the suites; this module never sees it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, createVitest } from 'vitest/node';
import type { TestCase, TestModule, TestSpecification } from 'vitest/node';
import { INVARIANTS } from '../checks/invariants.js';
import type { Profile } from '../profile/index.js';
import type { CheckMeta, CheckResult, CheckRunMeta, RunResult } from './model.js';
import './task-meta.js';
import { idMatcher, testNamePattern } from './select.js';

export interface RunOptions {
  profile: Profile;
  seed: number;
  runs: number;
  only?: string[];
  path?: string;
  replayPath?: string;
  /** The command line that repeats this run, for replay lines. */
  replayBase: string;
  timeoutMs: number;
}

/** The installed package's root (where suites/ and contracts/ are), from dist/ or from source. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'lp-conformance') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('lp-conformance: cannot find the package root');
    dir = parent;
  }
}

/** Suite files run in path order, the same in every run (vitest's default orders by past durations). */
class PathOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

async function vitestFor(options: Omit<RunOptions, 'replayBase'> & { replayBase?: string }, namePattern?: RegExp) {
  return createVitest(
    'test',
    {
      root: packageRoot(),
      config: false,
      include: ['suites/**/*.check.ts'],
      watch: false,
      // A reporter with no hooks keeps vitest quiet: our own reporters print the result.
      reporters: [{}],
      pool: 'threads',
      maxWorkers: 1,
      // One file after the other: list checks read whole collections that other checks write.
      fileParallelism: false,
      isolate: false,
      sequence: { sequencer: PathOrder },
      testTimeout: 30 * 60_000,
      hookTimeout: 60_000,
      ...(namePattern ? { testNamePattern: namePattern } : {}),
      provide: {
        lpc: {
          profile: options.profile,
          seed: options.seed,
          runs: options.runs,
          ...(options.path ? { path: options.path } : {}),
          ...(options.replayPath ? { replayPath: options.replayPath } : {}),
          replayBase: options.replayBase ?? 'lp-conformance run',
          timeoutMs: options.timeoutMs,
        },
      },
    },
    { server: { watch: null }, cacheDir: join(tmpdir(), 'lp-conformance-vite') },
  );
}

function* testsOf(modules: readonly TestModule[]): Generator<TestCase> {
  for (const m of modules) yield* m.children.allTests();
}

/** Every check id, level and anchor, invariants included, without running anything (`--list`). */
export async function listChecks(profile: Profile): Promise<CheckMeta[]> {
  const vitest = await vitestFor({ profile, seed: 0, runs: 0, timeoutMs: 0 });
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    if (unhandledErrors.length > 0) throw new Error(`suites failed to load: ${String(unhandledErrors[0])}`);
    const loadErrors = testModules.flatMap((m) => m.errors().map((e) => `${m.moduleId}: ${e.message}`));
    if (loadErrors.length > 0) throw new Error(`suites failed to load: ${loadErrors[0]}`);
    const checks: CheckMeta[] = [];
    for (const t of testsOf(testModules)) {
      const check = t.meta().check;
      if (check) checks.push(check);
    }
    return [...checks, ...INVARIANTS];
  } finally {
    await vitest.close();
  }
}

function resultOf(t: TestCase, options: RunOptions): CheckResult | undefined {
  const check = t.meta().check;
  const lpc = t.meta().lpc;
  if (!check) return undefined;
  const state = t.result().state;
  const durationMs = t.diagnostic()?.duration ?? 0;
  const coverage = lpc?.coverage ? { coverage: lpc.coverage } : {};
  if (state === 'failed') {
    const failure = lpc?.failure ?? {
      expected: 'the check to run to its verdict',
      received: t.result().errors?.[0]?.message ?? 'an error in the harness',
      replay: `${options.replayBase} --only ${check.id} --seed ${options.seed}`,
    };
    return { ...check, status: 'failed', durationMs, failure, ...coverage };
  }
  if (state === 'skipped') {
    return { ...check, status: 'skipped', durationMs, ...(lpc?.skipReason ? { skipReason: lpc.skipReason } : {}), ...coverage };
  }
  return { ...check, status: state === 'passed' ? 'passed' : 'skipped', durationMs, ...coverage };
}

const NOT_OBSERVED: Readonly<Record<string, string>> = {
  'intapi.invariant.no-5xx': 'no exchange was made',
  'intapi.invariant.json-content-type': 'no answer had a body',
  'intapi.invariant.success-body-matches-contract': 'no 2xx answer was seen',
  'intapi.invariant.error-body-matches-contract': 'no 4xx answer was seen',
  'intapi.invariant.error-code-equals-status': 'no 4xx answer was seen',
};

function invariantResults(metas: readonly CheckRunMeta[], select: (id: string) => boolean, options: RunOptions): CheckResult[] {
  return INVARIANTS.filter((inv) => select(inv.id)).map((inv): CheckResult => {
    const applied = metas.reduce((n, m) => n + (m.applied[inv.id] ?? 0), 0);
    if (applied === 0) return { ...inv, status: 'skipped', durationMs: 0, skipReason: NOT_OBSERVED[inv.id] ?? 'not observed' };
    const count = metas.reduce((n, m) => n + (m.violationCounts[inv.id] ?? 0), 0);
    const first = metas.flatMap((m) => m.violations).find((v) => v.invariant === inv.id);
    if (count === 0 || !first) return { ...inv, status: 'passed', durationMs: 0 };
    return {
      ...inv,
      status: 'failed',
      durationMs: 0,
      failure: {
        expected: first.expected,
        received: `${count} violation${count === 1 ? '' : 's'}; first at ${first.operation} in check ${first.checkId}: ${first.received}`,
        ...(first.curl ? { curl: first.curl } : {}),
        operation: first.operation,
        replay: `${options.replayBase} --only ${first.checkId} --seed ${options.seed}`,
      },
    };
  });
}

export async function runSuites(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const select = idMatcher(options.only);
  // Invariants are observed on the exchanges of other checks: selecting only invariants runs
  // every requirement and reports just the invariants.
  const onlyInvariants = options.only?.every((p) => p.startsWith('intapi.invariant')) ?? false;
  const pattern = options.only && !onlyInvariants ? testNamePattern(options.only) : undefined;
  const vitest = await vitestFor(options, pattern);
  const checks: CheckResult[] = [];
  const metas: CheckRunMeta[] = [];
  try {
    await vitest.start();
    const modules = vitest.state.getTestModules();
    for (const m of modules) {
      for (const e of m.errors()) {
        // One check per file that does not load, named after it, so that none hides another.
        checks.push({
          id: `lpc.harness.load.${m.relativeModuleId.replace(/[^A-Za-z0-9]+/g, '-')}`,
          level: 'MUST',
          spec: 'lpc#harness',
          title: `The suite file ${m.relativeModuleId} loads`,
          area: 'lpc.harness',
          status: 'failed',
          durationMs: 0,
          failure: { expected: 'the suite file to load', received: e.message, replay: options.replayBase },
        });
      }
    }
    for (const t of testsOf(modules)) {
      const lpc = t.meta().lpc;
      if (lpc) metas.push(lpc);
      const r = resultOf(t, options);
      if (r && select(r.id) && !(r.status === 'skipped' && !lpc)) checks.push(r);
    }
  } finally {
    await vitest.close();
  }
  const requests = metas.reduce((n, m) => n + m.requests, 0);
  checks.push(...invariantResults(metas, select, options));
  return {
    targets: Object.fromEntries(
      Object.entries(options.profile.families).flatMap(([k, v]) => (v && typeof v === 'object' && 'baseUrl' in v ? [[k, String(v.baseUrl)]] : [])),
    ),
    profileName: options.profile.name,
    seed: options.seed,
    runs: options.runs,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    checks,
    requests,
  };
}
