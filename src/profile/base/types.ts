/**
 * A target profile after loading: validated, defaults filled. See src/profile/schema.ts for how the
 * YAML form is put together and fixtures/profiles/reference.yaml for an example.
 *
 * The core names no API family: each family adds its own parts to the interfaces below with
 * `declare module '…/src/profile/base/types.js' { interface Expectations { <name>: … } }` (TypeScript's
 * declaration merging), in its folder under src/families/. A check then reads
 * `profile.expectations.<name>.<field>` fully typed, and the loader fills each part from the
 * family's registration (src/families/family.ts).
 */
import type { OperationId, OperationRoute } from './routes.js';

/** A secret, named by the environment variable that holds it; never the value itself. */
export interface EnvRef {
  readonly env: string;
}

/** The OAuth 2.0 client of a family's authorization-code flow (src/profile/oauth.ts): its id and
 * secret, optionally a refresh token (a target whose log-in page the suite cannot drive: the checks
 * that need a log-in are then skipped), and the log-in page's user where it is not the family's own. */
export interface OAuthClientCredentials {
  readonly clientId: EnvRef;
  readonly clientSecret: EnvRef;
  readonly refreshToken?: EnvRef;
  readonly username?: EnvRef;
  readonly password?: EnvRef;
}

/** Where a family's authorization-code flow is and what it promises (its `expectations.…oauth`). */
export interface OAuthFlowExpectations {
  /** Paths under the family's base URL. */
  readonly authorizePath: string;
  readonly tokenPath: string;
  /** The redirect URI registered for the client (never fetched: the code is read from the redirect). */
  readonly redirectUri: string;
  readonly scope: string;
  /** The longest access token lifetime (`expires_in`) allowed, in seconds. */
  readonly accessTokenMaxSeconds: number;
  /** The issuer (RFC 9207 `iss`); default: the family's base URL + /oauth. */
  readonly issuer?: string;
}

/** A family's own credentials: a ready bearer token, or the username and password its token
 * exchange takes; and the client of its OAuth 2.0 flow when it has one. */
export type FamilyCredentials = (
  | { readonly token: EnvRef; readonly username?: undefined; readonly password?: undefined }
  | { readonly username: EnvRef; readonly password: EnvRef; readonly token?: undefined }
) & { readonly oauth?: OAuthClientCredentials };

export interface FamilyTarget {
  readonly baseUrl: string;
  /** True when the profile gave this base URL; false when derived from the target's. */
  readonly explicit: boolean;
  /** The profile says the target has no such API (`families.<name>: none`): the family's checks are
   * skipped, saying so, and nothing of it is contacted. */
  readonly none?: true;
}

/** The base URL of each family that has one (`families.<name>` in the profile). */

export interface FamilyTargets {}

/** The credentials a family keeps under `credentials.<name>` (FamilyCredentials). */

export interface FamilyCredentialSets {}

/** Records the suites read but cannot create. Absent when the profile does not name them: the
 * checks that need one are skipped (they are target data, so they have no defaults). */

export interface Records {}

/** The target's behaviour where the specification says "not shown", per family. */

export interface Expectations {}

/** Parts of the profile a family keeps at its top level (keys other than the sections above). */

export interface ProfileParts {}

export interface Profile extends ProfileParts {
  readonly name: string;
  /** Where the profile came from (the file as given, or the bundled reference profile's path). */
  readonly source: string;
  readonly families: FamilyTargets;
  readonly familyCredentials: FamilyCredentialSets;
  readonly records: Records;
  readonly operations: Readonly<Record<OperationId, OperationRoute>>;
  /** What the target accepts of a request (`limits`): the suite keeps within it. */
  readonly limits: Limits;
  readonly expectations: Expectations;
}

export interface Limits {
  /** The longest request target (path and query, bytes as sent) the suite sends (default 8000,
   * RFC 9110 §4.1's recommended minimum). */
  readonly maxUrlBytes: number;
}
