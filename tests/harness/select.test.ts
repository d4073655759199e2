import { describe, expect, test } from 'vitest';
import { idMatcher, LOAD_CHECK_PREFIX, selection } from '../../src/runner/select.js';

const IDS = [
  'intapi.v2.submissions.create.title.above-max',
  'intapi.v2.submissions.update.title.above-max',
  'intapi.v2.question-banks.create.name.above-max',
  'intapi.v1.resources.list.status-200',
  'intapi.invariant.no-5xx',
];

describe('--only selection', () => {
  test('a prefix selects the ids that start with it', () => {
    expect(IDS.filter(idMatcher(['intapi.v2.submissions']))).toEqual(IDS.slice(0, 2));
  });
  test('a glob matches whole ids, * spanning dots', () => {
    expect(IDS.filter(idMatcher(['intapi.v2.*.create.*']))).toEqual([IDS[0], IDS[2]]);
    expect(IDS.filter(idMatcher(['intapi.v?.resources.list.status-200']))).toEqual([IDS[3]]);
    expect(IDS.filter(idMatcher(['*.above']))).toEqual([]);
  });
  test('several patterns select the union; none selects all', () => {
    expect(IDS.filter(idMatcher(['intapi.v1', 'intapi.invariant']))).toEqual(IDS.slice(3));
    expect(IDS.filter(idMatcher(undefined))).toEqual(IDS);
  });
  test('dots are literal', () => {
    expect(idMatcher(['intapi.v2.submissions.create.title'])('intapiXv2.submissions.create.title.above-max')).toBe(false);
  });
});

describe('a suite file that did not load', () => {
  const broken = `${LOAD_CHECK_PREFIX}suites-scim-patch-check-ts`;
  test('is selected by any --only and any shard: the checks it holds are missing from them', () => {
    expect(selection(['intapi.v2.submissions'])(broken)).toBe(true);
    expect(selection(['intapi.v2.submissions'], undefined, [IDS[0] as string])(broken)).toBe(true);
    expect(selection(['intapi.v2.submissions'])(IDS[3] as string)).toBe(false);
  });
  test('is left out only when --skip names it', () => {
    expect(selection(undefined, ['lpc.harness'])(broken)).toBe(false);
    expect(selection(undefined, ['intapi'])(broken)).toBe(true);
  });
});
