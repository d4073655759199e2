import { randomBytes } from 'node:crypto';
import type { Behaviour } from '../behaviour.js';
import type { Store } from '../store/store.js';

/** public-facts#authentication-integration-api: a token is valid for four hours. */
export const TOKEN_LIFETIME_MS = 4 * 60 * 60 * 1000;

/** Issues a token for a user; by default it invalidates the user's previous tokens. */
export function issueToken(store: Store, userId: string, now: number, reissue: Behaviour['auth']['reissue']): string {
  if (reissue === 'revokes-previous') {
    for (const token of store.sessions.tokensOf(userId)) store.sessions.delete(token);
  }
  const token = randomBytes(32).toString('base64url');
  store.sessions.put({ token, userId, expiresAt: now + TOKEN_LIFETIME_MS });
  return token;
}

/** The user of a live token, or undefined for an unknown, revoked or expired one. */
export function userOfToken(store: Store, token: string, now: number): string | undefined {
  const session = store.sessions.get(token);
  return session !== undefined && now < session.expiresAt ? session.userId : undefined;
}
