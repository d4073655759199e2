import { unauthorized } from '../../http/errors.js';
import { intapiError } from '../error-body.js';
import { isJsonObject } from '../../rules/json.js';
import { type IntapiDeps, type IntapiOperation, V1_AND_V2 } from '../context.js';
import { issueToken } from './tokens.js';

/**
 * POST /authenticate (public-facts#authentication-integration-api): x-api-key plus the JSON body
 * `{username, password, privateKey}`; answers 200 with the token as a bare JSON string.
 * A missing body field is 400, wrong credentials 401.
 */
const FIELDS = ['username', 'password', 'privateKey'] as const;

export function authOperations(deps: IntapiDeps): IntapiOperation[] {
  const { store, behaviour, credentials, clock } = deps;
  return [
    {
      id: 'auth.authenticate',
      method: 'POST',
      path: '/authenticate',
      versions: V1_AND_V2,
      auth: 'api-key',
      handle: ({ body }) => {
        const given = isJsonObject(body) ? body : {};
        const missing = FIELDS.filter((field) => typeof given[field] !== 'string' || given[field] === '');
        if (missing.length > 0) {
          const status = behaviour.auth.missingFieldStatus;
          throw intapiError(
            status,
            status === 400 ? 'BadRequest' : 'Unauthorized',
            'username, password and privateKey are required.',
            missing.map((field) => `${field}: is required`),
          );
        }
        const secretsMatch = given.password === credentials.password && given.privateKey === credentials.privateKey;
        if (given.username !== credentials.username || (!secretsMatch && behaviour.auth.password === 'checked')) {
          throw unauthorized('The credentials are not valid.');
        }
        return { status: behaviour.auth.successStatus, body: issueToken(store, store.principalUserId, clock().getTime(), behaviour.auth.reissue) };
      },
    },
  ];
}
