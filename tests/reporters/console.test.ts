import { describe, expect, it } from 'vitest';
import { formatList, formatSummary } from '../../reporters/console.js';
import { PREVIEW_CHARS } from '../../reporters/failure-block.js';
import type { CheckResult } from '../../src/runner/base/model.js';
import { baseRun, HOSTILE_RUN, MUST_FAILED, MUST_FAILED_BLOCK, ORDINARY_RUN, PASSED, redactSecret, SECRET, SKIPPED } from './run-results.js';

const ANSI = /\u001b\[[0-9;]*m/g;
const stripAnsi = (text: string): string => text.replace(ANSI, '');

describe('formatSummary', () => {
  const plain = formatSummary(ORDINARY_RUN, { color: false });

  it('opens with the run: profile, seed, runs, targets', () => {
    expect(plain.split('\n').slice(0, 3)).toEqual([
      'lp-conformance · profile reference · seed 1392788 · 100 runs · started 2025-01-02T03:04:05.678Z',
      '  target intapi  http://127.0.0.1:8080',
      '  target scim    http://127.0.0.1:8080/scim/v2',
    ]);
  });

  it('counts checks by level, then by area, in aligned columns', () => {
    expect(plain).toContain(
      [
        'MUST',
        '  intapi.v2.submissions  1 passed  1 failed  0 skipped',
        '  intapi.invariant       1 passed  1 failed  0 skipped',
        'PROFILE',
        '  intapi.v2.submissions  0 passed  0 failed  1 skipped',
        '  intapi.v2.lists        0 passed  1 failed  0 skipped',
        'SHOULD (advisory; fails the run with --strict)',
        '  intapi.v2.errors       0 passed  1 failed  0 skipped',
        'MAY (advisory)',
        '  intapi.v2.errors       0 passed  1 failed  0 skipped',
      ].join('\n'),
    );
  });

  it('lists skipped checks with their reason', () => {
    expect(plain).toContain(`SKIP  [${SKIPPED.id}]  ${SKIPPED.skipReason ?? ''}`);
  });

  it('summarises skipped checks once per reason, naming a few of them', () => {
    const reason = 'LPC_SCIM_TOKEN is not set (the SCIM token): set it to run the SCIM checks';
    const many = Array.from({ length: 5 }, (_, i): CheckResult => ({ ...SKIPPED, id: `scim.users.check-${i}`, skipReason: reason }));
    const text = formatSummary(baseRun([PASSED, SKIPPED, ...many]), { color: false, verbose: false });
    expect(text).toContain(`SKIP  [${SKIPPED.id}]  ${SKIPPED.skipReason ?? ''}`);
    // The ids left out are in the reports and in the summary in full.
    expect(text).toContain(
      `SKIP  5 checks  ${reason}: scim.users.check-0, scim.users.check-1, scim.users.check-2 and 2 more (every one: the reports, or --verbose)`,
    );
    expect(text.match(/^SKIP/gm)).toHaveLength(2);
    const full = formatSummary(baseRun([PASSED, SKIPPED, ...many]), { color: false, verbose: true });
    expect(full).toContain(`SKIP  5 checks  ${reason}: ${many.map((c) => c.id).join(', ')}\n`);
  });

  it('short (the command line without --verbose): the slowest areas instead of the counts of every area', () => {
    const checks = [PASSED, MUST_FAILED, SKIPPED].map((c, i) => ({ ...c, area: `intapi.v2.area${i}`, durationMs: (i + 1) * 1000 }));
    const text = formatSummary(baseRun(checks), { color: false, verbose: false });
    expect(text).toContain(
      "Slowest areas: intapi.v2.area2 3.0s, intapi.v2.area1 2.0s, intapi.v2.area0 1.0s (3 areas; every area's counts: --verbose or the reports)",
    );
    expect(text).not.toMatch(/^MUST$/m);
    // The verdict and the counts stay, and every failure.
    expect(text).toMatch(/^lp-conformance: 3 checks, 1 passed, 1 failed/m);
    expect(text).toContain(`FAIL  [${MUST_FAILED.id}]`);
  });

  it('states --insecure beside the verdict', () => {
    const text = formatSummary({ ...baseRun([PASSED]), tls: { insecure: true } }, { color: false });
    expect(text).toMatch(/^! TLS certificates were not verified \(--insecure\)/m);
  });

  it('prints each failure in the house layout', () => {
    expect(plain).toContain(MUST_FAILED_BLOCK);
    expect(plain).toContain('FAIL  [intapi.invariant.no-5xx]  MUST · spec#integration-api\n');
    expect(plain).toContain('  Request:    POST http://127.0.0.1:8080/submissions\n');
  });

  it('marks advisory failures WARN and prints them after the failures that fail the run', () => {
    const heads = plain
      .split('\n')
      .filter((line) => /^(FAIL|WARN) /.test(line))
      .map((line) => line.split('  ')[0] + ' ' + line.split('  ')[1]);
    expect(heads).toEqual([
      'FAIL [intapi.v2.submissions.create.title-max-255]',
      'FAIL [intapi.invariant.no-5xx]',
      'FAIL [intapi.v2.lists.default-limit]',
      'WARN [intapi.v2.errors.message-names-field]',
      'WARN [intapi.v2.errors.etag]',
    ]);
  });

  it('ends with one line of totals, then the verdict, failures by level', () => {
    expect(plain.split('\n').slice(-2)).toEqual([
      'lp-conformance: 8 checks, 2 passed, 3 failed, 2 advisory, 1 skipped in 8.4s (15123 requests)',
      'FAILED: 3 checks fail the run (2 MUST, 1 PROFILE); 2 advisory (1 SHOULD, 1 MAY)',
    ]);
  });

  it('gives the totals of a large run in the documented form', () => {
    const checks: CheckResult[] = [
      ...Array.from({ length: 409 }, (_, i) => ({ ...PASSED, id: `p.${i}` })),
      { ...MUST_FAILED, id: 'f.1' },
      { ...MUST_FAILED, id: 'f.2' },
      SKIPPED,
    ];
    const last = formatSummary({ ...baseRun(checks), durationMs: 8_412 }, { color: false })
      .split('\n')
      .slice(-2);
    expect(last).toEqual([
      'lp-conformance: 412 checks, 409 passed, 2 failed, 0 advisory, 1 skipped in 8.4s (15123 requests)',
      'FAILED: 2 checks fail the run (2 MUST)',
    ]);
  });

  it('says singular things in the singular, and handles an empty run', () => {
    const one = formatSummary({ ...baseRun([PASSED]), requests: 1, runs: 1 }, { color: false });
    expect(one.split('\n').slice(-2)).toEqual([
      'lp-conformance: 1 check, 1 passed, 0 failed, 0 advisory, 0 skipped in 8.4s (1 request)',
      'PASSED: no MUST or PROFILE check failed',
    ]);
    expect(one).toContain(' · 1 run · ');
    const none = formatSummary({ ...baseRun([]), durationMs: 0, requests: 0 }, { color: false });
    expect(none.split('\n').at(-2)).toBe('lp-conformance: 0 checks, 0 passed, 0 failed, 0 advisory, 0 skipped in 0.0s (0 requests)');
  });

  it('under --strict, a failed SHOULD is a FAIL and no longer advisory', () => {
    const strict = formatSummary(ORDINARY_RUN, { color: false, strict: true });
    expect(strict).toContain('FAIL  [intapi.v2.errors.message-names-field]  SHOULD · rfc7644#section-3.12');
    expect(strict).toContain('WARN  [intapi.v2.errors.etag]  MAY');
    expect(strict).toContain('\nSHOULD\n');
    expect(strict.split('\n').at(-1)).toBe('FAILED: 4 checks fail the run (2 MUST, 1 PROFILE, 1 SHOULD); 1 advisory (1 MAY)');
  });
});

describe('formatSummary: colour', () => {
  it('uses ANSI colours only when asked, and they are only decoration', () => {
    const coloured = formatSummary(ORDINARY_RUN, { color: true });
    const plain = formatSummary(ORDINARY_RUN, { color: false });
    expect(coloured).toMatch(ANSI);
    expect(plain).not.toContain('\u001b');
    expect(stripAnsi(coloured)).toBe(plain);
  });
});

describe('formatSummary: hostile content and secrets', () => {
  const plain = formatSummary(HOSTILE_RUN, { color: false, redact: redactSecret });

  it('lets no control character from the target reach the terminal', () => {
    expect(plain).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
    expect(plain).toContain('\\u001B[31mred');
    expect(plain).toContain('😀 naïve 日本語');
  });

  it('cuts a 1 MB body to a preview and says by how much, and how much in all', () => {
    const received = /\n {2}Received: (.*)\n/.exec(plain)?.[1] ?? '';
    expect(received.length).toBeLessThan(PREVIEW_CHARS + 200);
    expect(received).toMatch(/…\(\d+ more chars, \d+ in all; in full: the JSON report \(--json\)\)$/);
    expect(plain.length).toBeLessThan(20_000);
  });

  it('with redact, the secret value appears nowhere', () => {
    expect(plain).not.toContain(SECRET);
    expect(plain).toContain('${LPC_API_KEY}');
    expect(formatSummary(HOSTILE_RUN, { color: true, redact: redactSecret })).not.toContain(SECRET);
  });
});

describe('formatList', () => {
  it('prints id, level, anchor and title in aligned columns', () => {
    expect(formatList([MUST_FAILED, PASSED, SKIPPED]).split('\n')).toEqual([
      'intapi.v2.submissions.create.title-max-255  MUST     spec#integration-api-submission-v2  POST /submissions with a 256-character title answers 422 naming title',
      'intapi.v2.submissions.create.answers-201    MUST     spec#integration-api-submission-v2  POST /submissions with a valid body answers 201',
      'intapi.v2.submissions.get.by-id             PROFILE  public-facts#submissions            GET /submissions/{id} answers the submission',
    ]);
  });

  it('prints nothing for no checks', () => {
    expect(formatList([])).toBe('');
  });

  it('says after its title that a slow check runs with a long wait only with --include-slow', () => {
    const [row] = formatList([{ ...PASSED, slow: true }]).split('\n');
    expect(row).toBe(
      'intapi.v2.submissions.create.answers-201  MUST  spec#integration-api-submission-v2  POST /submissions with a valid body answers 201  [slow over 60 s: --include-slow]',
    );
  });
});
