/**
 * What an API family registers with the core (ARCHITECTURE.md, "What a family registers"). The core
 * (src/ outside src/families/<name>/, the harness outside its family folders, the reporters) names
 * no family: it iterates over the registrations of src/families/index.ts. A family fills in what it
 * has; every hook but its name, title, operations and invariants is optional.
 */
import type { CheckMeta, CleanupOutcome, JournalEntry } from '../runner/model.js';
import type { EnvRef, FamilyCredentials, Profile } from '../profile/types.js';
import type { OperationRoute } from '../profile/routes.js';
import type { Schema } from '../profile/schema-parts.js';
import type { BuildOptions, ContractSchemas, JsonObject } from '../openapi/document.js';

/** A token of a family's session, shown in reports as its variable. */
export interface Token {
  env: string;
  value: string;
  /** The shell line that obtains it (a curl into the variable), shown before a reproduction's curl. */
  preamble?: string;
}

/** What a family's token exchange is given: the profile, its deadline, and the values of the
 * credential variables (a secret's value is read only here and in the client). */
export interface AuthContext {
  readonly profile: Profile;
  readonly timeoutMs: number;
  /** The value of a credential variable ('' when unset). */
  value(ref: EnvRef | undefined): string;
  /** Text with every known secret replaced by its variable. */
  redact(text: string): string;
}

export interface FamilyAuth {
  /** Every credential variable the family reads (for redaction, and to name the missing ones). */
  refs(profile: Profile): readonly EnvRef[];
  /** Without its variables a run that selects the family's checks does not start (exit 2, one
   * line); otherwise (false) its checks are skipped, naming the variables. */
  readonly required: boolean;
  /** The family's session token: the profile's ready token, or one from its token exchange. A
   * refusal of the credentials throws CredentialsError (src/target/errors.ts); an answer that is no
   * token throws an error with a `code`. */
  token(ctx: AuthContext): Promise<Token>;
  /** Whether the session comes from the token exchange (false: the profile gives a ready token). A
   * new token may revoke the one another process holds for the same user, so the shards of a plan
   * against one server do not both exchange (src/runner/shard.ts). */
  exchangesToken(profile: Profile): boolean;
}

/** How the suites' client speaks the family's protocol. */
export interface FamilyHttp {
  /** The header that carries a request's `version`, and the version sent when a request names none. */
  readonly version?: { readonly header: string; readonly default: string };
  /** The API key header every request carries unless it says otherwise, and the variable it comes from. */
  readonly apiKey?: { readonly header: string; readonly ref: (profile: Profile) => EnvRef };
  /** The `accept` header of every request, when the protocol names one. */
  readonly accept?: string;
  /** The media type of a request body. */
  readonly contentType: string;
  /** The operation that obtains a session token: sent without one, and allowed in a read-only run. */
  readonly tokenExchange?: string;
}

/** An invariant: a rule checked on every exchange of the family, reported as a check of its own. */
export interface InvariantMeta extends CheckMeta {
  /** What the report says when no exchange of the run was subject to it. */
  readonly notObserved: string;
}

/** What the core hands a family's cleanup: the target, the deadline of an exchange, and the
 * family's session token (obtained on first use; it rejects when the credentials are missing). */
export interface CleanupContext {
  readonly profile: Profile;
  readonly timeoutMs: number;
  token(): Promise<Token>;
}

export interface FamilyCleanup {
  /** Deletes the journal's records of the family. */
  delete(ctx: CleanupContext, entries: readonly JournalEntry[]): Promise<CleanupOutcome>;
  /** Every record of earlier runs (a run marker at the start of its name) the family can find. */
  leftovers(ctx: CleanupContext): Promise<JournalEntry[]>;
}

/** The family's part of the profile (src/profile/schema.ts puts the parts together). */
export interface FamilyProfile {
  /** Where its API is: at the run's target URL (`--target`), or by default under it at a suffix. */
  readonly baseUrl?: { readonly at: 'target' } | { readonly suffix: string };
  /** `credentials.<name>`: its own credentials (a token, or a username and password), and their default variables. */
  readonly ownCredentials?: { readonly defaults: FamilyCredentials; readonly description: string };
  /** Its keys in the profile's sections, as JSON Schemas (`#/$defs/…` of schema-parts.ts allowed). */
  readonly schema?: {
    /** Keys at the top of `credentials` (its own credentials when it has no `credentials.<name>`), and
     * the dependencies between them. */
    readonly credentials?: {
      readonly properties: Readonly<Record<string, Schema>>;
      readonly dependentRequired?: Readonly<Record<string, readonly string[]>>;
      readonly dependentSchemas?: Readonly<Record<string, Schema>>;
    };
    readonly records?: Readonly<Record<string, Schema>>;
    readonly expectations?: Readonly<Record<string, Schema>>;
    /** Keys at the top of the profile. */
    readonly top?: Readonly<Record<string, Schema>>;
  };
  /** The defaults of its expectations: the reference server's behaviour (fixtures/profiles/reference.yaml). */
  readonly expectations?: Readonly<Record<string, unknown>>;
  /** Its parts of the loaded profile from the validated document, defaults filled: `records`
   * (merged with the other families'), and its top-level keys. */
  load?(doc: ProfileDocument): { readonly records?: object } & Readonly<Record<string, unknown>>;
  /** Rules a JSON Schema cannot say: each a [field, problem] when broken. */
  problems?(profile: Profile): [field: string, problem: string][];
}

/** The profile document as validated (every key but `name` optional). */
export type ProfileDocument = Readonly<Record<string, unknown>> & {
  readonly credentials?: Readonly<Record<string, unknown>>;
  readonly records?: Readonly<Record<string, unknown>>;
  readonly expectations?: Readonly<Record<string, unknown>>;
};

/** A problem of the set-up found before any check runs: exit 2 with this one line. */
export class SetupError extends Error {}

/** What the core hands a family's hooks before a run. */
export interface PreflightContext {
  readonly profile: Profile;
  readonly timeoutMs: number;
  /** The family's session token, as the checks will have it (obtained once). */
  token(): Promise<Token>;
  /** Where to say what is not an error (one line each). */
  warn(line: string): void;
}

/** What a family starts beside the bundled reference server of a run (a mail sink, say). */
export interface BundledPart {
  /** The profile as the family's part needs it (its mailbox, say). */
  readonly profile: Profile;
  /** Options of the reference server (createReferenceServer) the part needs. */
  readonly server: Readonly<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface Family {
  /** The family's name: the first segment of its check ids and of its contracts' names. */
  readonly name: string;
  /** What users call it (messages). */
  readonly title: string;
  /** Its operations and their default routes. */
  readonly operations: Readonly<Record<string, OperationRoute>>;
  readonly profile: FamilyProfile;
  readonly auth?: FamilyAuth;
  /** The family whose session token its checks send, when it has none of its own (a page of another
   * family's API). */
  readonly sessionOf?: string;
  readonly http?: FamilyHttp;
  /** Its invariants (ids `<name>.invariant.<rule>`). */
  readonly invariants: readonly InvariantMeta[];
  readonly cleanup?: FamilyCleanup;
  /** The operations whose answers create a record the run leaves (the journal counts them, and the
   * summary says what the run left): the collection, and whether only a 201 says it created one (an
   * operation that may update instead, RFC 9110 §15.3.2). Families that note their own records (with
   * the operation that deletes them) need not list them. */
  readonly creates?: Readonly<Record<string, { readonly collection: string; readonly only201?: true }>>;
  /** Checks before any check runs, when the run selects the family's checks: a SetupError is exit 2. */
  preflight?(ctx: PreflightContext): Promise<void>;
  /** Which of its credential variables hold which of the credentials the bundled reference server
   * accepts (`Sandbox[<name>][<credential>]`): a bundled run sets them from the sandbox, and a
   * bundled server that must accept a profile's credentials (`--compare bundled`) takes them. */
  sandbox?(profile: Profile): readonly (readonly [variable: EnvRef, credential: string])[];
  /** What the family starts beside the bundled reference server of a run. */
  bundled?(profile: Profile): Promise<BundledPart>;
  /** Its part of the OpenAPI document (`lp-conformance openapi`): paths, components, servers. */
  openapi?(contracts: ContractSchemas, profile: Profile, options: BuildOptions): JsonObject;
}
