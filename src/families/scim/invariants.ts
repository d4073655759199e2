/** SCIM's invariants: every exchange with the SCIM API (RFC 7644; scim-checklist T1, E1, E2, UG2). */
import type { InvariantMeta } from '../family.js';

export const SCIM_INVARIANTS = [
  {
    id: 'scim.invariant.no-5xx',
    notObserved: 'no SCIM exchange was made',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    title: 'No SCIM request, valid or malformed, answers a 5xx status other than 501 (client errors are 4xx)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.url-within-budget-accepted',
    notObserved: 'no SCIM exchange was made',
    level: 'SHOULD',
    spec: 'rfc9110#section-4.1',
    title: 'No SCIM request within the URL budget is refused as too long (414, 431)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.scim-content-type',
    notObserved: 'no SCIM answer had a body',
    level: 'MUST',
    spec: 'rfc7644#section-3.1',
    title: 'Every SCIM response with a body is labelled application/scim+json',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.success-body-matches-contract',
    notObserved: 'no SCIM 2xx answer with a body was seen',
    level: 'MUST',
    spec: 'rfc7643#section-4',
    title: 'Every SCIM 2xx body is valid against its contract (User, Group, ListResponse, token, Schemas)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.error-body-matches-contract',
    notObserved: 'no SCIM 4xx answer was seen',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    title: 'Every SCIM 4xx or 501 body is a SCIM error (Error URN, status as a string, Table 9 scimType)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.error-status-equals-status',
    notObserved: 'no SCIM 4xx answer was seen',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    title: 'The status of every SCIM error body is the HTTP status code',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.password-never-returned',
    notObserved: 'no SCIM resource was returned',
    level: 'MUST',
    spec: 'rfc7643#section-4.1.1',
    title: 'No SCIM answer returns a password (returned: never)',
    area: 'scim.invariant',
  },
  {
    id: 'scim.invariant.id-in-every-resource',
    notObserved: 'no SCIM resource was returned',
    level: 'MUST',
    spec: 'rfc7643#section-3.1',
    title: 'Every SCIM resource returned carries its id (returned: always)',
    area: 'scim.invariant',
  },
] as const satisfies readonly InvariantMeta[];

export type ScimInvariantId = (typeof SCIM_INVARIANTS)[number]['id'];
