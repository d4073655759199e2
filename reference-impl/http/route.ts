import type { JsonValue } from '../json.js';
import type { ApiError } from './errors.js';

/**
 * Routes as data. A family (Integration API now; SCIM and the learner API later) is a list of
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

/** What a handler answers: JSON, or (a deliberate fault only) raw text. */
export type Result = { readonly status: number; readonly body: JsonValue } | { readonly status: number; readonly text: string };

export interface Operation<C> {
  /** Operation id, e.g. `submissions.create` (DEVELOPERS.md path table). */
  readonly id: string;
  readonly method: HttpMethod;
  /** fastify path syntax: `/submissions/:id` */
  readonly path: string;
  readonly handle: (call: Call<C>) => Result;
}

/** Headers as the guard sees them. */
export type Headers = Readonly<Record<string, string | string[] | undefined>>;

export interface Family<C, O extends Operation<C>> {
  /** Path prefix: '' for the Integration API (host root), '/scim/v2', '/api/rest/v2'. */
  readonly prefix: string;
  readonly operations: readonly O[];
  /** Runs before the body is read: authentication, version. Throws an ApiError to refuse. */
  readonly guard: (headers: Headers, operation: O) => C;
  readonly renderError: (error: ApiError) => { readonly status: number; readonly body: JsonValue };
  /** Operations whose JSON answers are labelled text/plain (a fault). */
  readonly textPlainOperations?: ReadonlySet<string>;
  /** Wraps each (synchronous) handler call, e.g. to make the request's ids follow its headers. */
  readonly around?: <T>(headers: Headers, handle: () => T) => T;
}
