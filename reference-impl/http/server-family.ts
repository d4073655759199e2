import type { FastifyInstance } from 'fastify';
import type { MountedFamily } from './app.js';
import type { FaultInfo } from './faults.js';
import type { Headers } from './route.js';
import type { SeededIds, SeedIdOf } from '../rules/ids.js';

/**
 * The shape every family of the reference server has (one module per family folder, registered in
 * reference-impl/index.ts, as the tool's families are in src/families/index.ts): its name, its
 * faults in the shared fault-table shape (faults.ts), its variants, its part of the sandbox, and a
 * mount that builds its routes from the core options and its own.
 */

/** The options every family reads: the core of a reference server's options. */
export interface CoreOptions {
  /**
   * Derives the id of every seeded record of every family from this number (`serve --id-seed N`),
   * so that a client cannot know them; absent: the fixed ids the bundled reference profile names
   * (docs/decisions/core/seed-data.md "Fixed seed ids").
   */
  idSeed?: number;
  /** Default: () => new Date(). Token lifetimes are measured on it. */
  clock?: () => Date;
  /** Id generator for new records. Default: random UUID v4. A `seededIds(seed)` generator makes
   * the ids of a request that names its check (`x-lpc-check`, `x-lpc-case`) follow that check. */
  ids?: (() => string) | SeededIds;
  /** Named fault toggles, each `<family>.<name>` (the families' fault tables); an unknown name throws. */
  faults?: readonly string[];
  /** Records per large collection of a family's default seed, filled up with generated records
   * (0..MAX_SCALE; default 0): the families with large collections read it. */
  scale?: number;
  /**
   * The interval of the background rule batches a family runs, in milliseconds on `clock` (a positive
   * integer): a change they apply takes effect at the first batch after it. Default SANDBOX_RULE_BATCH_MS;
   * `lp-conformance run` uses BUNDLED_RULE_BATCH_MS.
   */
  ruleBatchMs?: number;
}

/** What the core hands a family's mount: the core options resolved, and the family's own faults. */
export interface ServerCore {
  readonly clock: () => Date;
  readonly ids: () => string;
  /** The id of each seeded record (`idSeed`). */
  readonly seedIdOf: SeedIdOf;
  readonly idSeed: number | undefined;
  readonly scale: number | undefined;
  readonly ruleBatchMs: number;
  /** The family's faults: the names of the `faults` option that start `<name>.`. */
  readonly faults: readonly string[];
  /** Runs a handler so that the new ids it makes follow the request's check and case (a seeded
   * `ids`); undefined otherwise. A family's `around`. */
  readonly around: (<T>(headers: Headers, handle: () => T) => T) | undefined;
  /** Hands a later family of the list what it builds on (an account, a store), under a key. */
  share(key: string, value: unknown): void;
  /** What an earlier family shared under `key`; throws when none did. */
  shared<T>(key: string): T;
}

/** A family as mounted on the app. */
export interface ServerFamilyMount {
  /** Its route scopes (each with its own prefix, error renderer, body limit and content types). */
  readonly scopes: readonly MountedFamily[];
  /** Adds what it serves beside its scopes (an OAuth flow's provider), once the app is built. */
  readonly onApp?: (app: FastifyInstance) => void;
  /** Told the server's base URL once it listens. */
  readonly listening?: (url: string) => void;
  /** Releases what it holds (a mail connection) when the server closes. */
  readonly close?: () => void;
}

/** What a family's part of the sandbox is built with. */
export interface SandboxContext {
  /** The documented value of a secret, or a fresh random one (`freshSandbox()`). */
  secret(documented: string): string;
  share(key: string, value: unknown): void;
  shared<T>(key: string): T;
}

/** A family's credentials in the sandbox (strings, by name), and the options that make the
 * server accept them. */
export interface SandboxPart<P, O> {
  make(ctx: SandboxContext): P;
  options(part: P): O;
}

export interface ServerFamily<N extends string = string, O = object, P = unknown> {
  /** The first segment of its fault and variant names, and its key in `families`. */
  readonly name: N;
  /** Its faults, name → family and description (the shared fault-table shape's catalogue). */
  readonly faults: Readonly<Record<string, FaultInfo>>;
  /** Every fault name, in its order (a table with parameterised names lists them here). */
  readonly faultNames?: () => readonly string[];
  /** Its variants (`<name>.<variant>`): legitimate configurations, each with a description. */
  readonly variants?: Readonly<Record<string, { readonly description: string }>>;
  /** The option of a variant (its part of `families.<name>`). */
  readonly variantOptions?: (variant: string) => O;
  readonly sandbox?: SandboxPart<P, O>;
  /** Builds its routes; a mistake in its options throws a TypeError. */
  mount(core: ServerCore, options: O): ServerFamilyMount;
}

/**
 * The key under which the family that holds the platform account shares it: at mount a
 * PortalAccount, in the sandbox its log-in (`{ username, password }`). Other families' log-ins
 * (a token exchange, an OAuth flow) and API keys take it.
 */
export const PORTAL_ACCOUNT = 'portal-account';

/** The platform account as shared at mount. */
export interface PortalAccount {
  readonly credentials: { readonly apiKey: string; readonly username: string; readonly password: string };
  /** The user the credentials sign in. */
  readonly accountId: string;
}

/** Key → value shared between families in list order. */
export function sharing(what: string): Pick<ServerCore, 'share' | 'shared'> {
  const values = new Map<string, unknown>();
  return {
    share: (key, value) => void values.set(key, value),
    shared: <T>(key: string): T => {
      if (!values.has(key)) throw new TypeError(`${what}: no family shares ${key} (a family that builds on another comes after it)`);
      return values.get(key) as T;
    },
  };
}
