/**
 * Waiting out a 429 (RFC 6585 §4, RFC 9110 §10.2.3 Retry-After), shared by the suites' client and the
 * session's log-in (secrets.ts); and which requests that got no answer are sent again (`resendable`),
 * shared by the suites' client and the tool's (client.ts), and the cleanup's DELETEs
 * (`onceMoreIfClosed`).
 */

/** At most this many attempts of one request that keeps answering 429. */
export const MAX_ATTEMPTS_429 = 6;
/** A Retry-After longer than this is not waited out: the 429 is the answer. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** The three forms of an HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and
 * asctime forms, which recipients must accept too. Date.parse alone would take anything it can
 * read as a date ('-5' is May 2001), so a garbled header would mean no wait at all. */
const HTTP_DATE = [
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/** Milliseconds to wait for a 429's Retry-After (delta-seconds or an HTTP-date, RFC 9110 §10.2.3);
 * without one, or with one in neither form, exponential back-off from 250 ms. */
export function retryAfterMs(header: string | undefined, attempt: number, now = Date.now()): number {
  const backoff = Math.min(250 * 2 ** attempt, 8_000);
  if (header === undefined) return backoff;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const form = HTTP_DATE.findIndex((re) => re.test(value));
  if (form < 0) return backoff;
  // An asctime date names no zone: it is GMT, not the local time Date.parse would take.
  const date = Date.parse(form === 2 ? `${value} GMT` : value);
  return Number.isNaN(date) ? backoff : Math.max(0, date - now);
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Sends `attempt()` until it answers something other than 429, waiting out each Retry-After: at most
 * MAX_ATTEMPTS_429 attempts, and a wait longer than MAX_RETRY_AFTER_MS is not waited (the 429 is the answer). */
export async function honouring429<R extends { statusCode: number; headers: Record<string, string | string[] | undefined> }>(
  attempt: () => Promise<R>,
  waited?: (ms: number) => void,
): Promise<R> {
  for (let n = 0; ; n++) {
    const res = await attempt();
    if (res.statusCode !== 429 || n + 1 >= MAX_ATTEMPTS_429) return res;
    const header = res.headers['retry-after'];
    const wait = retryAfterMs(Array.isArray(header) ? header[0] : header, n);
    if (wait > MAX_RETRY_AFTER_MS) return res;
    waited?.(wait);
    await sleep(wait);
  }
}

/** Connections closed by the target without an answer (undici's "other side closed", a reset, a
 * write to a closed connection). */
const CLOSED_WITHOUT_ANSWER = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * Whether a request that failed so is sent again, once (the suites' client on a new connection of its
 * own, as the RFC says; the tool's on its pool, whose closed connection is gone). A server may close
 * an idle keep-alive connection just as the client reuses it (RFC 9112 §9.3.1: "A client MAY open a
 * new connection and automatically retransmit an aborted sequence of requests if all of those
 * requests have idempotent methods"); undici does not (nodejs/undici#3492), so a check against a
 * server with a short idle timeout would fail on the race instead of the rule. Only the safe methods,
 * which change nothing whether or not the target processed the first: a PUT or DELETE processed
 * before the close would answer otherwise the second time. A target that closes every connection
 * fails the exchange again, and the check fails on that.
 */
export function resendable(method: string, error: unknown): boolean {
  return (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') && closedWithoutAnswer(error);
}

/** Whether the target closed the request's connection without an answer. */
export function closedWithoutAnswer(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code !== undefined && CLOSED_WITHOUT_ANSWER.has(code);
}

/**
 * A cleanup's DELETE of a record the run created, sent again once when its connection closed
 * without an answer: deleting the same record twice leaves the target as deleting it once (RFC 9110
 * §9.2.2, idempotent), and the run owns the record, so nothing else changed it between the two. A
 * first DELETE the target processed before the close makes the second answer 404: the record is
 * gone either way. `resent` hears each request sent again.
 */
export async function onceMoreIfClosed<R>(attempt: () => Promise<R>, resent?: () => void): Promise<R> {
  try {
    return await attempt();
  } catch (error) {
    if (!closedWithoutAnswer(error)) throw error;
    resent?.();
    return attempt();
  }
}
