import type { Headers } from './route.js';

/** A header as one string (node joins most repeated headers; a list keeps its first). */
export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The token of an `Authorization` header: `Bearer <token>`, or the raw token when `acceptRaw`
 * (public-facts#authentication-integration-api: some clients send the raw token).
 */
export function bearerToken(authorization: string | undefined, acceptRaw: boolean): string | undefined {
  if (authorization === undefined) return undefined;
  const match = BEARER.exec(authorization);
  if (match !== null) return match[1];
  const raw = authorization.trim();
  return acceptRaw && raw !== '' && !/\s/.test(raw) ? raw : undefined;
}
