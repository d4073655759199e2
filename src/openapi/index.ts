/**
 * `lp-conformance openapi`: the contracts read from the package's contracts/ folder, the document
 * built by `buildOpenApi` (build.ts, a pure function) and rendered as YAML.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Profile } from '../profile/index.js';
import { readContractFiles } from '../util/contract-files.js';
import { packageRoot } from '../util/package-root.js';
import { buildOpenApi } from './build.js';

export { buildOpenApi, componentName, type BuildOptions, type ContractSchemas } from './build.js';

/** Every contracts/*.yaml by its name (`intapi.submission.create.yaml` → `intapi/submission.create`):
 * src/ reads the files with src/util/contract-files.ts, it does not import the suites' loader. */
export { readContractFiles as readContractSchemas } from '../util/contract-files.js';

/** The package's version, the document's `info.version`. */
function toolVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The profile's OpenAPI 3.1 document as YAML (no anchors or aliases: each object written out). */
export function renderOpenApi(profile: Profile): string {
  const doc = buildOpenApi(readContractFiles(), profile, { documentVersion: toolVersion() });
  return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
}
