/**
 * `lp-conformance openapi`: the contracts read from the package's contracts/ folder, the document
 * built by `buildOpenApi` (build.ts, a pure function) and rendered as YAML.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { Profile } from '../profile/index.js';
import { packageRoot } from '../util/package-root.js';
import { buildOpenApi, type ContractSchemas } from './build.js';

export { buildOpenApi, componentName, type BuildOptions, type ContractSchemas } from './build.js';

/** Every contracts/*.yaml by its name: `intapi.submission.create.yaml` → `intapi/submission.create`
 * (its `$id` is `lp:` and that name; src/ reads the files, it does not import the suites' loader). */
export function readContractSchemas(dir = join(packageRoot(), 'contracts')): ContractSchemas {
  const found = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const name = file.replace(/\.yaml$/, '').replace('.', '/');
    const schema = parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    if (schema.$id !== `lp:${name}`) throw new Error(`contracts/${file}: $id must be lp:${name}`);
    found.set(name, schema);
  }
  return found;
}

/** The package's version, the document's `info.version`. */
function toolVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The profile's OpenAPI 3.1 document as YAML (no anchors or aliases: each object written out). */
export function renderOpenApi(profile: Profile): string {
  const doc = buildOpenApi(readContractSchemas(), profile, { documentVersion: toolVersion() });
  return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
}
