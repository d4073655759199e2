/**
 * The pieces every family's part of the profile schema is made of (JSON Schema 2020-12): patterns,
 * closed objects and the shared definitions (`#/$defs/…`). Every object is closed
 * (`additionalProperties: false`) so that a misspelt key is an error, not a silently ignored setting.
 */
import { HTTP_METHODS } from './routes.js';

export const ENV_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
export const GUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';
/** An absolute http(s) URL without query or fragment. */
export const BASE_URL_PATTERN = '^https?://[^/?#\\s]+[^?#\\s]*$';
export const PATH_PATTERN = '^/[^?#\\s]*$';

/** What a failed `pattern` means, for error messages. */
export const PATTERN_MEANINGS: Readonly<Record<string, string>> = {
  [ENV_NAME_PATTERN]: 'an environment variable name',
  [GUID_PATTERN]: 'a guid',
  [BASE_URL_PATTERN]: 'an absolute http or https URL without query or fragment',
  [PATH_PATTERN]: 'a path starting with /',
};

/** A JSON Schema, as the profile schema writes them. */
export type Schema = Readonly<Record<string, unknown>>;

export const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  ...extra,
  properties,
});

/** The shared definitions, referred to as `#/$defs/<name>`. */
export const SHARED_DEFS = {
  envRef: closed(
    { env: { type: 'string', pattern: ENV_NAME_PATTERN } },
    { required: ['env'], description: 'A secret, named by the environment variable that holds it.' },
  ),
  guid: { type: 'string', pattern: GUID_PATTERN },
  status: { type: 'integer', minimum: 100, maximum: 599 },
  family: closed({ baseUrl: { type: 'string', pattern: BASE_URL_PATTERN } }, { required: ['baseUrl'] }),
  familyCredentials: closed(
    {
      token: { $ref: '#/$defs/envRef', description: 'A ready bearer token.' },
      username: { $ref: '#/$defs/envRef', description: "The family's token exchange: username." },
      password: { $ref: '#/$defs/envRef', description: "The family's token exchange: password." },
    },
    {
      dependentRequired: { username: ['password'], password: ['username'] },
      dependentSchemas: { token: { type: 'object', properties: { username: false, password: false } } },
    },
  ),
  colour: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$', description: 'A colour as #rrggbb.' },
  route: closed(
    { method: { type: 'string', enum: HTTP_METHODS }, path: { type: 'string', pattern: PATH_PATTERN } },
    { description: "Method and path of an operation; the path keeps the default path's {parameters}." },
  ),
} as const;
