import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { FaultInfo } from './faults.js';
import type { Headers } from './route.js';
import { type CoreOptions, type SandboxContext, type ServerCore, type ServerFamily, type ServerFamilyMount, sharing } from './server-family.js';
import { type IdOrigin, type SeededIds, seedIdOf } from '../rules/ids.js';

/**
 * The reference server put together from a list of families (reference-impl/index.ts registers
 * them): the core options resolved once, each family's faults and options handed to its mount in
 * list order, their scopes on one fastify app.
 */

/** A family's options, by family name. */
export type FamiliesOptions = Readonly<Record<string, object | undefined>>;

export interface ServerOptions extends CoreOptions {
  /** Each family's own options, under its name. */
  families?: FamiliesOptions;
}

export interface ReferenceServer {
  /** Starts listening; resolves the base URL, e.g. http://127.0.0.1:PORT (port 0 = a free port). */
  listen(opts?: { port?: number; host?: string }): Promise<string>;
  close(): Promise<void>;
  readonly fastify: FastifyInstance;
}

/** The rule batch interval of `lp-conformance serve` (and the default): a change visibly takes
 * effect later ("not necessarily at once"), well within the reference profile's bound. */
export const SANDBOX_RULE_BATCH_MS = 1000;

/** The check and case a request names (docs/decisions/core/exact-replays.md "Exact replays"); none without `x-lpc-check`. */
export function originOf(headers: Headers): IdOrigin | undefined {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const check = one(headers['x-lpc-check']);
  if (check === undefined || check === '') return undefined;
  const kase = one(headers['x-lpc-case']);
  return kase === undefined || kase === '' ? { check } : { check, case: kase };
}

/** The family a fault or variant name (`<family>.<rest>`) belongs to. */
function familyNamed(families: readonly ServerFamily[], name: string): ServerFamily | undefined {
  return families.find((f) => name.startsWith(`${f.name}.`));
}

/** The faults of the option, by family; a name of no family throws. */
function faultsByFamily(families: readonly ServerFamily[], faults: readonly string[]): Map<string, string[]> {
  const unknown = faults.filter((name) => familyNamed(families, name) === undefined);
  if (unknown.length > 0) {
    throw new Error(
      `Unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. A fault's name starts with its family: ${families.map((f) => `${f.name}.`).join(', ')}.`,
    );
  }
  const by = new Map<string, string[]>(families.map((f) => [f.name, []]));
  for (const name of faults) by.get((familyNamed(families, name) as ServerFamily).name)?.push(name);
  return by;
}

/** The core options checked and resolved, but the family's own faults. */
function resolvedCore(options: CoreOptions): Omit<ServerCore, 'faults' | 'share' | 'shared'> {
  if (options.idSeed !== undefined && !Number.isSafeInteger(options.idSeed)) throw new TypeError('createReferenceServer: idSeed must be an integer');
  const ruleBatchMs = options.ruleBatchMs ?? SANDBOX_RULE_BATCH_MS;
  if (!Number.isInteger(ruleBatchMs) || ruleBatchMs < 1) throw new TypeError('createReferenceServer: ruleBatchMs must be a positive integer');
  const ids = options.ids ?? randomUUID;
  const within = (ids as Partial<SeededIds>).within;
  return {
    clock: options.clock ?? (() => new Date()),
    ids,
    seedIdOf: seedIdOf(options.idSeed),
    idSeed: options.idSeed,
    scale: options.scale,
    ruleBatchMs,
    around: within ? <T>(headers: Headers, handle: () => T): T => within(originOf(headers), handle) : undefined,
  };
}

/** Mounts `families` in list order, each with its faults and options, on one app. */
export function assembleServer(families: readonly ServerFamily[], options: ServerOptions = {}): ReferenceServer {
  const core = resolvedCore(options);
  const faults = faultsByFamily(families, options.faults ?? []);
  const shares = sharing('createReferenceServer');
  const mounts: ServerFamilyMount[] = families.map((family) =>
    family.mount({ ...core, ...shares, faults: faults.get(family.name) ?? [] }, options.families?.[family.name] ?? {}),
  );
  const fastify = buildApp({ families: mounts.flatMap((m) => m.scopes) });
  for (const mount of mounts) mount.onApp?.(fastify);
  return {
    fastify,
    listen: async ({ port = 0, host = '127.0.0.1' } = {}) => {
      const url = await fastify.listen({ port, host });
      for (const mount of mounts) mount.listening?.(url);
      return url;
    },
    close: async () => {
      await fastify.close();
      for (const mount of mounts) mount.close?.();
    },
  };
}

/** Every fault of the families, by name, in list order. */
export function faultNamesOf(families: readonly ServerFamily[]): string[] {
  return families.flatMap((f) => (f.faultNames ? [...f.faultNames()] : Object.keys(f.faults)));
}

/** Every fault of the families with its family and description. */
export function faultCatalogueOf(families: readonly ServerFamily[]): Readonly<Record<string, FaultInfo>> {
  return Object.assign({}, ...families.map((f) => f.faults)) as Record<string, FaultInfo>;
}

/** Every variant of the families, by name `<family>.<variant>`. */
export function variantsOf(families: readonly ServerFamily[]): Readonly<Record<string, { readonly description: string }>> {
  return Object.freeze(
    Object.fromEntries(
      families.flatMap((f) => Object.entries(f.variants ?? {}).map(([name, v]) => [`${f.name}.${name}`, { description: v.description }] as const)),
    ),
  );
}

/** The server options of a variant `<family>.<variant>`; an unknown name throws. */
export function variantOptionsOf(families: readonly ServerFamily[], name: string): ServerOptions {
  const family = familyNamed(families, name);
  const variant = family === undefined ? undefined : name.slice(family.name.length + 1);
  if (family?.variantOptions === undefined || variant === undefined || !Object.hasOwn(family.variants ?? {}, variant)) {
    throw new TypeError(`unknown variant ${name}`);
  }
  return { families: { [family.name]: family.variantOptions(variant) } };
}

/** The families' parts of a sandbox, by family: the documented secrets, or fresh random ones. */
export function sandboxOf(families: readonly ServerFamily[], fresh: boolean): Readonly<Record<string, unknown>> {
  const ctx: SandboxContext = { ...sharing('sandbox'), secret: (documented) => (fresh ? randomBytes(18).toString('base64url') : documented) };
  return Object.freeze(Object.fromEntries(families.flatMap((f) => (f.sandbox ? [[f.name, Object.freeze(f.sandbox.make(ctx))] as const] : []))));
}

/** The options of a server that accepts the sandbox's credentials. */
export function sandboxOptionsOf(families: readonly ServerFamily[], sandbox: Readonly<Record<string, unknown>>): ServerOptions {
  const own = families.flatMap((f) => (f.sandbox && sandbox[f.name] !== undefined ? [[f.name, f.sandbox.options(sandbox[f.name])] as const] : []));
  return { families: Object.fromEntries(own) };
}

/** Options one over the other: the core's replaced, each family's merged key by key. */
export function mergeOptions<T extends ServerOptions>(...all: readonly T[]): T {
  const families: Record<string, object> = {};
  for (const options of all) {
    for (const [name, own] of Object.entries(options.families ?? {})) families[name] = { ...families[name], ...own };
  }
  return { ...Object.assign({}, ...all), families } as T;
}
