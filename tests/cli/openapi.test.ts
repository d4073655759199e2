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
import { buildOpenApi, readContractSchemas } from '../../src/openapi/index.js';
import { familyOf, loadProfile, OPERATION_IDS, parseProfile } from '../../src/profile/index.js';
import { request } from 'undici';
import { ROOT, runCli, serveCli } from '../support/cli.js';

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
      Object.entries(item)
        .filter(([key]) => key !== 'servers')
        .map(([method, op]) => [op.operationId, { method: method.toUpperCase(), path, op }] as const),
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

  test('every operation of every family of the profile, and the OAuth endpoints, with its method and path', () => {
    const profile = loadProfile();
    const ops = operationsOf(doc);
    expect([...ops.keys()].sort()).toEqual([...OPERATION_IDS, 'oauth.authorize', 'oauth.token'].sort());
    for (const id of OPERATION_IDS) {
      // Another family's paths are written from the host's root (its base URL's path first), its server the origin.
      const family = familyOf(id).name;
      const prefix = family === 'intapi' ? '' : new URL((profile.families as unknown as Record<string, { baseUrl: string }>)[family]?.baseUrl ?? '').pathname;
      expect({ id, method: ops.get(id)?.method, path: ops.get(id)?.path }).toEqual({
        id,
        method: profile.operations[id].method,
        path: prefix + profile.operations[id].path,
      });
    }
    expect(ops.get('oauth.token')).toMatchObject({ method: 'POST', path: '/oauth/token' });
    expect(ops.get('oauth.authorize')).toMatchObject({ method: 'GET', path: '/oauth/authorize' });
    for (const [path, item] of Object.entries(doc.paths)) {
      const servers = (item as { servers?: { url: string }[] }).servers;
      expect({ path, servers }).toEqual({
        path,
        servers: path.startsWith('/scim/') || path.startsWith('/api/rest/') ? [expect.objectContaining({ url: doc.servers[0]?.url })] : undefined,
      });
    }
  });

  test("SCIM: the OAuth 2.0 authorization-code flow at the profile's addresses under the SCIM base URL", () => {
    // The SCIM operations' server: the profile's SCIM base URL (public-facts: /scim/v2 under the portal).
    const scimPath = operationsOf(doc).get('scim.users.list')?.path ?? '';
    const url = `${doc.servers[0]?.url ?? ''}${scimPath.replace(/\/Users$/, '')}`;
    expect(url).toMatch(/\/scim\/v2$/);
    expect(doc.components.securitySchemes.scimOAuth).toEqual({
      type: 'oauth2',
      description: expect.stringContaining('authorization-code'),
      flows: {
        authorizationCode: {
          authorizationUrl: `${url}/oauth/authorize`,
          tokenUrl: `${url}/oauth/token`,
          refreshUrl: `${url}/oauth/token`,
          scopes: { scim: 'The SCIM API.' },
        },
      },
    });
  });

  test('SCIM: application/scim+json bodies, its Bearer token, RFC 7644 statuses', () => {
    const ops = operationsOf(doc);
    const create = ops.get('scim.users.create')?.op;
    expect(create?.requestBody?.content['application/scim+json']?.schema.$ref).toBe('#/components/schemas/scim.user');
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual(['201', '400', '401', '409']);
    expect(create?.responses['409']?.content?.['application/scim+json']?.schema.$ref).toBe('#/components/schemas/scim.error');
    expect(create?.security).toEqual([{ scimBearer: [] }, { scimOAuth: ['scim'] }]);
    expect(Object.keys(ops.get('scim.groups.patch')?.op.responses ?? {})).toEqual(expect.arrayContaining(['200', '204']));
    expect(ops.get('scim.users.delete')?.op.responses['204']).toEqual({ description: 'Success.' });
    expect(ops.get('scim.auth.token')?.op.security).toEqual([]);
    expect(ops.get('learner.catalog.list')?.op.security).toEqual([{ apiKey: [], learnerBearer: [] }]);
    expect(ops.get('learner.progress.save')?.op.requestBody?.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/learner.lessonProgress.update',
    );
  });

  test('path identifiers are required GUIDs (SCIM ids: any string the service provider chose)', () => {
    for (const { path, op } of operationsOf(doc).values()) {
      const names = [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]);
      const inPath = op.parameters.filter((p): p is Exclude<typeof p, { $ref: string }> => 'in' in p && p.in === 'path');
      expect(inPath.map((p) => p.name).sort()).toEqual([...names].sort());
      for (const p of inPath)
        expect({ path, name: p.name, required: p.required, schema: p.schema }).toEqual({
          path,
          name: p.name,
          required: true,
          schema: path.startsWith('/scim/') ? { type: 'string', minLength: 1 } : { type: 'string', format: 'uuid' },
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

  test('x-api-key and Bearer security (or an OAuth access token), POST /authenticate with the key only', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: { authorizationCode: { scopes: { 'admin.v1': expect.any(String) } } },
    });
    expect(doc.security).toEqual([
      { apiKey: [], bearerAuth: [] },
      { apiKey: [], oauth2: ['admin.v1'] },
    ]);
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
    expect(names).toHaveLength(21 + 7 + 8 + 10 + 9 + 18);
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
/** ajv with the document added as `lpc:openapi`: `#/components/schemas/...` resolve inside it. */
function documentAjv(doc: Document): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajvFormats.default(ajv);
  ajv.addKeyword({ keyword: 'x-spec', schemaType: 'string' });
  ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'paths', 'components']);
  ajv.addSchema({ ...doc, $id: 'lpc:openapi' });
  return ajv;
}

describe("the reference profile's document describes the bundled server", () => {
  const SANDBOX = {
    LPC_SCIM_TOKEN: 'lpc-openapi-scim-token',
    LPC_LEARNER_USERNAME: 'learner.a@example.com',
    LPC_LEARNER_PASSWORD: 'lpc-learner-a-password',
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
      const ajv = documentAjv(doc);
      const auth = await request(`${url}/authenticate`, {
        method: 'POST',
        headers: { 'x-api-key': SANDBOX.LPC_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ username: SANDBOX.LPC_USERNAME, password: SANDBOX.LPC_PASSWORD, privateKey: SANDBOX.LPC_PRIVATE_KEY }),
      });
      const token = (await auth.body.json()) as string;
      const undocumented: string[] = [];
      let bodiesChecked = 0;
      // The Integration API's JSON operations (the other families' paths carry servers; the OAuth flow
      // is proven by its own checks).
      const intapi = Object.entries(doc.paths).filter(([path, item]) => !('servers' in item) && !path.startsWith('/oauth/'));
      for (const [path, item] of intapi) {
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

  test('documented statuses and bodies of the SCIM and learner API paths', async () => {
    const doc = await documentOf([]);
    const { url, stop } = await serveCli([], SANDBOX);
    try {
      const ajv = documentAjv(doc);
      const login = await request(`${url}/api/rest/v2/token`, {
        method: 'POST',
        headers: { 'x-api-key': SANDBOX.LPC_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ username: SANDBOX.LPC_LEARNER_USERNAME, password: SANDBOX.LPC_LEARNER_PASSWORD }),
      });
      const learnerToken = ((await login.body.json()) as { access_token: string }).access_token;
      const undocumented: string[] = [];
      const statuses = new Set<string>();
      for (const [path, item] of Object.entries(doc.paths).filter(([, i]) => 'servers' in i)) {
        for (const [method, op] of Object.entries(item).filter(([m]) => m !== 'servers')) {
          const scim = path.startsWith('/scim/');
          const good = scim
            ? { authorization: `Bearer ${SANDBOX.LPC_SCIM_TOKEN}` }
            : { 'x-api-key': SANDBOX.LPC_API_KEY, authorization: `Bearer ${learnerToken}` };
          const filled = path.replace(/\{([^{}]+)\}/g, (_, name: string) => RECORD[name] ?? '00000000-0000-4000-8000-00000000ffff');
          const media = Object.keys(op.requestBody?.content ?? {})[0];
          for (const [label, headers] of [
            ['as given', good],
            ['no token', {}],
          ] as const) {
            const res = await request(`${url}${filled}`, {
              method: method.toUpperCase(),
              headers: { ...headers, ...(media ? { 'content-type': media } : {}) },
              ...(media ? { body: '{}' } : {}),
            });
            const text = await res.body.text();
            const response = op.responses[String(res.statusCode)];
            statuses.add(`${op.operationId} ${res.statusCode}`);
            if (!response) {
              undocumented.push(`${op.operationId} ${label}: ${res.statusCode}`);
              continue;
            }
            const schema = Object.values(response.content ?? {})[0]?.schema;
            if (schema?.$ref) {
              const validate = ajv.compile({ $ref: `lpc:openapi${schema.$ref}` });
              if (!validate(JSON.parse(text))) undocumented.push(`${op.operationId} ${label}: ${res.statusCode} body ${ajv.errorsText(validate.errors)}`);
            }
          }
        }
      }
      expect(undocumented).toEqual([]);
      // Success bodies too, not only refusals.
      for (const ok of ['scim.users.list 200', 'scim.schemas.list 200', 'learner.catalog.list 200', 'learner.branding.get 200']) expect(statuses).toContain(ok);
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

  test("components are the families' contracts: a contract of no family is left out", () => {
    const withOther = new Map([...contracts, ['other/x', { $id: 'lp:other/x', type: 'object', not: { $ref: 'lp:other/elsewhere' } }]]);
    const names = Object.keys(build(withOther).components.schemas);
    expect(names).not.toContain('other.x');
    expect(names.sort()).toEqual([...contracts.keys()].map((n) => n.replace('/', '.')).sort());
  });

  test('the same inputs give the same document', () => {
    expect(JSON.stringify(build())).toBe(JSON.stringify(build()));
  });
});
