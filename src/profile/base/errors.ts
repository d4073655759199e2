/** A profile that cannot be used. The message is one line: `profile <file>: <field> <problem>`. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  constructor(
    message: string,
    /** The offending field as a path (`expectations.submissions.createStatus`), when there is one. */
    readonly field?: string,
    /** Every problem found, one line each; the message is the first. */
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
  }
}
