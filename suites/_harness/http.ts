/**
 * The suites' HTTP client (undici). Every request goes through one Client bound to the running
 * check: it counts requests, keeps the exchange for reproduction, and checks the invariants on
 * every response (src/checks/invariants.ts). A hanging, garbled or huge answer becomes a failed
 * check, never a crash of the tool: timeouts and a response-size cap are set on the dispatcher.
 */
import { Agent, request } from 'undici';
import { operation, type OperationId, type Profile } from '../../src/profile/index.js';
import type { InvariantViolation } from '../../src/runner/model.js';
import { renderCurl, type CurlRequest } from '../../src/target/curl.js';
import { checkInvariants } from './invariants.js';
import type { Secrets } from '../../src/target/secrets.js';

/** Answers larger than this fail the check (UND_ERR_RES_EXCEEDED_MAX_SIZE) instead of filling memory. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface ApiRequest {
  op: OperationId;
  /** Path parameters by name, e.g. `{ id }`; substituted URL-encoded. */
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body. */
  json?: unknown;
  /** An exact body text, for malformed input. */
  rawBody?: string;
  /** Content type of the body; application/json by default. */
  contentType?: string;
  /** x-api-version; `null` leaves the header out. Default '2'. */
  version?: string | null;
  /** 'valid' (default) sends the profile's key, 'none' no header, any other string that literal. */
  apiKey?: string;
  /** 'valid' (default) sends `Bearer <session token>`, 'raw' the session token without `Bearer `,
   * 'none' no Authorization header, a token object that token (shown as its variable). */
  token?: 'valid' | 'raw' | 'none' | { env: string; value: string };
}

export interface Exchange {
  method: string;
  url: string;
  /** `METHOD path?query`, for reports. */
  operation: string;
  curl: CurlRequest;
  /** Set when the token came from POST /authenticate: the curl line that obtains it. */
  tokenPreamble?: string;
  status: number;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
  exchange: Exchange;
}

/** What one check did over HTTP; copied into the check's task meta. */
export class Recorder {
  requests = 0;
  readonly violations: InvariantViolation[] = [];
  private readonly perInvariant = new Map<string, number>();
  /** Exchanges subject to each invariant. */
  readonly applied: Record<string, number> = {};

  constructor(readonly checkId: string) {}

  addViolation(v: Omit<InvariantViolation, 'checkId'>): void {
    const seen = this.perInvariant.get(v.invariant) ?? 0;
    this.perInvariant.set(v.invariant, seen + 1);
    // Keep the first few of each invariant: the count says the rest.
    if (seen < 3) this.violations.push({ ...v, checkId: this.checkId });
  }

  countsByInvariant(): Record<string, number> {
    return Object.fromEntries(this.perInvariant);
  }
}

/** After this many transport failures in a row (timeouts, resets) the target is taken as down and
 * every further request fails at once: a hanging target fails the rest of the run in seconds
 * instead of one timeout per request. Any answer resets the count. */
export const DOWN_AFTER = 3;
let consecutiveTransportFailures = 0;

export class TargetDownError extends Error {
  readonly code = 'LPC_TARGET_DOWN';
}

/** The exchange a transport error happened in, so that its failure still carries a curl. */
export function exchangeOf(error: unknown): Exchange | undefined {
  return typeof error === 'object' && error !== null ? (error as { lpcExchange?: Exchange }).lpcExchange : undefined;
}

function withExchange<E>(error: E, exchange: Exchange): E {
  if (typeof error === 'object' && error !== null) Object.assign(error, { lpcExchange: exchange });
  return error;
}

let agent: Agent | undefined;
function dispatcher(timeoutMs: number): Agent {
  agent ??= new Agent({
    connections: 16,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    maxResponseSize: MAX_RESPONSE_BYTES,
  });
  return agent;
}

export function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`harness: path parameter {${name}} of ${template} not given`);
    return encodeURIComponent(value);
  });
}

function queryString(query: ApiRequest['query']): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) search.append(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

export class Client {
  constructor(
    private readonly profile: Profile,
    private readonly secrets: Secrets,
    private readonly recorder: Recorder,
    private readonly timeoutMs: number,
  ) {}

  async send(req: ApiRequest): Promise<ApiResponse> {
    const { method, path } = operation(this.profile, req.op);
    const base = this.profile.families.intapi.baseUrl.replace(/\/+$/, '');
    const pathAndQuery = `${buildPath(path, req.params)}${queryString(req.query)}`;
    const url = `${base}${pathAndQuery}`;
    const headers: Record<string, string> = {};
    const curlHeaders: CurlRequest['headers'] = {};
    const version = req.version === undefined ? '2' : req.version;
    if (version !== null) headers['x-api-version'] = curlHeaders['x-api-version'] = version;
    const apiKey = req.apiKey ?? 'valid';
    if (apiKey === 'valid') {
      headers['x-api-key'] = this.secrets.apiKey.value;
      curlHeaders['x-api-key'] = { env: this.secrets.apiKey.env };
    } else if (apiKey !== 'none') {
      headers['x-api-key'] = curlHeaders['x-api-key'] = apiKey;
    }
    let tokenPreamble: string | undefined;
    const tokenMode = req.token ?? 'valid';
    if (tokenMode !== 'none' && req.op !== 'auth.authenticate') {
      const token = typeof tokenMode === 'object' ? tokenMode : await this.secrets.token();
      const scheme = tokenMode === 'raw' ? '' : 'Bearer ';
      headers.authorization = `${scheme}${token.value}`;
      curlHeaders.authorization = { env: token.env, prefix: scheme };
      if ('preamble' in token && typeof token.preamble === 'string') tokenPreamble = token.preamble;
    }
    let body: string | undefined;
    if (req.json !== undefined || req.rawBody !== undefined) {
      body = req.rawBody ?? JSON.stringify(req.json);
      headers['content-type'] = curlHeaders['content-type'] = req.contentType ?? 'application/json';
    }
    const curl: CurlRequest = { method, url, headers: curlHeaders, ...(body !== undefined ? { body } : {}) };
    const exchange: Exchange = { method, url, operation: `${method} ${pathAndQuery}`, curl, status: 0, ...(tokenPreamble ? { tokenPreamble } : {}) };

    if (consecutiveTransportFailures >= DOWN_AFTER) {
      throw withExchange(new TargetDownError(`the target stopped answering (${DOWN_AFTER} failed exchanges in a row); ${exchange.operation} was not sent`), exchange);
    }
    this.recorder.requests++;
    let res: Awaited<ReturnType<typeof request>>;
    let text: string;
    try {
      res = await request(url, { method: method as 'GET', headers, body, dispatcher: dispatcher(this.timeoutMs) });
      text = await res.body.text();
    } catch (error) {
      // An answer too large to read is still an answer; silence and broken connections are not.
      if ((error as { code?: string }).code !== 'UND_ERR_RES_EXCEEDED_MAX_SIZE') consecutiveTransportFailures++;
      throw withExchange(error, exchange);
    }
    consecutiveTransportFailures = 0;
    exchange.status = res.statusCode;
    const responseHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
    let json: unknown;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const response: ApiResponse = { status: res.statusCode, headers: responseHeaders, text, json, exchange };
    const outcome = checkInvariants(req, response, this.profile.expectations.versioning.missingHeader);
    for (const id of outcome.applied) this.recorder.applied[id] = (this.recorder.applied[id] ?? 0) + 1;
    for (const v of outcome.violations) {
      this.recorder.addViolation({ ...v, operation: exchange.operation, curl: this.curlOf(exchange) });
    }
    return response;
  }

  /** The full reproduction of an exchange: the token line (when needed), then the request. */
  curlOf(exchange: Exchange): string {
    const curl = renderCurl(exchange.curl);
    return this.secrets.redact(exchange.tokenPreamble ? `${exchange.tokenPreamble}\n${curl}` : curl);
  }
}

