// `lp-conformance openapi`: the document is valid OpenAPI 3.1 (checked by @readme/openapi-parser, a
// maintained validator), names every operation of the profile with its method and path, follows a
// profile's overrides, and embeds schemas that compile under ajv's 2020-12 dialect.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate, compileErrors } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { buildOpenApi, readContractSchemas } from '../src/openapi/index.js';
import { familyOf, loadProfile, OPERATION_IDS, parseProfile } from '../src/profile/index.js';
import { request } from 'undici';
import { ROOT, runCli, serveCli } from './support/cli.js';

interface Operation {
  operationId: string;
  parameters: ({ name: string; in: string; required?: boolean; schema?: Record<string, unknown> } | { $ref: string })[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string; oneOf?: unknown[] } }> }>;
  security?: unknown[];
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, Record<string, unknown>> };
  security: unknown[];
}

async function documentOf(args: string[]): Promise<Document> {
  const r = await runCli(['openapi', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return parse(r.stdout) as Document;
}

/** The validator's verdict on a copy (it dereferences what it is given). */
async function verdict(doc: unknown): Promise<string> {
  const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
  return result.valid ? 'valid' : compileErrors(result);
}

function profileFile(replace: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-openapi-'));
  const file = join(dir, 'profile.yaml');
  writeFileSync(file, replace(readFileSync(join(ROOT, 'fixtures/profiles/reference.yaml'), 'utf8')));
  return file;
}

const operationsOf = (doc: Document): Map<string, { method: string; path: string; op: Operation }> =>
  new Map(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [op.operationId, { method: method.toUpperCase(), path, op }] as const),
    ),
  );

describe('lp-conformance openapi (reference profile)', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await documentOf([]);
  });

  test('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(await verdict(doc)).toBe('valid');
  });

  test('the validator rejects a broken copy (it does validate)', async () => {
    const broken = structuredClone(doc);
    const get = broken.paths['/submissions/{id}']?.get;
    if (!get) throw new Error('no GET /submissions/{id}');
    get.parameters = get.parameters.filter((p) => !('name' in p) || p.name !== 'id');
    expect(await verdict(broken)).not.toBe('valid');
  });

  test("every Integration API operation of the profile, with its method and path (the document is that family's)", () => {
    const profile = loadProfile();
    const ops = operationsOf(doc);
    const intapi = OPERATION_IDS.filter((id) => familyOf(id).name === 'intapi');
    expect([...ops.keys()].sort()).toEqual([...intapi].sort());
    for (const id of intapi) expect({ id, method: ops.get(id)?.method, path: ops.get(id)?.path }).toEqual({ id, ...profile.operations[id] });
  });

  test('path identifiers are required GUIDs', () => {
    for (const { path, op } of operationsOf(doc).values()) {
      const names = [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]);
      const inPath = op.parameters.filter((p): p is Exclude<typeof p, { $ref: string }> => 'in' in p && p.in === 'path');
      expect(inPath.map((p) => p.name).sort()).toEqual([...names].sort());
      for (const p of inPath)
        expect({ path, name: p.name, required: p.required, schema: p.schema }).toEqual({
          path,
          name: p.name,
          required: true,
          schema: { type: 'string', format: 'uuid' },
        });
    }
  });

  test('bodies, success statuses and error responses come from the contracts and the profile', () => {
    const ops = operationsOf(doc);
    const create = ops.get('submissions.create')?.op;
    expect(create?.requestBody?.content['application/json']?.schema.$ref).toBe('#/components/schemas/intapi.submission.create');
    expect(create?.responses['201']?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/intapi.submission');
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual(['201', '400', '401', '404', '413', '415', '422']);
    expect(ops.get('questions.update')?.op.requestBody?.content['application/json']?.schema.$ref).toBe('#/components/schemas/intapi.question.update');
    const get = ops.get('templates.get')?.op;
    expect(get?.responses['404']?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/intapi.error');
    expect(get?.responses['422']).toBeDefined();
    expect(ops.get('resources.list')?.op.responses['200']?.content?.['application/json']?.schema.oneOf).toEqual([
      { $ref: '#/components/schemas/intapi.envelope.resources' },
      { $ref: '#/components/schemas/intapi.resource.list' },
    ]);
  });

  test('list parameters on the lists that take them', () => {
    const names = (id: string) => (operationsOf(doc).get(id)?.op.parameters ?? []).flatMap((p) => ('name' in p && p.in === 'query' ? [p.name] : []));
    for (const id of ['resources.list', 'submissions.list', 'templates.list']) expect(names(id)).toEqual(['_filter', '_sort', '_limit', '_offset']);
    for (const id of ['questionBanks.list', 'questions.list']) expect(names(id)).toEqual(['_limit', '_offset']);
    for (const id of ['resources.listForUser', 'resources.listMine', 'resources.get', 'submissions.create']) expect(names(id)).toEqual([]);
    const limit = operationsOf(doc)
      .get('submissions.list')
      ?.op.parameters.find((p) => 'name' in p && p.name === '_limit');
    expect(limit && 'schema' in limit ? limit.schema : undefined).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 20 });
  });

  test('x-api-key and Bearer security, POST /authenticate with the key only', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ apiKey: [], bearerAuth: [] }]);
    expect(operationsOf(doc).get('auth.authenticate')?.op.security).toEqual([{ apiKey: [] }]);
  });

  test('each component schema compiles under ajv 2020 and names no lp: reference', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    ajvFormats.default(ajv);
    ajv.addKeyword({ keyword: 'x-spec', schemaType: 'string' });
    // The document's other members are not schema keywords: ajv is told so, then resolves
    // `#/components/schemas/...` inside the document as any JSON pointer.
    ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'paths', 'components']);
    ajv.addSchema({ ...doc, $id: 'lpc:openapi' });
    const names = Object.keys(doc.components.schemas);
    expect(names).toHaveLength(21 + 7 + 8 + 10);
    for (const name of names) {
      expect(() => ajv.getSchema(`lpc:openapi#/components/schemas/${name}`), name).not.toThrow();
      expect(ajv.getSchema(`lpc:openapi#/components/schemas/${name}`), name).toBeTypeOf('function');
    }
    expect(JSON.stringify(doc.components.schemas)).not.toMatch(/"lp:|"\$id"|"\$schema"/);
    const validate = ajv.getSchema('lpc:openapi#/components/schemas/intapi.envelope.questions');
    expect(validate?.({ totalItems: 1, returnedItems: 1, limit: 20, offset: 0, questionBanks: [{ id: 'x' }] })).toBe(false);
  });
});

describe('lp-conformance openapi with a profile and a target', () => {
  test('a profile override of a path and a status shows up', async () => {
    const file = profileFile((t) =>
      t
        .replace('operations: {}', 'operations:\n  submissions.update: { method: PATCH, path: "/external-training/{id}" }')
        .replace('createStatus: 201', 'createStatus: 200')
        .replace('maxLimit: 1000', 'maxLimit: 500'),
    );
    const doc = await documentOf(['--profile', file]);
    expect(await verdict(doc)).toBe('valid');
    expect(doc.paths['/external-training/{id}']?.patch?.operationId).toBe('submissions.update');
    expect(doc.paths['/submissions/{id}']?.put).toBeUndefined();
    expect(Object.keys(doc.paths['/submissions']?.post?.responses ?? {})).toContain('200');
    const limit = doc.paths['/submissions']?.get?.parameters.find((p) => 'name' in p && p.name === '_limit');
    expect(limit && 'schema' in limit ? limit.schema?.maximum : undefined).toBe(500);
  });

  test('a reader that stops early (| head) is no error', () => {
    const out = execFileSync('bash', ['-c', 'node bin/lp-conformance.js openapi 2>&1 | head -n 1; echo "exit ${PIPESTATUS[0]}"'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(out).toBe('openapi: 3.1.0\nexit 0\n');
  });

  test('--target sets the server', async () => {
    const doc = await documentOf(['--target', 'https://lms.example.test/']);
    expect(doc.servers.map((s) => s.url)).toEqual(['https://lms.example.test']);
  });

  test.each([
    [
      'a mistyped profile field',
      () => ['--profile', profileFile((t) => t.replace('createStatus: 201', 'createStatus: created'))],
      /expectations\.submissions\.createStatus/,
    ],
    [
      'two operations on one method and path',
      () => ['--profile', profileFile((t) => t.replace('operations: {}', 'operations:\n  templates.list: { path: /submissions }'))],
      /both GET \/submissions/,
    ],
    ['a missing profile', () => ['--profile', 'does/not/exist.yaml'], /does\/not\/exist\.yaml/],
    ['a bad target', () => ['--target', 'ftp://x.test/'], /target ftp:\/\/x\.test\//],
  ])('%s exits 2 with one line', async (_, args, message) => {
    const r = await runCli(['openapi', ...args()]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

// The document against the bundled server (what Schemathesis' status and schema conformance would
// ask): every answer's status is documented for its operation, and every success body is valid
// against the documented schema. Bounded: a few requests per operation, on the loopback only.
describe("the reference profile's document describes the bundled server", () => {
  const SANDBOX = {
    LPC_API_KEY: 'lpc-sandbox-key',
    LPC_USERNAME: 'lpc.admin',
    LPC_PASSWORD: 'lpc-sandbox-password',
    LPC_PRIVATE_KEY: 'lpc-sandbox-private-key',
  };
  const RECORD: Record<string, string> = {
    resourceId: '00000000-0000-4000-8000-0000000003e9',
    userId: '00000000-0000-4000-8000-000000000001',
    courseId: '00000000-0000-4000-8000-000000000101',
    id: '00000000-0000-4000-8000-000000000201',
  };

  test('documented statuses and bodies', async () => {
    const doc = await documentOf([]);
    const { url, stop } = await serveCli([], SANDBOX);
    try {
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      ajvFormats.default(ajv);
      ajv.addKeyword({ keyword: 'x-spec', schemaType: 'string' });
      ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'paths', 'components']);
      ajv.addSchema({ ...doc, $id: 'lpc:openapi' });
      const auth = await request(`${url}/authenticate`, {
        method: 'POST',
        headers: { 'x-api-key': SANDBOX.LPC_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ username: SANDBOX.LPC_USERNAME, password: SANDBOX.LPC_PASSWORD, privateKey: SANDBOX.LPC_PRIVATE_KEY }),
      });
      const token = (await auth.body.json()) as string;
      const undocumented: string[] = [];
      let bodiesChecked = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const version = op.parameters.some((p) => '$ref' in p && p.$ref.endsWith('/apiVersion2')) ? '2' : '1';
          const good = { 'x-api-key': SANDBOX.LPC_API_KEY, authorization: `Bearer ${token}`, 'x-api-version': version };
          const filled = path.replace(/\{([^{}]+)\}/g, (_, name: string) => RECORD[name] ?? '00000000-0000-4000-8000-00000000ffff');
          const hasBody = op.requestBody !== undefined;
          const cases: { label: string; path: string; headers: Record<string, string> }[] = [
            { label: 'as given', path: filled, headers: good },
            { label: 'no x-api-key', path: filled, headers: { ...good, 'x-api-key': '' } },
            { label: 'x-api-version 3', path: filled, headers: { ...good, 'x-api-version': '3' } },
            ...(version === '2' ? [{ label: 'version 1', path: filled, headers: { ...good, 'x-api-version': '1' } }] : []),
            ...(filled !== path ? [{ label: 'a path id that is not a GUID', path: path.replace(/\{[^{}]+\}/g, 'not-a-guid'), headers: good }] : []),
          ];
          for (const c of cases) {
            const headers = Object.fromEntries(
              Object.entries({ ...c.headers, ...(hasBody ? { 'content-type': 'application/json' } : {}) }).filter(([, v]) => v !== ''),
            );
            const res = await request(`${url}${c.path}`, { method: method.toUpperCase(), headers, ...(hasBody ? { body: '{}' } : {}) });
            const body = (await res.body.json()) as unknown;
            const response = op.responses[String(res.statusCode)];
            if (!response) {
              undocumented.push(`${op.operationId} ${c.label}: ${res.statusCode}`);
              continue;
            }
            const schema = response.content?.['application/json']?.schema;
            if (schema) {
              const inDocument = (r: string | undefined) => ({ $ref: `lpc:openapi${r ?? ''}` });
              const validate = ajv.compile(
                schema.oneOf ? { oneOf: schema.oneOf.map((s) => inDocument((s as { $ref?: string }).$ref)) } : inDocument(schema.$ref),
              );
              if (!validate(body)) undocumented.push(`${op.operationId} ${c.label}: ${res.statusCode} body ${ajv.errorsText(validate.errors)}`);
              bodiesChecked++;
            }
          }
        }
      }
      expect(undocumented).toEqual([]);
      expect(bodiesChecked).toBeGreaterThan(90);
    } finally {
      await stop();
    }
  });
});

describe('buildOpenApi (the pure builder)', () => {
  const contracts = readContractSchemas();
  const reference = readFileSync(join(ROOT, 'fixtures/profiles/reference.yaml'), 'utf8');
  const build = (c = contracts, text = reference) =>
    buildOpenApi(c, parseProfile(text, 'test.yaml'), { documentVersion: '0' }) as unknown as Document & {
      components: { parameters: Record<string, { required: boolean; schema: Record<string, unknown> }> };
    };
  const withContract = (name: string, change: (s: Record<string, unknown>) => Record<string, unknown>) =>
    new Map([...contracts].map(([n, s]) => [n, n === name ? change({ ...s }) : s] as const));

  test('refuses a keyword outside JSON Schema 2020-12 rather than dropping it', () => {
    expect(() => build(withContract('intapi/template', (s) => ({ ...s, nullable: true })))).toThrow(/intapi\/template\/nullable: keyword nullable/);
  });

  test('refuses a $ref that names no contract', () => {
    expect(() => build(withContract('intapi/resource.list', (s) => ({ ...s, items: { $ref: 'lp:intapi/nothing' } })))).toThrow(/names no contract/);
  });

  test('x-api-version: required on version-2-only operations unless a missing header means version 2', () => {
    expect(build().components.parameters.apiVersion2?.required).toBe(true);
    const v2 = build(contracts, reference.replace('missingHeader: 1', 'missingHeader: 2')).components.parameters;
    expect(v2.apiVersion2).toMatchObject({ required: false, schema: { enum: ['2'], default: '2' } });
    expect(v2.apiVersion).toMatchObject({ required: false, schema: { enum: ['1', '2'], default: '2' } });
  });

  test("components are the Integration API's contracts only: another family's contract is left out", () => {
    const withScim = new Map([...contracts, ['scim/x', { $id: 'lp:scim/x', type: 'object', not: { $ref: 'lp:scim/elsewhere' } }]]);
    const names = Object.keys(build(withScim).components.schemas);
    expect(names).not.toContain('scim.x');
    expect(names.sort()).toEqual(
      [...contracts.keys()]
        .filter((n) => n.startsWith('intapi/'))
        .map((n) => n.replace('/', '.'))
        .sort(),
    );
  });

  test('the same inputs give the same document', () => {
    expect(JSON.stringify(build())).toBe(JSON.stringify(build()));
  });
});
