/** Credentials problems, raised where a family obtains its session token. */

/** The target refused the profile's credentials: a configuration error (exit 2, one line). */
export class CredentialsError extends Error {}

/** A family's credentials are not set: its checks are skipped (or, for a family whose credentials
 * a run requires, the run does not start). */
export class MissingCredentialsError extends Error {
  readonly code = 'LPC_NO_CREDENTIALS';
  constructor(
    message: string,
    /** What users call the family whose credentials they are (its registration's title). */
    readonly family: string,
  ) {
    super(message);
  }
}
