// Negative-control expectations of the Integration API faults of the more area (see tests/controls/expectations.ts):
// course evaluations, countries and provinces.
import type { Control } from '../expectations.js';

const EVALUATIONS = 'intapi.v2.evaluations';
const PROVINCES = 'intapi.v?.provinces';
const SCOPE = [`${EVALUATIONS}.*`, `${PROVINCES}.*`, 'intapi.v?.countries.*', 'intapi.invariant.*'];
const CONTRACT = 'intapi.invariant.success-body-matches-contract';
const OAUTH_SCOPE = ['intapi.oauth.*', 'intapi.invariant.*'];

export const INTAPI_MORE_CONTROLS: Readonly<Record<string, Control>> = {
  'intapi.evaluations-on-v1': {
    mustFail: [`${EVALUATIONS}.questions.list.v1-status`, `${EVALUATIONS}.questions.get.v1-status`, `${EVALUATIONS}.answers.list.v1-status`],
    scope: SCOPE,
  },
  'intapi.evaluation-answers-every-course': { mustFail: [`${EVALUATIONS}.answers.list.names-course-question`], scope: SCOPE },
  'intapi.evaluation-question-get-neighbour': { mustFail: [`${EVALUATIONS}.questions.get.agrees-with-list`], scope: SCOPE },
  // The province contract forbids townships and constrains the code: the contract invariant sees them too.
  'intapi.province-townships': { mustFail: [`${PROVINCES}.no-townships`, CONTRACT], scope: SCOPE },
  'intapi.province-code-without-country': { mustFail: [`${PROVINCES}.list.codes-match-country`, CONTRACT], scope: SCOPE },
  'intapi.provinces-of-next-country': { mustFail: [`${PROVINCES}.list.codes-match-country`], scope: SCOPE },
  'intapi.province-get-neighbour': { mustFail: [`${PROVINCES}.get.agrees-with-list`], scope: SCOPE },
  'intapi.provinces-unknown-country-200': { mustFail: [`${PROVINCES}.list.unknown-country-404`], scope: SCOPE },
  // OAuth 2.0 authorization-code flow
  'intapi.oauth-code-reusable': { mustFail: ['intapi.oauth.code-single-use'], scope: OAUTH_SCOPE },
  'intapi.oauth-any-redirect-uri': { mustFail: ['intapi.oauth.wrong-redirect-uri-refused'], scope: OAUTH_SCOPE },
  'intapi.oauth-no-refresh-token': { mustFail: ['intapi.oauth.refresh'], scope: OAUTH_SCOPE },
  'intapi.oauth-access-token-8h': { mustFail: ['intapi.oauth.expires-in-at-most-4h'], scope: OAUTH_SCOPE },
  'intapi.oauth-token-not-accepted': { mustFail: ['intapi.oauth.access-token-accepted'], scope: OAUTH_SCOPE },
};
