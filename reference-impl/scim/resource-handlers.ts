import type { Call, Result } from '../http/route.js';
import { cloneJson, isJsonObject, type JsonObject } from '../rules/json.js';
import { mergedMembers, listParameters } from './clients.js';
import type { ScimContext, ScimOperation } from './context.js';
import { badRequest, ScimError, scimNotFound } from './errors.js';
import { checkIfMatch, notModified, versioned } from './etag.js';
import { filterOf, one, pageItems, pageOf, sorterOf } from './list.js';
import { PatchApplier, readPatchRequest } from './patch.js';
import { fullView, project, projectionOf, readBody } from './resources.js';
import { LIST_URN, type ResourceSchema } from './schema.js';
import { ok, SCIM_PREFIX, type ScimState } from './state.js';
import type { ScimRecord } from './store.js';

/**
 * The operations of a SCIM resource (Users, Groups; rfc7644#section-3): list, create, get, replace,
 * patch and delete, each handler a function of the family's state (state.ts) and the resource's schema.
 */

type Handler = (s: ScimState, schema: ResourceSchema, call: Call<ScimContext>) => Result;

/** GET of the collection: filtered, sorted and paged (rfc7644#section-3.4.2). */
function list(s: ScimState, schema: ResourceSchema, call: Call<ScimContext>): Result {
  const { b } = s;
  const rb = s.behaviourOf(schema);
  const q = call.query;
  if (b.filter.urnPaths === 'not-found' && /urn:[^"]*:[a-z]+/i.test(one(q.filter) ?? '')) throw scimNotFound('Unknown resource.');
  const params = listParameters(b, schema === s.groupSchema, { filter: one(q.filter), startIndex: one(q.startIndex), count: one(q.count) });
  const filter = filterOf(schema, params.filter, rb);
  const sorter = sorterOf(schema, one(q.sortBy), one(q.sortOrder), rb);
  const page = pageOf(params.startIndex, params.count, rb);
  const ctx = s.viewContext(call.context);
  const store = s.store();
  const listed = (all: Map<string, ScimRecord>, live: ScimRecord[]): ScimRecord[] => (b.writes.deletedListed === 'yes' ? [...all.values()] : live);
  const records = schema === s.userSchema ? listed(store.users, store.liveUsers()) : listed(store.groups, store.liveGroups());
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
  // The views a filter reads carry meta.version as the resource's answers do (rfc7643#section-3.1), so
  // that `meta.version pr` and comparisons of it select what a read of each resource shows.
  let matches = narrowed.map((record) => ({ record, view: versioned(fullView(schema, record, ctx, reads), record, b).view }));
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
}

/** POST of the collection (rfc7644#section-3.3). */
function create(s: ScimState, schema: ResourceSchema, call: Call<ScimContext>): Result {
  const { b } = s;
  s.checkEmailForUserName(schema, call.body);
  const data = readBody(schema, s.bodyOf(schema, call.body));
  if (b.writes.userNameCase === 'lowercased' && typeof data.userName === 'string') data.userName = data.userName.toLowerCase();
  s.validate(schema, data, undefined);
  const asked = isJsonObject(call.body) ? call.body.id : undefined;
  const id = b.writes.clientId === 'used' && typeof asked === 'string' && asked !== '' && !s.tableOf(schema).has(asked) ? asked : s.deps.ids();
  const stamp = s.now();
  const record: ScimRecord = { id, data, created: stamp, lastModified: stamp, deleted: false };
  s.tableOf(schema).set(id, record);
  const location = `${call.context.baseUrl}${schema.endpoint}/${id}`;
  return s.answerOf(b.writes.createStatus, schema, record, call, b.writes.location === 'header' ? { location } : {});
}

/** GET of a resource, 304 when the client's version is current (rfc7644#section-3.14). */
function get(s: ScimState, schema: ResourceSchema, call: Call<ScimContext>): Result {
  const record = s.live(schema, call.params.id ?? '');
  const current = notModified(call.context, record, s.b);
  return current === undefined
    ? s.answerOf(200, schema, record, call)
    : { status: 304, empty: true, ...(s.b.etag.header === 'sent' ? { headers: { etag: current } } : {}) };
}

/** The data a PUT stores: the body read, with what the behaviour keeps of the stored data. */
function replacement(s: ScimState, schema: ResourceSchema, record: ScimRecord, sent: unknown): JsonObject {
  const { b } = s;
  let data = readBody(schema, s.bodyOf(schema, sent));
  const body = sent as JsonObject;
  if (b.writes.nullClears === 'no') {
    for (const [key, value] of Object.entries(body)) {
      const canonical = Object.keys(record.data).find((k) => k.toLowerCase() === key.toLowerCase());
      const cleared = value === null || (Array.isArray(value) && value.length === 0);
      if (cleared && canonical !== undefined) data[canonical] = record.data[canonical] ?? null;
    }
  }
  if (b.writes.put === 'merge') data = { ...record.data, ...data };
  if (schema === s.groupSchema && b.idp.putMembers === 'merged') {
    const members = mergedMembers(record.data.members, data.members);
    if (members !== undefined) data.members = members;
  }
  // The password is write-only: a PUT without one keeps it (clients PUT what they GET).
  if (data.password === undefined && record.data.password !== undefined) data.password = record.data.password;
  return data;
}

/** PUT of a resource (rfc7644#section-3.5.1). */
function replace(s: ScimState, schema: ResourceSchema, call: Call<ScimContext>): Result {
  s.checkEmailForUserName(schema, call.body);
  const record = s.live(schema, call.params.id ?? '');
  checkIfMatch(call.context, record, s.b);
  const data = replacement(s, schema, record, call.body);
  s.validate(schema, data, record.id);
  const before = JSON.stringify(record.data);
  record.data = data;
  s.touch(record, before);
  const asked = (call.body as JsonObject).id;
  if (s.b.writes.putId === 'used' && typeof asked === 'string' && asked !== '' && asked !== record.id && !s.tableOf(schema).has(asked)) {
    // The fault put-id-used: the resource moves to the id the body names.
    const moved: ScimRecord = { ...record, id: asked };
    s.tableOf(schema).delete(record.id);
    s.tableOf(schema).set(asked, moved);
    return ok(200, s.render(schema, moved, call));
  }
  return s.answerOf(200, schema, record, call);
}

/** Applies a PATCH request's operations to the record: at once, or one by one (a fault). */
function applyPatch(s: ScimState, schema: ResourceSchema, record: ScimRecord, sent: unknown, before: string): void {
  const { b } = s;
  const operations = readPatchRequest(sent, b);
  const applier = new PatchApplier(schema, s.behaviourOf(schema), record.id);
  const settle = (draft: JsonObject): JsonObject => {
    const data = readBody(schema, { schemas: [schema.urn], ...draft });
    // Under the fault scim.patch-replace-null-deletes-required a PATCH may leave a required attribute out.
    s.validate(schema, data, record.id, b.writes.required === 'checked' && b.patch.requiredNull === 'refused');
    return data;
  };
  if (b.patch.atomic === 'yes') {
    const draft = cloneJson(record.data);
    for (const operation of operations) applier.apply(draft, operation);
    if (b.passwordChange === 'refused' && draft.password !== record.data.password) throw badRequest('mutability', 'The password cannot be changed.');
    record.data = settle(draft);
    return;
  }
  for (const operation of operations) {
    const draft = cloneJson(record.data);
    applier.apply(draft, operation);
    record.data = settle(draft);
    s.touch(record, before);
  }
}

/** PATCH of a resource (rfc7644#section-3.5.2). */
function patch(s: ScimState, schema: ResourceSchema, call: Call<ScimContext>): Result {
  const { b } = s;
  if (b.patchServed === 'no') throw new ScimError(501, `PATCH ${SCIM_PREFIX}${schema.endpoint}/{id} is not implemented.`);
  const record = s.live(schema, call.params.id ?? '');
  checkIfMatch(call.context, record, b);
  const before = JSON.stringify(record.data);
  applyPatch(s, schema, record, call.body, before);
  s.touch(record, before);
  if (b.patch.noOpLastModified === 'advanced') record.lastModified = s.now();
  if (b.patch.success === 'always-204') return { status: 204, empty: true };
  // rfc7644#section-3.5.2: 204 may answer a PATCH, but 200 with the resource when `attributes` is given.
  if (b.patch.success === 'no-content' && one(call.query.attributes) === undefined && one(call.query.excludedAttributes) === undefined) {
    return { status: 204, empty: true };
  }
  if (b.patch.success === 'empty-200') return { status: 200, empty: true };
  return s.answerOf(200, schema, record, call);
}

/** DELETE of a resource (rfc7644#section-3.6), and of its memberships when the behaviour says so. */
function remove(s: ScimState, schema: ResourceSchema, call: Call<ScimContext>): Result {
  const { b } = s;
  const record = s.live(schema, call.params.id ?? '');
  if (record.deleted) throw scimNotFound(`${schema.resourceType} ${record.id} not found.`);
  checkIfMatch(call.context, record, b);
  record.deleted = true;
  if (b.writes.membership === 'follows-deletion') {
    for (const group of s.store().groups.values()) {
      const members = group.data.members;
      if (!Array.isArray(members)) continue;
      const rest = members.filter((m) => !(isJsonObject(m) && m.value === record.id));
      if (rest.length === members.length) continue;
      if (rest.length === 0) delete group.data.members;
      else group.data.members = rest;
    }
  }
  return b.writes.deleteStatus === 204 ? { status: 204, empty: true } : { status: 200, empty: true };
}

/** Each operation of a resource: its verb (the last part of its id), method, path and handler. */
const OPERATIONS: readonly (readonly [verb: string, method: ScimOperation['method'], item: boolean, handle: Handler])[] = [
  ['list', 'GET', false, list],
  ['create', 'POST', false, create],
  ['get', 'GET', true, get],
  ['replace', 'PUT', true, replace],
  ['patch', 'PATCH', true, patch],
  ['delete', 'DELETE', true, remove],
];

/** The operations of the resource `schema` describes, under its endpoint. */
export function resourceOperations(s: ScimState, schema: ResourceSchema): ScimOperation[] {
  const kind = schema.resourceType.toLowerCase();
  return OPERATIONS.map(([verb, method, item, handle]) => ({
    id: `scim.${kind}s.${verb}`,
    method,
    path: item ? `${schema.endpoint}/:id` : schema.endpoint,
    auth: true,
    handle: (call: Call<ScimContext>) => handle(s, schema, call),
  }));
}
