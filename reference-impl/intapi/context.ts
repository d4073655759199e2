import type { Behaviour } from './behaviour.js';
import type { EnrollmentMail } from './mail.js';
import type { Credentials } from './credentials.js';
import type { Operation } from '../http/route.js';
import type { Store } from './store/store.js';

/** spec#versioning: `x-api-version` 1 or 2. */
export type ApiVersion = 1 | 2;
export const V1_AND_V2: readonly ApiVersion[] = [1, 2];
export const V2_ONLY: readonly ApiVersion[] = [2];

/** What the guard establishes for a handler. */
export interface IntapiContext {
  readonly version: ApiVersion;
  /** The current user; undefined only for /authenticate, which needs no token. */
  readonly userId: string | undefined;
}

export interface IntapiOperation extends Operation<IntapiContext> {
  readonly versions: readonly ApiVersion[];
  /** `api-key`: x-api-key only (/authenticate); `token`: x-api-key and a Bearer token. */
  readonly auth: 'api-key' | 'token';
}

/** Everything the Integration API handlers depend on. */
export interface IntapiDeps {
  readonly store: Store;
  readonly behaviour: Behaviour;
  readonly credentials: Credentials;
  readonly clock: () => Date;
  readonly ids: () => string;
  /** The OAuth 2.0 server whose access tokens the Integration API accepts (reference-impl/http/oauth, mounted by intapi/oauth.ts). */
  readonly oauth?: { accessTokenAccount(token: string, nowMs: number): string | undefined };
  /** Sends a course enrollment email (reference-impl/intapi/mail.ts); absent: no mail is sent. */
  readonly mail?: (mail: EnrollmentMail) => void;
  /** The interval of the automatic enrollment rules' batches, in milliseconds (enrollments/rules.ts). */
  readonly ruleBatchMs: number;
}
