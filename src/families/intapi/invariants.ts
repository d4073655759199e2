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
  // RFC 9110 §4.1 RECOMMENDs accepting URIs of at least 8000 octets (a SHOULD): the client sends
  // nothing over the profile's limits.maxUrlBytes (8000 by default), so a 414 URI Too Long, or a 431
  // (how Node and others refuse a long request line), is the target's (suites/_harness/url-budget.ts).
  {
    id: 'intapi.invariant.url-within-budget-accepted',
    notObserved: 'no exchange was made',
    level: 'SHOULD',
    spec: 'rfc9110#section-4.1',
    title: 'No Integration API request within the URL budget is refused as too long (414, 431)',
    area: 'intapi.invariant',
  },
] as const satisfies readonly InvariantMeta[];

export type IntapiInvariantId = (typeof INTAPI_INVARIANTS)[number]['id'];
