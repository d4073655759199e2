/**
 * Hand-built run results for the reporter tests: every status, every failure field, several areas,
 * an invariant check, advisory levels, and hostile content (markup, `]]>`, control characters,
 * unpaired surrogates, emoji, a 1 MB body, a secret that upstream redaction missed).
 */
import type { CheckResult, RunResult } from '../../src/runner/base/model.js';

/** A secret value the run was given; the reporters' `redact` replaces it by its variable name. */
export const SECRET = 'sk_live_9f8e7d6c5b4a';
export const redactSecret = (text: string): string => text.replaceAll(SECRET, '${LPC_API_KEY}');

export const MUST_FAILED: CheckResult = {
  id: 'intapi.v2.submissions.create.title-max-255',
  level: 'MUST',
  spec: 'spec#integration-api-submission-v2',
  title: 'POST /submissions with a 256-character title answers 422 naming title',
  area: 'intapi.v2.submissions',
  status: 'failed',
  durationMs: 812.4,
  failure: {
    expected: '422 with validations naming "title"',
    received: '201',
    counterexample: '{"title":"aaaa…(256)","userId":"00000000-0000-4000-8000-000000000001"}',
    curl:
      "curl -X POST 'http://127.0.0.1:8080/submissions' -H 'x-api-version: 2' \\\n" +
      '  -H "x-api-key: ${LPC_API_KEY}" -H \'content-type: application/json\' -d \'{"title":"aaaa"}\'',
    replay: 'lp-conformance run --only intapi.v2.submissions.create.title-max-255 --seed 1392788 --path 4:1',
    operation: 'POST http://127.0.0.1:8080/submissions',
  },
};

/** MUST_FAILED as the console and the JUnit failure text show it: the layout of style.md. */
export const MUST_FAILED_BLOCK = [
  'FAIL  [intapi.v2.submissions.create.title-max-255]  MUST · spec#integration-api-submission-v2',
  '      POST /submissions with a 256-character title answers 422 naming title',
  '  Expected: 422 with validations naming "title"',
  '  Received: 201',
  '  Counterexample (shrunk): {"title":"aaaa…(256)","userId":"00000000-0000-4000-8000-000000000001"}',
  "  Reproduce:  curl -X POST 'http://127.0.0.1:8080/submissions' -H 'x-api-version: 2' \\",
  '                -H "x-api-key: ${LPC_API_KEY}" -H \'content-type: application/json\' -d \'{"title":"aaaa"}\'',
  '  Replay:     lp-conformance run --only intapi.v2.submissions.create.title-max-255 --seed 1392788 --path 4:1',
].join('\n');

export const PASSED: CheckResult = {
  id: 'intapi.v2.submissions.create.answers-201',
  level: 'MUST',
  spec: 'spec#integration-api-submission-v2',
  title: 'POST /submissions with a valid body answers 201',
  area: 'intapi.v2.submissions',
  status: 'passed',
  durationMs: 40,
};

export const SKIPPED: CheckResult = {
  id: 'intapi.v2.submissions.get.by-id',
  level: 'PROFILE',
  spec: 'public-facts#submissions',
  title: 'GET /submissions/{id} answers the submission',
  area: 'intapi.v2.submissions',
  status: 'skipped',
  durationMs: 0,
  skipReason: 'the profile names no submission (records.submissionId)',
};

export const INVARIANT_FAILED: CheckResult = {
  id: 'intapi.invariant.no-5xx',
  level: 'MUST',
  spec: 'spec#integration-api',
  title: 'No exchange answers a 5xx status',
  area: 'intapi.invariant',
  status: 'failed',
  durationMs: 0,
  failure: {
    expected: 'a status below 500 on every exchange',
    received: '3 violations; first at POST /submissions in check intapi.v2.submissions.create.title-max-255',
    replay: 'lp-conformance run --only intapi.v2.submissions.create.title-max-255 --seed 1392788',
    operation: 'POST http://127.0.0.1:8080/submissions',
  },
};

export const INVARIANT_PASSED: CheckResult = {
  id: 'intapi.invariant.json-content-type',
  level: 'MUST',
  spec: 'spec#integration-api',
  title: 'Every JSON body is served as application/json',
  area: 'intapi.invariant',
  status: 'passed',
  durationMs: 0,
};

export const SHOULD_FAILED: CheckResult = {
  id: 'intapi.v2.errors.message-names-field',
  level: 'SHOULD',
  spec: 'rfc7644#section-3.12',
  title: 'An error message names the offending field',
  area: 'intapi.v2.errors',
  status: 'failed',
  durationMs: 12,
  failure: {
    expected: 'message containing "title"',
    received: 'message "Bad Request"',
    replay: 'lp-conformance run --only intapi.v2.errors.message-names-field --seed 7',
  },
};

export const MAY_FAILED: CheckResult = {
  id: 'intapi.v2.errors.etag',
  level: 'MAY',
  spec: 'rfc7644#section-3.14',
  title: 'Responses MAY carry an ETag',
  area: 'intapi.v2.errors',
  status: 'failed',
  durationMs: 3,
  failure: { expected: 'an ETag header', received: 'no ETag header', replay: 'lp-conformance run --only intapi.v2.errors.etag --seed 7' },
};

export const PROFILE_FAILED: CheckResult = {
  id: 'intapi.v2.lists.default-limit',
  level: 'PROFILE',
  spec: 'public-facts#lists',
  title: 'A list without _limit answers the profile default page size',
  area: 'intapi.v2.lists',
  status: 'failed',
  durationMs: 95,
  failure: { expected: '20 items', received: '50 items', replay: 'lp-conformance run --only intapi.v2.lists.default-limit --seed 7' },
};

export function baseRun(checks: CheckResult[]): RunResult {
  return {
    targets: { intapi: 'http://127.0.0.1:8080', scim: 'http://127.0.0.1:8080/scim/v2' },
    profileName: 'reference',
    seed: 1392788,
    runs: 100,
    startedAt: '2025-01-02T03:04:05.678Z',
    durationMs: 8412,
    checks,
    requests: 15123,
  };
}

export const ORDINARY_RUN: RunResult = baseRun([PASSED, MUST_FAILED, SKIPPED, INVARIANT_PASSED, INVARIANT_FAILED, SHOULD_FAILED, MAY_FAILED, PROFILE_FAILED]);

/** Markup and CDATA terminators, several times, so an escape of the first one only shows. */
export const MARKUP = `<&"'> ]]> <![CDATA[x]]> ]]]]> </failure></testcase>`;
/** Control characters a hostile target may send: NUL, BEL, ESC (a colour change), VT, DEL, C1 CSI, U+FFFE, lone surrogates. */
export const CONTROLS = '\u0000\u0007\u001b[31mred\u000b\u007f\u009b\uFFFE\uD800 \uDC00';
export const EMOJI = '😀 naïve 日本語';
export const HUGE_CHARS = 1024 * 1024;
/** A 1 MB body with markup in it and the (unredacted) secret right at the reports' preview bound
 * (PREVIEW_CHARS, 1000: the secret spans characters 995 to 1015). */
export const HUGE_BODY = `${'<&]]>'.repeat(199)}${SECRET}${'b'.repeat(HUGE_CHARS - 199 * 5 - SECRET.length)}`;

export const HOSTILE_FAILED: CheckResult = {
  id: `hostile.check.${SECRET}`,
  level: 'MUST',
  spec: `spec#hostile-${SECRET}`,
  title: `Title with ${MARKUP} ${EMOJI} ${CONTROLS} ${SECRET}`,
  area: `hostile.${SECRET}`,
  status: 'failed',
  durationMs: 1e-9,
  failure: {
    expected: `expected ${MARKUP} ${SECRET}`,
    received: HUGE_BODY,
    counterexample: `{"v":"${MARKUP} ${EMOJI} ${CONTROLS}","k":"${SECRET}"}`,
    curl: `curl -H 'x-api-key: ${SECRET}' -d '${MARKUP}'`,
    replay: `lp-conformance run --only hostile --seed 1 ${SECRET}`,
    operation: `POST http://h/${SECRET}`,
  },
};

export const HOSTILE_SKIPPED: CheckResult = {
  id: 'hostile.skipped',
  level: 'SHOULD',
  spec: 'spec#x',
  title: 'Skipped for a hostile reason',
  area: `hostile.${SECRET}`,
  status: 'skipped',
  durationMs: 0,
  skipReason: `reason ${MARKUP} ${CONTROLS} ${SECRET}`,
};

export const HOSTILE_ADVISORY: CheckResult = {
  ...SHOULD_FAILED,
  id: 'hostile.advisory',
  area: `hostile.${SECRET}`,
  failure: { expected: `e ${MARKUP}`, received: `r ${CONTROLS} ${SECRET}`, replay: `replay ${SECRET}` },
};

export const HOSTILE_RUN: RunResult = {
  ...baseRun([HOSTILE_FAILED, HOSTILE_SKIPPED, HOSTILE_ADVISORY, PASSED]),
  targets: { intapi: `http://user:${SECRET}@h/<&">` },
  profileName: `profile ${MARKUP} ${CONTROLS} ${SECRET}`,
  startedAt: `2025 ${CONTROLS}`,
};
