// Negative controls: a check that no fault can make fail is not yet a check. For every fault of
// the reference server, the suite runs against a server with that fault on:
// - under the control's seed, the checks the fault must break fail, and nothing fails outside what
//   the fault may break (tests/controls/expectations.ts);
// - under a second seed, the checks it must break fail again: a control proves the fault is found,
//   not that one seed happens to find it;
// - each of those failures is the check's own verdict (expected/received of its rule), never an
//   error of the suite or a lost connection.
// Under the control's seed, the sweep's run counts as the detection when it made every mustFail
// check fail with its own verdict (the same fault and seed, its first runs); otherwise the detection runs.
// And every check id is in some fault's mustFail.
//
// All of it is ONE conformance run (tests/support/controls-run.mjs): one reference server per fault
// in one process, every (fault, seed) a target of the runner's matrix, scheduled together. The cost is
// the requests the controls' checks make, not a process and a vitest start per fault. Integration API
// sweeps of the same traced selection share runs, a few faults on one server, the checks each member
// allows run again under every other member's fault alone (controls-run.mjs groupSweeps).
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { LEARNER_FAULTS, listIntapiFaults, SCIM_FAULTS } from '../../reference-impl/index.js';
import { idMatcher } from '../../src/runner/select.js';
import { type Control, controlFor } from './expectations.js';
import { allowancesPerFamily } from '../support/allowances.js';
import { HANG_GUARD_MS, ROOT, runCli } from '../support/cli.js';
import { failuresMessage, runControls, type Found } from '../support/controls.js';

/** The control's own seed, then the seeds that must find its mustFail checks too. */
export const CONTROL_SEEDS = [11, 12] as const;
const DEFAULT_RUNS = 25;
/** Runs per property of a control's sweep ("nothing else fails", over its scope or its family).
 * Detection (mustFail) keeps the control's runs, under every seed; the sweep proves that the fault
 * leaves every other check's own logic alone, which two runs of each property exercise (every
 * non-property check runs whole). 5 runs made the sweeps of the 73 unscoped Integration API faults
 * over its 681 checks most of the controls' requests. */
const SWEEP_RUNS = 2;
const CONCURRENCY = 16;
/** Processes the controls' run is split into (tests/support/controls.ts runControls). */
const SHARDS = 2;

const isInvariant = (pattern: string): boolean => /^[a-z]+\.invariant\./.test(pattern);
const invariantsOnly = (control: Control): boolean => control.mustFail.every(isInvariant);

/** Runs per property of a control's detection. An invariant is judged on every exchange of its
 * detection's run (detectionOnly), so two runs give it many exchanges to see the fault in, as the
 * sweep does. */
function detectionRuns(control: Control): number {
  const runs = control.runs ?? DEFAULT_RUNS;
  return invariantsOnly(control) ? Math.min(runs, SWEEP_RUNS) : runs;
}

/** The checks an invariant-only control's detection runs beside its invariants, whose exchanges the
 * invariants are judged on: its scope's checks, or for an unscoped control a slice of its family whose
 * answers are of every kind an invariant judges (successes with bodies, refusals, lists). Selecting the
 * invariants alone would run the whole family (src/runner/run.ts runSelection): an invariant is judged
 * on every exchange, so a slice shows the fault as the family does, at a share of its requests (the
 * seed and the runs stay the detection's). A fault the slice does not show misses its detection: the
 * control then names the checks that show it (`observedIn`). */
const WITNESSES: Readonly<Record<string, readonly string[]>> = {
  intapi: ['intapi.auth.*', 'intapi.versions.*', 'intapi.v1.provinces.*', 'intapi.v2.provinces.*', 'intapi.v2.templates.*'],
  scim: ['scim.users.*', 'scim.groups.*', 'scim.errors.*'],
  learner: ['learner.catalog.*', 'learner.courses.*', 'learner.auth.*'],
};
function detectionOnly(control: Control): readonly string[] {
  if (!invariantsOnly(control)) return control.mustFail;
  const family = control.mustFail[0]?.split('.')[0] ?? '';
  const witnesses = control.observedIn ?? control.scope?.filter((p) => !isInvariant(p)) ?? WITNESSES[family] ?? [];
  return witnesses.length === 0 ? control.mustFail : [...control.mustFail, ...witnesses];
}

/** A control whose mustFail are invariants only and whose sweep is its whole family: its detection under
 * the control's seed would be the sweep's run again (the same family, seed, runs and fault, since
 * selecting an invariant runs its family), so the sweep's result is that detection's (about 2,300
 * requests each). Its sweep is not traced: it stands for that detection, which needs the whole family. */
const detectedBySweep = (control: Control): boolean => invariantsOnly(control) && control.scope === undefined && control.variant === undefined;

/** Every fault under control: the reference server's catalogues (Integration API, SCIM, learner API and player).
 * While developing, LPC_CONTROLS_FAULTS=prefix[,prefix] runs the controls of those faults only (and
 * skips the coverage test, which needs them all). */
const ONLY = (process.env.LPC_CONTROLS_FAULTS ?? '').split(',').filter((p) => p !== '');
const FAULTS = [...listIntapiFaults(), ...Object.keys(SCIM_FAULTS), ...Object.keys(LEARNER_FAULTS)].filter(
  (f) => ONLY.length === 0 || ONLY.some((p) => f.startsWith(p)),
);

/** A fault patches one entry of its family's behaviour table (reference-impl/intapi/behaviour.ts,
 * scim/behaviour.ts), so its sweep ("nothing else fails") covers its family's checks. */
const familyScope = (fault: string): string[] =>
  fault.startsWith('scim.') ? ['scim.*'] : fault.startsWith('learner.') || fault.startsWith('player.') ? ['learner.*', 'player.*'] : ['intapi.*'];

/** The Integration API faults without a scope sweep the checks that call an operation reading what
 * they change, as a trace of a run without the fault finds (tests/support/controls-run.mjs
 * traceScopes): about a third of the family for a fault of the lists. A fault whose change is read
 * by an operation that writes, or outside a request, still sweeps the whole family. */
const isTraced = (fault: string, control: Control): boolean =>
  control.scope === undefined && control.variant === undefined && !detectedBySweep(control) && familyScope(fault)[0] === 'intapi.*';

let ids: string[] = [];
let found: Record<string, Found> = {};

const sweepKey = (fault: string) => `${fault}@sweep`;
const keyOf = (fault: string, seed: number) => (seed === CONTROL_SEEDS[0] && detectedBySweep(controlFor(fault)) ? sweepKey(fault) : `${fault}@${seed}`);

beforeAll(async () => {
  const r = await runCli(['run', '--list']);
  ids = r.stdout
    .split('\n')
    .filter((l) => /^[a-z]+\.[a-z0-9]/.test(l))
    .map((l) => l.split(/\s+/)[0] ?? '');
  expect(ids.length).toBeGreaterThan(300);
  const targets = FAULTS.flatMap((fault) => {
    const control = controlFor(fault);
    const runs = detectionRuns(control);
    const variant =
      control.variant === undefined ? {} : { variant: control.variant, profile: join(ROOT, 'fixtures', 'profiles', `scim-${control.variant}.yaml`) };
    return [
      {
        key: sweepKey(fault),
        fault,
        seed: CONTROL_SEEDS[0],
        runs: Math.min(runs, SWEEP_RUNS),
        only: control.scope ?? familyScope(fault),
        // A traced sweep may share a run with other faults' of the same selection (controls-run.mjs
        // groupSweeps). Not a scoped one: its run is small, and its detection under this seed would
        // then run on its own, which costs more than sharing saves.
        ...(isTraced(fault, control)
          ? { traced: true, shares: { allowed: resolveIds([...control.mustFail, ...(control.mayFail ?? [])]), mustFail: resolveIds(control.mustFail) } }
          : {}),
        ...variant,
      },
      ...CONTROL_SEEDS.filter((seed) => keyOf(fault, seed) !== sweepKey(fault)).map((seed) => ({
        key: keyOf(fault, seed),
        fault,
        seed,
        runs,
        only: detectionOnly(control),
        ...variant,
        // Under the sweep's seed, a sweep that made every mustFail check fail with its own verdict has
        // shown the detection (the same fault, seed and first runs): the target runs only otherwise.
        ...(seed === CONTROL_SEEDS[0] ? { unlessFailedIn: { key: sweepKey(fault), ids: ids.filter(idMatcher(control.mustFail)) } } : {}),
      })),
    ];
  });
  const result = await runControls({ concurrency: CONCURRENCY, targets, shards: SHARDS });
  const sweeps = Object.entries(result.targets).filter(([key]) => key.endsWith('@sweep'));
  const narrowed = sweeps.filter(([, t]) => t.traced && t.traced.checks.length > 0).length;
  const traced = sweeps.filter(([, t]) => t.traced).length;
  const shown = Object.values(result.targets).filter((t) => t.from !== undefined).length;
  const shared = sweeps.filter(([, t]) => t.shared?.startsWith('swept in one run with')).length;
  process.stdout.write(
    `negative controls: ${Object.keys(result.targets).length} targets, ${result.requests} requests in ${(result.durationMs / 1000).toFixed(1)} s; ` +
      `${narrowed} of ${traced} traced sweeps narrowed; ${shared} of ${sweeps.length} sweeps in shared runs; ${shown} detections shown by their sweep\n`,
  );
  found = result.targets;
}, 2 * HANG_GUARD_MS);

/** The check ids the patterns name (none for none: idMatcher([]) would select every check); a
 * pattern that names none is an error in the table. */
function resolveIds(patterns: readonly string[]): string[] {
  if (patterns.length === 0) return [];
  const dead = patterns.filter((p) => !ids.some(idMatcher([p])));
  if (dead.length > 0) throw new Error(`patterns that name no check: ${dead.join(', ')}`);
  return ids.filter(idMatcher(patterns));
}

function resultOf(key: string): Found {
  const r = found[key];
  if (!r) throw new Error(`no result for ${key}`);
  return r;
}

describe('every fault makes its checks fail, under every seed, and nothing else', () => {
  test.each(FAULTS)('%s', (fault) => {
    const control = controlFor(fault);
    const must = resolveIds(control.mustFail);
    const may = new Set([...must, ...resolveIds(control.mayFail ?? [])]);
    for (const seed of CONTROL_SEEDS) {
      const r = resultOf(keyOf(fault, seed));
      // A mustFail check that passed, or failed without a verdict (a transport failure, an error of
      // the suite), is listed with its failure.
      const verdicts = r.failed.filter((f) => f.cause === undefined).map((f) => f.id);
      const missed = must.filter((id) => !verdicts.includes(id));
      expect(missed, failuresMessage(`${fault}, seed ${seed}: checks that did not fail with their own verdict`, missed, r)).toEqual([]);
    }
    const sweep = resultOf(sweepKey(fault));
    const unexpected = sweep.failed.map((f) => f.id).filter((id) => !may.has(id));
    // A shared sweep says so: the checks other members allow were run under this fault alone.
    const how = sweep.shared ? ` (${sweep.shared})` : '';
    expect(unexpected, failuresMessage(`${fault}: checks that failed and should not have${how}`, unexpected, sweep)).toEqual([]);
  });
});

/**
 * The checks the controls allow to fail beside each fault's own, per family ((fault, check) pairs,
 * and the faults with any): docs/decisions/core/verdicts.md ("One deviation, one failure") says
 * why each is allowed. A change that allows more, or fewer, changes
 * them here and there.
 */
const ALLOWANCES = {
  intapi: { allowances: 1097, faults: 135 },
  scim: { allowances: 9, faults: 9 },
  learner: { allowances: 20, faults: 11 },
};

/** Faults of SCIM paging (the sorting stays correct) and of value comparisons (the keywords stay case-insensitive). */
const PAGING_FAULTS = [
  'scim.pagination-zero-based',
  'scim.count-uncapped',
  'scim.count-plus-one',
  'scim.default-count-100',
  'scim.start-index-below-one-rejected',
  'scim.negative-count-default',
  'scim.count-zero-default-page',
  'scim.past-end-returns-first-page',
  'scim.items-per-page-requested',
  'scim.total-results-page-size',
];
const VALUE_FAULTS = [
  'scim.filter-username-case-sensitive',
  'scim.filter-strings-case-sensitive',
  'scim.filter-case-exact-ignored',
  'scim.filter-dates-as-strings',
  'scim.filter-multivalued-first-only',
];

describe('one deviation, one failure', () => {
  test.skipIf(ONLY.length > 0)("the checks allowed to fail beside a fault's own, per family, are the documented figures", () => {
    expect(allowancesPerFamily(FAULTS, controlFor, (fault, control) => control.scope ?? familyScope(fault), ids)).toEqual(ALLOWANCES);
  });

  test.each(FAULTS.filter((f) => PAGING_FAULTS.includes(f)))('%s: against a server whose sorting is correct, no scim.sort check fails', (fault) => {
    expect(resultOf(sweepKey(fault)).failed.filter((f) => f.id.startsWith('scim.sort.'))).toEqual([]);
  });

  test.each(FAULTS.filter((f) => VALUE_FAULTS.includes(f)))('%s: against a server whose keywords are case-insensitive, the keyword check passes', (fault) => {
    const sweep = resultOf(sweepKey(fault));
    const keywords = 'scim.filter.logical-keywords-case-insensitive';
    expect([...sweep.failed, ...sweep.skipped].filter((c) => c.id === keywords)).toEqual([]);
  });
});

describe('every check has a negative control', () => {
  test.skipIf(ONLY.length > 0)("each listed check id is in some fault's mustFail", () => {
    const covered = new Set(FAULTS.flatMap((f) => resolveIds(controlFor(f).mustFail)));
    expect(ids.filter((id) => !covered.has(id))).toEqual([]);
  });
});
