// Exact replays (docs/reports.md "Reading a failure", docs/decisions/core/exact-replays.md "Exact replays"): the replay line of a
// failure, run as printed, repeats the failure (expected, received, counterexample) and sends the
// same requests, byte for byte, as the failing case of the original run.
//
// "The same requests": the requests of the failing check, as `--record` writes them (method, path
// and query, headers with secrets as ${VAR}, body), in order:
// - for a property failure, the requests of the failing case and of the shrinks tried after it,
//   i.e. those whose case (`x-lpc-case`, the run's fast-check path) is the counterexample path P or
//   begins with `P:`, together with the check's requests outside any property run (its set-up);
// - for any other failure, every request of the check.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CheckResult, RunResult } from '../../src/runner/base/model.js';
import type { RecordedRequest } from '../../suites/_harness/http.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'lpc-replay-'));

async function run(name: string, args: readonly string[]): Promise<{ result: RunResult; requests: RecordedRequest[] }> {
  const json = join(dir, `${name}.json`);
  const record = join(dir, `${name}.jsonl`);
  const r = await runCli([...args, '--json', json, '--junit', join(dir, `${name}.xml`), '--record', record]);
  expect(r.code, `${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(1);
  const requests = readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RecordedRequest);
  return { result: JSON.parse(readFileSync(json, 'utf8')) as RunResult, requests };
}

function failed(result: RunResult, id: string): CheckResult {
  const check = result.checks.find((c) => c.id === id);
  expect(check?.status, `${id}: ${JSON.stringify(check)}`).toBe('failed');
  return check as CheckResult;
}

/** The requests of the failing case: see the definition at the top. */
function caseRequests(requests: readonly RecordedRequest[], id: string, path: string | undefined): RecordedRequest[] {
  return requests.filter((r) => r.check === id && (path === undefined || r.case === undefined || r.case === path || r.case.startsWith(`${path}:`)));
}

/** Runs the original, then its failure's replay line; both must agree. */
async function expectExactReplay(name: string, original: readonly string[], id: string, replayFlags: RegExp[]): Promise<void> {
  const first = await run(`${name}-original`, original);
  const failure = failed(first.result, id).failure;
  const line = failure?.replay ?? '';
  // As the tool was started here (invocation.ts): npx from a clone.
  expect(line).toMatch(/^(npx )?lp-conformance run /);
  for (const flag of replayFlags) expect(line).toMatch(flag);
  const again = await run(`${name}-replay`, line.replace(/^(npx )?lp-conformance /, '').split(' '));
  expect(again.result.checks.map((c) => c.id)).toEqual([id]);
  const replayed = failed(again.result, id).failure;
  expect({ expected: replayed?.expected, received: replayed?.received, counterexample: replayed?.counterexample, replay: replayed?.replay }).toEqual({
    expected: failure?.expected,
    received: failure?.received,
    counterexample: failure?.counterexample,
    replay: line,
  });
  const path = / --path (\S+)/.exec(line)?.[1];
  const sent = caseRequests(first.requests, id, path);
  expect(sent.some((r) => path === undefined || r.case === path)).toBe(true);
  expect(caseRequests(again.requests, id, path).map((r) => JSON.stringify(r))).toEqual(sent.map((r) => JSON.stringify(r)));
}

describe('a replay line repeats the failing case exactly', () => {
  test('a bounds check under skip-rule (scope: the field)', async () => {
    await expectExactReplay(
      'bounds',
      [
        'run',
        '--faults',
        'intapi.skip-rule:submissions.create.title.maxLength',
        '--seed',
        '7',
        '--runs',
        '25',
        '--only',
        'intapi.v2.submissions.create.title.',
      ],
      'intapi.v2.submissions.create.title.above-max',
      [/--faults intapi.skip-rule:submissions\.create\.title\.maxLength/],
    );
  });

  test('a list filter property under intapi.filter-not-ignored (the whole Integration API run)', async () => {
    await expectExactReplay(
      'filter',
      ['run', '--faults', 'intapi.filter-not-ignored', '--seed', '3', '--runs', '10', '--only', 'intapi.*'],
      'intapi.v2.templates.list.filter.matches-model',
      [/ --path \d/],
    );
  });

  test('the model-based check under intapi.update-keeps-absent-fields (--replay-path)', async () => {
    await expectExactReplay(
      'stateful',
      ['run', '--faults', 'intapi.update-keeps-absent-fields', '--seed', '5', '--runs', '50', '--only', 'intapi.v2.stateful.model'],
      'intapi.v2.stateful.model',
      [/ --path \d/, / --replay-path \S/],
    );
  });
});
