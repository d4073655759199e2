/**
 * The Integration API's invariants (src/families/intapi/invariants.ts), evaluated on one exchange:
 * no 5xx, a JSON content type, bodies valid against their contracts, `code` equal to the status.
 */
import type { OperationId, Profile } from '../../../src/profile/index.js';
import type { IntapiInvariantId } from '../../../src/families/intapi/invariants.js';
import type { ContractName } from '../contracts.js';
import type { IntapiContractName } from './contracts.js';
// Loading the family's harness checks its list of contract names against the files.
import './contracts.js';
import type { ApiRequest, ApiResponse } from '../exchange.js';
import { excerpt } from '../failure.js';
import { urlRefused } from '../url-budget.js';
import { contractViolation, type FamilyInvariants, type InvariantOutcome, type Violation } from '../violations.js';

/** The contract of a 2xx body, by operation, and by version where the versions differ
 * (spec#integration-api-learning-resources-v1-and-v2: v1 resource lists are bare arrays, v2's general
 * list is the envelope, its other lists bare arrays). */
const SUCCESS_CONTRACTS: Partial<Record<OperationId, IntapiContractName | { v1: IntapiContractName; v2: IntapiContractName }>> = {
  'auth.authenticate': 'intapi/token',
  'resources.get': 'intapi/resource',
  'resources.getForCourse': 'intapi/resource',
  'resources.list': { v1: 'intapi/resource.list', v2: 'intapi/envelope.resources' },
  'resources.listForUser': 'intapi/resource.list',
  'resources.listMine': 'intapi/resource.list',
  'resources.listForCourse': 'intapi/resource.list',
  'resources.listForEnrollment': 'intapi/resource.list',
  'resources.listMineForCourse': 'intapi/resource.list',
  'submissions.list': 'intapi/envelope.submissions',
  'submissions.create': 'intapi/submission',
  'submissions.get': 'intapi/submission',
  'submissions.update': 'intapi/submission',
  'templates.list': 'intapi/envelope.templates',
  'templates.get': 'intapi/template',
  'questionBanks.list': 'intapi/envelope.questionBanks',
  'questionBanks.create': 'intapi/questionBank',
  'questionBanks.get': 'intapi/questionBank',
  'questionBanks.update': 'intapi/questionBank',
  'questions.list': 'intapi/envelope.questions',
  'questions.create': 'intapi/question',
  'questions.get': 'intapi/question',
  'questions.update': 'intapi/question',
  'users.list': { v1: 'intapi/user.list', v2: 'intapi/envelope.users' },
  'users.get': 'intapi/user',
  'users.myDetails': 'intapi/user',
  'users.update': 'intapi/user',
  'users.upsert': 'intapi/user',
  'managers.listDirectReports': 'intapi/envelope.directReports',
  'managers.updateDirectReports': 'intapi/envelope.directReports',
  'evaluationQuestions.list': 'intapi/envelope.evaluationQuestions',
  'evaluationQuestions.get': 'intapi/evaluationQuestion',
  'evaluationAnswers.list': 'intapi/envelope.evaluationAnswers',
  'countries.list': 'intapi/country.list',
  'provinces.list': 'intapi/province.list',
  'provinces.get': 'intapi/province',
  'groups.list': 'intapi/envelope.groups',
  'groups.get': 'intapi/group',
  'groups.create': 'intapi/group',
  'groups.update': 'intapi/group',
  'groups.assignUsers': 'intapi/group',
  'groups.unassignUsers': 'intapi/group',
  'groups.listUsers': 'intapi/envelope.groupUsers',
  'enrollments.list': 'intapi/envelope.enrollments',
  'enrollments.create': 'intapi/enrollment',
  'enrollments.enrollSession': 'intapi/enrollment',
};

/** The contract of a 2xx body of `op` under `version`; none for an operation without a body contract. */
export function successContract(op: OperationId, version: string): IntapiContractName | undefined {
  const contract = SUCCESS_CONTRACTS[op];
  if (contract === undefined || typeof contract === 'string') return contract;
  return version === '1' ? contract.v1 : contract.v2;
}

/** `missingVersion`: the version a request without x-api-version gets (the profile's expectation). */
function checkIntapiInvariants(req: ApiRequest, res: ApiResponse, profile: Profile): InvariantOutcome {
  const missingVersion = profile.expectations.versioning.missingHeader;
  const found: Violation[] = [];
  const applied: IntapiInvariantId[] = ['intapi.invariant.no-5xx', 'intapi.invariant.url-within-budget-accepted'];
  let contract: InvariantOutcome['contract'];
  const push = (v: Violation | undefined): void => {
    if (v) found.push(v);
  };
  const judge = (invariant: IntapiInvariantId, name: ContractName): void => {
    const v = contractViolation(invariant, name, res);
    contract = { name, valid: v === undefined };
    push(v);
  };
  // spec#errors lists no 5xx status for any operation.
  if (res.status >= 500) {
    push({ invariant: 'intapi.invariant.no-5xx', expected: 'a status below 500', received: `${res.status} ${excerpt(res.text)}` });
  }
  push(urlRefused('intapi.invariant.url-within-budget-accepted', res));
  // spec#what-the-service-does: a JSON API.
  const type = res.headers['content-type'] ?? '';
  if (res.text.length > 0) applied.push('intapi.invariant.json-content-type');
  if (res.text.length > 0 && !/^application\/json\s*(;|$)/i.test(type)) {
    push({ invariant: 'intapi.invariant.json-content-type', expected: 'content-type application/json', received: `content-type ${type || '(none)'}` });
  }
  if (res.status >= 200 && res.status < 300) {
    const name = successContract(req.op, req.version === undefined ? '2' : (req.version ?? String(missingVersion)));
    if (name) {
      applied.push('intapi.invariant.success-body-matches-contract');
      judge('intapi.invariant.success-body-matches-contract', name);
    }
  } else if (res.status >= 400 && res.status < 500) {
    applied.push('intapi.invariant.error-body-matches-contract', 'intapi.invariant.error-code-equals-status');
    judge('intapi.invariant.error-body-matches-contract', 'intapi/error');
    const code = typeof res.json === 'object' && res.json !== null ? (res.json as { code?: unknown }).code : undefined;
    if (code !== undefined && code !== res.status) {
      push({
        invariant: 'intapi.invariant.error-code-equals-status',
        expected: `code ${res.status}`,
        received: `code ${JSON.stringify(code)} with status ${res.status}`,
      });
    }
  }
  return { violations: found, applied, ...(contract ? { contract } : {}) };
}

export const familyInvariants: FamilyInvariants = { family: 'intapi', check: checkIntapiInvariants };
