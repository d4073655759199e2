/**
 * `--har FILE`: each exchange of a check as a HAR 1.2 entry (the HTTP Archive format of the browsers'
 * network panels and of HTTP clients), one JSON line each, which the command line gathers into the
 * HAR file when the run ends (src/cli/har.ts). An entry names its check in `_check` (and its property
 * case in `_case`): HAR allows fields of one's own that start with an underscore. Secrets are
 * replaced by their variables, as in `--record`, by the caller.
 */
import { STATUS_CODES } from 'node:http';
import type { Entry, Header } from 'har-format';

/** When the exchange went out and how long its answer took: to its headers, then to its last byte. */
export interface ExchangeTiming {
  startedAt: number;
  waitMs: number;
  receiveMs: number;
}

/** An entry of the run's HAR with the check (and property case) it belongs to. */
export type RunHarEntry = Entry & { _check: string; _case?: string; _error?: string };

const headersOf = (headers: Readonly<Record<string, string | string[] | undefined>>): Header[] =>
  Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v }))));

/** The HAR entry of one exchange; `answer` absent when none came (`error`: why), a status 0 as the
 * browsers write an exchange without a response. */
export function harEntry(
  of: { check: string; case?: string },
  request: { method: string; url: string; headers: Readonly<Record<string, string>>; body: string | undefined },
  answer: { status: number; headers: Readonly<Record<string, string | string[] | undefined>>; text: string } | undefined,
  timing: ExchangeTiming,
  error?: string,
): RunHarEntry {
  const url = new URL(request.url);
  const type = request.headers['content-type'];
  const answerType = answer?.headers['content-type'];
  const location = answer?.headers.location;
  const size = answer === undefined ? 0 : Buffer.byteLength(answer.text);
  return {
    _check: of.check,
    ...(of.case !== undefined ? { _case: of.case } : {}),
    startedDateTime: new Date(timing.startedAt).toISOString(),
    time: timing.waitMs + timing.receiveMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headersOf(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(request.body !== undefined ? { postData: { mimeType: type ?? '', text: request.body } } : {}),
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
    },
    response: {
      status: answer?.status ?? 0,
      statusText: answer ? (STATUS_CODES[answer.status] ?? '') : '',
      httpVersion: answer ? 'HTTP/1.1' : '',
      cookies: [],
      headers: answer ? headersOf(answer.headers) : [],
      content: { size, mimeType: (Array.isArray(answerType) ? answerType[0] : answerType) ?? '', ...(answer ? { text: answer.text } : {}) },
      redirectURL: (Array.isArray(location) ? location[0] : location) ?? '',
      headersSize: -1,
      bodySize: answer ? size : -1,
    },
    cache: {},
    timings: { send: 0, wait: timing.waitMs, receive: timing.receiveMs },
    ...(error !== undefined ? { _error: error } : {}),
  };
}
