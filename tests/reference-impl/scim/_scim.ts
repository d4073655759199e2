// A SCIM client for the reference server's tests: real HTTP (as ../_support.ts), a token from the
// token exchange, application/scim+json bodies.
import { createReferenceServer, type ReferenceServerOptions, SANDBOX_CREDENTIALS } from '../../../reference-impl/index.js';
import { type Answer, type JsonRecord, send } from '../intapi/_support.js';

export const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST_URN = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_TYPE = 'application/scim+json';

export interface ScimCallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Leave out Authorization. */
  noToken?: boolean;
  token?: string;
  /** Request content type; default application/scim+json. */
  type?: string;
}

export interface ScimHarness {
  readonly base: string;
  token: string;
  call(method: string, path: string, options?: ScimCallOptions): Promise<Answer & { headers: Record<string, string> }>;
  get(path: string, options?: ScimCallOptions): Promise<Answer & { headers: Record<string, string> }>;
  /** POST /Users with a fresh user; the created representation. */
  createUser(extra?: Record<string, unknown>): Promise<JsonRecord>;
  patch(path: string, operations: unknown[]): Promise<Answer & { headers: Record<string, string> }>;
  close(): Promise<void>;
}

let counter = 0;
export const unique = (prefix = 'u'): string => `${prefix}${process.pid}x${(counter += 1)}`;

export async function startScim(options: ReferenceServerOptions = {}): Promise<ScimHarness> {
  const server = createReferenceServer(options);
  const root = await server.listen({ port: 0, host: '127.0.0.1' });
  const base = `${root}/scim/v2`;
  const credentials = options.families?.intapi?.credentials ?? SANDBOX_CREDENTIALS;
  const raw = async (method: string, path: string, o: ScimCallOptions = {}) => {
    const headers: Record<string, string> = {};
    if (!o.noToken) headers.authorization = `Bearer ${o.token ?? h.token}`;
    if (o.body !== undefined) headers['content-type'] = o.type ?? SCIM_TYPE;
    const { request } = await import('undici');
    const payload = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const res = await request(base + path, { method: method as 'GET', headers: { ...headers, ...o.headers }, body: payload });
    const text = await res.body.text();
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const answer = {
      status: res.statusCode,
      contentType: flat['content-type'] ?? '',
      text,
      json: json as Answer['json'],
      headers: flat,
      get obj(): JsonRecord {
        if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`not an object: ${res.statusCode} ${text.slice(0, 300)}`);
        return json as JsonRecord;
      },
      get list(): never {
        throw new Error('SCIM answers are objects');
      },
    };
    return answer;
  };
  const h: ScimHarness = {
    base,
    token: '',
    call: raw,
    get: (path, o) => raw('GET', path, o),
    async createUser(extra = {}) {
      const res = await raw('POST', '/Users', { body: { schemas: [USER_URN], userName: unique(), name: { givenName: 'G', familyName: 'F' }, ...extra } });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
      return res.obj;
    },
    patch: (path, operations) => raw('PATCH', path, { body: { schemas: [PATCH_URN], Operations: operations } }),
    close: () => server.close(),
  };
  const token = await send(root, 'POST', '/scim/v2/token', { username: credentials.username, password: credentials.password }, {});
  if (token.status !== 200) throw new Error(`token exchange failed: ${token.status} ${token.text}`);
  h.token = String(token.obj.token);
  return h;
}

/** A SCIM error answer: schemas Error URN, status the HTTP status as a string, scimType when given. */
export function expectScimError(answer: Answer, status: number, scimType?: string): JsonRecord {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text.slice(0, 400)}`);
  if (!answer.contentType.startsWith(SCIM_TYPE)) throw new Error(`error content type ${answer.contentType}`);
  const body = answer.obj;
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || schemas[0] !== ERROR_URN || body.status !== String(status) || typeof body.detail !== 'string') {
    throw new Error(`not a SCIM error body: ${answer.text}`);
  }
  if (scimType !== undefined && body.scimType !== scimType) throw new Error(`scimType ${String(body.scimType)}, expected ${scimType}: ${answer.text}`);
  return body;
}

export const resourcesOf = (answer: Answer): JsonRecord[] => {
  const r = answer.obj.Resources;
  if (!Array.isArray(r)) throw new Error(`no Resources: ${answer.text.slice(0, 300)}`);
  return r as JsonRecord[];
};

export const q = (params: Record<string, string | number>): string =>
  `?${Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&')}`;
