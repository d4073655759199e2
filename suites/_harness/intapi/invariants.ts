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

/** The contract of a 2xx body, by operation and version (spec#integration-api-learning-resources-v1-and-v2:
 * v1 resource lists are bare arrays, v2's general list is the envelope, its other lists bare arrays). */
export function successContract(op: OperationId, version: string): IntapiContractName | undefined {
  const v1 = version === '1';
  switch (op) {
    case 'auth.authenticate':
      return 'intapi/token';
    case 'resources.get':
    case 'resources.getForCourse':
      return 'intapi/resource';
    case 'resources.list':
      return v1 ? 'intapi/resource.list' : 'intapi/envelope.resources';
    case 'resources.listForUser':
    case 'resources.listMine':
    case 'resources.listForCourse':
    case 'resources.listForEnrollment':
    case 'resources.listMineForCourse':
      return 'intapi/resource.list';
    case 'submissions.list':
      return 'intapi/envelope.submissions';
    case 'submissions.create':
    case 'submissions.get':
    case 'submissions.update':
      return 'intapi/submission';
    case 'templates.list':
      return 'intapi/envelope.templates';
    case 'templates.get':
      return 'intapi/template';
    case 'questionBanks.list':
      return 'intapi/envelope.questionBanks';
    case 'questionBanks.create':
    case 'questionBanks.get':
    case 'questionBanks.update':
      return 'intapi/questionBank';
    case 'questions.list':
      return 'intapi/envelope.questions';
    case 'questions.create':
    case 'questions.get':
    case 'questions.update':
      return 'intapi/question';
    case 'users.list':
      return v1 ? 'intapi/user.list' : 'intapi/envelope.users';
    case 'users.get':
    case 'users.myDetails':
    case 'users.update':
    case 'users.upsert':
      return 'intapi/user';
    case 'managers.listDirectReports':
    case 'managers.updateDirectReports':
      return 'intapi/envelope.directReports';
    case 'evaluationQuestions.list':
      return 'intapi/envelope.evaluationQuestions';
    case 'evaluationQuestions.get':
      return 'intapi/evaluationQuestion';
    case 'evaluationAnswers.list':
      return 'intapi/envelope.evaluationAnswers';
    case 'countries.list':
      return 'intapi/country.list';
    case 'provinces.list':
      return 'intapi/province.list';
    case 'provinces.get':
      return 'intapi/province';
    case 'groups.list':
      return 'intapi/envelope.groups';
    case 'groups.get':
    case 'groups.create':
    case 'groups.update':
    case 'groups.assignUsers':
    case 'groups.unassignUsers':
      return 'intapi/group';
    case 'groups.listUsers':
      return 'intapi/envelope.groupUsers';
    case 'enrollments.list':
      return 'intapi/envelope.enrollments';
    case 'enrollments.create':
    case 'enrollments.enrollSession':
      return 'intapi/enrollment';
    default:
      return undefined;
  }
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
