import { randomBytes } from 'node:crypto';
import { bearerToken, headerValue } from '../http/headers.js';
import type { Call, Family, HttpMethod, Result } from '../http/route.js';
import type { SeedIdOf } from '../rules/ids.js';
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import { badRequest, ScimError, scimErrorRenderer, scimNotFound } from './errors.js';
import { filterOf, one, pageItems, pageOf, sorterOf } from './list.js';
import { PatchApplier, readPatchRequest } from './patch.js';
import { checkMembers, checkRequired, fullView, membershipIndex, project, projectionOf, readBody, type ViewContext } from './resources.js';
import { LIST_URN, type ResourceSchema, resourceSchemas } from './schema.js';
import { schemaResources } from './schemas-endpoint.js';
import { discoveryOperations } from './discovery.js';
import { bulkOperation } from './bulk.js';
import { checkIfMatch, notModified, versioned } from './etag.js';
import { idpBody, listParameters, mergedMembers, resourceBehaviour } from './clients.js';
import { createScimSeed } from './seed.js';
import type { ScimRecord, ScimStore } from './store.js';
import type { ScimContext, ScimOperation } from './context.js';

export type { ScimContext, ScimOperation };

/**
 * The SCIM 2.0 family under /scim/v2 (public-facts "Base addresses and prefixes"): Users and
 * Groups (rfc7644#section-3), the token exchange of public-facts "Authentication (SCIM)", /Schemas,
 * and the unsupported endpoints of specification rule 4. docs/decisions/scim/reference-server.md "SCIM reference server: choices".
 */
export const SCIM_PREFIX = '/scim/v2';
/** public-facts: a long-lived token; one year here. */
export const SCIM_TOKEN_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

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

const SCIM_TYPE = 'application/scim+json; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The values of a user's emails, lower-cased (an address is case-insensitive in practice). */
function emailValues(data: JsonObject): string[] {
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

export function createScimFamily(deps: ScimDeps): Family<ScimContext, ScimOperation> {
  const b = deps.behaviour;
  const tokens = new Map<string, number>();
  if (deps.token !== undefined) tokens.set(deps.token, Number.POSITIVE_INFINITY);
  const emailsUnique = b.writes.emails === 'required-unique';
  const { user: USER_SCHEMA, group: GROUP_SCHEMA } = resourceSchemas(b.schema, emailsUnique);
  let seeded: ScimStore | undefined = deps.store;
  // The seed, as a server keeping a small core would hold it: without the attributes it does not keep.
  const store = (): ScimStore => (seeded ??= fitted(createScimSeed(deps.seedIdOf), USER_SCHEMA));
  const now = (): string => {
    const at = deps.clock();
    return b.writes.timestamps === 'seconds' ? new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString() : at.toISOString();
  };

  const viewContext = (context: ScimContext): ViewContext => {
    let index: ReadonlyMap<string, readonly ScimRecord[]> | undefined;
    return { baseUrl: context.baseUrl, store: store(), b, groupsOf: () => (index ??= membershipIndex(store())) };
  };
  const tableOf = (schema: ResourceSchema): Map<string, ScimRecord> => (schema === USER_SCHEMA ? store().users : store().groups);
  // The behaviour each resource's operations use: a group fault breaks its rule on /Groups only (clients.ts).
  const userBehaviour = resourceBehaviour(b, USER_SCHEMA, false);
  const groupBehaviour = resourceBehaviour(b, GROUP_SCHEMA, true);
  const behaviourOf = (schema: ResourceSchema): ScimBehaviour => (schema === GROUP_SCHEMA ? groupBehaviour : userBehaviour);

  const ok = (status: number, body: JsonValue, headers?: Record<string, string>): Result =>
    headers === undefined ? { status, body } : { status, body, headers };

  const render = (schema: ResourceSchema, record: ScimRecord, call: Call<ScimContext>, ctx = viewContext(call.context)): JsonObject =>
    project(schema, fullView(schema, record, ctx), projectionOf(one(call.query.attributes), one(call.query.excludedAttributes)), behaviourOf(schema));
  /** A resource's answer: its representation, with its version (meta.version, ETag) when versions are served. */
  const answerOf = (status: number, schema: ResourceSchema, record: ScimRecord, call: Call<ScimContext>, headers: Record<string, string> = {}): Result => {
    const { view, headers: version } = versioned(render(schema, record, call), record, b);
    const all = { ...headers, ...version };
    return ok(status, view, Object.keys(all).length === 0 ? undefined : all);
  };

  const live = (schema: ResourceSchema, id: string): ScimRecord => {
    const record = tableOf(schema).get(id);
    if (record === undefined && b.writes.unknownId === 400) throw badRequest('invalidValue', `${schema.resourceType} ${id} is not valid.`);
    if (record === undefined || (record.deleted && b.writes.deleted === 'gone')) throw scimNotFound(`${schema.resourceType} ${id} not found.`);
    if (b.idp.inactive === 'hidden' && record.data.active === false) throw scimNotFound(`${schema.resourceType} ${id} not found.`);
    return record;
  };

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
  const checkUniqueUserName = (data: JsonObject, self: string | undefined): void => {
    const userName = data.userName;
    if (typeof userName !== 'string') return;
    const key = fold(userName);
    const { records, datas, keys } = userNames;
    let i = 0;
    for (const user of store().users.values()) {
      if (records[i] !== user || datas[i] !== user.data) {
        records[i] = user;
        datas[i] = user.data;
        keys[i] = comparedOf(user.data).userName;
      }
      if (keys[i++] !== key || user.id === self || (user.deleted && b.writes.deletedUserName === 'free')) continue;
      throw new ScimError(b.writes.conflictStatus, `userName ${userName} is already taken.`, 'uniqueness');
    }
  };

  /** Emails no other live user has (a server that keys its accounts on them, rfc7644#section-3.3: 409 uniqueness). */
  const checkUniqueEmails = (data: JsonObject, self: string | undefined): void => {
    const mine = new Set(emailValues(data));
    if (mine.size === 0) return;
    for (const user of store().users.values()) {
      if (user.id === self || user.deleted) continue;
      const taken = comparedOf(user.data).emails.find((v) => mine.has(v));
      if (taken !== undefined) throw new ScimError(b.writes.conflictStatus, `The email ${taken} is already taken.`, 'uniqueness');
    }
  };

  /** A POST or PUT body of a user whose userName is not an e-mail address carries an e-mail (behaviour emailForUserName). */
  const checkEmailForUserName = (schema: ResourceSchema, body: unknown): void => {
    if (schema !== USER_SCHEMA || b.writes.emailForUserName !== 'required' || !isJsonObject(body)) return;
    const userName = body.userName;
    if (typeof userName !== 'string' || userName.includes('@') || emailValues(body).length > 0) return;
    throw badRequest('invalidValue', 'emails must contain an email when userName is not an email address');
  };

  /** The checks every stored state passes (POST, PUT, each PATCH result). */
  const validate = (schema: ResourceSchema, data: JsonObject, self: string | undefined, required = b.writes.required === 'checked'): void => {
    if (required) checkRequired(schema, data);
    if (schema === GROUP_SCHEMA) checkMembers(store(), data, b.writes.memberReferences);
    else {
      checkUniqueUserName(data, self);
      if (emailsUnique) checkUniqueEmails(data, self);
    }
  };

  /** A request body, with strings where booleans belong made booleans under the fault boolean-strings-coerced. */
  const bodyOf = (schema: ResourceSchema, sent: unknown): unknown => {
    const body = b.idp.booleanStrings === 'true-false' ? idpBody(schema, sent) : sent;
    if (b.writes.booleanStrings === 'rejected' || !isJsonObject(body)) return body;
    const out: JsonObject = { ...body };
    for (const [key, value] of Object.entries(body)) {
      if (typeof value === 'string' && schema.core.get(key.toLowerCase())?.type === 'boolean') out[key] = value !== '';
    }
    return out;
  };

  const touch = (record: ScimRecord, before: string): void => {
    if (b.writes.lastModified === 'advances' && JSON.stringify(record.data) !== before) record.lastModified = now();
  };

  const resourceOperations = (schema: ResourceSchema): ScimOperation[] => {
    const base = schema.endpoint;
    const kind = schema.resourceType.toLowerCase();
    const rb = behaviourOf(schema);
    return [
      {
        id: `scim.${kind}s.list`,
        method: 'GET',
        path: base,
        auth: true,
        handle: (call) => {
          const q = call.query;
          if (b.filter.urnPaths === 'not-found' && /urn:[^"]*:[a-z]+/i.test(one(q.filter) ?? '')) throw scimNotFound('Unknown resource.');
          const params = listParameters(b, schema === GROUP_SCHEMA, { filter: one(q.filter), startIndex: one(q.startIndex), count: one(q.count) });
          const filter = filterOf(schema, params.filter, rb);
          const sorter = sorterOf(schema, one(q.sortBy), one(q.sortOrder), rb);
          const page = pageOf(params.startIndex, params.count, rb);
          const ctx = viewContext(call.context);
          const listed = (all: Map<string, ScimRecord>, live: ScimRecord[]): ScimRecord[] => (b.writes.deletedListed === 'yes' ? [...all.values()] : live);
          const records = schema === USER_SCHEMA ? listed(store().users, store().liveUsers()) : listed(store().groups, store().liveGroups());
          const projection = projectionOf(one(q.attributes), one(q.excludedAttributes));
          const answer = (items: JsonObject[], totalResults: number, itemsPerPage: number): Result =>
            ok(200, {
              schemas: [LIST_URN],
              totalResults,
              startIndex: page.startIndex,
              itemsPerPage,
              Resources: items.map((v) => project(schema, v, projection, rb)),
            });
          if (filter === undefined && sorter === undefined) {
            // Without filter or sort only the page's representations are built.
            const { items, totalResults, itemsPerPage } = pageItems(records, page, b);
            return answer(
              items.map((r) => fullView(schema, r, ctx)),
              totalResults,
              itemsPerPage,
            );
          }
          // Filter and sort over the attributes they read; whole representations for the page only.
          const reads = new Set([...(filter?.reads ?? []), ...(sorter?.reads ?? [])]);
          const narrowed = filter?.narrow === undefined ? records : records.filter((record) => filter.narrow?.(record.data));
          let matches = narrowed.map((record) => ({ record, view: fullView(schema, record, ctx, reads) }));
          if (filter !== undefined) matches = matches.filter((m) => filter.apply(m.view));
          if (filter !== undefined && matches.length === 0 && b.filter.noMatch === 'not-found') throw scimNotFound('No resource matches the filter.');
          if (sorter !== undefined) matches.sort((x, y) => sorter.apply(x.view, y.view));
          const { items, totalResults, itemsPerPage } = pageItems(matches, page, b);
          const counted = filter !== undefined && b.filter.totalResults === 'collection' ? records.length : totalResults;
          return answer(
            items.map((m) => fullView(schema, m.record, ctx)),
            counted,
            itemsPerPage,
          );
        },
      },
      {
        id: `scim.${kind}s.create`,
        method: 'POST',
        path: base,
        auth: true,
        handle: (call) => {
          checkEmailForUserName(schema, call.body);
          const data = readBody(schema, bodyOf(schema, call.body));
          if (b.writes.userNameCase === 'lowercased' && typeof data.userName === 'string') data.userName = data.userName.toLowerCase();
          validate(schema, data, undefined);
          const asked = isJsonObject(call.body) ? call.body.id : undefined;
          const id = b.writes.clientId === 'used' && typeof asked === 'string' && asked !== '' && !tableOf(schema).has(asked) ? asked : deps.ids();
          const stamp = now();
          const record: ScimRecord = { id, data, created: stamp, lastModified: stamp, deleted: false };
          tableOf(schema).set(id, record);
          const location = `${call.context.baseUrl}${base}/${id}`;
          return answerOf(b.writes.createStatus, schema, record, call, b.writes.location === 'header' ? { location } : {});
        },
      },
      {
        id: `scim.${kind}s.get`,
        method: 'GET',
        path: `${base}/:id`,
        auth: true,
        handle: (call) => {
          const record = live(schema, call.params.id ?? '');
          const current = notModified(call.context, record, b);
          return current === undefined
            ? answerOf(200, schema, record, call)
            : { status: 304, empty: true, ...(b.etag.header === 'sent' ? { headers: { etag: current } } : {}) };
        },
      },
      {
        id: `scim.${kind}s.replace`,
        method: 'PUT',
        path: `${base}/:id`,
        auth: true,
        handle: (call) => {
          checkEmailForUserName(schema, call.body);
          const record = live(schema, call.params.id ?? '');
          checkIfMatch(call.context, record, b);
          let data = readBody(schema, bodyOf(schema, call.body));
          const body = call.body as JsonObject;
          if (b.writes.nullClears === 'no') {
            for (const [key, value] of Object.entries(body)) {
              const canonical = Object.keys(record.data).find((k) => k.toLowerCase() === key.toLowerCase());
              const cleared = value === null || (Array.isArray(value) && value.length === 0);
              if (cleared && canonical !== undefined) data[canonical] = record.data[canonical] ?? null;
            }
          }
          if (b.writes.put === 'merge') data = { ...record.data, ...data };
          if (schema === GROUP_SCHEMA && b.idp.putMembers === 'merged') {
            const members = mergedMembers(record.data.members, data.members);
            if (members !== undefined) data.members = members;
          }
          // The password is write-only: a PUT without one keeps it (clients PUT what they GET).
          if (data.password === undefined && record.data.password !== undefined) data.password = record.data.password;
          validate(schema, data, record.id);
          const before = JSON.stringify(record.data);
          record.data = data;
          touch(record, before);
          const asked = body.id;
          if (b.writes.putId === 'used' && typeof asked === 'string' && asked !== '' && asked !== record.id && !tableOf(schema).has(asked)) {
            // The fault put-id-used: the resource moves to the id the body names.
            const moved: ScimRecord = { ...record, id: asked };
            tableOf(schema).delete(record.id);
            tableOf(schema).set(asked, moved);
            return ok(200, render(schema, moved, call));
          }
          return answerOf(200, schema, record, call);
        },
      },
      {
        id: `scim.${kind}s.patch`,
        method: 'PATCH',
        path: `${base}/:id`,
        auth: true,
        handle: (call) => {
          if (b.patchServed === 'no') throw new ScimError(501, `PATCH ${SCIM_PREFIX}${base}/{id} is not implemented.`);
          const record = live(schema, call.params.id ?? '');
          checkIfMatch(call.context, record, b);
          const operations = readPatchRequest(call.body, b);
          const applier = new PatchApplier(schema, rb, record.id);
          const before = JSON.stringify(record.data);
          const settle = (draft: JsonObject): JsonObject => {
            const data = readBody(schema, { schemas: [schema.urn], ...draft });
            // Under the fault scim.patch-replace-null-deletes-required a PATCH may leave a required attribute out.
            validate(schema, data, record.id, b.writes.required === 'checked' && b.patch.requiredNull === 'refused');
            return data;
          };
          if (b.patch.atomic === 'yes') {
            const draft = cloneJson(record.data);
            for (const operation of operations) applier.apply(draft, operation);
            if (b.passwordChange === 'refused' && draft.password !== record.data.password) throw badRequest('mutability', 'The password cannot be changed.');
            record.data = settle(draft);
          } else {
            for (const operation of operations) {
              const draft = cloneJson(record.data);
              applier.apply(draft, operation);
              record.data = settle(draft);
              touch(record, before);
            }
          }
          touch(record, before);
          if (b.patch.noOpLastModified === 'advanced') record.lastModified = now();
          if (b.patch.success === 'always-204') return { status: 204, empty: true };
          // rfc7644#section-3.5.2: 204 may answer a PATCH, but 200 with the resource when `attributes` is given.
          if (b.patch.success === 'no-content' && one(call.query.attributes) === undefined && one(call.query.excludedAttributes) === undefined) {
            return { status: 204, empty: true };
          }
          if (b.patch.success === 'empty-200') return { status: 200, empty: true };
          return answerOf(200, schema, record, call);
        },
      },
      {
        id: `scim.${kind}s.delete`,
        method: 'DELETE',
        path: `${base}/:id`,
        auth: true,
        handle: (call) => {
          const record = live(schema, call.params.id ?? '');
          if (record.deleted) throw scimNotFound(`${schema.resourceType} ${record.id} not found.`);
          checkIfMatch(call.context, record, b);
          record.deleted = true;
          if (b.writes.membership === 'follows-deletion') {
            for (const group of store().groups.values()) {
              const members = group.data.members;
              if (!Array.isArray(members)) continue;
              const rest = members.filter((m) => !(isJsonObject(m) && m.value === record.id));
              if (rest.length === members.length) continue;
              if (rest.length === 0) delete group.data.members;
              else group.data.members = rest;
            }
          }
          return b.writes.deleteStatus === 204 ? { status: 204, empty: true } : { status: 200, empty: true };
        },
      },
    ];
  };

  const unsupported = (method: HttpMethod, path: string): ScimOperation => ({
    id: `scim.unsupported.${method} ${path}`,
    method,
    path,
    auth: true,
    handle: () => {
      throw new ScimError(b.errors.unsupportedStatus, `${method} ${SCIM_PREFIX}${path} is not implemented.`);
    },
  });

  const tokenOperation: ScimOperation = {
    id: 'scim.token',
    method: 'POST',
    path: '/token',
    auth: false,
    handle: (call) => {
      const body = call.body;
      if (!isJsonObject(body) || typeof body.username !== 'string' || typeof body.password !== 'string') {
        throw badRequest('invalidValue', 'The body needs username and password strings.');
      }
      if (body.username !== deps.credentials.username || body.password !== deps.credentials.password) {
        throw new ScimError(401, 'Wrong username or password.');
      }
      const token = randomBytes(32).toString('base64url');
      const expiry = deps.clock().getTime() + SCIM_TOKEN_LIFETIME_MS;
      tokens.set(token, expiry);
      return ok(200, { token, scope: ['scim'], tokenExpiryDate: new Date(expiry).toISOString() });
    },
  };

  // The Schema resources /Schemas lists (under the fault schemas-group-omitted, without the Group's).
  const schemasListed = (baseUrl: string): JsonObject[] =>
    schemaResources(baseUrl, USER_SCHEMA, GROUP_SCHEMA, emailsUnique, b.declares.schemaSchema === 'listed').filter(
      (s) => b.declares.groupSchema === 'listed' || s.id !== GROUP_SCHEMA.urn,
    );
  const schemaOperations: ScimOperation[] = [
    {
      id: 'scim.schemas.list',
      method: 'GET',
      path: '/Schemas',
      auth: true,
      handle: (call) => {
        const resources = schemasListed(call.context.baseUrl);
        return ok(200, { schemas: [LIST_URN], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources });
      },
    },
    {
      id: 'scim.schemas.get',
      method: 'GET',
      path: '/Schemas/:id',
      auth: true,
      handle: (call) => {
        const listed = schemasListed(call.context.baseUrl);
        const found =
          listed.find((s) => s.id === call.params.id) ?? (b.declares.unknownSchema === 'first' ? listed.find((s) => s.id === USER_SCHEMA.urn) : undefined);
        if (found === undefined) throw scimNotFound(`Schema ${call.params.id ?? ''} not found.`);
        return ok(200, found);
      },
    },
  ];

  const ALL: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const users = resourceOperations(USER_SCHEMA);
  const groups = resourceOperations(GROUP_SCHEMA);
  const served = discoveryOperations({ b, users, groups, userSchema: USER_SCHEMA, groupSchema: GROUP_SCHEMA, store, now });
  if (b.bulk.supported) served.push(bulkOperation({ b, resources: [...users, ...groups], renderError: scimErrorRenderer(b) }));
  const operations: ScimOperation[] = [
    tokenOperation,
    ...users,
    ...groups,
    ...schemaOperations,
    ...served,
    // Specification rule 4: what the server does not serve answers 501.
    ...ALL.filter((m) => !served.some((o) => o.method === m && o.path === '/Me')).map((m) => unsupported(m, '/Me')),
    ...(b.endpoints.discovery === 'served' ? [] : [unsupported('GET', '/ServiceProviderConfig'), unsupported('GET', '/ResourceTypes')]),
    ...(b.bulk.supported ? [] : [unsupported('POST', '/Bulk')]),
    unsupported('POST', '/.search'),
    ...(b.endpoints.search === 'served' ? [] : [unsupported('POST', '/Users/.search'), unsupported('POST', '/Groups/.search')]),
  ];

  const guard = (headers: Readonly<Record<string, string | string[] | undefined>>, operation: ScimOperation): ScimContext => {
    const host = headerValue(headers, 'host') ?? 'localhost';
    const ifMatch = headerValue(headers, 'if-match');
    const ifNoneMatch = headerValue(headers, 'if-none-match');
    const length = Number(headerValue(headers, 'content-length'));
    const context: ScimContext = {
      baseUrl: `http://${host}${SCIM_PREFIX}`,
      ...(ifMatch === undefined ? {} : { ifMatch }),
      ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }),
      ...(Number.isFinite(length) && length > 0 ? { contentLength: length } : {}),
    };
    if (!operation.auth || b.auth.token === 'not-checked') return context;
    const token = bearerToken(headerValue(headers, 'authorization'), false);
    if (token === undefined) throw new ScimError(401, 'A Bearer token is required.');
    const now = deps.clock().getTime();
    const expiry = tokens.get(token);
    // A token of the exchange, or an access token of the OAuth flow (refused under scim.oauth-token-not-accepted).
    const valid = (expiry !== undefined && expiry > now) || (b.oauth.scimAccepts === 'accepted' && deps.oauth?.accessTokenAccount(token, now) !== undefined);
    if (!valid && b.auth.wrongToken === 'reject') throw new ScimError(401, 'The token is not valid.');
    return context;
  };

  return {
    prefix: SCIM_PREFIX,
    operations,
    guard,
    renderError: scimErrorRenderer(b),
    contentType: b.transport.responseType === 'scim+json' ? SCIM_TYPE : JSON_TYPE,
    ...(b.transport.maxUrlBytes === undefined ? {} : { maxUrlBytes: b.transport.maxUrlBytes }),
    bodyTypes: {
      types: b.transport.requestTypes === 'json-only' ? ['application/json'] : ['application/scim+json', 'application/json'],
      // The token exchange (public-facts: a JSON body) reads JSON under this fault too.
      refuse:
        b.transport.requestTypes === 'scim+json-only'
          ? (url, type) =>
              /^application\/json\b/i.test(type) && !/\/token(\?|$)/.test(url)
                ? new ScimError(415, 'The request body must be application/scim+json.')
                : undefined
          : undefined,
      notJson: () =>
        b.errors.malformedJson === 'server-error'
          ? new ScimError(500, 'Unexpected token in JSON.')
          : badRequest('invalidSyntax', 'The request body is not valid JSON.'),
    },
  };
}
