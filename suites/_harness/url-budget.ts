/**
 * The URL budget (profile `limits.maxUrlBytes`, 8000 bytes by default: RFC 9110 §4.1's recommended
 * minimum). Every request the suite sends keeps its request target (path and query, bytes as sent)
 * within it: the generators that draw query values from a target's data (the families' filter
 * expressions) draw only values that fit what is left of it, and the client refuses to
 * send a longer URL (`overBudget`), so that a 414 or 431 answer can only be the target's finding.
 */
import { baseUrlOf, familyOf, fillPath, operation, type OperationId, type Profile } from '../../src/profile/index.js';
import { describeResponse, fail } from './failure.js';
import type { ApiResponse } from './exchange.js';

/** The path with its parameters filled in (src/profile/base/routes.ts, shared with the tool's own client). */
export const buildPath = fillPath;

/** Bytes kept for the query parameters sent beside a generated one (`_limit`, `_offset`, `_sort`,
 * `count`, the parameter's own name) and for what a check adds around a generated expression (a
 * completeness probe's `(<expr>) and id eq guid'<id>'`, a scope `<name> sw "lpc-…" and (<expr>)`). */
export const QUERY_RESERVE = 320;

/**
 * Bytes a text takes in a query string as the client writes it (URLSearchParams:
 * application/x-www-form-urlencoded): letters, digits and `*-._` as they are, a space as `+`, every
 * other UTF-8 byte as `%XX`. Counting stops once past `upTo` (the answer is then some length over it).
 */
export function encodedLength(text: string, upTo = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2a || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x20)
      bytes += 1;
    else bytes += 3 * (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);
    if (bytes > upTo) return bytes;
  }
  return bytes;
}

const basePaths = new Map<string, string>();
/** The path of a base URL, without a trailing slash (what its requests' targets start with). */
function basePath(baseUrl: string): string {
  let path = basePaths.get(baseUrl);
  if (path === undefined) basePaths.set(baseUrl, (path = new URL(baseUrl).pathname.replace(/\/+$/, '')));
  return path;
}

/** The bytes of a request target: the base URL's path, then the path and query (already encoded). */
export function targetBytes(baseUrl: string, pathAndQuery: string): number {
  return basePath(baseUrl).length + pathAndQuery.length;
}

/** The request target of an operation without its query: the family's base path and the operation's path. */
function pathOf(profile: Profile, op: OperationId, params?: Record<string, string>): string {
  return `${basePath(baseUrlOf(profile, familyOf(op).name))}${buildPath(operation(profile, op).path, params)}`;
}

/** Bytes left for one generated query value of a request to `op` (with its path parameters): the
 * budget, less the path and QUERY_RESERVE. */
export function queryRoom(profile: Profile, op: OperationId, params?: Record<string, string>): number {
  return profile.limits.maxUrlBytes - pathOf(profile, op, params).length - QUERY_RESERVE;
}

/** What makes a request target too long, when it is: its length and largest part. */
export interface OverBudget {
  bytes: number;
  budget: number;
  /** `the query parameter _filter` or `the path parameter id`. */
  part: string;
  partBytes: number;
  /** A path parameter: a value the target gave (an id), not one the suite generated. */
  fromTarget: boolean;
}

/** Whether the request target `pathAndQuery` under `baseUrl` exceeds the profile's budget, and why. */
export function overBudget(
  profile: Profile,
  baseUrl: string,
  pathAndQuery: string,
  params: Record<string, string> = {},
  query: Record<string, unknown> = {},
): OverBudget | undefined {
  const budget = profile.limits.maxUrlBytes;
  const bytes = targetBytes(baseUrl, pathAndQuery);
  if (bytes <= budget) return undefined;
  const parts = [
    ...Object.entries(params).map(([name, value]) => ({ part: `the path parameter ${name}`, partBytes: encodeURIComponent(value).length, fromTarget: true })),
    ...Object.entries(query).map(([name, value]) => ({ part: `the query parameter ${name}`, partBytes: encodedLength(String(value)), fromTarget: false })),
  ].sort((a, b) => b.partBytes - a.partBytes);
  const largest = parts[0] ?? { part: 'the path', partBytes: bytes, fromTarget: false };
  return { bytes, budget, ...largest };
}

/** A query for `op` whose request target is exactly the budget long: `query(pad)`, with the pad of
 * `a`s (a byte each in a URL) as long as it takes. */
export function queryAtBudget(
  profile: Profile,
  op: OperationId,
  params: Record<string, string> | undefined,
  query: (pad: string) => Record<string, string>,
): Record<string, string> {
  const length = (pad: string) => pathOf(profile, op, params).length + 1 + new URLSearchParams(query(pad)).toString().length;
  return query('a'.repeat(Math.max(0, profile.limits.maxUrlBytes - length(''))));
}

/** A probe of the budget: the answer to a request as long as the budget must not refuse it as too long. */
export function expectNotTooLong(res: ApiResponse): void {
  const refused = urlRefused('', res);
  if (refused) fail(refused.expected, describeResponse(res), res);
}

/** The statuses that refuse a request as too long: 414 URI Too Long (RFC 9110 §15.5.15), and 431
 * Request Header Fields Too Large (RFC 6585), which Node and others answer to a long request line. */
const TOO_LONG = new Set([414, 431]);

/** The URL invariant of a family (`<family>.invariant.url-within-budget-accepted`) on one exchange:
 * every request was within the budget (the client sends no other), so a refusal as too long is a
 * violation. */
export function urlRefused<I extends string>(invariant: I, res: ApiResponse): { invariant: I; expected: string; received: string } | undefined {
  if (!TOO_LONG.has(res.status)) return undefined;
  const { pathname, search } = new URL(res.exchange.url);
  return {
    invariant,
    expected: `an answer to a request target of ${pathname.length + search.length} bytes, within limits.maxUrlBytes (RFC 9110 recommends accepting 8000)`,
    received: `${res.status}, refused as too long`,
  };
}
