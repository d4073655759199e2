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
import { closed, SHARED_DEFS } from './schema-parts.js';

export { PATTERN_MEANINGS } from './schema-parts.js';

const merged = (part: (f: (typeof FAMILIES)[number]) => Readonly<Record<string, unknown>> | undefined) =>
  Object.assign({}, ...FAMILIES.map((f) => part(f) ?? {})) as Record<string, unknown>;

const credentials = FAMILIES.map((f) => f.profile.schema?.credentials);

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
          ...Object.fromEntries(
            FAMILIES.flatMap((f) =>
              f.profile.ownCredentials ? [[f.name, { $ref: '#/$defs/familyCredentials', description: f.profile.ownCredentials.description }]] : [],
            ),
          ),
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
      expectations: closed(merged((f) => f.profile.schema?.expectations)),
    },
    { required: ['name'] },
  ),
} as const;
