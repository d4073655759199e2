/**
 * Invariants: rules that hold for every exchange, defined once by explicit id (style.md,
 * "Invariants"). The suite's HTTP client checks them on every response; the runner reports each
 * as its own check, so a requirement keeps exactly one verdict of its own.
 */
import type { Family } from '../profile/index.js';
import type { CheckMeta } from '../runner/model.js';

/** An invariant: a check's identity, its family (the exchanges it applies to) and what the report
 * says when no exchange of the run was subject to it. */
export interface InvariantMeta extends CheckMeta {
  readonly family: Family;
  readonly notObserved: string;
}

export const INVARIANTS = [
  {
    id: 'intapi.invariant.no-5xx',
    family: 'intapi',
    notObserved: 'no exchange was made',
    level: 'MUST',
    spec: 'spec#errors',
    title: 'No Integration API request, valid or malformed, answers a 5xx status',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.json-content-type',
    family: 'intapi',
    notObserved: 'no answer had a body',
    level: 'MUST',
    spec: 'spec#what-the-service-does',
    title: 'Every Integration API response with a body is labelled application/json',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.success-body-matches-contract',
    family: 'intapi',
    notObserved: 'no 2xx answer was seen',
    level: 'MUST',
    spec: 'spec#resources-and-their-fields',
    title: 'Every 2xx body is valid against the contract of its operation',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.error-body-matches-contract',
    family: 'intapi',
    notObserved: 'no 4xx answer was seen',
    level: 'MUST',
    spec: 'spec#error-body',
    title: 'Every 4xx body is the documented error body (validations, code, message, term, _meta)',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.error-code-equals-status',
    family: 'intapi',
    notObserved: 'no 4xx answer was seen',
    level: 'PROFILE',
    spec: 'public-facts#errors',
    title: 'The code field of every error body equals the HTTP status',
    area: 'intapi.invariant',
  },
  // RFC 9110 §4.1 RECOMMENDs accepting URIs of at least 8000 octets (a SHOULD): the client sends
  // nothing over the profile's limits.maxUrlBytes (8000 by default), so a 414 URI Too Long, or a 431
  // (how Node and others refuse a long request line), is the target's (suites/_harness/url-budget.ts).
  {
    id: 'intapi.invariant.url-within-budget-accepted',
    family: 'intapi',
    notObserved: 'no exchange was made',
    level: 'SHOULD',
    spec: 'rfc9110#section-4.1',
    title: 'No Integration API request within the URL budget is refused as too long (414, 431)',
    area: 'intapi.invariant',
  },
  // SCIM 2.0: every exchange with the SCIM API (RFC 7644; scim-checklist T1, E1, E2, UG2).
  {
    id: 'scim.invariant.no-5xx',
    family: 'scim',
    notObserved: 'no SCIM exchange was made',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    title: 'No SCIM request, valid or malformed, answers a 5xx status other than 501 (client errors are 4xx)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.url-within-budget-accepted',
    family: 'scim',
    notObserved: 'no SCIM exchange was made',
    level: 'SHOULD',
    spec: 'rfc9110#section-4.1',
    title: 'No SCIM request within the URL budget is refused as too long (414, 431)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.scim-content-type',
    family: 'scim',
    notObserved: 'no SCIM answer had a body',
    level: 'MUST',
    spec: 'rfc7644#section-3.1',
    title: 'Every SCIM response with a body is labelled application/scim+json',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.success-body-matches-contract',
    family: 'scim',
    notObserved: 'no SCIM 2xx answer with a body was seen',
    level: 'MUST',
    spec: 'rfc7643#section-4',
    title: 'Every SCIM 2xx body is valid against its contract (User, Group, ListResponse, token, Schemas)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.error-body-matches-contract',
    family: 'scim',
    notObserved: 'no SCIM 4xx answer was seen',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    title: 'Every SCIM 4xx or 501 body is a SCIM error (Error URN, status as a string, Table 9 scimType)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.error-status-equals-status',
    family: 'scim',
    notObserved: 'no SCIM 4xx answer was seen',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    title: 'The status of every SCIM error body is the HTTP status code',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.password-never-returned',
    family: 'scim',
    notObserved: 'no SCIM resource was returned',
    level: 'MUST',
    spec: 'rfc7643#section-4.1.1',
    title: 'No SCIM answer returns a password (returned: never)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.id-in-every-resource',
    family: 'scim',
    notObserved: 'no SCIM resource was returned',
    level: 'MUST',
    spec: 'rfc7643#section-3.1',
    title: 'Every SCIM resource returned carries its id (returned: always)',
    area: 'scim.invariant',
  },
  // The learner-facing API: every exchange with it (spec#learner-facing-api; bodies per contracts/learner.*).
  {
    id: 'learner.invariant.no-5xx',
    family: 'learner',
    notObserved: 'no learner API exchange was made',
    level: 'MUST',
    spec: 'spec#errors',
    title: 'No learner API request, valid or malformed, answers a 5xx status',
    area: 'learner.invariant',
  },
  {
    id: 'learner.invariant.json-content-type',
    family: 'learner',
    notObserved: 'no learner API answer had a body',
    level: 'PROFILE',
    spec: 'spec#learner-facing-api',
    title: 'Every learner API response with a body is labelled application/json',
    area: 'learner.invariant',
  },
  {
    id: 'learner.invariant.success-body-matches-contract',
    family: 'learner',
    notObserved: 'no learner API 2xx answer was seen',
    level: 'PROFILE',
    spec: 'public-facts#learner-api',
    title: 'Every learner API 2xx body is valid against its contract (HAL envelopes and their items)',
    area: 'learner.invariant',
  },
  {
    id: 'learner.invariant.error-body-matches-contract',
    family: 'learner',
    notObserved: 'no learner API 4xx answer was seen',
    level: 'PROFILE',
    spec: 'spec#learner-facing-api',
    title: 'Every learner API 4xx body is the learner error body (code, message, validations)',
    area: 'learner.invariant',
  },
] as const satisfies readonly InvariantMeta[];

/** An invariant's report identity, without its registry fields. */
export function invariantCheck(inv: InvariantMeta): CheckMeta {
  const { family: _family, notObserved: _notObserved, ...meta } = inv;
  return meta;
}

export type InvariantId = (typeof INVARIANTS)[number]['id'];
