// The client speaks each family's protocol (families.md): SCIM gets its bearer token, the SCIM
// media type and neither x-api-key nor x-api-version; a family without credentials is skipped,
// naming the variables; the SCIM invariants judge every SCIM exchange.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadProfile, withTarget, type OperationId, type Profile } from '../../src/profile/index.js';
import { createSecrets, MissingCredentialsError } from '../../src/target/secrets.js';
import { Client, Recorder, type ApiResponse } from '../../suites/_harness/http.js';
import { checkScimInvariants } from '../../suites/_harness/scim/invariants.js';

const env = { LPC_API_KEY: 'key-fam', LPC_USERNAME: 'u', LPC_PASSWORD: 'p', LPC_PRIVATE_KEY: 'pk', LPC_SCIM_TOKEN: 'scim-tok-5d1e' };
const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let server: Server;
let profile: Profile;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/scim+json' });
      res.end(
        JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, Resources: [], startIndex: 1, itemsPerPage: 0 }),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  profile = withTarget(loadProfile(undefined), `http://127.0.0.1:${port}`);
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const client = (vars: Record<string, string>) =>
  new Client(profile, createSecrets(profile, 5_000, vars), new Recorder('scim.test.families'), { timeoutMs: 5_000, uses: { write: ['scim.users'] } });

describe('a SCIM request', () => {
  test('goes to the SCIM base with the SCIM bearer token and media type, without the Integration API headers', async () => {
    seen.length = 0;
    await client(env).send({ op: 'scim.users.create', json: { userName: 'x' }, headers: { 'If-Match': 'W/"1"' } });
    const [req] = seen;
    expect(req?.method).toBe('POST');
    expect(req?.url).toBe('/scim/v2/Users');
    expect(req?.headers.authorization).toBe('Bearer scim-tok-5d1e');
    expect(req?.headers['content-type']).toBe('application/scim+json');
    expect(req?.headers.accept).toBe('application/scim+json');
    expect(req?.headers['if-match']).toBe('W/"1"');
    expect(req?.headers['x-api-key']).toBeUndefined();
    expect(req?.headers['x-api-version']).toBeUndefined();
  });

  test('a route outside the operations table goes under the SCIM base too', async () => {
    seen.length = 0;
    await client(env).send({ op: 'scim.users.list', route: { method: 'GET', path: '/ServiceProviderConfig' } });
    expect(seen[0]?.url).toBe('/scim/v2/ServiceProviderConfig');
  });

  test('without the SCIM variables, the check is skipped naming them (MissingCredentialsError), and nothing is sent', async () => {
    seen.length = 0;
    const { LPC_SCIM_TOKEN: _unset, ...without } = env;
    await expect(client(without).send({ op: 'scim.users.list' })).rejects.toThrow(MissingCredentialsError);
    await expect(client(without).send({ op: 'scim.users.list' })).rejects.toThrow('LPC_SCIM_TOKEN not set');
    expect(seen).toHaveLength(0);
  });
});

describe('the SCIM invariants', () => {
  const answer = (status: number, json: unknown, type = 'application/scim+json'): ApiResponse =>
    ({ status, headers: { 'content-type': type }, text: JSON.stringify(json), json, exchange: {} }) as unknown as ApiResponse;
  const error = (status: unknown) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status, detail: 'x' });
  const ids = (res: ApiResponse, op: OperationId = 'scim.users.get') => checkScimInvariants({ op }, res).violations.map((v) => v.invariant);

  test('an error body with status as a string equal to the HTTP status passes; a number or another status fails', () => {
    expect(ids(answer(404, error('404')))).toEqual([]);
    expect(ids(answer(404, error(404)))).toEqual(['scim.invariant.error-body-matches-contract']);
    expect(ids(answer(404, error('400')))).toEqual(['scim.invariant.error-status-equals-status']);
  });

  test('application/json is not the SCIM media type', () => {
    expect(ids(answer(404, error('404'), 'application/json; charset=utf-8'))).toEqual(['scim.invariant.scim-content-type']);
    expect(ids(answer(404, error('404'), 'application/scim+json; charset=utf-8'))).toEqual([]);
  });

  test('a password or a missing id in a returned resource, also inside a list', () => {
    const user = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id: 'u1', userName: 'a' };
    expect(ids(answer(200, user))).toEqual([]);
    expect(ids(answer(200, { ...user, password: 'x' }))).toContain('scim.invariant.password-never-returned');
    const list = (r: unknown) => ({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
      Resources: [r],
    });
    expect(ids(answer(200, list({ ...user, Password: 'x' })), 'scim.users.list')).toContain('scim.invariant.password-never-returned');
    const { id: _id, ...noId } = user;
    expect(ids(answer(200, list(noId)), 'scim.users.list')).toContain('scim.invariant.id-in-every-resource');
  });

  test('a 5xx answer', () => {
    expect(ids(answer(500, error('500')))).toEqual(['scim.invariant.no-5xx']);
  });
});
