/**
 * The pieces of an OpenAPI 3.1 document every family's part is made of (a family registers
 * `openapi`: src/families/family.ts).
 */
import { ProfileError } from '../../profile/base/errors.js';

/** A contract as read from its YAML file, keyed by its name (`<family>/<name>`). */
export type ContractSchemas = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

export interface BuildOptions {
  /** `info.version` of the document (the generating tool's version). */
  readonly documentVersion: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** `<family>/<name>` → `<family>.<name>` (component names allow only `[A-Za-z0-9._-]`). */
export const componentName = (contract: string): string => contract.replace(/\//g, '.');

// ---------------------------------------------------------------------------------------------
// Component schemas: the contracts, embedded.

const ID_PREFIX = 'lp:';

/** A reference to a contract's component schema. */
export const ref = (contract: string): JsonObject => ({ $ref: `#/components/schemas/${componentName(contract)}` });

// JSON Schema 2020-12's keywords (core, applicator, unevaluated, validation, format-annotation,
// content, meta-data). `$id` and `$schema` are dropped (an `lp:` base URI would make the rewritten
// `#/components/...` references resolve inside the contract); `x-*` stay as extensions. Any other
// keyword is refused, so that a contract cannot gain one the document silently loses.
// prettier-ignore
const KEPT = new Set([
  '$ref', '$defs', '$anchor', '$comment', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'type', 'const', 'enum',
  'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems',
  'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired', 'format', 'contentEncoding', 'contentMediaType',
  'contentSchema', 'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples',
]);
const DROPPED = new Set(['$id', '$schema']);
// Keywords whose value is a map of names to schemas (the names are not keywords).
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
// Keywords whose value is data, not a schema.
const DATA = new Set(['const', 'enum', 'default', 'examples', 'required', 'dependentRequired', 'type']);

function embed(value: unknown, where: string, known: ReadonlySet<string>): Json {
  if (Array.isArray(value)) return value.map((v, i) => embed(v, `${where}/${i}`, known));
  if (typeof value !== 'object' || value === null) return value as Json;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const at = `${where}/${key}`;
    if (DROPPED.has(key)) continue;
    if (key.startsWith('x-')) out[key] = v as Json;
    else if (!KEPT.has(key)) throw new Error(`contracts: ${at}: keyword ${key} has no place in an OpenAPI 3.1 schema`);
    else if (key === '$ref') {
      const target = typeof v === 'string' && v.startsWith(ID_PREFIX) ? v.slice(ID_PREFIX.length) : undefined;
      if (target === undefined || !known.has(target)) throw new Error(`contracts: ${at}: $ref ${String(v)} names no contract`);
      out.$ref = ref(target).$ref ?? null;
    } else if (DATA.has(key)) out[key] = v as Json;
    else if (SCHEMA_MAPS.has(key) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      out[key] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, embed(s, `${at}/${name}`, known)]));
    } else out[key] = embed(v, at, known);
  }
  return out;
}

/** The component schemas of the contracts whose names start with `prefix` (a family's `<name>/`):
 * each embedded, its references to contracts of the same prefix rewritten to components. */
export function embedContracts(contracts: ContractSchemas, prefix: string): JsonObject {
  const known = new Set([...contracts.keys()].filter((name) => name.startsWith(prefix)));
  const schemas: JsonObject = {};
  for (const name of [...known].sort()) schemas[componentName(name)] = embed(contracts.get(name), name, known);
  return schemas;
}

/** The body of a token exchange that takes a username and a password (the families that have one). */
export const USERNAME_PASSWORD: JsonObject = {
  type: 'object',
  required: ['username', 'password'],
  properties: { username: { type: 'string' }, password: { type: 'string' } },
};

/** An operation as a family describes it: its method and path come from the profile. */
export interface OperationDescription {
  readonly summary: string;
  /** Path parameters beyond a GUID (by name); every other `{name}` of the path is a required GUID. */
  readonly pathIds?: Readonly<Record<string, JsonObject>>;
  readonly query?: readonly JsonObject[];
  /** The request body: a contract, or a schema written out; and its media type. */
  readonly request?: { readonly contract?: string; readonly schema?: JsonObject; readonly media: string };
  /** Success statuses and their body's contract (none: no body). */
  readonly success: { readonly statuses: readonly number[]; readonly contract?: string; readonly description?: string };
  /** Error statuses with their reasons; their bodies are the family's error contract. */
  readonly errors: readonly (readonly [number, string])[];
  /** The operation's security requirement when not the family's (`[]`: none). */
  readonly security?: readonly JsonObject[];
}

/** The paths of a family's operations: each at the profile's method and path, with its parameters,
 * bodies (`media`) and responses; two operations on one method and path are refused. */
export function describedPaths(options: {
  readonly operations: Readonly<Record<string, OperationDescription>>;
  readonly routes: Readonly<Record<string, { method: string; path: string }>>;
  readonly tag: (id: string) => string;
  readonly media: string;
  readonly errorContract: string;
  readonly security: readonly JsonObject[];
  readonly source: string;
}): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const [id, doc] of Object.entries(options.operations)) {
    const route = options.routes[id];
    if (!route) throw new Error(`openapi: no route for operation ${id}`);
    const { method, path } = route;
    const parameters: Json[] = [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => {
      const name = m[1] as string;
      return { name, in: 'path', required: true, description: name, schema: doc.pathIds?.[name] ?? { type: 'string', format: 'uuid' } };
    });
    parameters.push(...(doc.query ?? []));
    const content = (schema: JsonObject, media = options.media): JsonObject => ({ [media]: { schema } });
    const responses: JsonObject = {};
    for (const status of doc.success.statuses) {
      responses[String(status)] = {
        description: doc.success.description ?? 'Success.',
        ...(doc.success.contract && status !== 204 ? { content: content(ref(doc.success.contract)) } : {}),
      };
    }
    const errors = new Map<number, string[]>();
    for (const [status, reason] of doc.errors) errors.set(status, [...(errors.get(status) ?? []), reason]);
    for (const [status, reasons] of [...errors].sort(([a], [b]) => a - b)) {
      if (String(status) in responses) throw new ProfileError(`profile ${options.source}: ${id} answers ${status} both on success and on error`);
      responses[String(status)] = { description: `${reasons.join('; ')}.`, content: content(ref(options.errorContract)) };
    }
    const op: JsonObject = { operationId: id, summary: doc.summary, tags: [options.tag(id)], parameters };
    if (doc.request) {
      const schema = doc.request.contract ? ref(doc.request.contract) : (doc.request.schema ?? {});
      op.requestBody = { required: true, content: content(schema, doc.request.media) };
    }
    op.security = [...(doc.security ?? options.security)];
    op.responses = responses;
    const item = (paths[path] ??= {});
    const key = method.toLowerCase();
    const other = item[key] as { operationId?: string } | undefined;
    if (other) throw new ProfileError(`profile ${options.source}: operations.${id} and operations.${other.operationId ?? '?'} are both ${method} ${path}`);
    item[key] = op;
  }
  return Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
