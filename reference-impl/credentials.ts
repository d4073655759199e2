/** The Integration API credentials the server accepts (public-facts#authentication-integration-api). */
export interface Credentials {
  readonly apiKey: string;
  readonly username: string;
  readonly password: string;
  readonly privateKey: string;
}

/**
 * The documented sandbox credentials of `lp-conformance serve` (env overrides LPC_API_KEY,
 * LPC_USERNAME, LPC_PASSWORD, LPC_PRIVATE_KEY). They authenticate as the seeded admin user.
 */
export const SANDBOX_CREDENTIALS: Credentials = Object.freeze({
  apiKey: 'lpc-sandbox-key',
  username: 'lpc.admin',
  password: 'lpc-sandbox-password',
  privateKey: 'lpc-sandbox-private-key',
});

/** A learner's credentials for the learner-facing API's token exchange (`POST /api/rest/v2/token`). */
export interface LearnerCredentials {
  readonly username: string;
  readonly password: string;
}

/**
 * The two sandbox learners (DEVELOPERS.md "Learner reference server and player: choices"): `a` in
 * a department with branding, `b` in a department without. Both see the same catalog. Their token
 * exchange also needs the Integration API key of the server's `Credentials`.
 */
export interface LearnerAccounts {
  readonly a: LearnerCredentials;
  readonly b: LearnerCredentials;
}

export const SANDBOX_LEARNERS: LearnerAccounts = Object.freeze({
  a: Object.freeze({ username: 'learner.a@example.com', password: 'lpc-learner-a-password' }),
  b: Object.freeze({ username: 'learner.b@example.com', password: 'lpc-learner-b-password' }),
});
