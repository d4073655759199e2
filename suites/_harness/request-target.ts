/**
 * Where a request goes, as undici's dispatcher takes it: the origin and the request target (path
 * and query). undici's top-level `request(url)` parses every URL with WHATWG URL parsing; the client
 * sends tens of thousands of requests to the same few base URLs, so the base is parsed once and a
 * request's path and query are appended as they are when URL parsing would leave them unchanged
 * (no character it percent-encodes, no dot segment it resolves, no empty query it drops). Any other
 * target is parsed as undici would: the bytes sent are the same either way.
 */

/** Characters WHATWG URL parsing keeps as they are in the path of an http(s) URL, and in its query. */
const PATH_KEPT = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const QUERY_KEPT = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]+$/;
/** A segment URL parsing resolves (`.`, `..`, and their percent-encoded forms). */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

/** Whether URL parsing leaves a path (from its leading `/`) and an optional query as they are. */
function kept(pathAndQuery: string): boolean {
  const q = pathAndQuery.indexOf('?');
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  if (!PATH_KEPT.test(path) || DOT_SEGMENT.test(path)) return false;
  return q < 0 || QUERY_KEPT.test(pathAndQuery.slice(q + 1));
}

export interface RequestTarget {
  origin: string;
  /** Path and query, as sent on the request line. */
  path: string;
}

/** Per base URL (without a trailing slash): its origin and the path before every request's, when
 * appending a kept path and query to the base's text gives what URL parsing would. */
const bases = new Map<string, { origin: string; prefix: string } | null>();

function splitBase(base: string): { origin: string; prefix: string } | null {
  let split = bases.get(base);
  if (split !== undefined) return split;
  split = null;
  try {
    const url = new URL(base);
    const prefix = base.slice(url.origin.length);
    const plain = url.username === '' && url.password === '' && url.search === '' && url.hash === '';
    if (plain && base.startsWith(url.origin) && (prefix === '' || (prefix === url.pathname && kept(prefix)))) split = { origin: url.origin, prefix };
  } catch {
    // Not a URL: parsed with the request, which then fails as undici fails it.
  }
  bases.set(base, split);
  return split;
}

/** The origin and request target of `base` (no trailing slash) followed by `pathAndQuery`, as undici's
 * `request(url)` would send them. */
export function requestTarget(base: string, pathAndQuery: string): RequestTarget {
  const split = pathAndQuery.startsWith('/') ? splitBase(base) : null;
  if (split && kept(pathAndQuery)) return { origin: split.origin, path: `${split.prefix}${pathAndQuery}` };
  const url = new URL(`${base}${pathAndQuery}`);
  return { origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname };
}
