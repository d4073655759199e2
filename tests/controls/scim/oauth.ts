// Negative-control expectations of the faults of SCIM's OAuth 2.0 authorization-code flow (see
// tests/controls/expectations.ts). Checks: suites/scim/oauth.check.ts, the generic flow's
// (suites/_harness/oauth.ts) as the Integration API's are.
import type { Control } from '../expectations.js';

const SCOPE = ['scim.oauth.*', 'scim.invariant.*'];

export const SCIM_OAUTH_CONTROLS: Readonly<Record<string, Control>> = {
  'scim.oauth-code-reusable': { mustFail: ['scim.oauth.code-single-use'], scope: SCOPE },
  'scim.oauth-any-redirect-uri': { mustFail: ['scim.oauth.wrong-redirect-uri-refused'], scope: SCOPE },
  'scim.oauth-no-refresh-token': { mustFail: ['scim.oauth.refresh'], scope: SCOPE },
  'scim.oauth-access-token-8h': { mustFail: ['scim.oauth.expires-in-at-most-4h'], scope: SCOPE },
  'scim.oauth-token-not-accepted': { mustFail: ['scim.oauth.access-token-accepted'], scope: SCOPE },
};
