// Starts the reference server on 127.0.0.1 (free port) and talks to it over real HTTP (undici).
import { request } from 'undici';
import { createReferenceServer, mergeServerOptions, type ReferenceServerOptions, SANDBOX_CREDENTIALS } from '../../../reference-impl/index.js';

/** A submission's own fields, as the specification lists them (Submission v2), after id, userId and
 * templateId: written out here, not read from the server's code, for every test that walks them. */
export const SUBMISSION_FIELDS = [
  'title',
  'completionDate',
  'status',
  'cost',
  'credits',
  'description',
  'expiryDate',
  'startDate',
  'score',
  'grade',
  'totalTimeSpent',
  'vendor',
  'vendorAddress',
] as const;

export const ADMIN = '00000000-0000-4000-8000-000000000001';
export const USER2 = '00000000-0000-4000-8000-000000000002';
export const USER5 = '00000000-0000-4000-8000-000000000005';
export const COURSE1 = '00000000-0000-4000-8000-000000000101';
export const COURSE2 = '00000000-0000-4000-8000-000000000102';
export const COURSE4 = '00000000-0000-4000-8000-000000000104';
export const TEMPLATE = '00000000-0000-4000-8000-000000000201';
export const UNKNOWN = '0f0f0f0f-0000-4000-8000-00000000dead';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonRecord = Record<string, Json>;

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** Parsed body, undefined when it is not JSON. */
  json: Json | undefined;
  /** The body as an object (throws when it is not one). */
  obj: JsonRecord;
  /** The body as an array (throws when it is not one). */
  list: Json[];
}

export interface CallOptions {
  /** JSON-encoded unless a string (sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
  /** x-api-version; `null` leaves the header out. Default '2'. */
  version?: string | null;
  /** Leave out x-api-key / Authorization. */
  noKey?: boolean;
  noToken?: boolean;
  token?: string;
}

export interface Harness {
  readonly base: string;
  token: string;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  get(path: string, options?: CallOptions): Promise<Answer>;
  authenticate(body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** The course enrollment emails the server sent (its `mailer`), in order. */
  readonly mails: { to: string; subject: string }[];
  close(): Promise<void>;
}

function answerOf(status: number, contentType: string, text: string): Answer {
  let json: Json | undefined;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = undefined;
  }
  return {
    status,
    contentType,
    text,
    json,
    get obj(): JsonRecord {
      if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`not an object: ${status} ${text.slice(0, 300)}`);
      return json;
    },
    get list(): Json[] {
      if (!Array.isArray(json)) throw new Error(`not an array: ${status} ${text.slice(0, 300)}`);
      return json;
    },
  };
}

export async function send(base: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
  const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const hasType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
  const res = await request(base + path, {
    method: method as 'GET',
    headers: payload !== undefined && !hasType ? { 'content-type': 'application/json', ...headers } : headers,
    body: payload,
  });
  const text = await res.body.text();
  const type = res.headers['content-type'];
  return answerOf(res.statusCode, Array.isArray(type) ? (type[0] ?? '') : (type ?? ''), text);
}

export const CREDENTIALS_BODY = {
  username: SANDBOX_CREDENTIALS.username,
  password: SANDBOX_CREDENTIALS.password,
  privateKey: SANDBOX_CREDENTIALS.privateKey,
};

export async function startServer(options: ReferenceServerOptions = {}): Promise<Harness> {
  const mails: Harness['mails'] = [];
  const server = createReferenceServer(
    mergeServerOptions({ families: { intapi: { mailer: (mail) => void mails.push({ to: mail.to, subject: mail.subject }) } } }, options),
  );
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  const credentials = options.families?.intapi?.credentials ?? SANDBOX_CREDENTIALS;
  const apiKey = credentials.apiKey;
  const harness: Harness = {
    base,
    token: '',
    mails,
    call(method, path, o = {}) {
      const headers: Record<string, string> = {};
      if (!o.noKey) headers['x-api-key'] = apiKey;
      if (!o.noToken) headers.authorization = `Bearer ${o.token ?? harness.token}`;
      const version = o.version === undefined ? '2' : o.version;
      if (version !== null) headers['x-api-version'] = version;
      return send(base, method, path, o.body, { ...headers, ...o.headers });
    },
    get: (path, o) => harness.call('GET', path, o),
    authenticate: (body = { username: credentials.username, password: credentials.password, privateKey: credentials.privateKey }, headers = {}) =>
      send(base, 'POST', '/authenticate', body, { 'x-api-key': apiKey, ...headers }),
    close: () => server.close(),
  };
  const auth = await harness.authenticate();
  // 2xx: a fault (intapi.authenticate-201) answers the token with 201.
  if (auth.status < 200 || auth.status > 299 || typeof auth.json !== 'string') throw new Error(`authenticate failed: ${auth.status} ${auth.text}`);
  harness.token = auth.json;
  return harness;
}

/** The error body of docs/decisions/intapi/reference-choices.md "Errors": `{validations, code, message, term, _meta}`, code = status. */
export function expectErrorBody(answer: Answer, status: number, term?: string): JsonRecord {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text.slice(0, 400)}`);
  if (!answer.contentType.startsWith('application/json')) throw new Error(`error content type ${answer.contentType}`);
  const body = answer.obj;
  const ok =
    Array.isArray(body.validations) &&
    body.validations.every((v) => typeof v === 'string') &&
    body.code === status &&
    typeof body.message === 'string' &&
    typeof body.term === 'string' &&
    typeof body._meta === 'object' &&
    body._meta !== null &&
    !Array.isArray(body._meta) &&
    Object.keys(body).sort().join(',') === '_meta,code,message,term,validations';
  if (!ok) throw new Error(`not an error body: ${answer.text}`);
  if (term !== undefined && body.term !== term) throw new Error(`term ${String(body.term)}, expected ${term}`);
  return body;
}

/** The validations entries of an error answer. */
export function validationsOf(answer: Answer): string[] {
  const v = answer.obj.validations;
  return Array.isArray(v) ? v.map(String) : [];
}

/** True when some validations entry starts with `<field>:` (docs/decisions/intapi/reference-choices.md: an entry names its field). */
export function names(answer: Answer, field: string): boolean {
  return validationsOf(answer).some((entry) => entry.startsWith(`${field}:`));
}

export function idsOf(items: Json[]): string[] {
  return items.map((item) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? String(item.id) : ''));
}

export function itemsOf(answer: Answer, key: string): JsonRecord[] {
  const items = answer.obj[key];
  if (!Array.isArray(items)) throw new Error(`no ${key} in ${answer.text.slice(0, 200)}`);
  return items as JsonRecord[];
}

export const VALID_SUBMISSION = {
  userId: ADMIN,
  templateId: TEMPLATE,
  title: 'External course',
  completionDate: '2024-03-01T10:00:00Z',
};
