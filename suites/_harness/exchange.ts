/**
 * A request as a check describes it, and the exchange and answer the client makes of it. Types
 * only: what every module of the harness and the families' invariants share without the client.
 */
import type { OperationId } from '../../src/profile/base/routes.js';
import type { CurlRequest } from '../../src/target/base/curl.js';

export interface ApiRequest {
  op: OperationId;
  /** Path parameters by name, e.g. `{ id }`; substituted URL-encoded. */
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body. */
  json?: unknown;
  /** An exact body text, for malformed input. */
  rawBody?: string;
  /** Content type of the body; application/json by default. */
  contentType?: string;
  /** The value of the family's version header (the family's default when absent); `null` leaves
   * the header out. Families without a version header ignore it. */
  version?: string | null;
  /** 'valid' sends the profile's key (the default of a family whose requests carry one), 'none' no
   * header (the default of the others), any other string that literal. */
  apiKey?: string;
  /** 'valid' (default) sends `Bearer <the family's session token>`, 'raw' the session token without
   * `Bearer `, 'none' no Authorization header, a token object that token (shown as its variable),
   * `{ literal }` that exact Authorization header value (a wrong token, shown as is). */
  token?: 'valid' | 'raw' | 'none' | { env: string; value: string } | { literal: string };
  /** Further request headers (If-Match, Accept, …), sent and shown as given. */
  headers?: Record<string, string>;
  /** Another method and path under the operation's family than the operation's own (an endpoint
   * the profile has no operation for, such as an unsupported one); `op` still names the family and
   * the collection the request belongs to. */
  route?: { method: string; path: string };
}

export interface Exchange {
  method: string;
  url: string;
  /** `METHOD path?query`, for reports. */
  operation: string;
  /** The family whose protocol the request spoke (its registration says what its bodies hold). */
  family?: string;
  curl: CurlRequest;
  /** Set when the token came from a token exchange: the shell line that obtains it. */
  tokenPreamble?: string;
  status: number;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
  exchange: Exchange;
}
