// SCIM Bulk (RFC 7644 §3.7): when the target declares it (/ServiceProviderConfig bulk.supported,
// else the profile's `unsupported` without /Bulk), a BulkResponse holds one result per operation,
// `bulkId:<id>` in a later operation stands for the resource an earlier one created, processing
// stops after failOnErrors errors, and more operations than maxOperations or a body larger than
// maxPayloadSize answer 413 (the limits /ServiceProviderConfig gives; without it those two are
// skipped). What the operations create carries the run's marker and is noted for the cleanup from
// the results' locations.
import { fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { notSetUp } from '../_harness/outcomes.js';
import type { Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { requireBulk } from '../_harness/scim/capabilities.js';
import { groupBody, noteCreatedAt, resourceOf, SCIM_SCHEMAS, uniqueName, userBody } from '../_harness/scim/records.js';
import { fitUser } from '../_harness/scim/target.js';

const BULK_REQUEST_URN = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const WRITES = { write: ['scim.users', 'scim.groups'] } as const;
/** Limits above these are not probed (the request would be too large to send as a check). */
const MAX_OPERATIONS_PROBED = 1000;
const MAX_PAYLOAD_PROBED = 8 * 1024 * 1024;

interface BulkResult {
  method: unknown;
  bulkId: unknown;
  location: unknown;
  status: string;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** POST /Bulk, as the unsupported-endpoint probes send it: under the users' list operation, whose
 * invariants read `Resources` (a BulkResponse has none) and judge its media type and status. */
const bulk = (t: CheckContext, operations: readonly Json[], failOnErrors?: number): Promise<ApiResponse> =>
  t.http.send({
    op: 'scim.users.list',
    route: { method: 'POST', path: '/Bulk' },
    json: { schemas: [BULK_REQUEST_URN], ...(failOnErrors === undefined ? {} : { failOnErrors }), Operations: operations },
  });

/**
 * A Bulk result's status as its code: RFC 7644 §3.7.3's prose says the status "MUST include the
 * code attribute" (an object, `{"code": "201"}`, as SCIM 1.1 had it) while its examples write
 * `"status": "201"`; servers send either, and both are read. A status that is neither is ''.
 */
function statusCode(status: unknown): string {
  if (typeof status === 'string' || typeof status === 'number') return String(status);
  if (isObject(status) && (typeof status.code === 'string' || typeof status.code === 'number')) return String(status.code);
  return '';
}

/** The results of a BulkResponse (status as a string or as an object with its code: `statusCode`), each created resource noted for the cleanup. */
function resultsOf(t: CheckContext, res: ApiResponse, names: ReadonlyMap<string, { kind: 'user' | 'group'; name: string }>): BulkResult[] {
  const ops = resourceOf(res).Operations;
  const results = (Array.isArray(ops) ? ops : []).filter(isObject).map((o) => ({
    method: o.method,
    bulkId: o.bulkId,
    location: o.location,
    status: statusCode(o.status),
  }));
  for (const r of results) {
    const made = typeof r.bulkId === 'string' ? names.get(r.bulkId) : undefined;
    if (made !== undefined && /^2/.test(r.status)) noteCreatedAt(t, r.location, made.kind, made.name);
  }
  return results;
}

const post = async (t: CheckContext, bulkId: string, tag: string): Promise<{ op: Json; name: string }> => {
  const name = uniqueName(t, tag);
  return { op: { method: 'POST', path: '/Users', bulkId, data: await fitUser(t, userBody(name)) }, name };
};

const statuses = (results: readonly BulkResult[]): string => JSON.stringify(results.map((r) => `${String(r.bulkId ?? r.method)}: ${r.status}`));

requirement(
  {
    id: 'scim.bulk.result-per-operation',
    level: 'MUST',
    spec: 'rfc7644#section-3.7',
    title: 'A BulkResponse holds one result per operation, with its bulkId, status and the created location',
  },
  async (t) => {
    await requireBulk(t);
    const a = await post(t, 'a', 'bka');
    const b = await post(t, 'b', 'bkb');
    const res = await bulk(t, [a.op, b.op]);
    if (res.status !== 200) fail('200 with a BulkResponse', `${res.status}`, res);
    const results = resultsOf(
      t,
      res,
      new Map([
        ['a', { kind: 'user', name: a.name }],
        ['b', { kind: 'user', name: b.name }],
      ]),
    );
    const problems: string[] = [];
    for (const id of ['a', 'b']) {
      const r = results.filter((x) => x.bulkId === id);
      if (r.length !== 1) problems.push(`${r.length} results with bulkId ${id}`);
      else if (!/^2\d\d$/.test(r[0]?.status ?? '') || typeof r[0]?.location !== 'string')
        problems.push(`bulkId ${id}: status ${r[0]?.status ?? ''}, location ${JSON.stringify(r[0]?.location)}`);
    }
    if (results.length !== 2) problems.push(`${results.length} results for 2 operations`);
    if (problems.length > 0) fail('one result per operation: bulkId a and b, each 2xx with the location created', problems.join('; '), res);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.bulk.bulkid-reference',
    level: 'MUST',
    spec: 'rfc7644#section-3.7.2',
    title: 'bulkId:<id> in a later operation stands for the user an earlier operation created',
  },
  async (t) => {
    await requireBulk(t);
    const member = await post(t, 'member', 'bkm');
    const groupName = uniqueName(t, 'bkg');
    const group = { method: 'POST', path: '/Groups', bulkId: 'group', data: groupBody(groupName, { members: [{ type: 'User', value: 'bulkId:member' }] }) };
    const res = await bulk(t, [member.op, group]);
    if (res.status !== 200) fail('200 with a BulkResponse', `${res.status}`, res);
    const results = resultsOf(
      t,
      res,
      new Map([
        ['member', { kind: 'user', name: member.name }],
        ['group', { kind: 'group', name: groupName }],
      ]),
    );
    const made = results.find((r) => r.bulkId === 'member');
    if (made === undefined || !/^2/.test(made.status)) notSetUp(res, 'the user the Bulk request creates');
    const grouped = results.find((r) => r.bulkId === 'group');
    if (grouped === undefined || !/^2/.test(grouped.status) || typeof grouped.location !== 'string')
      fail('the group created (2xx) with the user bulkId:member stands for as its member', statuses(results), res);
    const memberId = String(made.location).replace(/\/+$/, '').split('/').at(-1) ?? '';
    const read = await t.http.send({ op: 'scim.groups.get', params: { id: grouped.location.replace(/\/+$/, '').split('/').at(-1) ?? '' } });
    const members = resourceOf(read).members;
    const values = Array.isArray(members) ? members.filter(isObject).map((m) => m.value) : [];
    if (!values.includes(memberId)) fail(`the group's members holding ${memberId} (the user bulkId:member created)`, `members ${JSON.stringify(values)}`, read);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.bulk.fail-on-errors',
    level: 'MUST',
    spec: 'rfc7644#section-3.7.3',
    title: 'With failOnErrors 1, a Bulk request stops after its first failed operation',
  },
  async (t) => {
    await requireBulk(t);
    const broken = { method: 'POST', path: '/Users', bulkId: 'broken', data: { schemas: [SCIM_SCHEMAS.user], displayName: 'Lpc without userName' } };
    const after = await post(t, 'after', 'bkf');
    const res = await bulk(t, [broken, after.op], 1);
    if (res.status !== 200 && !(res.status >= 400 && res.status < 500)) fail('a BulkResponse (200) or a 4xx error', `${res.status}`, res);
    const results = res.status === 200 ? resultsOf(t, res, new Map([['after', { kind: 'user', name: after.name }]])) : [];
    const processed = results.filter((r) => r.bulkId === 'after');
    if (processed.length > 0) fail('no result for the operation after the first error (failOnErrors 1)', statuses(results), res);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.bulk.max-operations-413',
    level: 'MUST',
    spec: 'rfc7644#section-3.7.4',
    binds: 'RFC 7644 §3.7.4: the service provider MUST answer 413 (Payload Too Large) to a request with more operations than maxOperations',
    title: 'A Bulk request with more operations than maxOperations answers 413',
  },
  async (t) => {
    const { maxOperations } = await requireBulk(t);
    if (maxOperations === undefined) return t.skip('the target gives no bulk.maxOperations (/ServiceProviderConfig)');
    t.requireData(maxOperations < MAX_OPERATIONS_PROBED, `bulk.maxOperations is ${maxOperations}: more than ${MAX_OPERATIONS_PROBED} operations are not sent`);
    // Deletions of users that do not exist: processed anyway, they change nothing.
    const operations = Array.from({ length: maxOperations + 1 }, () => ({ method: 'DELETE', path: `/Users/${t.uuid()}` }));
    const res = await bulk(t, operations);
    if (res.status !== 413) fail(`413 to ${maxOperations + 1} operations (bulk.maxOperations ${maxOperations})`, `${res.status}`, res);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.bulk.max-payload-413',
    level: 'MUST',
    spec: 'rfc7644#section-3.7.4',
    binds: 'RFC 7644 §3.7.4: the service provider MUST answer 413 (Payload Too Large) to a request larger than maxPayloadSize',
    title: 'A Bulk request larger than maxPayloadSize answers 413',
  },
  async (t) => {
    const { maxPayloadSize } = await requireBulk(t);
    if (maxPayloadSize === undefined) return t.skip('the target gives no bulk.maxPayloadSize (/ServiceProviderConfig)');
    t.requireData(maxPayloadSize < MAX_PAYLOAD_PROBED, `bulk.maxPayloadSize is ${maxPayloadSize} bytes: larger bodies are not sent`);
    // One replacement of a user that does not exist, padded past the limit: processed anyway, it changes nothing.
    const data = userBody(uniqueName(t, 'bkp'), { displayName: 'x'.repeat(maxPayloadSize) });
    const res = await bulk(t, [{ method: 'PUT', path: `/Users/${t.uuid()}`, data }]);
    if (res.status !== 413) fail(`413 to a body over ${maxPayloadSize} bytes (bulk.maxPayloadSize)`, `${res.status}`, res);
  },
  WRITES,
);
