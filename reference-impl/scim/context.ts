import type { Operation } from '../http/route.js';

/** What a SCIM handler is given besides the call: the base URL its answers' locations are under,
 * and the request headers a handler reads (versions, rfc7644#section-3.14; a Bulk body's size). */
export interface ScimContext {
  readonly baseUrl: string;
  readonly ifMatch?: string;
  readonly ifNoneMatch?: string;
  /** The request body's Content-Length, when given. */
  readonly contentLength?: number;
}

export interface ScimOperation extends Operation<ScimContext> {
  readonly auth: boolean;
}
