/**
 * The set-up mistakes: what the command line answers with exit 2 and one line each (a usage or
 * profile mistake, missing credentials, a target that cannot be reached or is not the API, a TLS or
 * baseline file that cannot be used), and what the library's run() throws as a RunError.
 */
import { ProfileError } from '../profile/index.js';
import { BaselineError } from '../runner/baseline.js';
import { CredentialsError } from '../target/secrets.js';
import { TlsConfigError } from '../target/tls.js';
import { UsageError } from './args.js';
import { SetupError } from './preflight.js';

/** What kind of set-up mistake stopped a run. */
export type MistakeKind = 'usage' | 'profile' | 'credentials' | 'setup' | 'tls' | 'baseline';

/** The mistake's kind and its lines (one, or one per problem: the records --check-profile did not
 * find); undefined when `error` is no set-up mistake (an internal error). */
export function setupMistake(error: unknown): { kind: MistakeKind; lines: readonly string[] } | undefined {
  if (error instanceof SetupError) return { kind: 'setup', lines: error.lines };
  const kind: MistakeKind | undefined =
    error instanceof UsageError || (error instanceof Error && error.name === 'MergeError')
      ? 'usage'
      : error instanceof ProfileError
        ? 'profile'
        : error instanceof CredentialsError
          ? 'credentials'
          : error instanceof TlsConfigError
            ? 'tls'
            : error instanceof BaselineError
              ? 'baseline'
              : undefined;
  return kind === undefined ? undefined : { kind, lines: [(error as Error).message] };
}
