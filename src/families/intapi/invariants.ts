/** The Integration API's invariants: rules that hold for every exchange with it (style.md, "Invariants"). */
import type { InvariantMeta } from '../family.js';

export const INTAPI_INVARIANTS = [
  {
    id: 'intapi.invariant.no-5xx',
    notObserved: 'no exchange was made',
    level: 'MUST',
    spec: 'spec#errors',
    title: 'No Integration API request, valid or malformed, answers a 5xx status',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.json-content-type',
    notObserved: 'no answer had a body',
    level: 'MUST',
    spec: 'spec#what-the-service-does',
    title: 'Every Integration API response with a body is labelled application/json',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.success-body-matches-contract',
    notObserved: 'no 2xx answer was seen',
    level: 'MUST',
    spec: 'spec#resources-and-their-fields',
    title: 'Every 2xx body is valid against the contract of its operation',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.error-body-matches-contract',
    notObserved: 'no 4xx answer was seen',
    level: 'MUST',
    spec: 'spec#error-body',
    title: 'Every 4xx body is the documented error body (validations, code, message, term, _meta)',
    area: 'intapi.invariant',
  },
  {
    id: 'intapi.invariant.error-code-equals-status',
    notObserved: 'no 4xx answer was seen',
    level: 'PROFILE',
    spec: 'public-facts#errors',
    title: 'The code field of every error body equals the HTTP status',
    area: 'intapi.invariant',
  },
] as const satisfies readonly InvariantMeta[];

export type IntapiInvariantId = (typeof INTAPI_INVARIANTS)[number]['id'];
