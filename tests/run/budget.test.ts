// The request budget (suites/_harness/budget.ts, docs/decisions/core/large-targets.md "Large targets: the request budget"):
// against a large collection the list checks sample it, pass against the bundled server, make far
// fewer requests than reading the collection would, say that they sampled, and still fail under a
// fault. Runs the built command line against `run --scale 20000`.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RunResult } from '../../src/runner/base/model.js';
import { COMPLETENESS_PROBES, LARGE_COLLECTION, surveyBudget, WALK_PAGES, windowPage } from '../../suites/_harness/budget.js';
import { runCli } from '../support/cli.js';
import { expectValidReport } from '../support/run-schema.js';

const SCALE = 20_000;
const RUNS = 10;
const MAX_OFFSET = 65_535; // the reference profile's maxOffset
const PAGE = windowPage(1000); // the reference profile's maxLimit: pages of 1000
/** The most requests one property run of a sampled check makes: a walk's pages, or a filtered head
 * (3 pages of 1000) with its id look-ups; plus the end page of a total-items run. */
const PER_RUN = Math.max(WALK_PAGES, Math.ceil(LARGE_COLLECTION / PAGE) + 1 + COMPLETENESS_PROBES + 1);
/** A sampled check: its survey, its runs, and a few requests of its own (set-up, creates). */
const PER_CHECK = surveyBudget(MAX_OFFSET, PAGE) + RUNS * PER_RUN + 10;
// The large collections of `--scale` (resources, submissions); templates, banks and questions stay small.
const LARGE =
  /^intapi\.(v1\.resources|v2\.resources|v2\.submissions)\.list\.(envelope\.(returned-items|limit-echo|offset-echo|total-items)|paging\.(?!filtered-sorted-walk-once|filtered-walk-once|sorted-walk-once)|limit\.|params\.deprecated|filter\.(matches-model|field-names)|sort\.(ascending|descending|multi-key)|default-order)/;

const CORE_LISTS = [
  'intapi.versions.resources.list.*',
  'intapi.v?.resources.list.*',
  'intapi.v2.submissions.list.*',
  'intapi.v2.templates.list.*',
  'intapi.v2.question*.list.*',
];

async function run(args: string[]): Promise<{ code: number | null; result: RunResult; out: string }> {
  const json = join(mkdtempSync(join(tmpdir(), 'lpc-budget-')), 'run.json');
  const r = await runCli(['run', '--seed', '1', '--scale', String(SCALE), '--runs', String(RUNS), '--json', json, ...args]);
  return { code: r.code, result: JSON.parse(readFileSync(json, 'utf8')) as RunResult, out: r.stdout + r.stderr };
}

describe(`the list checks against ${SCALE} records`, () => {
  test.concurrent('pass, say they sampled, and stay within the budget', async () => {
    // The lists of the core (the users lists sample with the same code, and would add a
    // third to the time; `run --scale 20000 --only 'intapi.v?.users.list.*'` passes too).
    const { code, result, out } = await run(CORE_LISTS.flatMap((pattern) => ['--only', pattern]));
    expect(code, out).toBe(0);
    const sampled = result.checks.filter((c) => LARGE.test(c.id));
    expect(sampled.length).toBeGreaterThan(30);
    for (const c of sampled) {
      expect(c.status, c.id).toBe('passed');
      expect(c.sampled?.collection, c.id).toBeGreaterThanOrEqual(SCALE);
      expect(c.sampled?.read, c.id).toBeLessThan(SCALE / 2);
      expect(c.requests, c.id).toBeLessThanOrEqual(PER_CHECK);
    }
    // The walks judged against a whole list (a filter's selection, a sorted collection, a filtered
    // sort with ties) need a survey read whole: on a large collection they are skipped, saying so,
    // and send no walk (docs/decisions/intapi/list-walks.md).
    const tied = result.checks.filter((c) =>
      /^intapi\.(v1\.resources|v2\.resources|v2\.submissions)\.list\.paging\.(filtered-sorted-walk-once|filtered-walk-once|sorted-walk-once)$/.test(c.id),
    );
    expect(tied.length).toBe(9);
    for (const c of tied) expect([c.id, c.status, c.skipReason]).toEqual([c.id, 'skipped', expect.stringMatching(/larger than a survey reads whole/)]);
    // The report, with `sampled`, follows the published schema.
    expectValidReport(result, 'a run that sampled');
    // Small collections are read whole, as always: not sampled.
    expect(result.checks.filter((c) => c.id.startsWith('intapi.v2.templates.') && c.sampled)).toEqual([]);
    // One walk at limit 1 alone would need SCALE requests; the whole selection stays far below.
    expect(result.requests).toBeLessThan(result.checks.length * PER_CHECK);
    expect(result.requests).toBeLessThan(SCALE / 4);
  });

  // The four faults in one run of the checks named below, those of the sampled collections (the
  // patterns' checks of the small lists add to the run's CPU and nothing to what this proves):
  // every run at this scale costs seconds of start-up and survey. Each fault breaks only its own
  // checks here (their negative controls' sweeps prove it over every list check), so each check below
  // fails for its own fault.
  const FAULTED: readonly [string, string, readonly string[]][] = [
    [
      'intapi.paging-item-offset',
      'intapi.*.list.paging.walk-once',
      ['intapi.v1.resources.list.paging.walk-once', 'intapi.v2.resources.list.paging.walk-once', 'intapi.v2.submissions.list.paging.walk-once'],
    ],
    [
      'intapi.filter-not-ignored',
      'intapi.*.list.filter.matches-model',
      ['intapi.v1.resources.list.filter.matches-model', 'intapi.v2.resources.list.filter.matches-model', 'intapi.v2.submissions.list.filter.matches-model'],
    ],
    [
      'intapi.sort-ignored',
      'intapi.*.list.sort.ascending',
      ['intapi.v1.resources.list.sort.ascending', 'intapi.v2.resources.list.sort.ascending', 'intapi.v2.submissions.list.sort.ascending'],
    ],
    [
      'intapi.envelope-total-counts-page',
      'intapi.*.list.envelope.total-items',
      ['intapi.v2.resources.list.envelope.total-items', 'intapi.v2.submissions.list.envelope.total-items'],
    ],
  ];
  let faulted: ReturnType<typeof run> | undefined;
  test.concurrent.each(FAULTED)('under %s, %s fails on the sampled collections', async (_fault, _only, mustFail) => {
    const { code, result, out } = await (faulted ??= run([
      '--faults',
      FAULTED.map(([fault]) => fault).join(','),
      ...FAULTED.flatMap(([, , ids]) => ids.flatMap((id) => ['--only', id])),
    ]));
    expect(code, out).toBe(1);
    for (const id of mustFail) {
      const c = result.checks.find((check) => check.id === id);
      expect(c?.status, `${id}: ${out}`).toBe('failed');
      expect(c?.sampled?.collection, id).toBeGreaterThanOrEqual(SCALE);
      expect(c?.requests, id).toBeLessThanOrEqual(PER_CHECK);
    }
  });
});
