// OAuth 2.0 authorization-code flow of the Integration API (public-facts#authentication-integration-api:
// `/oauth/authorize`, `/oauth/token`, single-use code, access token 4 hours, refresh token 1 year,
// scope `admin.v1`; the specification names the flow as the recommended method). Driven with
// oauth4webapi through the target's own log-in page (suites/_harness/oauth.ts, the checks every flow
// gets). PROFILE level: the facts come from public-facts.md, and the paths, redirect URI and scope
// from the profile.
import { INTAPI_OAUTH_FLOW } from '../_harness/intapi/oauth.js';
import { oauthFlowChecks } from '../_harness/oauth.js';

oauthFlowChecks(INTAPI_OAUTH_FLOW);
