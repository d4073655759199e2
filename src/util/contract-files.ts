/**
 * The contract files, discovered by name: `contracts/<family>.<name>.yaml` holds the contract
 * `<family>/<name>` (JSON Schema 2020-12 authored in YAML) whose `$id` is `lp:<family>/<name>`.
 * The one reading of the folder: the suites' loader (suites/_harness/contracts.ts, which compiles
 * the schemas) and the OpenAPI builder (src/openapi/) both read the files through it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { FAMILIES } from '../families/registry.js';
import { cachedJson } from './cache.js';
import { packageRoot } from './package-root.js';

/** A contract's `$id` is this prefix and its name; contracts refer to each other by `$id`. */
export const CONTRACT_ID_PREFIX = 'lp:';

/** A contract as read from its YAML file. */
export type ContractSchema = Readonly<Record<string, unknown>>;

/** The API families a contract may belong to: the first segment of its name names a registered family. */
const isFamily = (s: string): boolean => FAMILIES.some((f) => f.name === s);

/** `<family>.<name>.yaml` → `<family>/<name>`. */
function nameOfFile(file: string): string {
  const m = /^([^.]+)\.(.+)\.yaml$/.exec(file);
  if (!m?.[1] || !m[2]) throw new Error('a contract file is named <family>.<name>.yaml');
  if (!isFamily(m[1])) throw new Error(`family ${m[1]} is not one of ${FAMILIES.map((f) => f.name).join(', ')}`);
  return `${m[1]}/${m[2]}`;
}

/**
 * Every `*.yaml` of `dir` (default: the package's contracts/), keyed by contract name, in the
 * order of the file names. A file whose `$id` is not `lp:` and its name, that does not parse, or that is not a schema
 * object is an error naming the file.
 */
export function readContractFiles(dir: string = join(packageRoot(), 'contracts')): Map<string, ContractSchema> {
  const found = new Map<string, ContractSchema>();
  const folder = basename(dir);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const where = `${folder}/${file}`;
    let name: string;
    let schema: unknown;
    try {
      name = nameOfFile(file);
      // Parsed once per content: a run's start would otherwise parse every contract file again.
      const text = readFileSync(join(dir, file), 'utf8');
      schema = cachedJson('contract', [text], () => parse(text) as unknown);
    } catch (error) {
      throw new Error(`${where}: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error(`${where}: not a schema object`);
    const id = (schema as ContractSchema).$id;
    if (id !== `${CONTRACT_ID_PREFIX}${name}`) {
      throw new Error(`${where}: $id ${JSON.stringify(id)} does not match the file name: it must be ${CONTRACT_ID_PREFIX}${name}`);
    }
    found.set(name, schema as ContractSchema);
  }
  return found;
}
