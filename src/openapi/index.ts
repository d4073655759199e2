/**
 * `lp-conformance openapi`: the contracts read from the package's contracts/ folder, the document
 * built by `buildOpenApi` (a pure function of the contracts and the profile: the parts the families
 * register, put together) and rendered as YAML.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Profile } from '../profile/index.js';
import { ProfileError } from '../profile/base/errors.js';
import { readContractFiles } from '../util/contract-files.js';
import { packageRoot } from '../util/package-root.js';
import { FAMILIES } from '../families/registry.js';
import type { BuildOptions, ContractSchemas, JsonObject } from './base/document.js';

export { componentName, type BuildOptions, type ContractSchemas } from './base/document.js';

/** Every contracts/*.yaml by its name (`<family>.<name>.yaml` → `<family>/<name>`):
 * src/ reads the files with src/util/contract-files.ts, it does not import the suites' loader. */
export { readContractFiles as readContractSchemas } from '../util/contract-files.js';

/**
 * The OpenAPI 3.1 document of the profile: the first family's part, then each other family's paths
 * (each path item carrying its own `servers`: the family's base URL) and components.
 */
export function buildOpenApi(contracts: ContractSchemas, profile: Profile, options: BuildOptions): JsonObject {
  const parts = FAMILIES.flatMap((f) => (f.openapi ? [f.openapi(contracts, profile, options)] : []));
  const [first, ...rest] = parts;
  if (!first) throw new Error('no registered family describes its API in OpenAPI');
  const paths = { ...(first.paths as JsonObject) };
  const components = { ...(first.components as JsonObject) };
  for (const part of rest) {
    // A family under a path of the host (its base URL /x/v2) has its paths written from the host's root, so that
    // two families' like paths (each its POST /token) stay two paths; its server is the origin.
    const [server] = (part.servers ?? []) as { url: string; description?: string }[];
    const base = server ? new URL(server.url) : undefined;
    const prefix = base ? base.pathname.replace(/\/+$/, '') : '';
    const servers = server && base ? [{ ...server, url: base.origin }] : [];
    for (const [path, item] of Object.entries(part.paths as JsonObject)) {
      const key = `${prefix}${path}`;
      if (key in paths) throw new ProfileError(`openapi: ${key} is the path of two families' operations (their base URLs overlap)`);
      paths[key] = { servers, ...(item as JsonObject) };
    }
    for (const [kind, entries] of Object.entries((part.components ?? {}) as JsonObject)) {
      components[kind] = { ...((components[kind] ?? {}) as JsonObject), ...(entries as JsonObject) };
    }
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...first, paths: sorted, components };
}

/** The package's version, the document's `info.version`. */
function toolVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The profile's OpenAPI 3.1 document as YAML (no anchors or aliases: each object written out). */
export function renderOpenApi(profile: Profile): string {
  const doc = buildOpenApi(readContractFiles(), profile, { documentVersion: toolVersion() });
  return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
}
