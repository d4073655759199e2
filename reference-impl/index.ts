import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Credentials, SANDBOX_CREDENTIALS } from './credentials.js';
import { behaviourWithFaults } from './faults.js';
import { buildApp, mountFamily } from './http/app.js';
import { createIntapiFamily } from './intapi/index.js';
import { createSeededStore } from './seed.js';
import type { Store } from './store/store.js';

/**
 * The bundled in-memory reference server of lp-conformance: an independent reading of the
 * specification (it imports nothing from contracts/, suites/, src/ or reporters/).
 */
export { type Credentials, SANDBOX_CREDENTIALS } from './credentials.js';
export { FAULTS, type FaultInfo, type FaultName, listFaults } from './faults.js';
export { MAX_SCALE } from './scale.js';
export { createSeededStore, SEED_IDS, type SeedOptions, seededIds } from './seed.js';
export { Store } from './store/store.js';

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
  /** Default: () => new Date(). Token lifetime is measured on it. */
  clock?: () => Date;
  /** Id generator for new records. Default: random UUID v4. */
  ids?: () => string;
  /** Named fault toggles (see FAULTS); an unknown name throws. */
  faults?: readonly string[];
}

export interface ReferenceServer {
  /** Starts listening; resolves the base URL, e.g. http://127.0.0.1:PORT (port 0 = a free port). */
  listen(opts?: { port?: number; host?: string }): Promise<string>;
  close(): Promise<void>;
  readonly fastify: FastifyInstance;
}

export function createReferenceServer(options: ReferenceServerOptions = {}): ReferenceServer {
  if (options.store !== undefined && (options.scale ?? 0) > 0) throw new TypeError('createReferenceServer: give store or scale, not both');
  const behaviour = behaviourWithFaults(options.faults ?? []);
  const intapi = createIntapiFamily({
    store: options.store ?? createSeededStore(options.scale === undefined ? {} : { scale: options.scale }),
    behaviour,
    credentials: options.credentials ?? SANDBOX_CREDENTIALS,
    clock: options.clock ?? (() => new Date()),
    ids: options.ids ?? randomUUID,
  });
  const fastify = buildApp({
    bodyLimit: behaviour.http.bodyLimit,
    contentTypes: behaviour.http.contentTypes,
    notJsonStatus: behaviour.errors.notJsonStatus,
    renderError: intapi.renderError,
    families: [mountFamily(intapi)],
  });
  return {
    fastify,
    listen: ({ port = 0, host = '127.0.0.1' } = {}) => fastify.listen({ port, host }),
    close: () => fastify.close(),
  };
}
