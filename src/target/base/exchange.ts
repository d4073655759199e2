/**
 * The tool's own exchanges with a target, outside any check: a token exchange (one request whose
 * answer carries a session token), the preflight's read (probe.ts) and the reads of init and
 * --check-profile (client.ts). Each within a deadline for the whole answer (undici's timeouts bound
 * the wait for headers and between chunks; the signal bounds the whole, so that a token trickled
 * forever fails the session instead of hanging the run). A rate-limited request is waited out like
 * any request (retry.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'undici';
import type { FamilyCredentials } from '../../profile/base/types.js';
import { CredentialsError, NoTokenError, type ExchangeAnswer } from './errors.js';
import { honouring429 } from './retry.js';

export type { ExchangeAnswer };

/** The statuses with which a token exchange refuses the credentials it was sent. */
export const REFUSALS: readonly number[] = [400, 401, 403];

/**
 * A request in one line for messages, its credentials named by the variables that hold them:
 * `POST /authenticate with x-api-key ${LPC_API_KEY}, body username ${LPC_USERNAME}, password ${LPC_PASSWORD}`
 * (headers and body fields by the variable of their value; `bearer`: the token's variable).
 */
export function sentLine(
  method: string,
  url: string,
  credentials: { headers?: Readonly<Record<string, string>>; bearer?: string; body?: Readonly<Record<string, string>> } = {},
): string {
  const { pathname, search } = new URL(url);
  const headers = [
    ...Object.entries(credentials.headers ?? {}).map(([name, env]) => `${name} \${${env}}`),
    ...(credentials.bearer ? [`authorization Bearer \${${credentials.bearer}}`] : []),
  ];
  const body = Object.entries(credentials.body ?? {}).map(([field, env]) => `${field} \${${env}}`);
  const parts = [...headers, ...(body.length > 0 ? [`body ${body.join(', ')}`] : [])];
  return `${method} ${pathname}${search}${parts.length > 0 ? ` with ${parts.join(', ')}` : ''}`;
}

/**
 * One exchange, its answer read whole and parsed when it is JSON; each attempt (a 429 waited out is
 * sent again) within `timeoutMs`. A transport error rejects; a deadline rejects with the code
 * LPC_DEADLINE.
 */
export async function exchangeOnce(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | undefined },
  timeoutMs: number,
): Promise<ExchangeAnswer & { headers: IncomingHttpHeaders }> {
  const answer = await honouring429(async () => {
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const res = await request(url, {
        method: init.method as 'POST',
        headers: init.headers,
        ...(init.body !== undefined ? { body: init.body } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: deadline,
      });
      return Object.assign(res, { text: await res.body.text() });
    } catch (error) {
      if (!deadline.aborted) throw error;
      throw Object.assign(new Error(`no complete answer within ${timeoutMs} ms (${init.method} ${new URL(url).pathname})`), { code: 'LPC_DEADLINE' });
    }
  });
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    json = undefined;
  }
  const type = answer.headers['content-type'];
  return { status: answer.statusCode, headers: answer.headers, contentType: (Array.isArray(type) ? type[0] : type) ?? '', text: answer.text, json };
}

/** The answer, one line, secrets redacted: for messages. */
export function answerLine(answer: ExchangeAnswer, redact: (text: string) => string): string {
  return `${answer.status} ${redact(answer.text).replace(/\s+/g, ' ').slice(0, 200)}`;
}

/**
 * A session token from a family's own credentials (`credentials.<family>`): the ready token, or the
 * one its token exchange answers for the username and password, read from the answer's
 * `tokenField`. An answer without a token throws an error with the code LPC_NO_TOKEN.
 */
export async function ownCredentialsToken(
  ctx: { value(ref: { env: string } | undefined): string; redact(text: string): string; timeoutMs: number },
  options: {
    credentials: FamilyCredentials;
    /** The exchange's URL, method and further headers. */
    url: string;
    method: string;
    headers?: Record<string, string>;
    tokenField: string;
    /** The variable an exchanged token shows as. */
    tokenVar: string;
    /** What the token is, for messages (`<family> token`). */
    what: string;
    /** The variables of `headers`' secret values, by header name (for messages). */
    headerVars?: Readonly<Record<string, string>>;
  },
): Promise<{ env: string; value: string }> {
  const c = options.credentials;
  if (c.token) return { env: c.token.env, value: ctx.value(c.token) };
  const answer = await exchangeOnce(
    options.url,
    {
      method: options.method,
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify({ username: ctx.value(c.username), password: ctx.value(c.password) }),
    },
    ctx.timeoutMs,
  );
  const path = new URL(options.url).pathname;
  const body = Object.fromEntries(
    Object.entries({ username: c.username?.env, password: c.password?.env }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const exchanged = { sent: sentLine(options.method, options.url, { headers: options.headerVars ?? {}, body }), answer };
  // Refused credentials are the caller's configuration; any other odd answer is the target's.
  if (REFUSALS.includes(answer.status))
    throw new CredentialsError(`${options.method} ${path} refused the profile's credentials: ${answerLine(answer, ctx.redact)}`, exchanged);
  const token = typeof answer.json === 'object' && answer.json !== null ? (answer.json as Record<string, unknown>)[options.tokenField] : undefined;
  if (answer.status < 200 || answer.status > 299 || typeof token !== 'string' || token.length === 0) {
    throw new NoTokenError(`${options.method} ${path} did not issue a ${options.what}: ${answerLine(answer, ctx.redact)}`, exchanged);
  }
  return { env: options.tokenVar, value: token };
}
