/** docs/profile.md: every field of a target profile, from the profile's JSON Schema (PROFILE_SCHEMA,
 * put together from the registered families' parts). */
import { PROFILE_SCHEMA } from '../profile/schema.js';
import { generatedNote, table, type GeneratedPage } from './page.js';

interface Schema {
  readonly type?: string | readonly string[];
  readonly $ref?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly pattern?: string;
  readonly required?: readonly string[];
  readonly if?: Schema;
  readonly then?: Schema;
  readonly else?: Schema;
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
}

const ROOT = PROFILE_SCHEMA as unknown as Schema & { readonly $defs: Readonly<Record<string, Schema>> };

/** The name of a shared definition (`#/$defs/status`), as the page's words for it. */
const DEF_WORDS: Readonly<Record<string, string>> = {
  envRef: '`{ env: NAME }`, the environment variable that holds the secret',
  guid: 'a GUID',
  status: 'an HTTP status (100 to 599)',
  family: '`{ baseUrl: URL }`',
  route: '`{ method, path }` of the operation at the target',
};

const defName = (ref: string): string => ref.replace('#/$defs/', '');
const resolved = (schema: Schema): Schema => (schema.$ref ? { ...ROOT.$defs[defName(schema.$ref)], ...schema, $ref: undefined } : schema);
/** The object a field holds when it is one (a field that is `none` or an object). */
const objectOf = (schema: Schema): Schema => {
  const s = resolved(schema);
  if (s.properties) return s;
  const object = [s.else, ...(s.oneOf ?? []), ...(s.anyOf ?? [])].find((x) => x && resolved(x).properties);
  return object ? { ...resolved(object), description: s.description } : s;
};

function kind(schema: Schema): string {
  if (schema.$ref && DEF_WORDS[defName(schema.$ref)]) return DEF_WORDS[defName(schema.$ref)]!;
  if (schema.if && schema.then?.const !== undefined && schema.else) return `\`${String(schema.then.const)}\`, or ${kind(schema.else)}`;
  const s = resolved(schema);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return alternatives.map(kind).join(', or ');
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.enum) return `one of ${s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`;
  const type = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
  const bounds = [
    s.minimum !== undefined && s.maximum !== undefined ? `${s.minimum} to ${s.maximum}` : '',
    s.minimum !== undefined && s.maximum === undefined ? `at least ${s.minimum}` : '',
    s.maximum !== undefined && s.minimum === undefined ? `at most ${s.maximum}` : '',
    s.minItems !== undefined ? `at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}` : '',
    s.maxItems !== undefined ? `at most ${s.maxItems} items` : '',
    s.pattern ? `matching \`${s.pattern}\`` : '',
  ].filter(Boolean);
  const items = type === 'array' && s.items ? ` of ${kind(s.items)}` : '';
  return [`${type}${items}`, ...bounds].join(', ');
}

/** One row per field, parents before their fields. An object of many fields of one kind and no
 * words of their own (the operations' routes) is one row naming them. */
function rows(schema: Schema, path: string): string[][] {
  const s = objectOf(schema);
  const here = [`\`${path}\``, kind(schema), s.description ?? ''];
  const fields = Object.entries(s.properties ?? {});
  // A shared definition the page has words for (`{ env: NAME }`) is one row, not its fields.
  if (fields.length === 0 || (schema.$ref && DEF_WORDS[defName(schema.$ref)])) return [here];
  const refs = new Set(fields.map(([, f]) => f.$ref ?? ''));
  if (fields.length > 12 && refs.size === 1 && !refs.has('') && fields.every(([, f]) => !f.description)) {
    const names = fields.map(([name]) => `\`${name}\``).join(', ');
    return [[`\`${path}\``, 'object', `${s.description ?? ''} Its fields: ${names}; each ${kind(fields[0]![1])}.`.trim()]];
  }
  const required = new Set(s.required ?? []);
  return [
    ...(path.includes('.') ? [here] : []),
    ...fields.flatMap(([name, field]) => {
      const [first, ...more] = rows(field, `${path}.${name}`);
      return [[first![0]!, first![1]!, `${required.has(name) ? '(required) ' : ''}${first![2]!}`], ...more];
    }),
  ];
}

export const PROFILE_PAGE: GeneratedPage = {
  path: 'docs/profile.md',
  render: () => {
    const top = Object.entries(ROOT.properties ?? {});
    return [
      '# Profile reference',
      '',
      generatedNote('the profile schema (`src/profile/schema.ts`, the families’ `profile.ts` parts)'),
      '',
      `${ROOT.description ?? ''}`,
      '',
      'A profile is YAML (`--profile FILE`); `lp-conformance init` writes one for your server, and ' +
        '`fixtures/profiles/reference.yaml` is the bundled server’s. Every key but `name` is optional: ' +
        'what a profile leaves out takes the reference profile’s value. Every object is closed: a ' +
        'misspelt key is an error (exit 2, one line naming the field), never a setting silently ignored. ' +
        'The schema as a file, for editors: `src/profile/profile.schema.json`.',
      '',
      ...top.map(([name]) => `- [\`${name}\`](#${name})`),
      '',
      ...top.flatMap(([name, field]) => {
        const s = objectOf(field);
        const table_ = s.properties ? rows(field, name) : [];
        return [
          `## \`${name}\``,
          '',
          `${kind(field)}. ${s.description ?? ''}`.trim(),
          '',
          ...(table_.length ? [...table(['field', 'value', 'meaning'], table_), ''] : []),
        ];
      }),
    ].join('\n');
  },
};
