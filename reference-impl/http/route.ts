import type { JsonValue } from '../rules/json.js';
import type { ApiError } from './errors.js';

/**
 * Routes as data. A family (one folder of reference-impl/ per API family) is a list of
 * operations, a guard that runs before the body is read, and a renderer of its error body.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | string[] | undefined;

/** What a handler receives: the guard's result, the path parameters, the query and the body. */
export interface Call<C> {
  readonly context: C;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, QueryValue>>;
  readonly body: unknown;
}

/** Response headers a handler or error renderer adds (Location, ETag, WWW-Authenticate). */
export type ResponseHeaders = Readonly<Record<string, string>>;

/**
 * What a handler answers: JSON, no body at all (204), or text (an HTML page and
 * images, or a deliberate fault's raw text) labelled `contentType` (default text/plain); each with
 * optional response headers.
 */
export type Result =
  | { readonly status: number; readonly body: JsonValue; readonly headers?: ResponseHeaders }
  | { readonly status: number; readonly text: string; readonly contentType?: string; readonly headers?: ResponseHeaders }
  | { readonly status: number; readonly empty: true; readonly headers?: ResponseHeaders };

/** A family's error answer: status, body and optional headers (e.g. WWW-Authenticate). */
export interface RenderedError {
  readonly status: number;
  readonly body: JsonValue;
  readonly headers?: ResponseHeaders;
}

export interface Operation<C> {
  /** Operation id, e.g. `submissions.create` (docs/decisions/ path table). */
  readonly id: string;
  readonly method: HttpMethod;
  /** fastify path syntax: `/submissions/:id` */
  readonly path: string;
  readonly handle: (call: Call<C>) => Result;
}

/** Headers as the guard sees them. */
export type Headers = Readonly<Record<string, string | string[] | undefined>>;

export interface Family<C, O extends Operation<C>> {
  /** Path prefix under the host: '' for a family at its root, else its own (`/v2`, say). */
  readonly prefix: string;
  readonly operations: readonly O[];
  /** Runs before the body is read: authentication, version. Throws an ApiError to refuse. */
  readonly guard: (headers: Headers, operation: O) => C;
  readonly renderError: (error: ApiError) => RenderedError;
  /** The content type of its JSON answers and errors; default `application/json; charset=utf-8`. */
  readonly contentType?: string;
  /**
   * Request body media types this family reads as JSON, in its own scope (fastify encapsulates
   * content-type parsers); others answer 415. Default: the app's parsers. `notJson` is the error
   * of a body that does not parse.
   */
  readonly bodyTypes?: {
    /** The media types, or `*`: every body is read as JSON (a fault). */
    readonly types: readonly string[] | '*';
    readonly notJson: () => ApiError;
    /** A body of an accepted type refused for this URL (a fault), or undefined. */
    readonly refuse?: (url: string, contentType: string) => ApiError | undefined;
  };
  /** The largest request body it reads, in bytes (a larger one answers 413); default 1 MiB (app.ts). */
  readonly bodyLimit?: number;
  /** Operations whose JSON answers are labelled text/plain (a fault). */
  readonly textPlainOperations?: ReadonlySet<string>;
  /** Every GET's JSON answer labelled text/html (a fault: an API behind a misconfigured gateway). */
  readonly htmlGets?: boolean;
  /** The longest request target (path and query, bytes) the family serves; a longer one answers 414
   * URI Too Long (a fault: RFC 9110 §4.1 recommends at least 8000). Default: Node's header limit. */
  readonly maxUrlBytes?: number;
  /** Wraps each (synchronous) handler call of `operation`, e.g. to make the request's ids follow its headers. */
  readonly around?: <T>(headers: Headers, handle: () => T, operation: O) => T;
}
