import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Credentials, SANDBOX_CREDENTIALS } from './intapi/credentials.js';
import { type LearnerAccounts, SANDBOX_LEARNERS } from './learner/credentials.js';
import { INTAPI_FAULTS, intapiBehaviourWithFaults, listIntapiFaults } from './intapi/faults.js';
import type { FaultInfo } from './http/faults.js';
import { type BehaviourTracer, traceBehaviour, type TracedRequest } from './intapi/trace.js';
import { noteWrite } from './store/writes.js';
import { buildApp, mountFamily } from './http/app.js';
import type { Family, Headers, Operation } from './http/route.js';
import { createIntapiFamily } from './intapi/index.js';
import { createOAuthServer, mountOAuth, type OAuthBehaviour, type OAuthClient, type OAuthMount, SANDBOX_OAUTH_CLIENT } from './http/oauth/server.js';
import { INTAPI_OAUTH_MOUNT } from './intapi/oauth.js';
import { SCIM_OAUTH_MOUNT } from './scim/oauth.js';
import type { EnrollmentMail } from './intapi/mail.js';
import { smtpMailer, type SmtpOptions } from './intapi/mail.js';
import { isLearnerFamilyFault, LEARNER_FAULTS, learnerBehaviourWithFaults, type LearnerFaultName } from './learner/faults.js';
import { createLearnerFamily } from './learner/index.js';
import { LearnerStore } from './learner/store.js';
import { createPlayerFamily } from './player/index.js';
import { SCIM_FAULTS, scimBehaviourWithFaults, type ScimFaultName } from './scim/faults.js';
import { SCIM_VARIANTS, type ScimVariantName } from './scim/variants.js';
import type { IntapiFaultName } from './intapi/faults.js';
import { createScimFamily } from './scim/index.js';
import { ScimStore } from './scim/store.js';
import { createSeededStore } from './intapi/seed.js';
import { type IdOrigin, type SeededIds, seedIdOf } from './rules/ids.js';
import type { Store } from './intapi/store/store.js';

/**
 * The bundled in-memory reference server of lp-conformance: an independent reading of the
 * specification (it imports nothing from contracts/, suites/, src/ or reporters/).
 */
export { type Credentials, SANDBOX_CREDENTIALS } from './intapi/credentials.js';
export { type LearnerAccounts, type LearnerCredentials, SANDBOX_LEARNERS } from './learner/credentials.js';
export type { FaultInfo } from './http/faults.js';
export { INTAPI_FAULTS, type IntapiFaultName, intapiFaultedPaths, listIntapiFaults } from './intapi/faults.js';
export type { BehaviourTracer, TracedRequest } from './intapi/trace.js';
export { LEARNER_FAULTS, type LearnerFaultName } from './learner/faults.js';
export { LEARNER_PREFIX, PLAYER_PREFIX } from './learner/index.js';
export { LEARNER_SEED_IDS, learnerCategoryId, learnerCourseId } from './learner/seed.js';
export { type OAuthClient, SANDBOX_OAUTH_CLIENT } from './http/oauth/server.js';
export { OAUTH_PREFIX, OAUTH_SCOPE } from './intapi/oauth.js';
export { SCIM_OAUTH_MOUNT } from './scim/oauth.js';
export type { EnrollmentMail } from './intapi/mail.js';
export { MAIL_FROM, type SmtpOptions } from './intapi/mail.js';
export { MAX_SCALE } from './intapi/scale.js';
export { SCIM_FAULTS, type ScimFaultName } from './scim/faults.js';
export { isScimVariant, SCIM_VARIANTS, type ScimVariantName } from './scim/variants.js';
export { SCIM_PREFIX } from './scim/index.js';
export { SCIM_SEED_GROUPS, SCIM_SEED_USERS, scimSeedGroupId, scimSeedUserId } from './scim/seed.js';
export { createSeededStore, SEED_IDS, type SeedOptions } from './intapi/seed.js';
export { type IdOrigin, type SeededIds, seededIds, seedIdOf } from './rules/ids.js';
export { Store } from './intapi/store/store.js';

export interface ReferenceServerOptions {
  /** Default: SANDBOX_CREDENTIALS. */
  credentials?: Credentials;
  /** Default: createSeededStore({ scale }) (deterministic seed data). */
  store?: Store;
  /**
   * Records per large collection (users, resources, submissions) of the default store: the
   * default seed filled up with generated records (0..MAX_SCALE; default 0). Not with `store`.
   */
  scale?: number;
  /**
   * Derives the id of every seeded record of every family from this number (`serve --id-seed N`),
   * so that a client cannot know them; absent: the fixed ids the bundled reference profile names
   * (docs/decisions/core/seed-data.md "Fixed seed ids"). Not with `store`.
   */
  idSeed?: number;
  /** Default: () => new Date(). Token lifetime is measured on it. */
  clock?: () => Date;
  /** Id generator for new records. Default: random UUID v4. A `seededIds(seed)` generator makes
   * the ids of a request that names its check (`x-lpc-check`, `x-lpc-case`) follow that check. */
  ids?: (() => string) | SeededIds;
  /**
   * Named fault toggles (see INTAPI_FAULTS, SCIM_FAULTS for names starting `scim.`, LEARNER_FAULTS for
   * `learner.` and `player.`); an unknown name throws.
   */
  faults?: readonly string[];
  /** A SCIM bearer token accepted from the start, besides those of the token exchange. */
  scimToken?: string;
  /** A variant of the SCIM server (SCIM_VARIANTS): a legitimate configuration RFC 7643/7644 allow,
   * such as a server built for identity providers; faults apply on top of it. Default: the reference. */
  scimVariant?: string;
  /** Whether SCIM starts with its seed of 2,500 users and 50 groups (default true); false starts it
   * empty (the negative controls' servers: the suite creates what it reads). */
  scimSeed?: boolean;
  /** The learners of the learner API's token exchange. Default: SANDBOX_LEARNERS. */
  learners?: LearnerAccounts;
  /** Lifetime of a learner token, in seconds, on `clock`. Default 3600. */
  learnerTokenTtlSeconds?: number;
  /** The OAuth 2.0 client of the authorization-code flow under /oauth. Default: SANDBOX_OAUTH_CLIENT. */
  oauthClient?: OAuthClient;
  /** The OAuth 2.0 client of SCIM's authorization-code flow under /scim/v2/oauth. Default: SANDBOX_OAUTH_CLIENT. */
  scimOAuthClient?: OAuthClient;
  /** Where course enrollment emails go (SMTP, no TLS); absent: no mail is sent. */
  smtp?: SmtpOptions;
  /** Receives each course enrollment email instead of SMTP (tests of the server itself). */
  mailer?: (mail: EnrollmentMail) => void;
  /**
   * The interval of the automatic enrollment rules' batches, in milliseconds on `clock` (a positive
   * integer): a user change is applied by the first batch after it, at a multiple of it since the
   * server was created. Default SANDBOX_RULE_BATCH_MS; `lp-conformance run` uses BUNDLED_RULE_BATCH_MS.
   */
  ruleBatchMs?: number;
  /** Receives every read of the Integration API's behaviour table with the request it serves, and
   * that request's writes (intapi/trace.ts): the negative controls' trace of where a fault can act.
   * Absent: no tracing. */
  traceBehaviour?: BehaviourTracer;
}

/**
 * The credentials a reference server accepts, by family: what a bundled run hands its checks (each
 * family of the tool puts them in its profile's variables), and what `serve` accepts. Strings only,
 * so that the tool reads it without knowing the server's option types.
 */
export interface Sandbox {
  readonly intapi: {
    readonly apiKey: string;
    readonly username: string;
    readonly password: string;
    readonly privateKey: string;
    readonly oauthClientId: string;
    readonly oauthClientSecret: string;
  };
  /** A ready bearer token; the token exchange and the OAuth flow's log-in take the Integration API's
   * username and password; the OAuth flow's client. */
  readonly scim: {
    readonly token: string;
    readonly username: string;
    readonly password: string;
    readonly oauthClientId: string;
    readonly oauthClientSecret: string;
  };
  /** The learner whose log-in the checks use (learner A of the seed: a department with branding). */
  readonly learner: { readonly username: string; readonly password: string };
}

/** The documented sandbox: `serve`'s credentials (docs/sandbox.md, "The reference server as a sandbox"). */
export const SANDBOX: Sandbox = Object.freeze({
  intapi: { ...SANDBOX_CREDENTIALS, oauthClientId: SANDBOX_OAUTH_CLIENT.clientId, oauthClientSecret: SANDBOX_OAUTH_CLIENT.clientSecret },
  scim: {
    token: 'lpc-sandbox-scim-token',
    username: SANDBOX_CREDENTIALS.username,
    password: SANDBOX_CREDENTIALS.password,
    oauthClientId: SANDBOX_OAUTH_CLIENT.clientId,
    oauthClientSecret: SANDBOX_OAUTH_CLIENT.clientSecret,
  },
  learner: { ...SANDBOX_LEARNERS.a },
});

/** A sandbox with fresh random secrets (a bundled run's: nothing guessable reaches its reports). */
export function freshSandbox(): Sandbox {
  const make = (): string => randomBytes(18).toString('base64url');
  const intapi = { ...SANDBOX.intapi, apiKey: make(), password: make(), privateKey: make() };
  return { intapi, scim: { ...SANDBOX.scim, token: make(), username: intapi.username, password: intapi.password }, learner: SANDBOX.learner };
}

/** The options of a reference server that accepts the sandbox's credentials. */
export function sandboxOptions(s: Sandbox): Pick<ReferenceServerOptions, 'credentials' | 'scimToken' | 'learners' | 'oauthClient' | 'scimOAuthClient'> {
  const { oauthClientId, oauthClientSecret, ...credentials } = s.intapi;
  return {
    credentials,
    scimToken: s.scim.token,
    learners: { a: s.learner, b: SANDBOX_LEARNERS.b },
    oauthClient: { ...SANDBOX_OAUTH_CLIENT, clientId: oauthClientId, clientSecret: oauthClientSecret },
    scimOAuthClient: { ...SANDBOX_OAUTH_CLIENT, clientId: s.scim.oauthClientId, clientSecret: s.scim.oauthClientSecret },
  };
}

/**
 * Every variant of every family, by name `<family>.<variant>` (`--variant`, `serve --list-variants`):
 * a legitimate configuration the specification or an RFC allows, each the kind of real server the
 * suite is proven on (its profile: fixtures/profiles/<family>-<variant>.yaml).
 */
export const VARIANTS: Readonly<Record<string, { readonly description: string }>> = Object.freeze(
  Object.fromEntries(Object.entries(SCIM_VARIANTS).map(([name, v]) => [`scim.${name}`, { description: v.description }])),
);

/** The server options of a variant (`VARIANTS`); an unknown name throws. */
export function variantOptions(name: string): Pick<ReferenceServerOptions, 'scimVariant'> {
  if (!Object.hasOwn(VARIANTS, name)) throw new TypeError(`unknown variant ${name}`);
  return { scimVariant: name.slice('scim.'.length) };
}

/** The name of a fault of any family, as the fault tables name them (`allFaults()` lists them). */
export type AnyFaultName = IntapiFaultName | ScimFaultName | LearnerFaultName;

/** The name of a variant, `<family>.<variant>` (`VARIANTS`). */
export type VariantName = `scim.${ScimVariantName}`;

/** Every fault of every family, by name (`--faults`, `serve --list-faults`). */
export function allFaults(): string[] {
  return [...listIntapiFaults(), ...Object.keys(SCIM_FAULTS), ...Object.keys(LEARNER_FAULTS)];
}

/** Every fault of every family with its family and one-line description, in allFaults()' order. */
export function faultCatalogue(): Readonly<Record<string, FaultInfo>> {
  return { ...INTAPI_FAULTS, ...SCIM_FAULTS, ...LEARNER_FAULTS };
}

/** The rule batch interval of `lp-conformance serve` (and the default): a user change visibly takes
 * effect later ("not necessarily enrolled at once"), well within the reference profile's bound. */
export const SANDBOX_RULE_BATCH_MS = 1000;
/** The rule batch interval of the bundled server of a run (and the negative controls'): short, so the
 * rule checks, which wait for the batch, take a fraction of a second. */
export const BUNDLED_RULE_BATCH_MS = 200;

export interface ReferenceServer {
  /** Starts listening; resolves the base URL, e.g. http://127.0.0.1:PORT (port 0 = a free port). */
  listen(opts?: { port?: number; host?: string }): Promise<string>;
  close(): Promise<void>;
  readonly fastify: FastifyInstance;
}

/** The family with its guard and handlers run `during` their request (intapi/trace.ts): one
 * TracedRequest per HTTP request (its headers object), for its guard and its handler. */
function tracedFamily<C, O extends Operation<C>>(family: Family<C, O>, during: <R>(request: TracedRequest, run: () => R) => R): Family<C, O> {
  const requests = new WeakMap<Headers, TracedRequest>();
  const request = (headers: Headers, operation: O): TracedRequest => {
    let traced = requests.get(headers);
    if (traced === undefined) {
      const check = originOf(headers)?.check;
      traced = { ...(check === undefined ? {} : { check }), operation: operation.id, method: operation.method };
      requests.set(headers, traced);
    }
    return traced;
  };
  const around = family.around;
  return {
    ...family,
    guard: (headers, operation) => during(request(headers, operation), () => family.guard(headers, operation)),
    around: <T>(headers: Headers, handle: () => T, operation: O): T =>
      during(request(headers, operation), () => (around ? around(headers, handle, operation) : handle())),
  };
}

/** The check and case a request names (docs/decisions/core/exact-replays.md "Exact replays"); none without `x-lpc-check`. */
function originOf(headers: Headers): IdOrigin | undefined {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const check = one(headers['x-lpc-check']);
  if (check === undefined || check === '') return undefined;
  const kase = one(headers['x-lpc-case']);
  return kase === undefined || kase === '' ? { check } : { check, case: kase };
}

export function createReferenceServer(options: ReferenceServerOptions = {}): ReferenceServer {
  if (options.store !== undefined && (options.scale ?? 0) > 0) throw new TypeError('createReferenceServer: give store or scale, not both');
  if (options.store !== undefined && options.idSeed !== undefined) throw new TypeError('createReferenceServer: give store or idSeed, not both');
  if (options.idSeed !== undefined && !Number.isSafeInteger(options.idSeed)) throw new TypeError('createReferenceServer: idSeed must be an integer');
  const seedIds = seedIdOf(options.idSeed);
  const faults = options.faults ?? [];
  const faulted = intapiBehaviourWithFaults(faults.filter((name) => !name.startsWith('scim.') && !isLearnerFamilyFault(name)));
  const traced = options.traceBehaviour ? traceBehaviour(faulted, options.traceBehaviour) : undefined;
  const behaviour = traced ? traced.table : faulted;
  const scimBehaviour = scimBehaviourWithFaults(
    faults.filter((name) => name.startsWith('scim.')),
    options.scimVariant,
  );
  const learnerBehaviour = learnerBehaviourWithFaults(faults.filter(isLearnerFamilyFault));
  const learnerTokenTtlSeconds = options.learnerTokenTtlSeconds ?? 3600;
  if (!Number.isInteger(learnerTokenTtlSeconds) || learnerTokenTtlSeconds < 1) {
    throw new TypeError('createReferenceServer: learnerTokenTtlSeconds must be a positive integer');
  }
  const ruleBatchMs = options.ruleBatchMs ?? SANDBOX_RULE_BATCH_MS;
  if (!Number.isInteger(ruleBatchMs) || ruleBatchMs < 1) throw new TypeError('createReferenceServer: ruleBatchMs must be a positive integer');
  const ids = options.ids ?? randomUUID;
  const clock = options.clock ?? (() => new Date());
  const credentials = options.credentials ?? SANDBOX_CREDENTIALS;
  const store =
    options.store ??
    createSeededStore({
      ...(options.scale === undefined ? {} : { scale: options.scale }),
      ...(options.idSeed === undefined ? {} : { idSeed: options.idSeed }),
    });
  const mailer = options.smtp === undefined || options.mailer !== undefined ? undefined : smtpMailer(options.smtp);
  const send = options.mailer ?? mailer?.send;
  // A mail sent is a write, as a stored record is: what the mail checks read later.
  const mail = send && ((message: EnrollmentMail) => (noteWrite(), send(message)));
  // The sandbox log-in of each OAuth flow signs in the user of the Integration API's credentials (for
  // SCIM's, the portal account its token exchange takes too).
  const flow = (mount: OAuthMount, client: OAuthClient | undefined, rules: OAuthBehaviour) =>
    createOAuthServer({ mount, credentials, accountId: store.principalUserId, client: client ?? SANDBOX_OAUTH_CLIENT, behaviour: rules });
  const oauth = flow(INTAPI_OAUTH_MOUNT, options.oauthClient, behaviour.oauth);
  const intapiOAuth = {
    accessTokenAccount: (token: string, nowMs: number) => (behaviour.oauth.intapiAccepts === 'accepted' ? oauth.accessTokenAccount(token, nowMs) : undefined),
  };
  const family = createIntapiFamily({ ...(mail ? { mail } : {}), store, behaviour, credentials, clock, ids, oauth: intapiOAuth, ruleBatchMs });
  const scimOAuth = flow(SCIM_OAUTH_MOUNT, options.scimOAuthClient, scimBehaviour.oauth);
  const scimFamily = createScimFamily({
    oauth: scimOAuth,
    behaviour: scimBehaviour,
    credentials,
    clock,
    ids,
    ...(options.scimToken === undefined ? {} : { token: options.scimToken }),
    ...(options.scimSeed === false ? { store: new ScimStore() } : { seedIdOf: seedIds }),
  });
  // Session times of the learner seed are placed around the clock's time at creation.
  const learnerDeps = {
    store: new LearnerStore(clock(), options.learners ?? SANDBOX_LEARNERS, seedIds),
    behaviour: learnerBehaviour,
    credentials,
    clock,
    tokenTtlSeconds: learnerTokenTtlSeconds,
  };
  const within = (ids as Partial<SeededIds>).within;
  const around = within ? <T>(headers: Headers, handle: () => T): T => within(originOf(headers), handle) : undefined;
  const withIds = around ? { ...family, around } : family;
  const intapi = traced ? tracedFamily(withIds, traced.during) : withIds;
  const scim = around ? { ...scimFamily, around } : scimFamily;
  const fastify = buildApp({
    bodyLimit: behaviour.http.bodyLimit,
    contentTypes: behaviour.http.contentTypes,
    notJsonStatus: behaviour.errors.notJsonStatus,
    renderError: intapi.renderError,
    families: [mountFamily(intapi), mountFamily(scim), mountFamily(createLearnerFamily(learnerDeps)), mountFamily(createPlayerFamily(learnerDeps))],
  });
  mountOAuth(fastify, oauth);
  mountOAuth(fastify, scimOAuth);
  return {
    fastify,
    listen: async ({ port = 0, host = '127.0.0.1' } = {}) => {
      const url = await fastify.listen({ port, host });
      for (const flow of [oauth, scimOAuth]) flow.setIssuer(`${url}${flow.prefix}`);
      return url;
    },
    close: async () => {
      await fastify.close();
      mailer?.close();
    },
  };
}
