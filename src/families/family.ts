/**
 * What an API family registers with the core (ARCHITECTURE.md, "What a family registers"). The core
 * (src/ outside src/families/<name>/, the harness outside its family folders, the reporters) names
 * no family: it iterates over the registrations of src/families/index.ts. A family fills in what it
 * has; every hook but its name, title, operations and invariants is optional.
 */
import type { CheckMeta, CleanupOutcome, JournalEntry } from '../runner/base/model.js';
import type { EnvRef, FamilyCredentials, Profile } from '../profile/base/types.js';
import type { OperationId, OperationRoute } from '../profile/base/routes.js';
import type { Schema } from '../profile/base/schema-parts.js';
import type { PacedSend } from '../target/base/pace.js';
import type { BuildOptions, ContractSchemas, JsonObject } from '../openapi/base/document.js';

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
   * refusal of the credentials throws CredentialsError (src/target/base/errors.ts); an answer that is no
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
  /** Whether a parsed JSON body has the shape of the family's answers (its envelope, its message
   * schemas): the preflight takes such a body under another media type for the family's answer,
   * mislabelled (the checks judge the label), not another server's. Absent: any JSON object or array. */
  readonly answers?: (json: unknown) => boolean;
  /** What its error body says beside the status: its machine word for the error (an error type),
   * and its validation reasons. Absent: an error says nothing beyond its status. */
  readonly errors?: {
    /** The error's machine word (counted as the cause of a check "not set up"), if the body has one. */
    readonly word?: (json: unknown) => string | undefined;
    /** The body's validation reasons (each naming its field), or undefined when it has none. */
    readonly validations?: (json: unknown) => readonly string[] | undefined;
  };
  /** Its list answers (a differential run's digest compares their items): the operations that
   * list, and the items and total of such an answer (its envelope). Absent: no answer is a list. */
  readonly lists?: {
    readonly operations: ReadonlySet<string>;
    readonly listed: (json: unknown) => { readonly items: readonly unknown[]; readonly total?: number } | undefined;
  };
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
  /** Sends one of the cleanup's requests to `server` (its origin): paced to the run's --max-rps, a 429
   * waited out and sent again. Every request of a family's cleanup goes through it. */
  readonly send: PacedSend;
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

/** A problem of the set-up found before any check runs: exit 2 with this one line (or one line per
 * problem, the first its message). */
export class SetupError extends Error {
  readonly lines: readonly string[];
  constructor(problems: string | readonly string[]) {
    const lines = typeof problems === 'string' ? [problems] : problems;
    super(lines[0] ?? 'set-up error');
    this.lines = lines;
  }
}

/** A request of the tool's own (src/target/client.ts), in a family's protocol: its operation, or
 * another route under the operation's family base URL. */
export interface ToolRequest {
  readonly op: OperationId;
  /** Another method and path under the operation's family base URL (an endpoint without an operation of its own). */
  readonly route?: OperationRoute;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** The family's version header: the family's default when absent, left out when null. */
  readonly version?: string | null;
  readonly json?: unknown;
  /** A body sent as it is (with `contentType`). */
  readonly rawBody?: string;
  readonly contentType?: string;
  /** false: no session token (what a target without credentials answers). */
  readonly token?: false;
}

/** What the target answered a ToolRequest. */
export interface ToolAnswer {
  /** 0 when no answer came (see `error`). */
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The parsed body; undefined when it is not JSON. */
  readonly json: unknown;
  /** Why no answer came (`ECONNREFUSED`, `LPC_DEADLINE`, …). */
  readonly error?: string;
  /** `METHOD /path?query` under the family's base URL: for messages. */
  readonly request: string;
}

/** A record the profile names and a read that answers 404 when it does not exist (`run --check-profile`). */
export interface RecordRead {
  /** Where the profile names it, e.g. `records.courseId`. */
  readonly field: string;
  readonly id: string;
  readonly request: ToolRequest;
}

/** A value `lp-conformance init` found for the profile: where it goes, and how it was found. */
export interface InitFound {
  /** Its path in the profile, e.g. `['records', 'courseId']`. */
  readonly path: readonly string[];
  readonly value: unknown;
  /** How it was found (the profile's comment above it). */
  readonly how: string;
}

/** A value init leaves commented out, with why and the form it takes. */
export interface InitMissing {
  readonly path: readonly string[];
  readonly why: string;
  /** What the value looks like (a placeholder), or the default that applies. */
  readonly example: unknown;
  /** True when the default applies (an expectation not probed); otherwise the checks that need the
   * value are skipped, naming it. */
  readonly defaults?: true;
}

/** What a family's init found of its part of the profile. */
export interface InitPart {
  readonly found: readonly InitFound[];
  readonly missing: readonly InitMissing[];
  /** How init found the family's API at its base URL (the comment of `families.<name>`). */
  readonly where?: string;
  /** The target has no such API: `families.<name>: none`, with why. */
  readonly absent?: string;
}

/** What the core hands a family's init (`lp-conformance init`). */
export interface InitContext {
  /** The profile init starts from (the defaults, or `--profile`), aimed at the target. */
  readonly profile: Profile;
  /** Whether init may write (`--probe-writes`); every write is refused otherwise. */
  readonly probeWrites: boolean;
  /** The start of the name of everything init creates (`lpc-<run id>-`). */
  readonly marker: string;
  /** Sends a request in its operation's family protocol (src/target/client.ts). */
  send(req: ToolRequest): Promise<ToolAnswer>;
  /** A GET of an absolute URL, with no family header (a page). */
  get(url: string): Promise<ToolAnswer>;
  /** Why a family's session cannot be had (its variables not set, refused, no answer); undefined
   * when it can (the token is then obtained). Default: the family's own. */
  sessionProblem(family?: string): Promise<string | undefined>;
  /** A family's session token (after `sessionProblem` said it can be had), for a page that takes it. */
  token(family: string): Promise<Token>;
  /** Whether a credential variable is set. */
  isSet(ref: EnvRef): boolean;
  /** Says what init created, for the profile's header and the summary. */
  created(what: string): void;
  /** The part an earlier family's init found (the registration order). */
  part(family: string): InitPart | undefined;
}

/** What the core hands a family's preflight (src/cli/preflight.ts), after it found the family's base
 * URL takes a connection and its credential variables set. */
export interface PreflightContext {
  readonly profile: Profile;
  readonly timeoutMs: number;
  /** The family's session token, as the checks will have it (obtained once). A refusal, a transport
   * error or an answer that is not the API throws SetupError (one line naming the family, the URL,
   * what was sent and what came back); another odd answer is a warning, and undefined. */
  token(): Promise<Token | undefined>;
  /** One GET of `op` with `query`, as the checks send it (the family's protocol and session token),
   * judged as `token()` is: the cheap read that shows the credentials work on the API itself. */
  read(op: OperationId, query?: Readonly<Record<string, string>>): Promise<void>;
  /** Where to say what is not an error (one line each). */
  warn(line: string): void;
}

/** What a family starts beside the bundled reference server of a run (a mail sink, say). */
export interface BundledPart {
  /** The profile as the family's part needs it (its mailbox, say). */
  readonly profile: Profile;
  /** Options of the reference server (createReferenceServer) the part needs: its own under
   * `families.<name>`. */
  readonly server: Readonly<Record<string, unknown>>;
  /** The variables (with their values) through which a profile reaches the part (`serve` prints
   * them beside the credentials: a run against it needs them). */
  readonly env?: Readonly<Record<string, string>>;
  /** What the part is, one line each, for `serve` to say (where it listens, how to reach it). */
  readonly says?: readonly string[];
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
  /** Checks before any check runs, when the run selects the family's checks (and its credentials are
   * set): typically its token and one cheap read (`ctx.read`). A SetupError is exit 2. */
  preflight?(ctx: PreflightContext): Promise<void>;
  /** Which of its credential variables hold which of the credentials the bundled reference server
   * accepts (`Sandbox[<name>][<credential>]`): a bundled run sets them from the sandbox, and a
   * bundled server that must accept a profile's credentials (`--compare bundled`) takes them. */
  sandbox?(profile: Profile): readonly (readonly [variable: EnvRef, credential: string])[];
  /** What the family starts beside the bundled reference server of a run (or of `serve`, on `host`). */
  bundled?(profile: Profile, options?: { readonly host?: string }): Promise<BundledPart>;
  /** `lp-conformance init`: finds its records through its API's reads and probes the choices its
   * profile part declares (a write only with `ctx.probeWrites`). */
  init?(ctx: InitContext): Promise<InitPart>;
  /** Each record id of the profile that its checks read, with a read that finds it: `run --check-profile`
   * sends each once and stops the run at one that does not exist. */
  recordReads?(profile: Profile): readonly RecordRead[];
  /** Its part of the OpenAPI document (`lp-conformance openapi`): paths, components, servers. */
  openapi?(contracts: ContractSchemas, profile: Profile, options: BuildOptions): JsonObject;
  /** The sentences that bind the server to its MUST checks' rules, for the checks that do not quote
   * their own (`binds` of the requirement): the first rule whose pattern matches a check's id gives
   * its sentence, so that the checks one table generates share their table's sentence. */
  readonly binds?: readonly BindingRule[];
}

/** The sentence of the specification or RFC that binds the server to the rule of the checks whose
 * ids `checks` matches, quoted with its section (`RFC 7644 §3.12: "…"`). */
export interface BindingRule {
  readonly checks: RegExp;
  readonly binds: string;
}
