/**
 * The contracts: contracts/<family>.<name>.yaml (JSON Schema 2020-12 authored in YAML, one file
 * per representation, `$id: lp:<family>/<name>`), discovered and read once at module load
 * (src/util/contract-files.ts) and compiled on one ajv instance. The suites validate bodies with
 * `validate` and derive their bounds checks from `boundsOf`, so the field tables of the
 * specification live in exactly one place.
 *
 * A file `contracts/<family>.<name>.yaml` holds the contract `<family>/<name>` with
 * `$id: lp:<family>/<name>`; contracts refer to each other by that `$id`.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { CONTRACT_ID_PREFIX as ID_PREFIX, readContractFiles } from '../../src/util/contract-files.js';
import { deepFreeze } from '../../src/util/deep-freeze.js';

/** A contract's name, `<family>/<name>`: whatever the files are (`<family>.<name>.yaml`), so that
 * adding one edits no list; a name without a file is an error at run time. A family that wants its
 * names checked when it compiles keeps their list in its folder (and checks it against the files). */
export type ContractName = `${string}/${string}`;

/** A contract schema as read from its YAML file (or dereferenced by `schemaOf`). */
export interface JsonSchema {
  readonly $id?: string;
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly enum?: readonly unknown[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly 'x-spec'?: string;
  readonly [keyword: string]: unknown;
}

export interface ContractError {
  /** JSON Pointer into the validated value ('' for the value itself). */
  instancePath: string;
  /** The failing keyword in its contract, e.g. `lp:<family>/submission#/properties/title/maxLength`
   * (inside a referenced contract, that contract's `$id`). */
  schemaPath: string;
  /** The failing JSON Schema keyword (`maxLength`, `required`, `additionalProperties`, ...). */
  keyword: string;
  message: string;
  /** The `x-spec` anchor of the rule, e.g. `spec#integration-api-submission-v2`. */
  spec?: string;
}

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/** The constraints of one top-level property of a contract, as written in the contract. */
export interface FieldBounds {
  field: string;
  required: boolean;
  type: FieldType;
  /** `null` is a valid value (optional fields of request bodies, unset fields of responses). */
  nullable: boolean;
  /** Lengths count Unicode code points (JSON Schema semantics). */
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** The allowed values other than null. */
  enum?: readonly (string | number | boolean)[];
  format?: string;
  /** A regular expression the string must match (response records only: the bounds checks of request
   * bodies refuse a contract that has one, see bounds.ts). */
  pattern?: string;
  /** For arrays: the type of the items, and the contract of the items when they are one. */
  itemType?: FieldType;
  itemContract?: ContractName;
  spec: string;
}

// ajv-formats' uuid also accepts a `urn:uuid:` prefix; a spec guid is the bare 8-4-4-4-12 form.
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The discovered contracts. */
function readContracts(): Map<ContractName, JsonSchema> {
  return readContractFiles() as Map<ContractName, JsonSchema>;
}

/** One ajv instance (strict mode) holding every contract; each is compiled at its first
 * validation, so that a run compiles the contracts its checks meet (a run of one check, one or two
 * of some fifty). tests/harness/contracts.test.ts compiles every one. */
function loadAll(schemas: ReadonlyMap<ContractName, JsonSchema>): Ajv2020 {
  // verbose: errors carry their parentSchema, where the rule's x-spec is. validateSchema: false, because
  // checking every contract against the 2020-12 meta-schema took a run's worker 65 ms before its first
  // check, and the contracts are the package's own: tests/harness/contracts.test.ts checks each one.
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, validateSchema: false });
  ajvFormats.default(ajv);
  ajv.addFormat('uuid', GUID);
  ajv.addKeyword({ keyword: 'x-spec', schemaType: 'string' });
  for (const schema of schemas.values()) ajv.addSchema(schema);
  return ajv;
}

const raw = readContracts();
const contracts = loadAll(raw);

const validators = new Map<ContractName, ValidateFunction>();

function validatorOf(name: ContractName): ValidateFunction {
  let fn = validators.get(name);
  if (!fn) {
    fn = contracts.getSchema(`${ID_PREFIX}${name}`);
    if (!fn) throw new Error(`contracts: ${name} did not compile`);
    validators.set(name, fn);
  }
  return fn;
}

/** Every contract, in the order of the file names. */
export const CONTRACT_NAMES: readonly ContractName[] = Object.freeze([...raw.keys()]);

/** Whether `name` names a contract that exists (a file in contracts/). */
export function isContractName(name: string): name is ContractName {
  return raw.has(name as ContractName);
}

function rawSchema(name: ContractName): JsonSchema {
  const schema = raw.get(name);
  if (!schema) throw new Error(`contracts: unknown contract ${name} (no file contracts/${name.replace('/', '.')}.yaml)`);
  return schema;
}

function specOf(e: ErrorObject, root: JsonSchema): string | undefined {
  const parent = e.parentSchema as JsonSchema | undefined;
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    const spec = parent?.properties?.[missing]?.['x-spec'];
    if (spec) return spec;
  }
  return parent?.['x-spec'] ?? root['x-spec'];
}

/** ajv writes `#/...` for the validated contract and `lp:<name>/...` inside a referenced one:
 * make both `lp:<name>#/...`. */
function schemaPathOf(name: ContractName, path: string): string {
  if (path.startsWith('#')) return `${ID_PREFIX}${name}${path}`;
  const id = [...raw.keys()]
    .map((n) => `${ID_PREFIX}${n}`)
    .filter((candidate) => path === candidate || path.startsWith(`${candidate}/`))
    .sort((a, b) => b.length - a.length)[0];
  return id === undefined ? path : `${id}#${path.slice(id.length)}`;
}

function messageOf(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
      return `must NOT have additional property '${String(params.additionalProperty)}'`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `must be ${String(params.type).split(',').join(' or ')}`;
    // verbose: e.schema is the keyword's value, here the subschema.
    case 'contains': {
      const wanted = (e.schema as JsonSchema).const;
      return wanted === undefined ? (e.message ?? e.keyword) : `must contain ${JSON.stringify(wanted)}`;
    }
    case 'not': {
      // `not: {}` is how a contract says "never present" (a password, say).
      const negated = e.schema as JsonSchema;
      if (Object.keys(negated).length === 0) return 'must be absent';
      if (negated.const !== undefined) return `must NOT be ${JSON.stringify(negated.const)}`;
      return negated.description === undefined ? (e.message ?? e.keyword) : `must NOT be ${negated.description}`;
    }
    default:
      return e.message ?? e.keyword;
  }
}

/** The errors that say what is wrong: ajv also reports an `if` whose `then` failed (the `then`
 * branch's own errors say why) and each item that failed a failed `contains` (the `contains` error,
 * "must contain ...", says it). */
function explaining(errors: readonly ErrorObject[]): ErrorObject[] {
  const failedContains = errors.filter((e) => e.keyword === 'contains').map((e) => `${e.schemaPath}/`);
  return errors.filter((e) => e.keyword !== 'if' && !failedContains.some((prefix) => e.schemaPath.startsWith(prefix)));
}

/** The violations of `name` by `value`; [] when the value is valid. */
export function validate(name: ContractName, value: unknown): ContractError[] {
  const root = rawSchema(name);
  const fn = validatorOf(name);
  if (fn(value)) return [];
  return explaining(fn.errors ?? []).map((e) => {
    const spec = specOf(e, root);
    return {
      instancePath: e.instancePath,
      schemaPath: schemaPathOf(name, e.schemaPath),
      keyword: e.keyword,
      message: messageOf(e),
      ...(spec ? { spec } : {}),
    };
  });
}

function refTarget(ref: string): ContractName {
  const name = ref.startsWith(ID_PREFIX) ? ref.slice(ID_PREFIX.length) : ref;
  if (!isContractName(name)) throw new Error(`contracts: $ref ${ref} names no contract`);
  return name;
}

/** A copy of `schema` with every `$ref` to another contract replaced by that contract's schema
 * (a property named `$ref` is a schema, not a reference, and stays). */
function dereference(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(dereference);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  const { $ref } = schema as JsonSchema;
  if (typeof $ref === 'string') {
    const { $id: _id, $schema: _schema, ...target } = rawSchema(refTarget($ref));
    Object.assign(copy, dereference(target));
  }
  for (const [k, v] of Object.entries(schema)) if (!(k === '$ref' && typeof v === 'string')) copy[k] = dereference(v);
  return copy;
}

const dereferenced = new Map<ContractName, JsonSchema>();

/** The contract's schema with references to other contracts inlined (frozen). */
export function schemaOf(name: ContractName): JsonSchema {
  let schema = dereferenced.get(name);
  if (!schema) {
    schema = deepFreeze(dereference(rawSchema(name)) as JsonSchema);
    dereferenced.set(name, schema);
  }
  return schema;
}

// The keywords boundsOf understands. A property using any other keyword makes boundsOf throw, so
// a contract cannot gain a constraint that the derived bounds checks silently ignore.
const BOUNDS_KEYWORDS = new Set([
  'type',
  'format',
  'enum',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'pattern',
  'items',
  'additionalProperties',
  'x-spec',
  'description',
  'title',
]);
const FIELD_TYPES: readonly string[] = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

function typeOf(where: string, schema: JsonSchema): { type: FieldType; nullable: boolean } {
  const types = typeof schema.type === 'string' ? [schema.type] : [...(schema.type ?? [])];
  const nonNull = types.filter((t) => t !== 'null');
  const [type] = nonNull;
  if (nonNull.length !== 1 || type === undefined || !FIELD_TYPES.includes(type)) {
    throw new Error(`contracts: ${where} must have one type (optionally with null), has ${JSON.stringify(schema.type)}`);
  }
  return { type: type as FieldType, nullable: types.includes('null') };
}

function boundsOfField(name: ContractName, field: string, schema: JsonSchema, required: boolean): FieldBounds {
  const where = `${name} property ${field}`;
  for (const keyword of Object.keys(schema)) {
    if (!BOUNDS_KEYWORDS.has(keyword)) throw new Error(`contracts: boundsOf cannot express ${keyword} of ${where}`);
  }
  const spec = schema['x-spec'];
  if (!spec) throw new Error(`contracts: ${where} has no x-spec`);
  const bounds: FieldBounds = { field, required, ...typeOf(where, schema), spec };
  if (schema.minLength !== undefined) bounds.minLength = schema.minLength;
  if (schema.maxLength !== undefined) bounds.maxLength = schema.maxLength;
  if (schema.minimum !== undefined) bounds.minimum = schema.minimum;
  if (schema.maximum !== undefined) bounds.maximum = schema.maximum;
  if (schema.format !== undefined) bounds.format = schema.format;
  if (schema.pattern !== undefined) bounds.pattern = schema.pattern;
  if (schema.enum !== undefined) bounds.enum = schema.enum.filter((v): v is string | number | boolean => v !== null);
  if (schema.items !== undefined) {
    if (typeof schema.items.$ref === 'string') {
      bounds.itemContract = refTarget(schema.items.$ref);
      bounds.itemType = typeOf(`${where} items`, rawSchema(bounds.itemContract)).type;
    } else {
      bounds.itemType = typeOf(`${where} items`, schema.items).type;
    }
  }
  return bounds;
}

/** Per top-level property of an object contract, in the contract's order: what it allows.
 * [] for a contract whose value is not an object (a bare string, a bare array). */
export function boundsOf(name: ContractName): FieldBounds[] {
  const schema = rawSchema(name);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([field, property]) => boundsOfField(name, field, property, required.has(field)));
}
