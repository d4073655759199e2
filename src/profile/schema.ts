/**
 * The JSON Schema (2020-12) of a target profile, put together from the registered families' parts
 * (src/families/<name>/profile.ts). It lives here as a module so that it ships with the compiled
 * code; `src/profile/profile.schema.json` is the same schema as a file, for editors and readers, and
 * tests/profile keeps the two equal (`vitest run tests/profile -u` rewrites the file).
 *
 * Every object is closed (`additionalProperties: false`) so that a misspelt key is an error, not
 * a silently ignored setting. Every key but `name` is optional: the reference profile's values are
 * the defaults (each family's).
 */
import { FAMILIES, OPERATION_IDS } from '../families/registry.js';
import { oauthClientSchema } from './base/oauth.js';
import { closed, type Schema, SHARED_DEFS } from './base/schema-parts.js';
import type { FamilyCredentials, Limits } from './base/types.js';

export { PATTERN_MEANINGS } from './base/schema-parts.js';

/** The shortest URL budget a profile may give (`limits.maxUrlBytes`): room for the longest fixed
 * request the suite makes (a path with two GUIDs and a short query) and a filter. */
export const MIN_URL_BYTES = 1024;

/** RFC 9110 §4.1: "It is RECOMMENDED that all senders and recipients support, at a minimum, URIs
 * with lengths of 8000 octets in protocol elements." Common servers refuse a request line of 8 KiB
 * (nginx's buffer, Apache's LimitRequestLine 8190), which the method and protocol also take. */
export const DEFAULT_LIMITS: Limits = { maxUrlBytes: 8000 };

const merged = (part: (f: (typeof FAMILIES)[number]) => Readonly<Record<string, unknown>> | undefined) =>
  Object.assign({}, ...FAMILIES.map((f) => part(f) ?? {})) as Record<string, unknown>;

const credentials = FAMILIES.map((f) => f.profile.schema?.credentials);

/** `credentials.<name>`: a token or a username and password, and the OAuth client of a family whose
 * defaults name one. */
function ownCredentialsSchema(own: { readonly defaults: FamilyCredentials; readonly description: string }): Schema {
  const client = own.defaults.oauth;
  if (client === undefined) return { $ref: '#/$defs/familyCredentials', description: own.description };
  const shared = SHARED_DEFS.familyCredentials;
  return { ...shared, description: own.description, properties: { ...shared.properties, oauth: oauthClientSchema(client) } };
}

export const PROFILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'lp:profile',
  title: 'lp-conformance target profile',
  description:
    'Where the target is, how to authenticate (by environment variable names), the records the suites read, ' +
    'the method and path of each operation, and the behaviour the target declares where the specification says "not shown".',
  $defs: SHARED_DEFS,
  ...closed(
    {
      name: { type: 'string', minLength: 1 },
      families: closed(
        Object.fromEntries(
          FAMILIES.flatMap((f) => {
            const at = f.profile.baseUrl;
            if (!at) return [];
            const where = 'at' in at ? '`--target URL` replaces its baseUrl.' : `default: the target URL + ${at.suffix}.`;
            const none = 'none: the target has no such API (its checks are skipped, saying so).';
            // A word can only be `none`; a mapping is the family's place.
            return [
              [f.name, { if: { type: 'string' }, then: { const: 'none' }, else: { $ref: '#/$defs/family' }, description: `${f.title}; ${where} ${none}` }],
            ];
          }),
        ),
      ),
      credentials: closed(
        {
          ...merged((f) => f.profile.schema?.credentials?.properties),
          ...Object.fromEntries(FAMILIES.flatMap((f) => (f.profile.ownCredentials ? [[f.name, ownCredentialsSchema(f.profile.ownCredentials)]] : []))),
        },
        {
          dependentRequired: Object.assign({}, ...credentials.map((c) => c?.dependentRequired ?? {})),
          dependentSchemas: Object.assign({}, ...credentials.map((c) => c?.dependentSchemas ?? {})),
        },
      ),
      records: closed(
        merged((f) => f.profile.schema?.records),
        { description: 'Records the suites read but cannot create; a check that needs an absent one is skipped.' },
      ),
      ...merged((f) => f.profile.schema?.top),
      operations: closed(Object.fromEntries(OPERATION_IDS.map((id) => [id, { $ref: '#/$defs/route' }]))),
      limits: closed(
        {
          maxUrlBytes: {
            type: 'integer',
            minimum: MIN_URL_BYTES,
            description:
              'The longest request target (path and query, in bytes as sent) the suite sends: no generated value makes a URL longer. RFC 9110 section 4.1 recommends at least 8000, the default.',
          },
        },
        { description: 'What the target accepts of a request; the suite keeps within it.' },
      ),
      expectations: closed(merged((f) => f.profile.schema?.expectations)),
    },
    { required: ['name'] },
  ),
} as const;
