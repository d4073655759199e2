/**
 * `lp-conformance openapi`: the contracts read from the package's contracts/ folder, the document
 * built by `buildOpenApi` (a pure function of the contracts and the profile: the parts the families
 * register, put together) and rendered as YAML.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Profile } from '../profile/index.js';
import { readContractFiles } from '../util/contract-files.js';
import { packageRoot } from '../util/package-root.js';
import { FAMILIES } from '../families/registry.js';
import type { BuildOptions, ContractSchemas, JsonObject } from './document.js';

export { componentName, type BuildOptions, type ContractSchemas } from './document.js';

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
    for (const [path, item] of Object.entries(part.paths as JsonObject)) paths[path] = { servers: part.servers ?? [], ...(item as JsonObject) };
    for (const [kind, entries] of Object.entries((part.components ?? {}) as JsonObject)) {
      components[kind] = { ...((components[kind] ?? {}) as JsonObject), ...(entries as JsonObject) };
    }
  }
  return { ...first, paths, components };
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
