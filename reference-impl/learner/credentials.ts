/** A learner's credentials for the learner-facing API's token exchange (`POST /api/rest/v2/token`). */
export interface LearnerCredentials {
  readonly username: string;
  readonly password: string;
}

/**
 * The two sandbox learners (docs/decisions/learner/reference-server-and-player.md "Learner reference server and player: choices"): `a` in
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
