import type { Operation } from '../http/route.js';

/** What a SCIM handler is given besides the call: the base URL its answers' locations are under. */
export interface ScimContext {
  readonly baseUrl: string;
}

export interface ScimOperation extends Operation<ScimContext> {
  readonly auth: boolean;
}
