import { ApiError } from '../http/errors.js';
import type { Call, RenderedError, Result } from '../http/route.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import type { ScimContext, ScimOperation } from './context.js';
import { badRequest, ScimError } from './errors.js';

/**
 * POST /Bulk (rfc7644#section-3.7), served when ScimBehaviour.bulk.supported: the operations of a
 * BulkRequest run in order through the Users and Groups handlers; `bulkId:<id>` in a later
 * operation's path or data stands for the id the operation with that bulkId created (§3.7.2); a
 * reference to a bulkId no earlier operation defined fails that operation (409 invalidValue; the
 * server does not reorder); processing stops once `failOnErrors` operations have failed (§3.7.3);
 * more operations than maxOperations, or a body larger than maxPayloadSize, answer 413 (§3.7.4).
 * The BulkResponse holds one result per operation processed, with its status, location and, for a
 * failure, the error body.
 */
export const BULK_REQUEST_URN = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
export const BULK_RESPONSE_URN = 'urn:ietf:params:scim:api:messages:2.0:BulkResponse';

interface BulkDeps {
  readonly b: ScimBehaviour;
  /** Every operation of the Users and Groups endpoints. */
  readonly resources: readonly ScimOperation[];
  readonly renderError: (error: ApiError) => RenderedError;
}

const REFERENCE = /bulkId:([^"/\s]+)/g;

/** `value` with each `bulkId:<id>` replaced by the id it stands for; throws on one not yet defined. */
function resolved(value: JsonValue, ids: ReadonlyMap<string, string>): JsonValue {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_, bulkId: string) => {
      const id = ids.get(bulkId);
      if (id === undefined) throw new ScimError(409, `bulkId:${bulkId} names no operation processed before this one.`, 'invalidValue');
      return id;
    });
  }
  if (Array.isArray(value)) return value.map((v) => resolved(v, ids));
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v, ids)]));
  return value;
}

function routeOf(resources: readonly ScimOperation[], method: string, path: string): { operation: ScimOperation; id: string | undefined } {
  const m = /^\/(Users|Groups)(?:\/([^/?]+))?$/.exec(path);
  if (m === null) throw badRequest('invalidPath', `The path ${path} names no Users or Groups resource.`);
  const base = `/${m[1] ?? ''}`;
  const id = m[2];
  const operation = resources.find((o) => o.method === method && o.path === (id === undefined ? base : `${base}/:id`));
  if (operation === undefined || operation.method === 'GET') throw badRequest('invalidValue', `${method} ${path} is not a Bulk operation.`);
  return { operation, id };
}

/** Validate: a BulkRequest's size, schemas, operations and failOnErrors (rfc7644#section-3.7). */
function readBulkRequest(b: BulkDeps['b'], call: Call<ScimContext>): { operations: unknown[]; failOnErrors: number | undefined } {
  const size = call.context.contentLength ?? JSON.stringify(call.body ?? null).length;
  if (b.bulk.payloadLimit === 'enforced' && size > b.bulk.maxPayloadSize) {
    throw new ScimError(413, `The request is ${size} bytes; maxPayloadSize is ${b.bulk.maxPayloadSize}.`);
  }
  const body = call.body;
  if (!isJsonObject(body)) throw badRequest('invalidSyntax', 'The body must be a BulkRequest object.');
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === BULK_REQUEST_URN.toLowerCase())) {
    throw badRequest('invalidSyntax', `schemas must contain ${BULK_REQUEST_URN}.`);
  }
  const operations = body.Operations;
  if (!Array.isArray(operations)) throw badRequest('invalidSyntax', 'Operations must be an array.');
  if (b.bulk.maxOperationsLimit === 'enforced' && operations.length > b.bulk.maxOperations) {
    throw new ScimError(413, `The request has ${operations.length} operations; maxOperations is ${b.bulk.maxOperations}.`);
  }
  const failOnErrors = body.failOnErrors;
  if (failOnErrors !== undefined && (typeof failOnErrors !== 'number' || !Number.isInteger(failOnErrors) || failOnErrors < 1)) {
    throw badRequest('invalidValue', 'failOnErrors must be a positive integer.');
  }
  return { operations, failOnErrors: failOnErrors as number | undefined };
}

/** Send: one operation of the request to its resource's handler; what its result says beside its
 * status (a location, a version), the bulkId of a POST remembered for the ones after it. */
function runBulkOperation(deps: BulkDeps, call: Call<ScimContext>, op: JsonObject, ids: Map<string, string>, result: JsonObject): Result {
  const { b } = deps;
  const method = result.method as string;
  const bulkId = result.bulkId as string | undefined;
  if (method === 'POST' && bulkId === undefined) throw badRequest('invalidSyntax', 'A POST operation needs a bulkId.');
  const path = typeof op.path === 'string' ? op.path : '';
  const resolve = (v: JsonValue): JsonValue => (b.bulk.bulkIds === 'resolved' ? resolved(v, ids) : v);
  const { operation, id } = routeOf(deps.resources, method, resolve(path) as string);
  const context: ScimContext = {
    baseUrl: call.context.baseUrl,
    ...(typeof op.version === 'string' ? { ifMatch: op.version } : {}),
  };
  const answer = operation.handle({
    context,
    params: id === undefined ? {} : { id },
    query: {},
    body: op.data === undefined ? undefined : resolve(op.data),
  });
  const created = 'body' in answer && isJsonObject(answer.body) && typeof answer.body.id === 'string' ? answer.body.id : id;
  if (method === 'POST' && bulkId !== undefined && created !== undefined) ids.set(bulkId, created);
  if (created !== undefined && method !== 'DELETE') result.location = `${call.context.baseUrl}${operation.path.replace('/:id', '')}/${created}`;
  const version = answer.headers?.etag;
  if (version !== undefined) result.version = version;
  return answer;
}

export function bulkOperation(deps: BulkDeps): ScimOperation {
  const { b } = deps;
  return {
    id: 'scim.bulk',
    method: 'POST',
    path: '/Bulk',
    auth: true,
    handle: (call): Result => {
      const { operations, failOnErrors } = readBulkRequest(b, call);
      // rfc7644#section-3.7.3: a string in the examples, an object with its code in the prose.
      const statusOf = (status: number): JsonValue => (b.bulk.statusForm === 'object' ? { code: String(status) } : String(status));
      const ids = new Map<string, string>();
      const results: JsonObject[] = [];
      let errors = 0;
      for (const raw of operations) {
        if (typeof failOnErrors === 'number' && errors >= failOnErrors && b.bulk.failOnErrors === 'honoured') break;
        const op: JsonObject = isJsonObject(raw) ? raw : {};
        const method = typeof op.method === 'string' ? op.method.toUpperCase() : '';
        const bulkId = typeof op.bulkId === 'string' ? op.bulkId : undefined;
        const result: JsonObject = { method, ...(bulkId === undefined ? {} : { bulkId }) };
        try {
          result.status = statusOf(runBulkOperation(deps, call, op, ids, result).status);
          if (b.bulk.results === 'every-operation') results.push(result);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          errors++;
          const rendered = deps.renderError(error);
          results.push({ ...result, status: statusOf(rendered.status), response: rendered.body });
        }
      }
      return { status: 200, body: { schemas: [BULK_RESPONSE_URN], Operations: results } };
    },
  };
}
