import { ApiError } from '../http/errors.js';
import type { RenderedError } from '../http/route.js';
import type { JsonObject } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';

/** rfc7644#section-3.12: the error response schema and the `scimType` values of Table 9. */
export const ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType =
  'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive';

/** An error of the SCIM family: an ApiError with an optional `scimType`. */
export class ScimError extends ApiError {
  readonly scimType: ScimType | undefined;
  constructor(status: number, detail: string, scimType?: ScimType) {
    super(status, detail);
    this.scimType = scimType;
  }
}

export const badRequest = (scimType: ScimType, detail: string): ScimError => new ScimError(400, detail, scimType);
export const scimNotFound = (detail: string): ScimError => new ScimError(404, detail);

/**
 * The SCIM error body `{schemas, status, scimType?, detail}`, `status` the HTTP status as a string;
 * a 401 also carries `WWW-Authenticate: Bearer` (rfc7644#section-3.12, docs/decisions/scim/reference-server.md).
 */
export function scimErrorRenderer(b: ScimBehaviour): (error: ApiError) => RenderedError {
  return (error) => {
    const status = error.status;
    const body: JsonObject = b.errors.schemas === 'present' ? { schemas: [ERROR_URN] } : {};
    const said = b.errors.bodyStatus === 'http' ? status : 400;
    body.status = b.errors.status === 'string' ? String(said) : said;
    if (error instanceof ScimError && error.scimType !== undefined && b.errors.scimType === 'present') body.scimType = error.scimType;
    body.detail = error.message;
    const headers = status === 401 && b.auth.wwwAuthenticate === 'bearer' ? { 'www-authenticate': 'Bearer realm="scim"' } : undefined;
    return headers === undefined ? { status, body } : { status, body, headers };
  };
}
