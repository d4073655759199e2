/**
 * The learner API invariants (src/families/learner/invariants.ts, `learner.invariant.*`), evaluated on every
 * exchange with the learner-facing API: no 5xx, JSON bodies, 2xx bodies valid against the
 * operation's contract (contracts/learner.*.yaml, HAL envelopes with their items), 4xx bodies the
 * learner error body (the reference server's choice, docs/decisions/learner/reference-server-and-player.md "Learner reference server").
 */
import type { LearnerInvariantId } from '../../../src/families/learner/invariants.js';
import type { OperationId } from '../../../src/profile/index.js';
import type { ContractName } from '../contracts.js';
import { excerpt } from '../failure.js';
import type { ApiRequest, ApiResponse } from '../exchange.js';
import { contractViolation, type FamilyInvariants, type InvariantOutcome, type Violation } from '../violations.js';

const SUCCESS: Partial<Record<OperationId, string>> = {
  'learner.auth.token': 'learner/token',
  'learner.catalog.list': 'learner/envelope.courses',
  'learner.categories.list': 'learner/envelope.categories',
  'learner.courses.get': 'learner/courseDetail',
  'learner.calendar.list': 'learner/envelope.calendar',
  'learner.calendar.sessions': 'learner/envelope.sessions',
  'learner.courses.calendar': 'learner/calendarOverview',
  'learner.sessions.list': 'learner/envelope.sessions',
  'learner.sessions.get': 'learner/session',
  'learner.branding.get': 'learner/branding',
  'learner.progress.get': 'learner/progress',
  'learner.progress.save': 'learner/lessonProgress',
};

/** The contract of a learner 2xx body, by operation. */
export function learnerSuccessContract(op: OperationId): ContractName | undefined {
  return SUCCESS[op] as ContractName | undefined;
}

export function checkLearnerInvariants(req: ApiRequest, res: ApiResponse): InvariantOutcome {
  const found: Violation[] = [];
  const applied: LearnerInvariantId[] = ['learner.invariant.no-5xx'];
  let contract: InvariantOutcome['contract'];
  const push = (v: Violation | undefined): void => {
    if (v) found.push(v);
  };
  if (res.status >= 500) push({ invariant: 'learner.invariant.no-5xx', expected: 'a status below 500', received: `${res.status} ${excerpt(res.text)}` });
  if (res.text.length > 0) {
    applied.push('learner.invariant.json-content-type');
    const type = res.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      push({ invariant: 'learner.invariant.json-content-type', expected: 'content-type application/json', received: `content-type ${type || '(none)'}` });
    }
  }
  if (res.status >= 200 && res.status < 300) {
    const name = learnerSuccessContract(req.op);
    if (name) {
      applied.push('learner.invariant.success-body-matches-contract');
      const v = contractViolation('learner.invariant.success-body-matches-contract', name, res);
      contract = { name, valid: v === undefined };
      push(v);
    }
  } else if (res.status >= 400 && res.status < 500) {
    applied.push('learner.invariant.error-body-matches-contract');
    const name = 'learner/error' as ContractName;
    const v = contractViolation('learner.invariant.error-body-matches-contract', name, res);
    contract = { name, valid: v === undefined };
    push(v);
  }
  return { violations: found, applied, ...(contract ? { contract } : {}) };
}

export const familyInvariants: FamilyInvariants = { family: 'learner', check: checkLearnerInvariants };
