// Differential runs (`run --compare`, src/runner/compare.ts, docs/decisions/core/compare.md "Differential runs"):
// the comparison of two exchange sequences, then whole runs: the bundled server against itself
// (no difference), a faulty server against a sound one (the affected checks' compare checks fail
// naming the first differing exchange, the others pass), and two `serve` processes reached by URL,
// whose server-assigned ids differ.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadProfile } from '../../src/profile/index.js';
import type { CheckResult, ExchangeDigest, RunResult } from '../../src/runner/base/model.js';
import { compareExchanges, compareResult } from '../../src/runner/compare.js';
import { runCli, serveCli } from '../support/cli.js';
import { expectValidReport } from '../support/run-schema.js';

const profile = loadProfile();
const profiles = { target: profile, compare: profile };
const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const X = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const Y = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

function d(op: string, method: string, request: string, status: number, extra: Partial<ExchangeDigest> = {}): ExchangeDigest {
  return { op, method, request: `v2 ${request}`, status, guids: [], curl: `curl -X ${method} ${request}`, ...extra };
}
const check = (status: CheckResult['status']): CheckResult => ({
  id: 'intapi.v2.x.y',
  level: 'MUST',
  spec: 'spec#x',
  title: 'X.',
  area: 'intapi.v2.x',
  status,
  durationMs: 0,
});

describe('comparing two exchange sequences', () => {
  test('ids each server assigned are named by where they appeared; lists of written collections compare the check own records', () => {
    const side = (own: string, other: string): ExchangeDigest[] => [
      d('submissions.create', 'POST', '/submissions {"title":"t"}', 201, { guids: [own], contract: 'intapi/submission', valid: true }),
      d('submissions.get', 'GET', `/submissions/${own}`, 200, { guids: [own], contract: 'intapi/submission', valid: true }),
      d('submissions.list', 'GET', '/submissions', 200, { guids: [other, own], items: [other, own], total: own === A ? 31 : 40 }),
    ];
    expect(compareExchanges(side(A, X), side(B, Y), profiles)).toEqual({ compared: 3 });
  });

  test('a status difference names the first differing exchange: expected the compare server, received the target', () => {
    const target = [
      d('resources.list', 'GET', '/resources', 200),
      d('resources.get', 'GET', `/resources/${X}`, 404, { contract: 'intapi/error', valid: true }),
    ];
    const compare = [
      d('resources.list', 'GET', '/resources', 200),
      d('resources.get', 'GET', `/resources/${X}`, 200, { contract: 'intapi/resource', valid: true }),
    ];
    const { difference } = compareExchanges(target, compare, profiles);
    expect(difference).toMatchObject({ index: 1, kind: 'status', expected: `exchange 2, GET /resources/${X}: 200, body valid against intapi/resource` });
    expect(difference?.received).toBe(`exchange 2, GET /resources/${X}: 404, body valid against intapi/error`);
    expect(difference?.curl).toBe(`# target\ncurl -X GET /resources/${X}\n# compare server\ncurl -X GET /resources/${X}`);
  });

  test('contract validity and the items of a collection the suite does not write are compared', () => {
    const list = (items: string[], valid = true) => [
      d('templates.list', 'GET', '/templates', 200, { contract: 'intapi/envelope.templates', valid, items, total: 70 }),
    ];
    expect(compareExchanges(list([X, Y], false), list([X, Y]), profiles).difference?.kind).toBe('contract');
    const items = compareExchanges(list([X, A]), list([X, Y]), profiles).difference;
    expect(items?.kind).toBe('items');
    expect(items?.received).toMatch(/lists 2 items \(totalItems 70\): \[.*\], first difference at item 2/);
  });

  test('another path is one difference of shape; other requests stop the comparison without one', () => {
    const a = [d('questionBanks.list', 'GET', '/question-banks', 200), d('questionBanks.get', 'GET', `/question-banks/${X}`, 200)];
    const b = [d('questionBanks.list', 'GET', '/question-banks', 200)];
    const shape = compareExchanges(a, b, profiles);
    expect(shape.difference).toMatchObject({
      index: 1,
      kind: 'shape',
      received: expect.stringMatching(/another path/),
      expected: expect.stringMatching(/no exchange 2/),
    });
    expect(compareResult(check('failed'), check('passed'), shape, 'r').failure?.received).toMatch(
      /\(the check failed on the target, passed on the compare server\)$/,
    );
    const diverged = compareExchanges(
      [d('submissions.list', 'GET', "/submissions?_filter=title eq 'a'", 200)],
      [d('submissions.list', 'GET', "/submissions?_filter=title eq 'b'", 200)],
      profiles,
    );
    expect(diverged).toMatchObject({ compared: 0, diverged: { index: 0 } });
    expect(compareResult(check('passed'), check('passed'), diverged, 'r')).toMatchObject({ status: 'skipped', id: 'compare.intapi.v2.x.y', area: 'compare' });
  });

  test('a difference is MUST, except where the target passes the check the compare server fails (a fix: MAY)', () => {
    const difference = compareExchanges([d('resources.list', 'GET', '/resources', 200)], [d('resources.list', 'GET', '/resources', 422)], profiles);
    expect(compareResult(check('failed'), check('passed'), difference, 'r')).toMatchObject({ status: 'failed', level: 'MUST', spec: 'lpc#compare' });
    expect(compareResult(check('passed'), check('failed'), difference, 'r')).toMatchObject({ status: 'failed', level: 'MAY' });
  });
});

const dir = mkdtempSync(join(tmpdir(), 'lpc-compare-'));
const ONLY = 'intapi.v2.resources.list.limit,intapi.v2.submissions.create.title,intapi.v2.question-banks.create.id';

async function run(name: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; result: RunResult; out: string }> {
  const json = join(dir, `${name}.json`);
  const r = await runCli(['run', ...args, '--seed', '4', '--runs', '5', '--only', ONLY, '--no-progress', '--json', json, '--junit', join(dir, `${name}.xml`)], {
    env,
  });
  return { code: r.code, result: JSON.parse(readFileSync(json, 'utf8')) as RunResult, out: `${r.stdout}\n${r.stderr}` };
}

const compared = (result: RunResult) => result.checks.filter((c) => c.area === 'compare');
const own = (result: RunResult) => result.checks.filter((c) => c.area !== 'compare' && !c.id.startsWith('intapi.invariant.'));

// Whole runs, two at a time (vitest.config.ts maxConcurrency).
describe.concurrent('run --compare', () => {
  test('the bundled server against --compare bundled: no difference, exit 0', async () => {
    const { code, result, out } = await run('same', ['--compare', 'bundled']);
    expect(code, out).toBe(0);
    expectValidReport(result, 'a --compare run');
    expect(compared(result).map((c) => c.id)).toEqual(own(result).map((c) => `compare.${c.id}`));
    expect(compared(result).filter((c) => c.status !== 'passed')).toEqual([]);
  });

  test('--compare bundled takes every family: the SCIM and learner checks reach it with credentials it accepts', async () => {
    const { code, result, out } = await run('families', ['--compare', 'bundled', '--only', 'scim.users.create-201,scim.users.delete-204,learner.auth']);
    expect(code, out).toBe(0);
    const scim = compared(result).filter((c) => c.id.startsWith('compare.scim.'));
    expect(scim.length).toBeGreaterThan(0);
    expect(compared(result).filter((c) => c.status !== 'passed')).toEqual([]);
    // Not "fixes" that are not: the compare server's own checks pass too.
    expect(result.checks.filter((c) => c.status === 'failed')).toEqual([]);
  });

  test('a fault in the target: the affected checks differ at their first differing exchange, the others do not', async () => {
    const { code, result, out } = await run('fault', ['--faults', 'intapi.default-limit-10', '--compare', 'bundled']);
    expect(code, out).toBe(1);
    const failed = compared(result).filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.id)).toEqual(['compare.intapi.v2.resources.list.limit.default']);
    const failure = failed[0]?.failure;
    expect(failure?.expected).toMatch(/^exchange \d+, GET \/resources: lists 20 items \(totalItems 75\)/);
    expect(failure?.received).toMatch(/^exchange \d+, GET \/resources: lists 10 items \(totalItems 75\).*first difference at item 11/);
    expect(failure?.curl).toMatch(
      /^# target\n[\s\S]*curl -sS -i -X GET '[^']+\/resources'[\s\S]*\n# compare server\n[\s\S]*curl -sS -i -X GET '[^']+\/resources'/,
    );
    expect(failure?.replay).toMatch(
      /--faults intapi.default-limit-10 --runs 5 --run-id [0-9a-f]{6} --compare bundled --only intapi\.v2\.resources\.list\.limit\.default --seed 4$/,
    );
    expect(failed[0]?.level).toBe('MUST');
    // The target's own check keeps its verdict; every other compare check passes.
    expect(result.checks.find((c) => c.id === 'intapi.v2.resources.list.limit.default')?.status).toBe('failed');
    expect(compared(result).filter((c) => c.status === 'passed').length).toBe(compared(result).length - 1);
  });

  test('two servers by URL, whose new ids differ: ids are named consistently; a target that passes where the compare server fails is a fix', async () => {
    const env = { LPC_API_KEY: 'cmp-key', LPC_USERNAME: 'lpc.admin', LPC_PASSWORD: 'cmp-password', LPC_PRIVATE_KEY: 'cmp-private' };
    const [sound, faulty] = await Promise.all([serveCli([], env), serveCli(['--faults', 'intapi.default-limit-10'], env)]);
    try {
      const { code, result, out } = await run('urls', ['--target', sound.url, '--compare', faulty.url], env);
      expect(code, out).toBe(0);
      const differing = compared(result).filter((c) => c.status !== 'passed');
      expect(differing.map((c) => [c.id, c.status, c.level])).toEqual([['compare.intapi.v2.resources.list.limit.default', 'failed', 'MAY']]);
      expect(differing[0]?.failure?.received).toMatch(/lists 20 items.*\(the target passes this check, the compare server fails it\)$/);
      // Created records (question banks, submissions) compared under each server's own ids.
      expect(compared(result).filter((c) => c.id.startsWith('compare.intapi.v2.question-banks.create.id')).length).toBeGreaterThan(0);
      expect(out).not.toContain('cmp-key');
    } finally {
      await Promise.all([sound.stop(), faulty.stop()]);
    }
  });

  test('usage errors exit 2', async () => {
    for (const [args, message] of [
      [['run', '--compare-profile', 'x.yaml'], /--compare-profile needs --compare/],
      [['run', '--compare', 'ftp://x'], /--compare must be an http\(s\) URL or 'bundled'/],
    ] as const) {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  test('a compare server that refuses the credentials exits 2 naming it', async () => {
    const other = await serveCli([], { LPC_API_KEY: 'cmp-other-key', LPC_USERNAME: 'lpc.admin', LPC_PASSWORD: 'p', LPC_PRIVATE_KEY: 'q' });
    try {
      const r = await runCli(['run', '--compare', other.url, '--only', 'intapi.versions', '--runs', '1', '--no-progress', '--junit', join(dir, 'refused.xml')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^lp-conformance: --compare server: Integration API at http:\/\/\S+: POST \/authenticate with x-api-key \$\{LPC_API_KEY\}.* was refused: 401/,
      );
    } finally {
      await other.stop();
    }
  });
});
