// SCIM authentication (RFC 7644 §2 and §3.12 Table 8; RFC 6750 §3; public-facts "Authentication
// (SCIM)": a bearer token), the unsupported endpoints of specification rule 4, and the request media
// types (RFC 7644 §3.1, §3.8, §8.1).
import { expectStatus, fail } from '../_harness/failure.js';
import type { ApiRequest } from '../_harness/http.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { expectScimError, runMarker, SCIM_SCHEMAS, sendFittedUser, sendMaybeCreatingUser, uniqueName, userBody } from '../_harness/scim/records.js';

const WRONG_TOKEN = 'Bearer lpc-wrong-token-0000000000';

requirement(
  {
    id: 'scim.auth.missing-token-401',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    binds: 'RFC 7644 §3.12 Table 8: 401 "Authorization failure. The authorization header is invalid or missing."',
    title: 'A SCIM request without Authorization answers 401',
  },
  async (t) => {
    expectScimError(await t.http.send({ op: 'scim.users.list', query: { count: 1 }, token: 'none' }), 401, undefined, 'without Authorization');
  },
);

requirement(
  {
    id: 'scim.auth.wrong-token-401',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    binds: 'RFC 7644 §3.12 Table 8: 401 "Authorization failure. The authorization header is invalid or missing."',
    title: 'A SCIM request with a bearer token never issued answers 401',
  },
  async (t) => {
    expectScimError(await t.http.send({ op: 'scim.users.list', query: { count: 1 }, token: { literal: WRONG_TOKEN } }), 401, undefined, 'with a wrong token');
  },
);

requirement(
  {
    id: 'scim.auth.www-authenticate',
    level: 'MUST',
    spec: 'rfc7644#section-2',
    title: 'A SCIM 401 carries a WWW-Authenticate challenge (RFC 7235 §3.1, RFC 6750 §3)',
  },
  async (t) => {
    const probes = [
      await t.http.send({ op: 'scim.users.list', query: { count: 1 }, token: 'none' }),
      await t.http.send({ op: 'scim.users.list', query: { count: 1 }, token: { literal: WRONG_TOKEN } }),
    ];
    const refused = probes.filter((res) => res.status === 401);
    if (refused.length === 0) t.skip('the target answered no 401 to judge (the 401 checks say why)');
    for (const res of refused) {
      const challenge = res.headers['www-authenticate'];
      if (challenge === undefined || challenge.trim() === '')
        fail('a WWW-Authenticate header with a challenge (Bearer) on the 401', 'no WWW-Authenticate header', res);
    }
  },
);

// --- unsupported endpoints (specification rule 4) ------------------------------------------------

interface Probe {
  /** The profile's name of the endpoint (`expectations.scim.unsupported`). */
  endpoint: '/Me' | '/ServiceProviderConfig' | '/ResourceTypes' | '/Bulk' | '/.search';
  name: string;
  method: string;
  path: string;
  body?: (t: CheckContext) => unknown;
}

const patchBody = { schemas: [SCIM_SCHEMAS.patchOp], Operations: [{ op: 'replace', path: 'title', value: 'lpc' }] };
const searchBody = (t: CheckContext) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
  filter: `userName sw "${runMarker(t)}none-"`,
  count: 1,
});

const PROBES: readonly Probe[] = [
  { endpoint: '/Me', name: 'me.get', method: 'GET', path: '/Me' },
  { endpoint: '/Me', name: 'me.post', method: 'POST', path: '/Me', body: (t) => userBody(uniqueName(t, 'me')) },
  { endpoint: '/Me', name: 'me.put', method: 'PUT', path: '/Me', body: (t) => userBody(uniqueName(t, 'me')) },
  { endpoint: '/Me', name: 'me.patch', method: 'PATCH', path: '/Me', body: () => patchBody },
  { endpoint: '/Me', name: 'me.delete', method: 'DELETE', path: '/Me' },
  { endpoint: '/ServiceProviderConfig', name: 'service-provider-config.get', method: 'GET', path: '/ServiceProviderConfig' },
  { endpoint: '/ResourceTypes', name: 'resource-types.get', method: 'GET', path: '/ResourceTypes' },
  {
    endpoint: '/Bulk',
    name: 'bulk.post',
    method: 'POST',
    path: '/Bulk',
    body: () => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [] }),
  },
  { endpoint: '/.search', name: 'search.root', method: 'POST', path: '/.search', body: searchBody },
  { endpoint: '/.search', name: 'search.users', method: 'POST', path: '/Users/.search', body: searchBody },
  { endpoint: '/.search', name: 'search.groups', method: 'POST', path: '/Groups/.search', body: searchBody },
];

for (const probe of PROBES) {
  requirement(
    {
      id: `scim.unsupported.${probe.name}`,
      level: 'PROFILE',
      spec: 'spec#scim-20-api',
      title: `${probe.method} ${probe.path} answers the profile's unsupported status with a SCIM error`,
    },
    async (t) => {
      const { unsupported, unsupportedStatus } = t.profile.expectations.scim;
      if (!unsupported.includes(probe.endpoint)) t.skip(`the profile says the target supports ${probe.endpoint}`);
      const body = probe.body?.(t);
      const req: ApiRequest = { op: 'scim.users.list', route: { method: probe.method, path: probe.path }, ...(body !== undefined ? { json: body } : {}) };
      const res = await sendMaybeCreatingUser(t, req, `${probe.method} ${probe.path}`);
      expectScimError(res, unsupportedStatus, undefined, `(unsupported, specification rule 4) to ${probe.method} ${probe.path}`);
    },
    // The writes name the users collection: the endpoints would act on users if they were served.
    probe.method === 'GET' ? undefined : { write: ['scim.users'] },
  );
}

// --- request media types -------------------------------------------------------------------------

requirement(
  {
    id: 'scim.media.scim-json-request',
    level: 'MUST',
    spec: 'rfc7644#section-3.8',
    title: 'A POST /Users body sent as application/scim+json is accepted (2xx)',
  },
  async (t) => {
    const name = uniqueName(t, 'scimjson');
    const res = await sendFittedUser(t, userBody(name), (json) =>
      sendMaybeCreatingUser(t, { op: 'scim.users.create', json, contentType: 'application/scim+json' }, name),
    );
    expectStatus(res, [200, 201], 'to a valid user sent as application/scim+json (accepted)');
  },
  { write: ['scim.users'] },
);

requirement(
  {
    id: 'scim.media.json-request',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.8',
    title: 'A POST /Users body sent as application/json is accepted (2xx)',
  },
  async (t) => {
    const name = uniqueName(t, 'plainjson');
    const res = await sendFittedUser(t, userBody(name), (json) =>
      sendMaybeCreatingUser(t, { op: 'scim.users.create', json, contentType: 'application/json' }, name),
    );
    expectStatus(res, [200, 201], 'to a valid user sent as application/json (accepted)');
  },
  { write: ['scim.users'] },
);
