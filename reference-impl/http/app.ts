import { type IncomingHttpHeaders, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type Readable, Transform } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, toApiError } from './errors.js';
import type { Family, Operation, QueryValue, RenderedError, ResponseHeaders, Result } from './route.js';

/**
 * The fastify application: JSON body parsing with a size limit, one encapsulated scope per API
 * family, and every error, however it arises, answered in the family's error body. No logging:
 * the conformance suite sends tens of thousands of requests.
 */
export type ErrorRenderer = (error: ApiError) => RenderedError;

export interface MountedFamily {
  readonly prefix: string;
  readonly register: (scope: FastifyInstance) => void;
  /** Renders errors fastify raises before routing (framework errors) for URLs under the prefix; the
   * family at the root ('' prefix) renders those of every URL no other family's prefix covers. */
  readonly renderError: ErrorRenderer;
  readonly contentType: string;
  /** The largest request body its routes read, in bytes. */
  readonly bodyLimit: number;
}

export interface AppOptions {
  readonly families: readonly MountedFamily[];
}

/** The body limit of a family that names none. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The error body outside every family (no family at the root): `{status, message}`. */
const genericRenderer: ErrorRenderer = (error) => ({ status: error.status, body: { status: error.status, message: error.message } });

/**
 * A body over the limit is read to its end, and discarded, before the 413: a server that answers
 * while the client is still sending and then closes resets the connection (its unread input), and
 * the reset can reach the client before it has read the answer, which it then never sees
 * (RFC 9112 §9.6). Up to this size; a larger body is answered at once (fastify's own limit).
 */
const DRAINED_BODY_LIMIT = 64 * 1024 * 1024;

/** Consumes a request body over the limit to its end, then fails with 413; a body within the
 * limit passes as it is (a body without a length, chunked, is counted as it comes; a request with
 * neither has no body). */
function limitBody(payload: Readable, headers: IncomingHttpHeaders, limit: number): Readable {
  const length = headers['content-length'];
  if (length !== undefined ? Number(length) <= limit : headers['transfer-encoding'] === undefined) return payload;
  let received = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(null, received > limit ? undefined : chunk);
    },
    flush(done) {
      done(received > limit ? toApiError({ statusCode: 413 }) : null);
    },
  });
  payload.on('error', (error) => limited.destroy(error));
  return payload.pipe(limited);
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

function withHeaders(reply: FastifyReply, headers: ResponseHeaders | undefined): FastifyReply {
  if (headers !== undefined) for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply;
}

/** The label of a JSON answer under the fault that calls every GET's a web page. */
const HTML_TYPE = 'text/html; charset=utf-8';

/** A handler's result; a JSON body labelled `jsonType` (the family's, or a fault's). */
function sendResult(reply: FastifyReply, result: Result, jsonType: string): void {
  withHeaders(reply, result.headers);
  if ('text' in result) {
    reply
      .code(result.status)
      .header('content-type', result.contentType ?? TEXT_TYPE)
      .send(result.text);
  } else if ('empty' in result) {
    reply.code(result.status).send();
  } else {
    reply.code(result.status).header('content-type', jsonType).send(JSON.stringify(result.body));
  }
}

function sendError(reply: FastifyReply, render: ErrorRenderer, error: unknown, contentType = JSON_TYPE): void {
  const { status, body, headers } = render(toApiError(error));
  withHeaders(reply, headers).code(status).header('content-type', contentType).send(JSON.stringify(body));
}

/** Writes an error answer on a socket whose request node could not even parse. */
function answerClientError(render: ErrorRenderer, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const payload = JSON.stringify(render(new ApiError(status, 'Malformed HTTP request.')).body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\nContent-Type: ${JSON_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
  );
}

/** The family's body parsers in its scope: its media types read as JSON, others 415. */
function registerBodyTypes(scope: FastifyInstance, bodyTypes: NonNullable<Family<unknown, Operation<unknown>>['bodyTypes']>): void {
  const { types, notJson, refuse } = bodyTypes;
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(types === '*' ? '*' : [...types], { parseAs: 'string' }, (request, body, done) => {
    const refused = refuse?.(request.url, request.headers['content-type'] ?? '');
    if (refused !== undefined) {
      done(refused, undefined);
      return;
    }
    try {
      done(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown);
    } catch {
      done(notJson(), undefined);
    }
  });
}

/** One operation's route: the guard as its onRequest hook (before the body is read: a refused
 * request is refused whatever its body), the handler, and the answer's content type. */
function registerOperation<C, O extends Operation<C>>(scope: FastifyInstance, family: Family<C, O>, operation: O, contentType: string): void {
  // The guard's result, per request, for the handler.
  const contexts = new WeakMap<FastifyRequest, C>();
  const answerType =
    family.textPlainOperations?.has(operation.id) === true ? TEXT_TYPE : family.htmlGets === true && operation.method === 'GET' ? HTML_TYPE : contentType;
  scope.route({
    method: operation.method,
    url: operation.path,
    onRequest: (request, _reply, done) => {
      if (family.maxUrlBytes !== undefined && Buffer.byteLength(request.url) > family.maxUrlBytes) {
        done(new ApiError(414, 'The URI is too long.'));
        return;
      }
      try {
        contexts.set(request, family.guard(request.headers, operation));
        done();
      } catch (error) {
        done(toApiError(error));
      }
    },
    handler: (request, reply) => {
      const context = contexts.get(request);
      if (context === undefined) throw new ApiError(500, 'The guard did not run.');
      let result: Result;
      try {
        const call = { context, params: request.params as Record<string, string>, query: request.query as Record<string, QueryValue>, body: request.body };
        result = family.around ? family.around(request.headers, () => operation.handle(call), operation) : operation.handle(call);
      } catch (error) {
        sendError(reply, family.renderError, error, contentType);
        return;
      }
      sendResult(reply, result, answerType);
    },
  });
}

/** Registers a family's operations in its own scope: its body limit and parsers, its error
 * renderer, its routes. */
export function mountFamily<C, O extends Operation<C>>(family: Family<C, O>): MountedFamily {
  const render = family.renderError;
  const contentType = family.contentType ?? JSON_TYPE;
  const bodyLimit = family.bodyLimit ?? DEFAULT_BODY_LIMIT;
  return {
    prefix: family.prefix,
    renderError: render,
    contentType,
    bodyLimit,
    register: (scope) => {
      scope.addHook('preParsing', (request, _reply, payload, done) => {
        done(null, limitBody(payload, request.headers, bodyLimit));
      });
      scope.setErrorHandler((error, _request, reply) => sendError(reply, render, error, contentType));
      if (family.prefix !== '') {
        scope.setNotFoundHandler((_request, reply) => sendError(reply, render, new ApiError(404, 'No such route.'), contentType));
      }
      if (family.bodyTypes !== undefined) registerBodyTypes(scope, family.bodyTypes);
      for (const operation of family.operations) registerOperation(scope, family, operation, contentType);
    },
  };
}

/** The app: each family in its own scope under its prefix; outside every prefix, the family at the
 * root (if one is) answers unknown routes and malformed requests, else a generic error body. */
export function buildApp(options: AppOptions): FastifyInstance {
  const root = options.families.find((f) => f.prefix === '');
  const renderError = root?.renderError ?? genericRenderer;
  const rootType = root?.contentType ?? JSON_TYPE;
  const app = Fastify({
    logger: false,
    // Enforced by limitBody (each family's preParsing hook), after reading the body; fastify's own
    // limit answers at once, without reading it.
    bodyLimit: Math.max(DRAINED_BODY_LIMIT, ...options.families.map((f) => f.bodyLimit)),
    exposeHeadRoutes: false,
    // Long path ids must reach the handler (422), not fail routing.
    routerOptions: { maxParamLength: 16_384 },
    clientErrorHandler: (error, socket) => answerClientError(renderError, error, socket),
    frameworkErrors: (error, request, reply) => {
      const family = options.families.find((f) => f.prefix !== '' && (request.url === f.prefix || request.url.startsWith(`${f.prefix}/`)));
      if (family === undefined) sendError(reply, renderError, error, rootType);
      else sendError(reply, family.renderError, error, family.contentType);
    },
  });

  // Outside a family's own parsers, only JSON bodies (another content type is 415, not JSON is 400).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown);
    } catch {
      done(new ApiError(400, 'The request body is not valid JSON.', ['body: is not valid JSON']), undefined);
    }
  });
  // A route of no family (an unknown one) reads its body within the root family's limit.
  const fallbackLimit = root?.bodyLimit ?? DEFAULT_BODY_LIMIT;
  app.addHook('preParsing', (request, _reply, payload, done) => {
    done(null, request.is404 ? limitBody(payload, request.headers, fallbackLimit) : payload);
  });
  app.setErrorHandler((error, _request, reply) => sendError(reply, renderError, error, rootType));
  app.setNotFoundHandler((_request, reply) => sendError(reply, renderError, new ApiError(404, 'No such route.'), rootType));
  for (const family of options.families) {
    const plugin = async (scope: FastifyInstance): Promise<void> => {
      family.register(scope);
    };
    // Named, fastify does not look for the plugin among every module of require.cache to name it.
    void app.register(Object.assign(plugin, { [Symbol.for('fastify.display-name')]: `lp-conformance ${family.prefix || 'root'}` }), { prefix: family.prefix });
  }
  return app;
}
