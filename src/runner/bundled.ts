/**
 * The bundled reference server of a run: the default target of `lp-conformance run`, and the second
 * server of `--compare bundled`. It accepts a sandbox of credentials for every family it serves, and
 * each family puts them in its profile's variables (its registration's `sandbox`) or, the other way,
 * reads the profile's variables into the sandbox the server must accept. Families that need more
 * beside the server (a mail sink) start it through their `bundled` hook.
 */
import type { ReferenceServerOptions, Sandbox } from '../../reference-impl/index.js';
import type { BundledPart } from '../families/family.js';
import { FAMILIES } from '../families/registry.js';
import { withTarget, type Profile } from '../profile/index.js';

export type { Sandbox };

/** The values of the profile's credential variables that the sandbox fills: variable → value. */
export function sandboxEnvironment(profile: Profile, sandbox: Sandbox): Record<string, string> {
  const env: Record<string, string> = {};
  const parts = sandbox as unknown as Readonly<Record<string, Readonly<Record<string, string>> | undefined>>;
  for (const family of FAMILIES) {
    for (const [ref, credential] of family.sandbox?.(profile) ?? []) {
      const value = parts[family.name]?.[credential];
      if (value !== undefined) env[ref.env] = value;
    }
  }
  return env;
}

/** The sandbox whose credentials are the values of the profile's variables, over `base`: what a
 * bundled server must accept to answer a client that has the profile's credentials. */
export function sandboxOfEnvironment(profile: Profile, values: Readonly<Record<string, string>>, base: Sandbox): Sandbox {
  const parts: Record<string, Record<string, string>> = {};
  for (const family of FAMILIES) {
    const part: Record<string, string> = { ...(base as unknown as Record<string, Record<string, string> | undefined>)[family.name] };
    for (const [ref, credential] of family.sandbox?.(profile) ?? []) {
      const value = values[ref.env];
      if (value !== undefined) part[credential] = value;
    }
    parts[family.name] = part;
  }
  return { ...base, ...parts } as unknown as Sandbox;
}

export interface BundledServer {
  /** The profile aimed at the server (and what the families' parts add: a mailbox, say). */
  readonly profile: Profile;
  /** Where it listens. */
  readonly url: string;
  /** The variables through which a profile reaches the families' parts, with their values. */
  readonly env: Readonly<Record<string, string>>;
  /** What the families' parts are, one line each. */
  readonly says: readonly string[];
  close(): Promise<void>;
}

/**
 * Starts a bundled reference server on loopback that accepts the sandbox, with the families' parts
 * beside it for the families the run selects. `server` adds options (faults, ids, scale, …).
 */
export async function startBundled(options: {
  profile: Profile;
  sandbox: Sandbox;
  selects: (family: string) => boolean;
  /** The server's options; each family's credentials come from the sandbox (`sandboxOptions`),
   * merged over them, and the families' parts' options over those. */
  server: ReferenceServerOptions;
  /** Where to listen (default: a free port on loopback). */
  listen?: { port: number; host: string };
}): Promise<BundledServer> {
  const reference = await import('../../reference-impl/index.js');
  const parts: BundledPart[] = [];
  let profile = options.profile;
  try {
    for (const family of FAMILIES) {
      if (!family.bundled || !options.selects(family.name)) continue;
      const part = await family.bundled(profile, options.listen ? { host: options.listen.host } : {});
      parts.push(part);
      profile = part.profile;
    }
    const server = reference.createReferenceServer(
      reference.mergeServerOptions(options.server, reference.sandboxOptions(options.sandbox), ...parts.map((p) => p.server as ReferenceServerOptions)),
    );
    let url: string;
    try {
      url = await server.listen(options.listen ?? { port: 0, host: '127.0.0.1' });
    } catch (error) {
      await server.close().catch(() => undefined);
      throw error;
    }
    return {
      profile: withTarget(profile, url),
      url,
      env: Object.assign({}, ...parts.map((p) => p.env ?? {})) as Record<string, string>,
      says: parts.flatMap((p) => p.says ?? []),
      close: async () => {
        await server.close();
        for (const part of parts) await part.close();
      },
    };
  } catch (error) {
    for (const part of parts) await part.close();
    throw error;
  }
}
