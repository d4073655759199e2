/**
 * What the preflight (src/cli/preflight.ts) uses to try a family once before any check runs, for any
 * family: whether its base URL takes a connection (TLS verified as the run will verify it), one read
 * of an operation spoken in the family's protocol, and whether an answer comes from an API at all.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Token } from '../families/family.js';
import { familyOf } from '../families/registry.js';
import { baseUrlOf, operation, type OperationId, type Profile } from '../profile/index.js';
import type { Exchanged, ExchangeAnswer } from './base/errors.js';
import { exchangeOnce, sentLine } from './base/exchange.js';
import { tlsOptions, tlsProblem } from './tls.js';

const NETWORK_PROBLEMS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name did not resolve',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'no route to the network',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
};

/** The errors of a connection that was never made (as opposed to an answer cut short: a reset, a deadline). */
const NO_CONNECTION = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether `error` (or one of its causes) is a connection that was never made. */
export function noConnection(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NO_CONNECTION.has(code)) return true;
  }
  return false;
}

/** A transport error said in a line: TLS verification, a refused connection, a deadline. */
export function transportProblem(error: unknown): string {
  const tls = tlsProblem(error);
  if (tls) return tls;
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in NETWORK_PROBLEMS) return `${NETWORK_PROBLEMS[code]} (${code})`;
    if ((e as { cause?: unknown }).cause === e) break;
  }
  const first = error as { code?: string; message?: string };
  return first.code ? `${first.message?.split('\n')[0] ?? first.code} (${first.code})` : (String(first.message ?? error).split('\n')[0] ?? 'failed');
}

/** Whether `url`'s server takes a connection within `timeoutMs` (for https, a TLS handshake verified
 * as the run verifies it): undefined when it does, else what went wrong, one line. */
export async function reach(url: string, timeoutMs: number): Promise<string | undefined> {
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  const https = protocol === 'https:';
  const where = { host, port: Number(port || (https ? 443 : 80)) };
  return new Promise((done) => {
    let socket: Socket;
    const end = (problem: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      done(problem);
    };
    const timer = setTimeout(() => end(`no connection within ${timeoutMs} ms`), timeoutMs);
    if (https) {
      // SNI names a host, never an address (RFC 6066 §3).
      socket = tlsConnect({ ...where, ...(isIP(host) ? {} : { servername: host }), ...tlsOptions() });
      socket.once('secureConnect', () => end(undefined));
    } else {
      socket = netConnect(where);
      socket.once('connect', () => end(undefined));
    }
    socket.once('error', (error) => end(transportProblem(error)));
  });
}

/**
 * One GET of `op` with `query`, as the family's checks would send it (its version header, API key,
 * media type and session token), within the deadline. Rejects on a transport error.
 */
export async function readOnce(
  profile: Profile,
  op: OperationId,
  query: Readonly<Record<string, string>>,
  options: { token?: Token; value: (ref: { env: string }) => string; timeoutMs: number },
): Promise<Exchanged> {
  const family = familyOf(op);
  const base = baseUrlOf(profile, family.name);
  const { method, path } = operation(profile, op);
  const search = new URLSearchParams(query).toString();
  const url = `${base.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
  const headers: Record<string, string> = {};
  const vars: Record<string, string> = {};
  let bearer: string | undefined;
  const speaks = family.http;
  if (speaks?.version) headers[speaks.version.header] = speaks.version.default;
  if (speaks?.accept) headers.accept = speaks.accept;
  if (speaks?.apiKey) {
    const ref = speaks.apiKey.ref(profile);
    headers[speaks.apiKey.header] = options.value(ref);
    vars[speaks.apiKey.header] = ref.env;
  }
  if (options.token) {
    headers.authorization = `Bearer ${options.token.value}`;
    bearer = options.token.env;
  }
  const answer = await exchangeOnce(url, { method, headers }, options.timeoutMs);
  // The body is parsed whole (a large JSON answer is still JSON); messages need only its start.
  return {
    sent: sentLine(method, url, { headers: vars, ...(bearer ? { bearer } : {}) }),
    answer: { status: answer.status, contentType: answer.contentType, text: answer.text.slice(0, 10_000), json: answer.json },
  };
}

/** What an answer of the preflight says of the set-up. */
export type Judgement =
  | { readonly kind: 'ok' }
  /** The credentials were refused (401, 403; a token exchange's 400 too). */
  | { readonly kind: 'refused' }
  /** Not the API: nothing at this path (404), a web page, or a success that is not JSON. */
  | { readonly kind: 'foreign'; readonly why: string }
  /** Another answer (a 5xx, say): the target's, for the checks to judge. */
  | { readonly kind: 'odd' }
  /** A success whose body is the family's JSON under another media type: the API, mislabelled (the checks judge the label). */
  | { readonly kind: 'mislabelled'; readonly why: string };

const isHtml = (answer: ExchangeAnswer): boolean => /^text\/html\b/i.test(answer.contentType) || /^\s*<(!doctype|html)\b/i.test(answer.text);
const isJsonType = (type: string): boolean => /^application\/([\w.+-]+\+)?json\b/i.test(type);

const isJsonValue = (json: unknown): boolean => typeof json === 'object' && json !== null;

/** Whether an answer of a family's token exchange or set-up read shows the set-up wrong. `answers`:
 * whether a JSON body has the family's shape (FamilyHttp.answers; default any object or array). */
export function judge(answer: ExchangeAnswer, options: { exchange: boolean; answers?: (json: unknown) => boolean }): Judgement {
  if (answer.status === 401 || answer.status === 403 || (options.exchange && answer.status === 400)) return { kind: 'refused' };
  if (answer.status === 404) return { kind: 'foreign', why: 'nothing is there (404)' };
  // The family's JSON under another label (text/html, say) is the API answering with the wrong media
  // type, a finding of the checks; only a body that is not the family's JSON says "not this API".
  const shaped = answer.json !== undefined && (options.answers ?? isJsonValue)(answer.json);
  if (answer.status >= 200 && answer.status < 300 && shaped && !isJsonType(answer.contentType)) {
    return { kind: 'mislabelled', why: `its JSON labelled ${answer.contentType.split(';')[0]?.trim() || 'without a content type'}` };
  }
  if (isHtml(answer)) return { kind: 'foreign', why: 'a web page (HTML), not an API answer' };
  if (answer.status >= 200 && answer.status < 300) {
    if (!isJsonType(answer.contentType)) return { kind: 'foreign', why: `a ${answer.contentType || 'body without a content type'}, not JSON` };
    if (answer.json === undefined) return { kind: 'foreign', why: 'a body that is not JSON' };
    return { kind: 'ok' };
  }
  return { kind: 'odd' };
}
