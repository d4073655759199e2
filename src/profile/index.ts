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
import {
  DEFAULT_CREDENTIALS,
  DEFAULT_EXPECTATIONS,
  DEFAULT_FAMILY_CREDENTIALS,
  DEFAULT_INTAPI_BASE_URL,
  DEFAULT_PLAYER,
  DEFAULT_OAUTH_CREDENTIALS,
  DEFAULT_RULE_ENROLLMENT,
  LEARNER_SUFFIX,
  SCIM_SUFFIX,
} from './defaults.js';
import { isOperationId, OPERATION_IDS, OPERATIONS, pathParameters, type OperationId, type OperationRoute } from './operations.js';
import { PATTERN_MEANINGS, PROFILE_SCHEMA } from './schema.js';
import { deepFreeze } from '../util/deep-freeze.js';
import { cachedJson } from '../util/cache.js';
import { packageRoot } from '../util/package-root.js';
import type { Credentials, EnvRef, Expectations, FamilyCredentials, FamilyTarget, Mailbox, PlayerTarget, Profile, Records, RuleEnrollment } from './types.js';

export {
  collectionOf,
  FAMILIES,
  familyOf,
  HTTP_METHODS,
  OPERATION_IDS,
  OPERATIONS,
  isOperationId,
  type Family,
  type OperationId,
  type OperationRoute,
} from './operations.js';
export { PROFILE_SCHEMA } from './schema.js';
export { credentialRefs, familyCredentialRefs, redactor, resolveSecrets, type ResolvedSecrets } from './secrets.js';
export type * from './types.js';

/** A profile that cannot be used. The message is one line: `profile <file>: <field> <problem>`. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  constructor(
    message: string,
    /** The offending field as a path (`expectations.submissions.createStatus`), when there is one. */
    readonly field?: string,
    /** Every problem found, one line each; the message is the first. */
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
  }
}

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

function describeError(e: ErrorObject): { field: string; problem: string } {
  const at = segmentsOf(e.instancePath);
  const params = e.params as Record<string, unknown>;
  const field = (extra?: unknown): string => fieldPath(extra === undefined ? at : [...at, String(extra)]) || 'document';
  switch (e.keyword) {
    case 'required':
      return { field: field(params.missingProperty), problem: 'is required' };
    case 'additionalProperties':
      return { field: field(params.additionalProperty), problem: 'is not allowed' };
    case 'dependentRequired':
      return { field: field(params.missingProperty), problem: `is required with ${field(params.property)}` };
    case 'false schema': {
      // dependentSchemas/<key>/properties/<field>: the field is excluded by the key's presence.
      const by = /\/dependentSchemas\/([^/]+)\//.exec(e.schemaPath)?.[1];
      return { field: field(), problem: by ? `is not allowed with ${fieldPath([...at.slice(0, -1), by])}` : 'is not allowed' };
    }
    case 'type':
      return { field: field(), problem: `must be ${TYPE_WORDS[String(params.type)] ?? String(params.type)}` };
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

type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** The shape the schema admits (every key but `name` optional). */
interface ProfileDocument {
  name: string;
  families?: { intapi?: { baseUrl: string }; scim?: { baseUrl: string }; learner?: { baseUrl: string } };
  credentials?: {
    apiKey?: EnvRef;
    username?: EnvRef;
    password?: EnvRef;
    privateKey?: EnvRef;
    token?: EnvRef;
    scim?: Partial<Record<'token' | 'username' | 'password', EnvRef>>;
    learner?: Partial<Record<'token' | 'username' | 'password', EnvRef>>;
    oauth?: Partial<Record<'clientId' | 'clientSecret' | 'refreshToken', EnvRef>>;
  };
  records?: Omit<Records, 'ruleEnrollment'> & { ruleEnrollment?: Omit<RuleEnrollment, 'withinMs' | 'unenrolls'> & Partial<RuleEnrollment> };
  player?: 'none' | DeepPartial<PlayerTarget>;
  mailbox?: Mailbox;
  operations?: Partial<Record<OperationId, Partial<OperationRoute>>>;
  expectations?: DeepPartial<Expectations>;
}

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

function credentialsOf(given: ProfileDocument['credentials'] = {}): Credentials {
  const apiKey = given.apiKey ?? DEFAULT_CREDENTIALS.apiKey;
  if (given.token) return { apiKey, token: given.token };
  const { username, password, privateKey } = given;
  // The schema admits the three login variables only together.
  if (username && password && privateKey) return { apiKey, username, password, privateKey };
  return { ...DEFAULT_CREDENTIALS, apiKey };
}

function familyCredentialsOf(given: ProfileDocument['credentials'] = {}): Profile['familyCredentials'] {
  const of = (c: Partial<Record<'token' | 'username' | 'password', EnvRef>> | undefined, fallback: FamilyCredentials): FamilyCredentials => {
    if (c?.token) return { token: c.token };
    // The schema admits username and password only together.
    if (c?.username && c.password) return { username: c.username, password: c.password };
    return fallback;
  };
  return { scim: of(given.scim, DEFAULT_FAMILY_CREDENTIALS.scim), learner: of(given.learner, DEFAULT_FAMILY_CREDENTIALS.learner) };
}

/** The records as given; the rule's bound and unenrollment default where left out. */
function recordsOf(given: ProfileDocument['records'] = {}): Records {
  const { ruleEnrollment, ...records } = given;
  return ruleEnrollment ? { ...records, ruleEnrollment: { ...DEFAULT_RULE_ENROLLMENT, ...ruleEnrollment } } : records;
}

const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

function familiesOf(intapiBaseUrl: string, given: ProfileDocument['families'] = {}): Profile['families'] {
  const base = withoutTrailingSlash(intapiBaseUrl);
  const family = (explicit: { baseUrl: string } | undefined, suffix: string): FamilyTarget =>
    explicit ? { baseUrl: explicit.baseUrl, explicit: true } : { baseUrl: `${base}${suffix}`, explicit: false };
  return { intapi: { baseUrl: intapiBaseUrl }, scim: family(given.scim, SCIM_SUFFIX), learner: family(given.learner, LEARNER_SUFFIX) };
}

/** Rules a JSON Schema cannot say: each a [field, problem] when broken. */
function semanticProblems(p: Omit<Profile, 'source'>): [string, string][] {
  const problems: [string, string][] = [];
  for (const id of OPERATION_IDS) {
    const expected = pathParameters(OPERATIONS[id].path);
    if (pathParameters(p.operations[id].path).join() !== expected.join()) {
      const want = expected.length === 0 ? 'no {parameters}' : `the parameters ${expected.map((n) => `{${n}}`).join(', ')}`;
      problems.push([fieldPath(['operations', id, 'path']), `must have ${want}`]);
    }
  }
  const types = Object.values(p.expectations.questionTypes);
  if (new Set(types).size !== types.length) {
    problems.push(['expectations.questionTypes', 'must give each question type a different integer']);
  }
  const { defaultLimit, maxLimit } = p.expectations.lists;
  if (defaultLimit > maxLimit) {
    problems.push(['expectations.lists.defaultLimit', `must be at most expectations.lists.maxLimit (${maxLimit})`]);
  }
  return problems;
}

function fail(source: string, problems: readonly [string, string][]): never {
  const lines = problems.map(([field, problem]) => `profile ${source}: ${field} ${problem}`);
  throw new ProfileError(lines[0] ?? `profile ${source}: invalid`, problems[0]?.[0], lines);
}

/** The validator (ajv's version and the profile schema) as text, part of the key of a validated
 * document kept in the cache. */
let schemaText: string | undefined;

/** The profile document of a YAML text, if it parses and passes the schema; else a ProfileError. */
function validDocument(text: string, source: string): ProfileDocument {
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
      errors.map((e) => {
        const { field, problem } = describeError(e);
        return [field, problem];
      }),
    );
  }
  return value as ProfileDocument;
}

// ---------------------------------------------------------------------------------------------
// The API.

/** Parses, validates and completes a profile; `source` names it in error messages. */
export function parseProfile(text: string, source: string): Profile {
  // A document that parsed and passed the schema is kept (by its text and the schema's): every run
  // reads the same profile, and parsing and compiling the schema were a quarter of a short run's start.
  schemaText ??= `ajv ${(createRequire(import.meta.url)('ajv/package.json') as { version: string }).version}\n${JSON.stringify(PROFILE_SCHEMA)}`;
  const doc = cachedJson('profile', [schemaText, text], () => validDocument(text, source));
  const intapiBaseUrl = doc.families?.intapi?.baseUrl ?? DEFAULT_INTAPI_BASE_URL;
  const profile = {
    name: doc.name,
    families: familiesOf(intapiBaseUrl, doc.families),
    credentials: credentialsOf(doc.credentials),
    familyCredentials: familyCredentialsOf(doc.credentials),
    oauthCredentials: { ...DEFAULT_OAUTH_CREDENTIALS, ...doc.credentials?.oauth },
    records: recordsOf(doc.records),
    player: doc.player === 'none' ? ('none' as const) : (mergeDeep(DEFAULT_PLAYER, doc.player) as PlayerTarget),
    ...(doc.mailbox ? { mailbox: doc.mailbox } : {}),
    operations: Object.fromEntries(OPERATION_IDS.map((id) => [id, { ...OPERATIONS[id], ...doc.operations?.[id] }])) as Record<OperationId, OperationRoute>,
    expectations: mergeDeep(DEFAULT_EXPECTATIONS, doc.expectations) as Expectations,
  };
  const problems = semanticProblems(profile);
  if (problems.length > 0) fail(source, problems);
  return deepFreeze({ ...profile, source });
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
 * The profile aimed at `url` (`--target`): the Integration API base URL becomes `url`, and SCIM
 * and the learner API follow it (`url/scim/v2`, `url/api/rest/v2`) unless the profile set them.
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
  const intapiBaseUrl = withoutTrailingSlash(url);
  const explicit = (f: FamilyTarget): { baseUrl: string } | undefined => (f.explicit ? { baseUrl: f.baseUrl } : undefined);
  const families = familiesOf(intapiBaseUrl, { scim: explicit(p.families.scim), learner: explicit(p.families.learner) });
  return deepFreeze({ ...p, families });
}

/** The profile reading the target's mail at `api` (a Mailpit-style API; the bundled run's own sink). */
export function withMailbox(p: Profile, api: string): Profile {
  return deepFreeze({ ...p, mailbox: { api } });
}

/** The method and path of an operation in this profile. */
export function operation(p: Profile, id: OperationId): OperationRoute {
  const route = isOperationId(id) ? p.operations[id] : undefined;
  if (!route) throw new Error(`profile ${p.source}: unknown operation ${String(id)}`);
  return route;
}
