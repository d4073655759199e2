/**
 * Target profiles: the YAML file that tells the suites where the target is, how to authenticate,
 * which records to read, the route of each operation and the target's behaviour where the
 * specification is silent. `loadProfile` parses, validates (src/profile/schema.ts) and fills the
 * defaults (the reference profile's values); every problem is one ProfileError line naming the
 * field and the file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { parseDocument } from 'yaml';
import type { ProfileDocument } from '../families/family.js';
import { FAMILIES, familyNamed, OPERATION_IDS, OPERATIONS } from '../families/registry.js';
import { pathParameters, type OperationId, type OperationRoute } from './base/routes.js';
import { ProfileError } from './base/errors.js';
import { DEFAULT_LIMITS, PATTERN_MEANINGS, PROFILE_SCHEMA } from './schema.js';
import { deepFreeze } from '../util/deep-freeze.js';
import { closestName } from '../util/closest.js';
import { positionOf, segmentsOfField } from './base/positions.js';
import { cachedJson } from '../util/cache.js';
import { packageRoot } from '../util/package-root.js';
import type { EnvRef, Expectations, FamilyCredentials, FamilyTarget, FamilyTargets, Limits, OAuthClientCredentials, Profile } from './base/types.js';

export { collectionOf, fillPath, HTTP_METHODS, queryOf, type OperationId, type OperationRoute } from './base/routes.js';
export { familyNamed, familyOf, familyOfCheck, FAMILIES, INVARIANTS, isOperationId, isTokenExchange, OPERATION_IDS, OPERATIONS } from '../families/registry.js';
export { operation } from './base/operation.js';
export { DEFAULT_LIMITS, MIN_URL_BYTES, PROFILE_SCHEMA } from './schema.js';
export { ProfileError } from './base/errors.js';
export { redactor, resolveSecrets, type ResolvedSecrets } from './secrets.js';
export type * from './base/types.js';

/** The target URL of a profile that names none: the bundled server's usual address. */
export const DEFAULT_TARGET_URL = 'http://127.0.0.1:8080';

// ---------------------------------------------------------------------------------------------
// The bundled reference profile.

/** Absolute path of the bundled reference profile (fixtures/profiles/reference.yaml). */
export function referenceProfilePath(): string {
  return join(packageRoot(), 'fixtures', 'profiles', 'reference.yaml');
}

// ---------------------------------------------------------------------------------------------
// Schema errors as one line each.

/** The profile schema's validator, compiled at the first profile read: the suites import this
 * module for its types and helpers and never read a profile, and the compilation is a good part of
 * a short run's start. */
let validator: ValidateFunction | undefined;

/** The schema errors of a profile document; none when it is valid. */
function schemaErrors(value: unknown): ErrorObject[] {
  validator ??= new Ajv2020({ allErrors: true, strict: true, verbose: true }).compile(PROFILE_SCHEMA);
  return validator(value) ? [] : (validator.errors ?? []);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['operations', 'submissions.update', 'path']` → `operations["submissions.update"].path`. */
function fieldPath(segments: readonly string[]): string {
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : IDENTIFIER.test(s) ? `${i === 0 ? '' : '.'}${s}` : `[${JSON.stringify(s)}]`)).join('');
}

function segmentsOf(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const TYPE_WORDS: Record<string, string> = { object: 'a mapping', array: 'a list' };

/** A field that names a variable (`{ env: NAME }`) shows the form: a secret is never written in a profile. */
function envRefForm(e: ErrorObject): string {
  const schema = e.parentSchema as { properties?: Record<string, unknown>; required?: readonly string[] } | undefined;
  const isRef = schema?.properties?.env !== undefined && schema.required?.includes('env') === true;
  return isRef ? ': { env: NAME }, naming the environment variable that holds it' : '';
}

function describeError(e: ErrorObject): { field: string; problem: string } {
  const at = segmentsOf(e.instancePath);
  const params = e.params as Record<string, unknown>;
  const field = (extra?: unknown): string => fieldPath(extra === undefined ? at : [...at, String(extra)]) || 'document';
  switch (e.keyword) {
    case 'required':
      return { field: field(params.missingProperty), problem: 'is required' };
    case 'additionalProperties': {
      const near = closestName(String(params.additionalProperty), Object.keys((e.parentSchema?.properties as object | undefined) ?? {}));
      return { field: field(params.additionalProperty), problem: `is not allowed${near ? ` (did you mean ${near}?)` : ''}` };
    }
    case 'dependentRequired':
      return { field: field(params.missingProperty), problem: `is required with ${field(params.property)}` };
    case 'false schema': {
      // dependentSchemas/<key>/properties/<field>: the field is excluded by the key's presence.
      const by = /\/dependentSchemas\/([^/]+)\//.exec(e.schemaPath)?.[1];
      return { field: field(), problem: by ? `is not allowed with ${fieldPath([...at.slice(0, -1), by])}` : 'is not allowed' };
    }
    case 'type':
      return { field: field(), problem: `must be ${TYPE_WORDS[String(params.type)] ?? String(params.type)}${envRefForm(e)}` };
    case 'const':
      return { field: field(), problem: `must be ${String(params.allowedValue)}` };
    case 'enum':
      return { field: field(), problem: `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}` };
    case 'minimum':
      return { field: field(), problem: `must be at least ${String(params.limit)}` };
    case 'maximum':
      return { field: field(), problem: `must be at most ${String(params.limit)}` };
    case 'minLength':
      return { field: field(), problem: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters` };
    case 'pattern': {
      const pattern = String(params.pattern);
      return { field: field(), problem: `must be ${PATTERN_MEANINGS[pattern] ?? `a string matching ${pattern}`}` };
    }
    case 'uniqueItems': {
      const list = e.data as unknown[];
      return { field: field(), problem: `must not list ${JSON.stringify(list[Number(params.j)])} twice` };
    }
    default:
      return { field: field(), problem: e.message ?? `fails ${e.keyword}` };
  }
}

// ---------------------------------------------------------------------------------------------
// The validated YAML document, and the defaults.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects merge key by key; anything else given (scalars, lists) replaces the default. */
function mergeDeep(defaults: unknown, given: unknown): unknown {
  if (given === undefined) return defaults;
  if (!isPlainObject(defaults) || !isPlainObject(given)) return given;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(given)) merged[key] = mergeDeep(defaults[key], value);
  return merged;
}

/** Every family's expectations as the reference server behaves (the defaults). */
export const DEFAULT_EXPECTATIONS = deepFreeze(Object.assign({}, ...FAMILIES.map((f) => f.profile.expectations ?? {})) as Expectations);

type GivenFamilyCredentials = Partial<Record<'token' | 'username' | 'password', EnvRef>> & { oauth?: Partial<OAuthClientCredentials> };

/** Each family's own credentials (`credentials.<name>`): as given, else its defaults; its OAuth
 * client key by key over its defaults, the log-in by default the token exchange's username and password. */
function familyCredentialsOf(given: Readonly<Record<string, unknown>> = {}): Profile['familyCredentials'] {
  const of = (c: GivenFamilyCredentials | undefined, fallback: FamilyCredentials): FamilyCredentials => {
    const { oauth: client, ...otherwise } = fallback;
    const base = (
      c?.token
        ? { token: c.token }
        : // The schema admits username and password only together.
          c?.username && c.password
          ? { username: c.username, password: c.password }
          : otherwise
    ) as FamilyCredentials;
    if (client === undefined) return base;
    const login = base.username && base.password ? { username: base.username, password: base.password } : {};
    return { ...base, oauth: { ...client, ...login, ...c?.oauth } };
  };
  return Object.fromEntries(
    FAMILIES.flatMap((f) =>
      f.profile.ownCredentials ? [[f.name, of(given[f.name] as GivenFamilyCredentials | undefined, f.profile.ownCredentials.defaults)]] : [],
    ),
  ) as unknown as Profile['familyCredentials'];
}

const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

/** What the document says of a family's place: its base URL, or `none` (the target has no such API). */
type GivenFamilies = Readonly<Record<string, { baseUrl: string } | 'none' | undefined>>;

/** The base URL of the family at the target (`--target`), as the document gives it. */
function targetUrlOf(given: GivenFamilies = {}): string {
  const root = FAMILIES.find((f) => f.profile.baseUrl !== undefined && 'at' in f.profile.baseUrl);
  const at = root && given[root.name];
  return typeof at === 'object' ? at.baseUrl : DEFAULT_TARGET_URL;
}

/** Every family's base URL: the target's family at `target`, the others at their suffix under it
 * unless the profile gave theirs; a family the profile says is absent keeps that mark. */
function familiesOf(target: string, given: GivenFamilies = {}): FamilyTargets {
  const base = withoutTrailingSlash(target);
  return Object.fromEntries(
    FAMILIES.flatMap((f): [string, FamilyTarget][] => {
      const at = f.profile.baseUrl;
      if (!at) return [];
      const explicit = given[f.name];
      const none = explicit === 'none' ? ({ none: true } as const) : {};
      if ('at' in at) return [[f.name, { baseUrl: target, explicit: typeof explicit === 'object', ...none }]];
      return [
        [f.name, typeof explicit === 'object' ? { baseUrl: explicit.baseUrl, explicit: true } : { baseUrl: `${base}${at.suffix}`, explicit: false, ...none }],
      ];
    }),
  ) as unknown as FamilyTargets;
}

/** Why the family's checks are skipped when the profile says the target has no such API
 * (`families.<name>: none`); undefined when it does not say so. */
export function familyAbsence(p: Profile, family: string): string | undefined {
  const target = (p.families as unknown as Readonly<Record<string, FamilyTarget | undefined>>)[family];
  return target?.none ? `the profile says the target has no ${familyNamed(family).title} (families.${family}: none)` : undefined;
}

/** Rules a JSON Schema cannot say: each a [field, problem] when broken. */
function semanticProblems(p: Profile): [string, string][] {
  const problems: [string, string][] = [];
  for (const id of OPERATION_IDS) {
    const expected = pathParameters(OPERATIONS[id].path);
    if (pathParameters(p.operations[id].path).join() !== expected.join()) {
      const want = expected.length === 0 ? 'no {parameters}' : `the parameters ${expected.map((n) => `{${n}}`).join(', ')}`;
      problems.push([fieldPath(['operations', id, 'path']), `must have ${want}`]);
    }
  }
  for (const f of FAMILIES) problems.push(...(f.profile.problems?.(p) ?? []));
  return problems;
}

/** `text` (the YAML) places each problem at its field's line and column. */
function fail(source: string, problems: readonly [string, string][], text?: string): never {
  const at = (field: string): string => {
    const position = text === undefined || field === 'document' ? undefined : positionOf(text, segmentsOfField(field));
    return position ? `:${position.line}:${position.col}` : '';
  };
  const lines = problems.map(([field, problem]) => `profile ${source}${at(field)}: ${field} ${problem}`);
  throw new ProfileError(lines[0] ?? `profile ${source}: invalid`, problems[0]?.[0], lines);
}

/** The validator (ajv's version and the profile schema) as text, part of the key of a validated
 * document kept in the cache. */
let schemaText: string | undefined;

/** The profile document of a YAML text, if it parses and passes the schema; else a ProfileError. */
function validDocument(text: string, source: string, located: string | undefined): ProfileDocument {
  const yaml = parseDocument(text);
  const syntax = yaml.errors[0];
  if (syntax) {
    const line = syntax.message.split('\n')[0]?.replace(/:$/, '') ?? syntax.code;
    throw new ProfileError(`profile ${source}: YAML syntax error: ${line}`);
  }
  const value: unknown = yaml.toJS();
  const errors = schemaErrors(value);
  if (errors.length > 0) {
    fail(
      source,
      // An `if` error only repeats its branch's own (`families.<name>`: a word must be none).
      errors
        .filter((e) => e.keyword !== 'if')
        .map((e) => {
          const { field, problem } = describeError(e);
          return [field, problem];
        }),
      located,
    );
  }
  return value as ProfileDocument;
}

// ---------------------------------------------------------------------------------------------
// The API.

/** Parses, validates and completes a profile; `source` names it in error messages, with the line and
 * column of the field unless `positions` is false (a document that is no file: the library's object). */
export function parseProfile(text: string, source: string, options: { positions?: boolean } = {}): Profile {
  const located = options.positions === false ? undefined : text;
  // A document that parsed and passed the schema is kept (by its text and the schema's): every run
  // reads the same profile, and parsing and compiling the schema were a quarter of a short run's start.
  schemaText ??= `ajv ${(createRequire(import.meta.url)('ajv/package.json') as { version: string }).version}\n${JSON.stringify(PROFILE_SCHEMA)}`;
  const doc = cachedJson('profile', [schemaText, text], () => validDocument(text, source, located));
  const families = doc.families as GivenFamilies | undefined;
  const parts = FAMILIES.map((f) => f.profile.load?.(doc) ?? {});
  const profile = {
    ...Object.assign({}, ...parts.map(({ records: _records, ...top }) => top)),
    name: doc.name as string,
    families: familiesOf(targetUrlOf(families), families),
    familyCredentials: familyCredentialsOf(doc.credentials),
    records: Object.assign({}, ...parts.map((part) => part.records ?? {})),
    operations: Object.fromEntries(
      OPERATION_IDS.map((id) => [id, { ...OPERATIONS[id], ...(doc.operations as Partial<Record<OperationId, Partial<OperationRoute>>> | undefined)?.[id] }]),
    ) as Record<OperationId, OperationRoute>,
    limits: { ...DEFAULT_LIMITS, ...(doc.limits as Partial<Limits> | undefined) },
    expectations: mergeDeep(DEFAULT_EXPECTATIONS, doc.expectations) as Expectations,
    source,
  } as Profile;
  const problems = semanticProblems(profile);
  if (problems.length > 0) fail(source, problems, located);
  return deepFreeze(profile);
}

/** Loads a profile file; without `file`, the bundled reference profile. */
export function loadProfile(file?: string): Profile {
  const path = file ?? referenceProfilePath();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, not a file' : `cannot be read (${code ?? String(error)})`;
    throw new ProfileError(`profile ${path}: ${problem}`);
  }
  return parseProfile(text, path);
}

/**
 * The profile aimed at `url` (`--target`): the base URL of the family at the target becomes `url`,
 * and the other families follow it (their suffix under `url`) unless the profile set theirs.
 */
export function withTarget(p: Profile, url: string): Profile {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search !== '' || parsed.hash !== '') {
    throw new ProfileError(`target ${url}: must be an absolute http or https URL without query or fragment`, 'target');
  }
  const explicit: Record<string, { baseUrl: string } | 'none'> = Object.fromEntries(
    Object.entries(p.families as unknown as Readonly<Record<string, FamilyTarget>>).flatMap(([name, f]): [string, { baseUrl: string } | 'none'][] =>
      f.none ? [[name, 'none']] : f.explicit ? [[name, { baseUrl: f.baseUrl }]] : [],
    ),
  );
  const root = FAMILIES.find((f) => f.profile.baseUrl !== undefined && 'at' in f.profile.baseUrl);
  if (root && explicit[root.name] !== 'none') delete explicit[root.name];
  return deepFreeze({ ...p, families: familiesOf(withoutTrailingSlash(url), explicit) });
}

/** The base URL of a family of the profile; throws for a family without one (an error of the suite). */
export function baseUrlOf(p: Profile, family: string): string {
  const target = (p.families as unknown as Readonly<Record<string, FamilyTarget | undefined>>)[family];
  if (!target) throw new Error(`profile ${p.source}: the ${family} family has no base URL`);
  return target.baseUrl;
}

/** The profile of a variant of the bundled server (`--variant <family>.<name>`): fixtures/profiles/<family>-<name>.yaml. */
export function variantProfilePath(variant: string): string {
  return join(packageRoot(), 'fixtures', 'profiles', `${variant.replace('.', '-')}.yaml`);
}

/** The profile with a variant's expectations for its family (the part of `expectations` the family
 * owns), the rest as it was: a bundled run of a variant is judged by the variant's choices. */
export function withVariantExpectations(p: Profile, variant: string): Profile {
  const from = loadProfile(variantProfilePath(variant));
  const family = familyNamed(variant.slice(0, variant.indexOf('.')));
  const own = Object.keys(family.profile.expectations ?? {});
  const expectations = { ...p.expectations } as Record<string, unknown>;
  for (const key of own) expectations[key] = (from.expectations as unknown as Record<string, unknown>)[key];
  return deepFreeze({ ...p, name: `${p.name}+${from.name}`, expectations: expectations as unknown as Expectations });
}
