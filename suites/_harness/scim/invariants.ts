/**
 * The SCIM invariants (src/families/scim/invariants.ts, `scim.invariant.*`), evaluated on every exchange
 * with the SCIM API: RFC 7644 §3.1 (media type), §3.12 (error bodies), RFC 7643 §3.1 (`id` returned
 * always) and §4.1.1 (`password` returned never), and the contracts of the bodies.
 *
 * A body answered to a request with `attributes` or `excludedAttributes` is a projection: it need
 * not carry what the contract requires by default (RFC 7644 §3.9), so only its envelope is judged.
 */
import type { ScimInvariantId } from '../../../src/families/scim/invariants.js';
import type { OperationId } from '../../../src/profile/index.js';
import type { ContractName } from '../contracts.js';
import { excerpt } from '../failure.js';
import type { ApiRequest, ApiResponse } from '../exchange.js';
import { contractViolation, type FamilyInvariants, type InvariantOutcome, type Violation } from '../violations.js';
import { urlRefused } from '../url-budget.js';

/** The contract of a SCIM 2xx body, by operation. */
export function scimSuccessContract(op: OperationId): ContractName | undefined {
  const name = ((): string | undefined => {
    switch (op) {
      case 'scim.auth.token':
        return 'scim/token';
      case 'scim.users.create':
      case 'scim.users.get':
      case 'scim.users.replace':
      case 'scim.users.patch':
        return 'scim/user';
      case 'scim.groups.create':
      case 'scim.groups.get':
      case 'scim.groups.replace':
      case 'scim.groups.patch':
        return 'scim/group';
      case 'scim.users.list':
      case 'scim.groups.list':
        return 'scim/listResponse';
      case 'scim.schemas.list':
        return 'scim/schemas';
      default:
        return undefined;
    }
  })();
  return name as ContractName | undefined;
}

const ITEM_CONTRACT: Partial<Record<OperationId, string>> = { 'scim.users.list': 'scim/user', 'scim.groups.list': 'scim/group' };

/** The resources of a SCIM answer: the resource itself, or a ListResponse's `Resources`. */
export function resourcesOf(op: OperationId, json: unknown): Record<string, unknown>[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return [];
  if (op === 'scim.auth.token' || op.startsWith('scim.schemas.')) return [];
  const body = json as Record<string, unknown>;
  if (op.endsWith('.list')) {
    const list = body.Resources;
    return Array.isArray(list) ? list.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r)) : [];
  }
  return [body];
}

/** RFC 7644 §3.12 Table 8: an operation the service provider does not support. */
const NOT_IMPLEMENTED = 501;

const projected = (req: ApiRequest): boolean => req.query?.attributes !== undefined || req.query?.excludedAttributes !== undefined;

/** What the stages of the invariants note: the rules that applied, and each violation found. */
interface Judging {
  readonly applied: ScimInvariantId[];
  push(v: Violation | undefined): void;
}

/** A success with a body: its contract (and its resources' items'), no password, an id in every resource. */
function judgeSuccess(req: ApiRequest, res: ApiResponse, { applied, push }: Judging): InvariantOutcome['contract'] {
  let contract: InvariantOutcome['contract'];
  // A request sent on another route than its operation's (an endpoint the profile has no operation
  // for: discovery, the unsupported ones) is not that operation's answer: no contract to judge it by.
  const name = req.route === undefined ? scimSuccessContract(req.op) : undefined;
  if (name) {
    applied.push('scim.invariant.success-body-matches-contract');
    const isList = req.op.endsWith('.list');
    // A projection is judged by its envelope only (a list) or not at all (one resource).
    const v = isList || !projected(req) ? contractViolation('scim.invariant.success-body-matches-contract', name, res) : undefined;
    contract = { name, valid: v === undefined };
    push(v);
    const item = ITEM_CONTRACT[req.op];
    if (!v && item && !projected(req)) {
      resourcesOf(req.op, res.json).some((resource, i) => {
        const itemV = contractViolation('scim.invariant.success-body-matches-contract', item as ContractName, { ...res, json: resource });
        if (itemV) push({ ...itemV, received: `Resources[${i}]: ${itemV.received}` });
        return itemV !== undefined;
      });
    }
  }
  const resources = resourcesOf(req.op, res.json);
  if (resources.length > 0) applied.push('scim.invariant.password-never-returned', 'scim.invariant.id-in-every-resource');
  const withPassword = resources.findIndex((r) => Object.keys(r).some((k) => k.toLowerCase() === 'password'));
  if (withPassword >= 0) {
    push({
      invariant: 'scim.invariant.password-never-returned',
      expected: 'no password attribute in any returned resource',
      received: `a password attribute in ${req.op.endsWith('.list') ? `Resources[${withPassword}]` : 'the resource'}`,
    });
  }
  const withoutId = resources.findIndex((r) => typeof r.id !== 'string' || r.id.length === 0);
  if (withoutId >= 0) {
    push({
      invariant: 'scim.invariant.id-in-every-resource',
      expected: 'a non-empty string id in every returned resource',
      received: `${req.op.endsWith('.list') ? `Resources[${withoutId}]` : 'the resource'} with id ${JSON.stringify(resources[withoutId]?.id)}`,
    });
  }
  return contract;
}

/** An error answer: the error contract, and its `status` equal to the HTTP status. */
function judgeError(res: ApiResponse, { applied, push }: Judging): InvariantOutcome['contract'] {
  applied.push('scim.invariant.error-body-matches-contract', 'scim.invariant.error-status-equals-status');
  const v = contractViolation('scim.invariant.error-body-matches-contract', 'scim/error' as ContractName, res);
  push(v);
  const status = typeof res.json === 'object' && res.json !== null ? (res.json as { status?: unknown }).status : undefined;
  // The type of `status` is the contract's to judge; here its value (a number equal to the status passes).
  if (status !== undefined && String(status) !== String(res.status)) {
    push({
      invariant: 'scim.invariant.error-status-equals-status',
      expected: `status "${res.status}"`,
      received: `status ${JSON.stringify(status)} with HTTP status ${res.status}`,
    });
  }
  return { name: 'scim/error' as ContractName, valid: v === undefined };
}

export function checkScimInvariants(req: ApiRequest, res: ApiResponse): InvariantOutcome {
  const found: Violation[] = [];
  const applied: ScimInvariantId[] = ['scim.invariant.no-5xx', 'scim.invariant.url-within-budget-accepted'];
  const judging: Judging = {
    applied,
    push: (v) => {
      if (v) found.push(v);
    },
  };
  const { push } = judging;
  // RFC 7644 §3.12: errors the client caused are 4xx; a 5xx for a request the suite sends is a server
  // fault, except 501 (Table 8: "Service provider does not support the request operation", the
  // answer §3.7 and §3.11 name for an unsupported /Bulk or /Me), which is a SCIM error answer.
  if (res.status >= 500 && res.status !== NOT_IMPLEMENTED)
    push({ invariant: 'scim.invariant.no-5xx', expected: 'a status below 500', received: `${res.status} ${excerpt(res.text)}` });
  push(urlRefused('scim.invariant.url-within-budget-accepted', res));
  // RFC 7644 §3.1 / §8.1: SCIM messages are application/scim+json (parameters such as charset allowed).
  if (res.text.length > 0) {
    applied.push('scim.invariant.scim-content-type');
    const type = res.headers['content-type'] ?? '';
    if (!/^application\/scim\+json\s*(;|$)/i.test(type)) {
      push({ invariant: 'scim.invariant.scim-content-type', expected: 'content-type application/scim+json', received: `content-type ${type || '(none)'}` });
    }
  }
  let contract: InvariantOutcome['contract'];
  if (res.status >= 200 && res.status < 300 && res.text.length > 0) contract = judgeSuccess(req, res, judging);
  else if ((res.status >= 400 && res.status < 500) || res.status === NOT_IMPLEMENTED) contract = judgeError(res, judging);
  return { violations: found, applied, ...(contract ? { contract } : {}) };
}

export const familyInvariants: FamilyInvariants = { family: 'scim', check: checkScimInvariants };
