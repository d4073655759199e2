import type { Call, Result } from '../http/route.js';
import type { SeedIdOf } from '../rules/ids.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import { idpBody, resourceBehaviour } from './clients.js';
import type { ScimContext } from './context.js';
import { badRequest, ScimError, scimNotFound } from './errors.js';
import { versioned } from './etag.js';
import { one } from './list.js';
import { checkMembers, checkRequired, fullView, membershipIndex, project, projectionOf, type ViewContext } from './resources.js';
import { type ResourceSchema, resourceSchemas } from './schema.js';
import { createScimSeed } from './seed.js';
import type { ScimRecord, ScimStore } from './store.js';

/**
 * What every SCIM handler works on (index.ts puts the family together from it): the store, the two
 * resource schemas and their behaviours, the views of a record, and the checks a stored state
 * passes. Each stage is its own function here: the store and clock, the views, the uniqueness
 * checks, the writes' checks.
 */

/** The SCIM 2.0 family's path under the host (public-facts "Base addresses and prefixes"). */
export const SCIM_PREFIX = '/scim/v2';

export interface ScimDeps {
  readonly behaviour: ScimBehaviour;
  /** The portal account whose username and password the token exchange takes (public-facts). */
  readonly credentials: { readonly username: string; readonly password: string };
  readonly clock: () => Date;
  readonly ids: () => string;
  /** A token accepted from the start (e.g. for LPC_SCIM_TOKEN); optional. */
  readonly token?: string;
  /** Default: the deterministic seed (built on first use). */
  readonly store?: ScimStore;
  /** The ids of that seed's records (rules/ids.ts seedIdOf); default: their fixed ids. */
  readonly seedIdOf?: SeedIdOf;
  /** The OAuth 2.0 flow whose access tokens SCIM accepts as Bearer tokens (scim/oauth.ts). */
  readonly oauth?: { accessTokenAccount(token: string, nowMs: number): string | undefined };
}

export interface ScimState {
  readonly deps: ScimDeps;
  readonly b: ScimBehaviour;
  readonly userSchema: ResourceSchema;
  readonly groupSchema: ResourceSchema;
  readonly emailsUnique: boolean;
  store(): ScimStore;
  /** The time of a write, as the behaviour stamps it (to the millisecond, or the second). */
  now(): string;
  viewContext(context: ScimContext): ViewContext;
  tableOf(schema: ResourceSchema): Map<string, ScimRecord>;
  /** The behaviour each resource's operations use: a group fault breaks its rule on /Groups only (clients.ts). */
  behaviourOf(schema: ResourceSchema): ScimBehaviour;
  render(schema: ResourceSchema, record: ScimRecord, call: Call<ScimContext>, ctx?: ViewContext): JsonObject;
  /** A resource's answer: its representation, with its version (meta.version, ETag) when versions are served. */
  answerOf(status: number, schema: ResourceSchema, record: ScimRecord, call: Call<ScimContext>, headers?: Record<string, string>): Result;
  /** The record of that id, unless it is not there (or deleted, or hidden): 404 (or 400). */
  live(schema: ResourceSchema, id: string): ScimRecord;
  /** The checks every stored state passes (POST, PUT, each PATCH result). */
  validate(schema: ResourceSchema, data: JsonObject, self: string | undefined, required?: boolean): void;
  /** A POST or PUT body of a user whose userName is not an e-mail address carries an e-mail (behaviour emailForUserName). */
  checkEmailForUserName(schema: ResourceSchema, body: unknown): void;
  /** A request body, with strings where booleans belong made booleans under the fault boolean-strings-coerced. */
  bodyOf(schema: ResourceSchema, sent: unknown): unknown;
  /** Advances lastModified when the write changed the data (as the behaviour says). */
  touch(record: ScimRecord, before: string): void;
}

export const ok = (status: number, body: JsonValue, headers?: Record<string, string>): Result =>
  headers === undefined ? { status, body } : { status, body, headers };

/** The values of a user's emails, lower-cased (an address is case-insensitive in practice). */
export function emailValues(data: JsonObject): string[] {
  const emails = data.emails;
  return Array.isArray(emails) ? emails.flatMap((e) => (isJsonObject(e) && typeof e.value === 'string' ? [e.value.toLowerCase()] : [])) : [];
}

/** The store with each user's attributes that `schema` does not keep left out. */
function fitted(store: ScimStore, schema: ResourceSchema): ScimStore {
  for (const user of store.users.values()) {
    for (const key of Object.keys(user.data)) {
      const kept = key.toLowerCase().startsWith('urn:') ? schema.extensions.has(key.toLowerCase()) : schema.core.has(key.toLowerCase());
      if (!kept) delete user.data[key];
    }
  }
  return store;
}

type Base = Pick<ScimState, 'deps' | 'b' | 'userSchema' | 'groupSchema' | 'emailsUnique' | 'store' | 'now' | 'tableOf' | 'behaviourOf'>;

/** The store (the seed, as a server keeping a small core would hold it), the clock and the schemas. */
function baseOf(deps: ScimDeps): Base {
  const b = deps.behaviour;
  const emailsUnique = b.writes.emails === 'required-unique';
  const { user: userSchema, group: groupSchema } = resourceSchemas(b.schema, emailsUnique);
  let seeded: ScimStore | undefined = deps.store;
  // The seed, as a server keeping a small core would hold it: without the attributes it does not keep.
  const store = (): ScimStore => (seeded ??= fitted(createScimSeed(deps.seedIdOf), userSchema));
  const now = (): string => {
    const at = deps.clock();
    return b.writes.timestamps === 'seconds' ? new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString() : at.toISOString();
  };
  const userBehaviour = resourceBehaviour(b, userSchema, false);
  const groupBehaviour = resourceBehaviour(b, groupSchema, true);
  return {
    deps,
    b,
    userSchema,
    groupSchema,
    emailsUnique,
    store,
    now,
    tableOf: (schema) => (schema === userSchema ? store().users : store().groups),
    behaviourOf: (schema) => (schema === groupSchema ? groupBehaviour : userBehaviour),
  };
}

/** The views of a record: the context they are built in, a projected representation, an answer. */
function viewsOf(base: Base): Pick<ScimState, 'viewContext' | 'render' | 'answerOf' | 'live'> {
  const { b, store, behaviourOf, tableOf } = base;
  const viewContext = (context: ScimContext): ViewContext => {
    let index: ReadonlyMap<string, readonly ScimRecord[]> | undefined;
    return { baseUrl: context.baseUrl, store: store(), b, groupsOf: () => (index ??= membershipIndex(store())) };
  };
  const render: ScimState['render'] = (schema, record, call, ctx = viewContext(call.context)) =>
    project(schema, fullView(schema, record, ctx), projectionOf(one(call.query.attributes), one(call.query.excludedAttributes)), behaviourOf(schema));
  const answerOf: ScimState['answerOf'] = (status, schema, record, call, headers = {}) => {
    const { view, headers: version } = versioned(render(schema, record, call), record, b);
    const all = { ...headers, ...version };
    return ok(status, view, Object.keys(all).length === 0 ? undefined : all);
  };
  const live: ScimState['live'] = (schema, id) => {
    const record = tableOf(schema).get(id);
    if (record === undefined && b.writes.unknownId === 400) throw badRequest('invalidValue', `${schema.resourceType} ${id} is not valid.`);
    if (record === undefined || (record.deleted && b.writes.deleted === 'gone')) throw scimNotFound(`${schema.resourceType} ${id} not found.`);
    if (b.idp.inactive === 'hidden' && record.data.active === false) throw scimNotFound(`${schema.resourceType} ${id} not found.`);
    return record;
  };
  return { viewContext, render, answerOf, live };
}

interface Uniqueness {
  userName(data: JsonObject, self: string | undefined): void;
  emails(data: JsonObject, self: string | undefined): void;
}

/** The uniqueness checks of a user's userName and emails against the stored users. */
function uniquenessOf({ b, store }: Base): Uniqueness {
  const fold = (s: string): string => (b.writes.uniqueness === 'case-insensitive' ? s.toLowerCase() : s);
  /**
   * What the uniqueness checks compare of a stored user (its folded userName, its emails), worked out
   * once per stored state instead of on every write for every user (a sweep's writes each scanned
   * thousands). A stored user's `data` is replaced whole by every write (POST, PUT, PATCH), never
   * changed in place, so the object is the key: tests/reference-impl/scim/crud.test.ts frees and
   * takes names and emails by PUT and PATCH.
   */
  const compared = new WeakMap<JsonObject, { userName: string | undefined; emails: readonly string[] }>();
  const comparedOf = (data: JsonObject): { userName: string | undefined; emails: readonly string[] } => {
    let keys = compared.get(data);
    if (keys === undefined) {
      keys = { userName: typeof data.userName === 'string' ? fold(data.userName) : undefined, emails: emailValues(data) };
      compared.set(data, keys);
    }
    return keys;
  };
  /** The stored users' folded userNames in the users' order, each refreshed when its record or
   * data is no longer the one it was read from: a write compares identities, not a lookup per user. */
  const userNames = { records: [] as ScimRecord[], datas: [] as JsonObject[], keys: [] as (string | undefined)[] };
  const userName = (data: JsonObject, self: string | undefined): void => {
    const given = data.userName;
    if (typeof given !== 'string') return;
    const key = fold(given);
    const { records, datas, keys } = userNames;
    let i = 0;
    for (const user of store().users.values()) {
      if (records[i] !== user || datas[i] !== user.data) {
        records[i] = user;
        datas[i] = user.data;
        keys[i] = comparedOf(user.data).userName;
      }
      if (keys[i++] !== key || user.id === self || (user.deleted && b.writes.deletedUserName === 'free')) continue;
      throw new ScimError(b.writes.conflictStatus, `userName ${given} is already taken.`, 'uniqueness');
    }
  };
  /** Emails no other live user has (a server that keys its accounts on them, rfc7644#section-3.3: 409 uniqueness). */
  const emails = (data: JsonObject, self: string | undefined): void => {
    const mine = new Set(emailValues(data));
    if (mine.size === 0) return;
    for (const user of store().users.values()) {
      if (user.id === self || user.deleted) continue;
      const taken = comparedOf(user.data).emails.find((v) => mine.has(v));
      if (taken !== undefined) throw new ScimError(b.writes.conflictStatus, `The email ${taken} is already taken.`, 'uniqueness');
    }
  };
  return { userName, emails };
}

/** The checks of a write: what a stored state passes, what a body must carry, how it is read. */
function writesOf(base: Base, unique: Uniqueness): Pick<ScimState, 'validate' | 'checkEmailForUserName' | 'bodyOf' | 'touch'> {
  const { b, store, userSchema, groupSchema, emailsUnique, now } = base;
  return {
    validate: (schema, data, self, required = b.writes.required === 'checked') => {
      if (required) checkRequired(schema, data);
      if (schema === groupSchema) checkMembers(store(), data, b.writes.memberReferences);
      else {
        unique.userName(data, self);
        if (emailsUnique) unique.emails(data, self);
      }
    },
    checkEmailForUserName: (schema, body) => {
      if (schema !== userSchema || b.writes.emailForUserName !== 'required' || !isJsonObject(body)) return;
      const userName = body.userName;
      if (typeof userName !== 'string' || userName.includes('@') || emailValues(body).length > 0) return;
      throw badRequest('invalidValue', 'emails must contain an email when userName is not an email address');
    },
    bodyOf: (schema, sent) => booleansRead(b, schema, sent),
    touch: (record, before) => {
      if (b.writes.lastModified === 'advances' && JSON.stringify(record.data) !== before) record.lastModified = now();
    },
  };
}

/** A request body, with strings where booleans belong made booleans under the fault boolean-strings-coerced. */
function booleansRead(b: ScimBehaviour, schema: ResourceSchema, sent: unknown): unknown {
  const body = b.idp.booleanStrings === 'true-false' ? idpBody(schema, sent) : sent;
  if (b.writes.booleanStrings === 'rejected' || !isJsonObject(body)) return body;
  const out: JsonObject = { ...body };
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string' && schema.core.get(key.toLowerCase())?.type === 'boolean') out[key] = value !== '';
  }
  return out;
}

export function scimState(deps: ScimDeps): ScimState {
  const base = baseOf(deps);
  return { ...base, ...viewsOf(base), ...writesOf(base, uniquenessOf(base)) };
}
