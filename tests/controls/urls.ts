// Negative-control expectations of the URL-length faults: a target that refuses request
// targets over 4096 bytes, where RFC 9110 recommends accepting 8000 (the default URL budget). Each
// family's probe of the budget and its URL invariant fail; the scope is those two.
import type { Control } from './expectations.js';

export const URL_CONTROLS: Readonly<Record<string, Control>> = {
  'intapi.url-limit-4k': {
    mustFail: ['intapi.http.long-url-accepted', 'intapi.invariant.url-within-budget-accepted'],
    scope: ['intapi.http.*', 'intapi.invariant.*'],
  },
  'scim.url-limit-4k': {
    mustFail: ['scim.http.long-url-accepted', 'scim.invariant.url-within-budget-accepted'],
    scope: ['scim.http.*', 'scim.invariant.*'],
  },
};
