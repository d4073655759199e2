/**
 * Invariants: rules that hold for every exchange, defined once by explicit id (style.md,
 * "Invariants"). The suite's HTTP client checks them on every response; the runner reports each
 * as its own check, so a requirement keeps exactly one verdict of its own.
 */
import type { CheckMeta } from '../runner/model.js';

export const INVARIANTS = [
  {
    id: 'intapi.invariant.no-5xx',
    level: 'MUST',
    spec: 'spec#errors',
    title: 'No Integration API request, valid or malformed, answers a 5xx status',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.json-content-type',
    level: 'MUST',
    spec: 'spec#what-the-service-does',
    title: 'Every Integration API response with a body is labelled application/json',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.success-body-matches-contract',
    level: 'MUST',
    spec: 'spec#resources-and-their-fields',
    title: 'Every 2xx body is valid against the contract of its operation',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.error-body-matches-contract',
    level: 'MUST',
    spec: 'spec#error-body',
    title: 'Every 4xx body is the documented error body (validations, code, message, term, _meta)',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.error-code-equals-status',
    level: 'PROFILE',
    spec: 'public-facts#errors',
    title: 'The code field of every error body equals the HTTP status',
    area: 'intapi.invariant',
  },
] as const satisfies readonly CheckMeta[];

export type InvariantId = (typeof INVARIANTS)[number]['id'];
