// SCIM discovery (RFC 7644 §4; RFC 7643 §5-7): when the target serves /ServiceProviderConfig and
// /ResourceTypes (the profile's `unsupported` leaves them out), their content, and the target held
// to what its /ServiceProviderConfig declares of sort, filter and PATCH (versions and Bulk are held
// to it by the etag and bulk checks, which run when it declares them). /Schemas is served by every
// target (public-facts). A target that serves none of them is not judged here: the specification's
// rule 4, checked by scim.unsupported.*.
import { fail } from '../_harness/failure.js';
import { blockedBy, notSetUp } from '../_harness/outcomes.js';
import type { ApiResponse } from '../_harness/http.js';
import { memo, type Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { blockOf, requireServed, serviceProviderConfig } from '../_harness/scim/capabilities.js';
import { compareFolded, createListFixture } from '../_harness/scim/list-fixture.js';
import { listUsers } from '../_harness/scim/paging.js';
import { createUser, expectScimError, literal, pageOf, pageSaid, resourceOf, SCIM_SCHEMAS } from '../_harness/scim/records.js';
import { requireUserAttributes, USER_URN } from '../_harness/scim/target.js';

const SPC_URN = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_URN = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const WRITES = { write: ['scim.users'] } as const;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const sameUrn = (a: unknown, b: string): boolean => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** A discovery endpoint's answer (an answer without resources: the invariants judge its media type and status). */
const discover = (t: CheckContext, path: string): Promise<ApiResponse> => t.http.send({ op: 'scim.schemas.list', route: { method: 'GET', path } });

/** Fails with every problem found, when there is one. */
function expectNone(problems: readonly string[], expected: string, res: ApiResponse): void {
  if (problems.length > 0) fail(expected, problems.join('; '), res);
}

requirement(
  {
    id: 'scim.discovery.service-provider-config',
    level: 'MUST',
    spec: 'rfc7643#section-5',
    title: 'GET /ServiceProviderConfig answers its schema URN and every attribute RFC 7643 §5 makes REQUIRED',
  },
  async (t) => {
    requireServed(t, '/ServiceProviderConfig');
    const res = await discover(t, '/ServiceProviderConfig');
    if (res.status !== 200) fail('200 with the ServiceProviderConfig (the profile says it is served)', `${res.status}`, res);
    const spc = resourceOf(res);
    const problems: string[] = [];
    if (!Array.isArray(spc.schemas) || !spc.schemas.some((s) => sameUrn(s, SPC_URN)))
      problems.push(`schemas ${JSON.stringify(spc.schemas)} without ${SPC_URN}`);
    const fields: readonly [string, string, 'boolean' | 'integer'][] = [
      ['patch', 'supported', 'boolean'],
      ['bulk', 'supported', 'boolean'],
      ['bulk', 'maxOperations', 'integer'],
      ['bulk', 'maxPayloadSize', 'integer'],
      ['filter', 'supported', 'boolean'],
      ['filter', 'maxResults', 'integer'],
      ['changePassword', 'supported', 'boolean'],
      ['sort', 'supported', 'boolean'],
      ['etag', 'supported', 'boolean'],
    ];
    for (const [block, name, type] of fields) {
      const value = isObject(spc[block]) ? (spc[block] as Json)[name] : undefined;
      const ok = type === 'boolean' ? typeof value === 'boolean' : typeof value === 'number' && Number.isInteger(value);
      if (!ok) problems.push(`${block}.${name} ${value === undefined ? 'absent' : JSON.stringify(value)} (a REQUIRED ${type})`);
    }
    const schemes = spc.authenticationSchemes;
    if (!Array.isArray(schemes)) problems.push('authenticationSchemes absent (REQUIRED, a list)');
    else
      schemes.forEach((s, i) => {
        for (const name of ['name', 'description']) {
          if (!isObject(s) || typeof s[name] !== 'string') problems.push(`authenticationSchemes[${i}].${name} absent (REQUIRED)`);
        }
      });
    expectNone(problems, 'the ServiceProviderConfig schema URN and every REQUIRED attribute (RFC 7643 §5)', res);
  },
);

requirement(
  {
    id: 'scim.discovery.resource-types',
    level: 'MUST',
    spec: 'rfc7643#section-6',
    title: 'GET /ResourceTypes lists User and Group with their core schemas and the endpoints that serve them',
  },
  async (t) => {
    requireServed(t, '/ResourceTypes');
    const res = await discover(t, '/ResourceTypes');
    if (res.status !== 200) fail('200 with a ListResponse of ResourceTypes (the profile says it is served)', `${res.status}`, res);
    const { resources } = pageOf(res);
    const problems: string[] = [];
    resources.forEach((r, i) => {
      for (const name of ['name', 'endpoint', 'schema']) if (typeof r[name] !== 'string') problems.push(`Resources[${i}].${name} absent (REQUIRED)`);
      if (!Array.isArray(r.schemas) || !r.schemas.some((s) => sameUrn(s, RESOURCE_TYPE_URN)))
        problems.push(`Resources[${i}].schemas without ${RESOURCE_TYPE_URN}`);
    });
    // Where the suite reaches users and groups (the profile's routes): the endpoints the resource types must name.
    const expected: readonly [string, string][] = [
      [USER_URN, t.profile.operations['scim.users.list'].path],
      [SCIM_SCHEMAS.group, t.profile.operations['scim.groups.list'].path],
    ];
    for (const [urn, endpoint] of expected) {
      const type = resources.find((r) => sameUrn(r.schema, urn));
      if (type === undefined) problems.push(`no resource type with schema ${urn}`);
      else if (typeof type.endpoint !== 'string' || type.endpoint.replace(/\/+$/, '') !== endpoint)
        problems.push(`the resource type of ${urn} names the endpoint ${JSON.stringify(type.endpoint)}, where ${endpoint} serves it`);
    }
    expectNone(problems, 'a resource type for User at /Users and Group at /Groups, each with name, endpoint and schema (RFC 7643 §6)', res);
  },
);

requirement(
  {
    id: 'scim.discovery.schemas-core',
    level: 'MUST',
    spec: 'rfc7643#section-7',
    title: 'GET /Schemas lists the core User and Group schemas by URN, each with its attributes',
  },
  async (t) => {
    const res = await t.http.send({ op: 'scim.schemas.list' });
    if (res.status !== 200) fail('200 with a ListResponse of Schemas', `${res.status}`, res);
    const { resources } = pageOf(res);
    const problems: string[] = [];
    for (const [urn, attribute] of [
      [USER_URN, 'userName'],
      [SCIM_SCHEMAS.group, 'displayName'],
    ] as const) {
      const schema = resources.find((r) => sameUrn(r.id, urn));
      if (schema === undefined) problems.push(`no schema with id ${urn}`);
      else if (!Array.isArray(schema.attributes) || !schema.attributes.some((a) => isObject(a) && a.name === attribute))
        problems.push(`the schema ${urn} without its attribute ${attribute}`);
    }
    expectNone(problems, 'the User and Group schemas (RFC 7643 §7), with userName and displayName among their attributes', res);
  },
);

const NOT_FOUND = 'RFC 7644 §3.12 Table 8: 404 "Specified resource (e.g., User) or endpoint does not exist."';

requirement(
  {
    id: 'scim.discovery.resource-type-unknown-404',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    binds: NOT_FOUND,
    title: 'GET /ResourceTypes/{name} of a resource type the target does not have answers 404',
  },
  async (t) => {
    requireServed(t, '/ResourceTypes');
    // A name no server has: the run's seeded tail makes it one no check or run has sent before.
    const name = `LpcNoSuchType${t.uuid().slice(0, 8)}`;
    expectScimError(await discover(t, `/ResourceTypes/${name}`), 404, undefined, `to GET /ResourceTypes/${name} (no such resource type)`);
  },
);

requirement(
  {
    id: 'scim.discovery.schema-unknown-404',
    level: 'MUST',
    spec: 'rfc7644#section-3.12',
    binds: NOT_FOUND,
    title: 'GET /Schemas/{urn} of a schema URN the target does not have answers 404',
  },
  async (t) => {
    const urn = `urn:ietf:params:scim:schemas:extension:lpc-no-such:2.0:${t.uuid().slice(0, 8)}`;
    expectScimError(await t.http.send({ op: 'scim.schemas.get', params: { id: urn } }), 404, undefined, `to GET /Schemas/${urn} (no such schema)`);
  },
);

const sortFixture = memo((t) => createListFixture(t, 'ds', 4));

requirement(
  {
    id: 'scim.discovery.sort-as-declared',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2.3',
    title: 'sortBy works as /ServiceProviderConfig sort.supported says: sorted if true, else ignored or refused',
  },
  async (t) => {
    const spc = await serviceProviderConfig(t);
    const declared = blockOf(spc, 'sort').supported;
    const f = await sortFixture(t);
    const query = { filter: f.filter, sortBy: 'userName', sortOrder: 'descending', count: 10 };
    const res = await t.http.send({ op: 'scim.users.list', query });
    // The filter confines the list to the check's users (the one the target's filter allows): its refusal leaves nothing to judge.
    if (res.status === 400 && resourceOf(res).scimType === 'invalidFilter') notSetUp(res, "the list of the check's users (its filter)");
    if (declared !== true) {
      if (res.status !== 200 && res.status !== 400)
        fail('200 (sortBy ignored) or 400 (refused): /ServiceProviderConfig says sort.supported false', `${res.status}`, res);
      return;
    }
    if (res.status !== 200) fail('200 with the users sorted: /ServiceProviderConfig says sort.supported true', `${res.status}`, res);
    const names = pageOf(res).resources.map((r) => String(r.userName));
    for (let i = 1; i < names.length; i++) {
      if (compareFolded(names[i - 1] ?? '', names[i] ?? '') < 0)
        fail('userName descending (compared case-insensitively): /ServiceProviderConfig says sort.supported true', `${JSON.stringify(names)}`, res);
    }
  },
  WRITES,
);

requirement(
  {
    id: 'scim.discovery.filter-as-declared',
    level: 'MUST',
    spec: 'rfc7643#section-5',
    title: 'A userName eq filter selects just its user when /ServiceProviderConfig says filter.supported true',
  },
  async (t) => {
    const spc = await serviceProviderConfig(t);
    if (blockOf(spc, 'filter').supported !== true)
      t.skip('/ServiceProviderConfig says filter.supported false: the filter checks judge what the profile declares');
    const user = await createUser(t, 'fd');
    // Sent as is: a refusal (400 invalidFilter) is this rule's failure, not a check not set up.
    const res = await t.http.send({ op: 'scim.users.list', query: { filter: `userName eq ${literal(user.userName)}` } });
    const page = pageOf(res);
    if (res.status !== 200 || page.resources.length !== 1 || page.resources[0]?.id !== user.id)
      fail(`exactly the user ${user.id}: /ServiceProviderConfig says filter.supported true`, `${res.status}; ${pageSaid(page)}`, res);
  },
  WRITES,
);

/** Users the check may create to have more than maxResults of them. */
const MAX_TOP_UP = 5;

requirement(
  {
    id: 'scim.discovery.max-results-as-declared',
    level: 'MUST',
    spec: 'rfc7643#section-5',
    title: 'A list asked for more than /ServiceProviderConfig filter.maxResults answers at most that many',
  },
  async (t) => {
    const spc = await serviceProviderConfig(t);
    const max = blockOf(spc, 'filter').maxResults;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1)
      return t.skip('/ServiceProviderConfig gives no filter.maxResults (scim.discovery.service-provider-config judges it)');
    const probe = await listUsers(t, { count: 0 }, 'to a count of the users');
    const total = probe.page.totalResults ?? 0;
    if (total <= max) {
      t.requireData(
        max + 1 - total <= MAX_TOP_UP,
        `the target holds ${total} users and maxResults is ${max}: more than ${MAX_TOP_UP} users would have to be made`,
      );
      for (let i = total; i <= max; i++) await createUser(t, 'mr');
    }
    const { res, page } = await listUsers(t, { count: max + 1, attributes: 'userName' }, `to count=${max + 1}`);
    if (page.resources.length > max) fail(`at most ${max} resources (/ServiceProviderConfig filter.maxResults)`, pageSaid(page), res);
  },
  WRITES,
);

/** Creates a user and PATCHes one attribute of it (when the SPC declares `blocks` supported and the
 * User has the attribute): 200 or 204 expected. */
async function declaredPatch(t: CheckContext, blocks: readonly string[], path: string, value: string): Promise<ApiResponse> {
  const spc = await serviceProviderConfig(t);
  for (const block of blocks) if (blockOf(spc, block).supported !== true) t.skip(`/ServiceProviderConfig says ${block}.supported false`);
  await requireUserAttributes(t, [path]);
  const user = await createUser(t, 'pd');
  return t.http.send({
    op: 'scim.users.patch',
    params: { id: user.id },
    json: { schemas: [SCIM_SCHEMAS.patchOp], Operations: [{ op: 'replace', path, value }] },
  });
}

requirement(
  {
    id: 'scim.discovery.patch-as-declared',
    level: 'MUST',
    spec: 'rfc7643#section-5',
    title: "A PATCH of a user's displayName succeeds when /ServiceProviderConfig says patch.supported true",
  },
  async (t) => {
    const res = await declaredPatch(t, ['patch'], 'displayName', 'Lpc declared patch');
    if (res.status !== 200 && res.status !== 204) fail('200 or 204: /ServiceProviderConfig says patch.supported true', `${res.status}`, res);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.discovery.change-password-as-declared',
    level: 'MUST',
    spec: 'rfc7643#section-5',
    title: "A PATCH of a user's password succeeds when /ServiceProviderConfig says changePassword.supported true",
  },
  async (t) => {
    // The password is changed by PATCH: patch.supported is needed too.
    const res = await declaredPatch(t, ['changePassword', 'patch'], 'password', `Lpc-${t.uuid().slice(0, 12)}-9!`);
    // 501: PATCH itself is not implemented, scim.discovery.patch-as-declared's failure (RFC 7644 Table 8).
    if (res.status === 501) blockedBy('scim.discovery.patch-as-declared', 'PATCH answered 501 Not Implemented', res);
    if (res.status !== 200 && res.status !== 204) fail('200 or 204: /ServiceProviderConfig says changePassword.supported true', `${res.status}`, res);
  },
  WRITES,
);
