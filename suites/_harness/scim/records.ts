/**
 * The SCIM suites' records: every user and group a check reads it has created itself, named with
 * the run's marker (`lpc-<run id>-…`), so that nothing depends on a target's own data and the
 * checks of one run, or of two runs against one server, never see each other's records. Each
 * creation is noted in the run's journal; the runner deletes them all when the run ends
 * (src/runner/cleanup.ts), also after a failure or an interruption.
 */
import { describeResponse, excerpt, fail } from '../failure.js';
import { notSetUp, notSetUpTwice } from '../outcomes.js';
import { fitUser, learnFromRefusal, type FitOptions } from './target.js';
import type { ApiRequest, ApiResponse } from '../http.js';
import type { Json } from '../records.js';
import type { CheckContext } from '../requirement.js';
import { runMarker } from '../marker.js';
import { noteCreated } from '../journal.js';

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterprise: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
} as const;

/** The run's marker: the prefix of every userName and group displayName the run creates (marker.ts). */
export { runMarker };

/** A name no other check or run uses: the run's marker, a tag naming the check's purpose, and a
 * value drawn from the check's seeded source (so a replay of the run draws the same tail). */
export function uniqueName(t: CheckContext, tag: string): string {
  return `${runMarker(t)}${tag}-${t.uuid().slice(0, 8)}`;
}

/** The body of a user: RFC 7643 §4.1 (userName required; name, as public-facts says the platform requires it). */
export function userBody(userName: string, extra: Json = {}): Json {
  return { schemas: [SCIM_SCHEMAS.user], userName, name: { givenName: 'Lpc', familyName: 'Check' }, ...extra };
}

export function groupBody(displayName: string, extra: Json = {}): Json {
  return { schemas: [SCIM_SCHEMAS.group], displayName, ...extra };
}

/** The last path segment of the Location header of a 201. */
function idFromLocation(res: ApiResponse): string | undefined {
  const text = res.headers.location;
  if (text === undefined) return undefined;
  const last = text.replace(/\/+$/, '').split('/').at(-1);
  return last ? decodeURIComponent(last) : undefined;
}

/** The id of a created resource, noted for the cleanup. */
function createdId(t: CheckContext, res: ApiResponse, kind: 'user' | 'group', name: string): string | undefined {
  const answered = typeof res.json === 'object' && res.json !== null ? (res.json as Json).id : undefined;
  // An answer without id (a projection that drops it) still names the resource in its Location.
  const id = answered ?? idFromLocation(res);
  if (res.status >= 200 && res.status < 300 && typeof id === 'string' && id.length > 0) {
    const collection = kind === 'user' ? 'users' : 'groups';
    noteCreated(t.config, { deleteOp: `scim.${collection}.delete`, id, label: `SCIM ${kind} ${name}`, family: 'scim', collection });
    return id;
  }
  return undefined;
}

/**
 * Sends a user body fitted to the target (target.ts: `fitUser`) with `send`. A refusal (400) whose
 * detail names an attribute the body lacked teaches the run's fixtures to carry it
 * (`learnFromRefusal`), and the request is tried once more with it; a second refusal ends the check
 * "not set up", naming both requests and answers, unless the check means a refusal (`refusal`). The
 * minimal user (`minimal`) is sent once, as it is.
 */
export async function sendFittedUser(t: CheckContext, body: Json, send: (json: Json) => Promise<ApiResponse>, options: FitOptions = {}): Promise<ApiResponse> {
  const sent = await fitUser(t, body, options);
  const first = await send(sent);
  if (options.minimal === true) return first;
  const learned = await learnFromRefusal(t, sent, first, options);
  if (learned.length === 0) return first;
  const second = await send(await fitUser(t, body, options));
  if (second.status === 400 && options.refusal !== true)
    notSetUpTwice(first, second, learned.join(', '), 'a valid user (with the attributes the first refusal named)');
  return second;
}

/** POST /Users with `body` fitted to the target's schema (`sendFittedUser`) and a query (e.g.
 * `attributes`), noted for the cleanup when it succeeds; the answer, whatever it is. */
export async function postUser(t: CheckContext, body: Json, query?: Record<string, string>, options: FitOptions = {}): Promise<ApiResponse> {
  const res = await sendFittedUser(t, body, (json) => t.http.send({ op: 'scim.users.create', json, ...(query ? { query } : {}) }), options);
  createdId(t, res, 'user', String(body.userName));
  return res;
}

/** PUT /Users/{id} with `body` fitted to the target's schema (`sendFittedUser`; and request headers, If-Match say); the answer, whatever it is. */
export async function putUser(t: CheckContext, id: string, body: Json, query?: Record<string, string>, headers?: Record<string, string>): Promise<ApiResponse> {
  return sendFittedUser(t, body, (json) =>
    t.http.send({ op: 'scim.users.replace', params: { id }, json, ...(query ? { query } : {}), ...(headers ? { headers } : {}) }),
  );
}

export async function postGroup(t: CheckContext, body: Json): Promise<ApiResponse> {
  const res = await t.http.send({ op: 'scim.groups.create', json: body });
  createdId(t, res, 'group', String(body.displayName));
  return res;
}

/** Creates a user to work on and returns it. A refusal, or a success without the user, ends the
 * check "not set up" (outcomes.ts): its rule is not judged; the create status is
 * scim.users.create-201's to judge. */
export async function createUser(t: CheckContext, tag: string, extra: Json = {}): Promise<Json & { id: string; userName: string }> {
  const userName = typeof extra.userName === 'string' ? extra.userName : uniqueName(t, tag);
  const res = await postUser(t, userBody(userName, extra));
  if (res.status < 200 || res.status > 299 || typeof (res.json as Json | undefined)?.id !== 'string') notSetUp(res, 'a user to work on');
  return res.json as Json & { id: string; userName: string };
}

export async function createGroup(t: CheckContext, tag: string, extra: Json = {}): Promise<Json & { id: string; displayName: string }> {
  const displayName = typeof extra.displayName === 'string' ? extra.displayName : uniqueName(t, tag);
  const res = await postGroup(t, groupBody(displayName, extra));
  if (res.status < 200 || res.status > 299 || typeof (res.json as Json | undefined)?.id !== 'string') notSetUp(res, 'a group to work on');
  return res.json as Json & { id: string; displayName: string };
}

/** A SCIM error answer (RFC 7644 §3.12): the status, and the scimType when the rule names one. */
export function expectScimError(res: ApiResponse, status: number, scimType?: string | readonly string[], what = ''): void {
  const types = scimType === undefined ? undefined : typeof scimType === 'string' ? [scimType] : scimType;
  const expected = `${status}${types ? ` with scimType ${types.join(' or ')}` : ''}${what ? ` ${what}` : ''}`;
  if (res.status !== status) fail(expected, describeResponse(res), res);
  if (types) {
    const got = typeof res.json === 'object' && res.json !== null ? (res.json as Json).scimType : undefined;
    if (typeof got !== 'string' || !types.includes(got)) fail(expected, `${res.status} with scimType ${JSON.stringify(got)}: ${excerpt(res.text)}`, res);
  }
}

/** A ListResponse's fields, read leniently (the contract invariant judges their form). */
export interface ListPage {
  totalResults: number | undefined;
  startIndex: number | undefined;
  itemsPerPage: number | undefined;
  resources: Json[];
}

export function pageOf(res: ApiResponse): ListPage {
  const body = (typeof res.json === 'object' && res.json !== null ? res.json : {}) as Json;
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  const list = body.Resources;
  return {
    totalResults: num(body.totalResults),
    startIndex: num(body.startIndex),
    itemsPerPage: num(body.itemsPerPage),
    resources: Array.isArray(list) ? (list as Json[]) : [],
  };
}

/** What a ListResponse page said, for a failure's Received line (a list check shows the page, not
 * only what it missed): `the page said totalResults 1, startIndex 1, itemsPerPage 0, 0 Resources`. */
export function pageSaid(page: ListPage): string {
  const said = (name: string, v: number | undefined) => `${name} ${v === undefined ? '(absent)' : v}`;
  return `the page said ${said('totalResults', page.totalResults)}, ${said('startIndex', page.startIndex)}, ${said('itemsPerPage', page.itemsPerPage)}, ${page.resources.length} Resources`;
}

/** The ids of resources, as given. */
export const idsOfResources = (resources: readonly Json[]): string[] => resources.map((r) => String(r.id));

/** A filter literal: a JSON string (RFC 7644 §3.4.2.2 compValue). */
export const literal = (value: string): string => JSON.stringify(value);

/** An answer's JSON object, `{}` when it is none. */
export function resourceOf(res: ApiResponse): Json {
  return typeof res.json === 'object' && res.json !== null && !Array.isArray(res.json) ? (res.json as Json) : {};
}

/** A resource's `meta` object, `{}` when it has none. */
export function metaOf(resource: Json): Json {
  const meta = resource.meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Json) : {};
}

/** A URI reference of an answer (Location header, meta.location) made absolute against the request's URL. */
export function absoluteUri(res: ApiResponse, reference: string): string {
  try {
    return new URL(reference, res.exchange.url).href;
  } catch {
    return reference;
  }
}

/**
 * A SCIM error answer with one of the `statuses`, whose `scimType`, when the body gives one, is one
 * of `allowed` (RFC 7644 §3.12: `scimType` is OPTIONAL; where Table 9 leaves a choice, every type
 * it allows is accepted).
 */
export function expectScimErrorAllowing(res: ApiResponse, statuses: number | readonly number[], allowed: readonly string[], what = ''): void {
  const list = typeof statuses === 'number' ? [statuses] : statuses;
  const expected = `${list.join(' or ')} (scimType absent or ${allowed.join(' or ')})${what ? ` ${what}` : ''}`;
  if (!list.includes(res.status)) fail(expected, describeResponse(res), res);
  const got = resourceOf(res).scimType;
  if (got !== undefined && got !== null && (typeof got !== 'string' || !allowed.includes(got))) {
    fail(expected, `${res.status} with scimType ${JSON.stringify(got)}: ${excerpt(res.text)}`, res);
  }
}

/** Sends a request that may create a user (an endpoint that should refuse it) and notes for the
 * cleanup whatever it created anyway. */
export async function sendMaybeCreatingUser(t: CheckContext, req: ApiRequest, userName: string): Promise<ApiResponse> {
  const res = await t.http.send(req);
  createdId(t, res, 'user', userName);
  return res;
}

/** Notes for the cleanup a resource a request made at `location` (a Bulk operation's result): its last path segment is its id. */
export function noteCreatedAt(t: CheckContext, location: unknown, kind: 'user' | 'group', name: string): void {
  if (typeof location !== 'string' || location === '') return;
  const id = decodeURIComponent(location.replace(/\/+$/, '').split('/').at(-1) ?? '');
  if (id === '') return;
  const collection = kind === 'user' ? 'users' : 'groups';
  noteCreated(t.config, { deleteOp: `scim.${collection}.delete`, id, label: `SCIM ${kind} ${name}`, family: 'scim', collection });
}
