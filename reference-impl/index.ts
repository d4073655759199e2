import { INTAPI_SERVER, type IntapiSandbox, type IntapiServerOptions } from './intapi/server.js';
import type { IntapiFaultName } from './intapi/faults.js';
import { LEARNER_SERVER, type LearnerServerOptions } from './learner/server.js';
import type { LearnerCredentials } from './learner/credentials.js';
import type { LearnerFaultName } from './learner/faults.js';
import { PLAYER_SERVER } from './player/server.js';
import { SCIM_SERVER, type ScimSandbox, type ScimServerOptions } from './scim/server.js';
import type { ScimFaultName } from './scim/faults.js';
import type { ScimVariantName } from './scim/variants.js';
import type { FaultInfo } from './http/faults.js';
import { FOUND_SERVER_FAMILIES } from './http/found.js';
import type { CoreOptions } from './http/server-family.js';
import {
  assembleServer,
  faultCatalogueOf,
  faultNamesOf,
  mergeOptions,
  type ReferenceServer,
  sandboxOf,
  sandboxOptionsOf,
  type ServerOptions,
  variantOptionsOf,
  variantsOf,
} from './http/server.js';

/**
 * The bundled in-memory reference server of lp-conformance: an independent reading of the
 * specification (it imports nothing from contracts/, suites/, src/ or reporters/).
 */
export { type Credentials, SANDBOX_CREDENTIALS } from './intapi/credentials.js';
export { type LearnerAccounts, type LearnerCredentials, SANDBOX_LEARNERS } from './learner/credentials.js';
export type { FaultInfo } from './http/faults.js';
export { INTAPI_FAULTS, type IntapiFaultName, intapiFaultedPaths, listIntapiFaults } from './intapi/faults.js';
export type { BehaviourTracer, TracedRequest } from './intapi/trace.js';
export type { IntapiServerOptions, IntapiSandbox } from './intapi/server.js';
export type { ScimServerOptions, ScimSandbox } from './scim/server.js';
export type { LearnerServerOptions } from './learner/server.js';
export type { CoreOptions, ServerFamily } from './http/server-family.js';
export { assembleServer, type ReferenceServer, SANDBOX_RULE_BATCH_MS } from './http/server.js';
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

/**
 * The families of the reference server, mounted in this order (one that builds on another's share
 * comes after it): the one place that names them all, as src/families/index.ts is for the tool. The
 * families a build found in folders of their own (http/found.ts) come after these.
 */
export const SERVER_FAMILIES = [INTAPI_SERVER, SCIM_SERVER, LEARNER_SERVER, PLAYER_SERVER, ...FOUND_SERVER_FAMILIES] as const;

/** Each family's own options, under its name. */
export interface FamilyOptions {
  readonly intapi?: IntapiServerOptions;
  readonly scim?: ScimServerOptions;
  readonly learner?: LearnerServerOptions;
  readonly player?: object;
}

/** The options of a reference server: the core's (http/server-family.ts), and each family's own. */
export interface ReferenceServerOptions extends CoreOptions {
  families?: FamilyOptions;
}

/**
 * The credentials a reference server accepts, by family: what a bundled run hands its checks (each
 * family of the tool puts them in its profile's variables), and what `serve` accepts. Strings only,
 * so that the tool reads it without knowing the server's option types.
 */
export interface Sandbox {
  readonly intapi: IntapiSandbox;
  readonly scim: ScimSandbox;
  /** The learner whose log-in the checks use (learner A of the seed: a department with branding). */
  readonly learner: LearnerCredentials;
}

/** The documented sandbox: `serve`'s credentials (docs/sandbox.md, "The reference server as a sandbox"). */
export const SANDBOX: Sandbox = sandboxOf(SERVER_FAMILIES, false) as unknown as Sandbox;

/** A sandbox with fresh random secrets (a bundled run's: nothing guessable reaches its reports). */
export function freshSandbox(): Sandbox {
  return sandboxOf(SERVER_FAMILIES, true) as unknown as Sandbox;
}

/** The options of a reference server that accepts the sandbox's credentials (each family's). */
export function sandboxOptions(s: Sandbox): ReferenceServerOptions {
  return sandboxOptionsOf(SERVER_FAMILIES, s as unknown as Readonly<Record<string, unknown>>) as ReferenceServerOptions;
}

/** Options one over the other: the core's replaced, each family's merged key by key. */
export function mergeServerOptions(...all: readonly ReferenceServerOptions[]): ReferenceServerOptions {
  return mergeOptions<ServerOptions>(...(all as readonly ServerOptions[])) as ReferenceServerOptions;
}

/**
 * Every variant of every family, by name `<family>.<variant>` (`--variant`, `serve --list-variants`):
 * a legitimate configuration the specification or an RFC allows, each the kind of real server the
 * suite is proven on (its profile: fixtures/profiles/<family>-<variant>.yaml).
 */
export const VARIANTS: Readonly<Record<string, { readonly description: string }>> = variantsOf(SERVER_FAMILIES);

/** The server options of a variant (`VARIANTS`); an unknown name throws. */
export function variantOptions(name: string): ReferenceServerOptions {
  return variantOptionsOf(SERVER_FAMILIES, name) as ReferenceServerOptions;
}

/** The name of a fault of any family, as the fault tables name them (`allFaults()` lists them). */
export type AnyFaultName = IntapiFaultName | ScimFaultName | LearnerFaultName;

/** The name of a variant, `<family>.<variant>` (`VARIANTS`). */
export type VariantName = `scim.${ScimVariantName}`;

/** Every fault of every family, by name (`--faults`, `serve --list-faults`). */
export function allFaults(): string[] {
  return faultNamesOf(SERVER_FAMILIES);
}

/** Every fault of every family with its family and one-line description, in allFaults()' order. */
export function faultCatalogue(): Readonly<Record<string, FaultInfo>> {
  return faultCatalogueOf(SERVER_FAMILIES);
}

/** The rule batch interval of the bundled server of a run (and the negative controls'): short, so the
 * rule checks, which wait for the batch, take a fraction of a second. */
export const BUNDLED_RULE_BATCH_MS = 200;

export function createReferenceServer(options: ReferenceServerOptions = {}): ReferenceServer {
  return assembleServer(SERVER_FAMILIES, options as ServerOptions);
}
