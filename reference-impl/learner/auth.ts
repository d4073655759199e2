import { ApiError, unauthorized } from '../http/errors.js';
import { bearerToken, headerValue } from '../http/headers.js';
import type { Headers } from '../http/route.js';
import { isJsonObject } from '../rules/json.js';
import type { LearnerContext, LearnerDeps, LearnerOperation } from './context.js';
import { badRequest } from './errors.js';
import type { Learner } from './seed.js';

/**
 * Learner authentication (docs/decisions/learner/reference-server-and-player.md "Learner reference server and player: choices"; the
 * specification leaves it "not shown", spec#learner-facing-api-1). `POST /token` with the
 * Integration API's x-api-key and `{username, password}` of a learner answers
 * `{access_token, token_type: "Bearer", expires_in}`; a new token revokes the learner's previous
 * one (as the Integration API does, public-facts#authentication-integration-api). Every other call
 * sends x-api-key and `Authorization: Bearer <token>`.
 */
const FIELDS = ['username', 'password'] as const;

export function tokenOperation(deps: LearnerDeps): LearnerOperation {
  const { store, behaviour, clock, tokenTtlSeconds } = deps;
  return {
    id: 'learner.token',
    method: 'POST',
    path: '/token',
    auth: 'api-key',
    handle: ({ body }) => {
      const given = isJsonObject(body) ? body : {};
      const missing = FIELDS.filter((field) => typeof given[field] !== 'string' || given[field] === '');
      if (missing.length > 0) {
        const validations = missing.map((field) => `${field}: is required`);
        if (behaviour.auth.missingFieldStatus === 401) throw new ApiError(401, 'username and password are required.', validations);
        throw badRequest('username and password are required.', validations);
      }
      const learner = store.learnerByUsername(String(given.username));
      if (learner === undefined || (given.password !== learner.password && behaviour.auth.password === 'checked')) {
        throw unauthorized('The username or password is not valid.');
      }
      const token = store.issueToken(learner, clock().getTime(), tokenTtlSeconds * 1000, behaviour.auth.reissue === 'revokes-previous');
      return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: tokenTtlSeconds } };
    },
  };
}

/** The learner of a token, or undefined (unknown, revoked or expired). */
export function learnerOfToken(deps: LearnerDeps, token: string | undefined): Learner | undefined {
  return token === undefined ? undefined : deps.store.learnerOfToken(token, deps.clock().getTime(), deps.behaviour.auth.expiry === 'ignored');
}

/** The `http://<Host>` of a request. */
export const originOf = (headers: Headers): string => `http://${headerValue(headers, 'host') ?? 'localhost'}`;

/**
 * Runs before the body is read, in this order: x-api-key (401), then the Bearer token (401) for
 * every operation but the token exchange. Only `Bearer <token>` is read (no raw token).
 */
export function createLearnerGuard(deps: LearnerDeps): (headers: Headers, operation: LearnerOperation) => LearnerContext {
  const { behaviour, credentials, store } = deps;
  return (headers, operation) => {
    const origin = originOf(headers);
    if (behaviour.auth.apiKey === 'checked') {
      const key = headerValue(headers, 'x-api-key');
      if (key === undefined) throw new ApiError(401, 'An API key is required.', ['x-api-key: is required']);
      if (key !== credentials.apiKey) throw new ApiError(401, 'The API key is not valid.', ['x-api-key: is not valid']);
    }
    if (operation.auth === 'api-key') return { learner: undefined, origin };
    const token = bearerToken(headerValue(headers, 'authorization'), false);
    const learner = learnerOfToken(deps, token);
    if (learner !== undefined) return { learner, origin };
    if (behaviour.auth.token === 'not-checked') return { learner: store.seed.learners[0], origin };
    throw unauthorized(token === undefined ? 'A Bearer token is required.' : 'The token is not valid or has expired.');
  };
}
