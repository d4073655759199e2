// SCIM's OAuth 2.0 authorization-code flow: the specification names it the recommended method
// (spec#scim-api), public-facts places its authorization endpoint under the SCIM base
// (`/scim/v2/oauth/authorize`); the token endpoint, scope and lifetimes are the profile's
// (expectations.scim.oauth: by default beside it, `scim`, and the Integration API flow's 4 hours).
// The same checks as the Integration API's flow (suites/_harness/oauth.ts), through the target's own
// log-in page. PROFILE level. docs/decisions/scim/oauth.md.
import { oauthFlowChecks } from '../_harness/oauth.js';
import { SCIM_OAUTH_FLOW } from '../_harness/scim/oauth.js';

oauthFlowChecks(SCIM_OAUTH_FLOW);
