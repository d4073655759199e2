/** Credentials problems, raised where a family obtains its session token. */

/** An answer of a token exchange or a set-up read, as far as messages need it. */
export interface ExchangeAnswer {
  status: number;
  /** The answer's content-type header ('' when absent). */
  contentType: string;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

/** What a failed exchange sent and got, for the preflight's one line (src/cli/preflight.ts). */
export interface Exchanged {
  /** The request, one line, its credentials as the variables that hold them (exchange.ts sentLine). */
  readonly sent: string;
  readonly answer: ExchangeAnswer;
}

/** The target refused the profile's credentials: a configuration error (exit 2, one line). */
export class CredentialsError extends Error {
  constructor(
    message: string,
    /** The exchange that was refused, when there was one. */
    readonly exchanged?: Exchanged,
  ) {
    super(message);
  }
}

/** A token exchange answered without a token (any status but a refusal): the target's answer, for
 * the checks to judge, unless the preflight finds it is not the API at all. */
export class NoTokenError extends Error {
  readonly code = 'LPC_NO_TOKEN';
  constructor(
    message: string,
    readonly exchanged: Exchanged,
  ) {
    super(message);
  }
}

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
