/**
 * `import { startReferenceServer } from 'lp-conformance/reference-server'`: the bundled reference
 * server as a fixture of a client's tests, as `lp-conformance serve` starts it (with what its families
 * start beside it, a mail sink), but on a free port by default, with the documented sandbox's
 * credentials (never read from process.env) and nothing printed.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { AnyFaultName, Sandbox, VariantName } from '../../reference-impl/index.js';
import { faultsOf, variantOf } from '../cli/run.js';
import { setupMistake } from '../cli/mistakes.js';
import { FAMILIES, loadProfile, referenceProfilePath, variantProfilePath } from '../profile/index.js';
import { sandboxEnvironment, startBundled } from '../runner/bundled.js';
import { RunError, type ProfileDocument } from './run.js';

export type { FaultName, ProfileDocument, VariantName } from './run.js';

export interface ReferenceServerOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Derives every seeded record's id from this number (`serve --id-seed`), so that no profile knows
   * them; default: the fixed ids the bundled profile names. */
  idSeed?: number;
  /** N users, resources and submissions (`serve --scale`); default: the seed data only. */
  scale?: number;
  /** Another kind of real server, a legitimate configuration (`serve --list-variants`). */
  variant?: VariantName;
  /** Faults to switch on (`serve --list-faults`). */
  faults?: readonly AnyFaultName[];
}

/** The credentials the server accepts, by family. */
export type Credentials = Sandbox;

export interface ReferenceServer {
  /** Where it listens, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  /** The credentials it accepts, by family (the documented sandbox's). */
  readonly credentials: Credentials;
  /** The variables the bundled profile reads the credentials (and the mailbox) from, with their
   * values: a run's `env`, or export lines for a shell. */
  readonly env: Readonly<Record<string, string>>;
  /** The bundled profile aimed at the server (with the variant's expectations): run()'s `profile`. */
  readonly profile: ProfileDocument;
  /** Stops the server and what started beside it. */
  close(): Promise<void>;
}

/** The bundled profile's document, its root family's base URL the server's. */
function profileDocument(url: string, variant: string | undefined): ProfileDocument {
  const doc = parse(readFileSync(referenceProfilePath(), 'utf8')) as Record<string, Record<string, unknown>>;
  const root = FAMILIES.find((f) => f.profile.baseUrl !== undefined && 'at' in f.profile.baseUrl);
  if (root) doc.families = { ...doc.families, [root.name]: { baseUrl: url } };
  if (variant !== undefined) {
    const own = parse(readFileSync(variantProfilePath(variant), 'utf8')) as { expectations?: Record<string, unknown> };
    doc.expectations = { ...doc.expectations, ...own.expectations };
  }
  return doc;
}

/** Starts the bundled reference server; a mistake in the options (an unknown fault, a port in use)
 * is a RunError with `serve`'s line. */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  try {
    const [reference, faults, variant] = await Promise.all([
      import('../../reference-impl/index.js'),
      faultsOf([...(options.faults ?? [])]),
      variantOf(options.variant),
    ]);
    const profile = loadProfile();
    const sandbox = reference.SANDBOX;
    const server = await startBundled({
      profile,
      sandbox,
      selects: () => true,
      server: {
        faults,
        scale: options.scale ?? 0,
        ...(variant ? reference.variantOptions(variant) : {}),
        ...(options.idSeed === undefined ? {} : { idSeed: options.idSeed }),
      },
      listen: { port, host },
    }).catch((error: unknown) => {
      const code = (error as { code?: string }).code;
      throw code === undefined ? error : new RunError('usage', [`cannot listen on ${host}:${port} (${code})`], { cause: error });
    });
    return {
      url: server.url,
      credentials: sandbox,
      env: { ...sandboxEnvironment(profile, sandbox), ...server.env },
      profile: profileDocument(server.url, variant),
      close: () => server.close(),
    };
  } catch (error) {
    const mistake = error instanceof RunError ? undefined : setupMistake(error);
    if (mistake) throw new RunError(mistake.kind, mistake.lines, { cause: error });
    throw error;
  }
}
