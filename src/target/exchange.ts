/**
 * A token exchange: one request whose answer carries a session token, within a deadline for the
 * whole answer (undici's timeouts bound the wait for headers and between chunks; the signal bounds
 * the whole, so that a token trickled forever fails the session instead of hanging the run). A
 * rate-limited log-in is waited out like any request (retry.ts).
 */
import { request } from 'undici';
import type { FamilyCredentials } from '../profile/types.js';
import { honouring429 } from './retry.js';

export interface ExchangeAnswer {
  status: number;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

export async function exchangeForToken(
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<ExchangeAnswer> {
  const answer = await honouring429(async () => {
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const res = await request(url, {
        method: init.method as 'POST',
        headers: init.headers,
        body: init.body,
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
  return { status: answer.statusCode, text: answer.text, json };
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
  },
): Promise<{ env: string; value: string }> {
  const c = options.credentials;
  if (c.token) return { env: c.token.env, value: ctx.value(c.token) };
  const answer = await exchangeForToken(
    options.url,
    {
      method: options.method,
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify({ username: ctx.value(c.username), password: ctx.value(c.password) }),
    },
    ctx.timeoutMs,
  );
  const token = typeof answer.json === 'object' && answer.json !== null ? (answer.json as Record<string, unknown>)[options.tokenField] : undefined;
  if (answer.status < 200 || answer.status > 299 || typeof token !== 'string' || token.length === 0) {
    const path = new URL(options.url).pathname;
    throw Object.assign(new Error(`${options.method} ${path} did not issue a ${options.what}: ${answerLine(answer, ctx.redact)}`), { code: 'LPC_NO_TOKEN' });
  }
  return { env: options.tokenVar, value: token };
}
