import type { Operation } from '../http/route.js';
import type { LearnerBehaviour } from './behaviour.js';
import type { Learner } from './seed.js';
import type { LearnerStore } from './store.js';

/** The learner API's prefix on the portal host (public-facts#base-addresses-and-prefixes). */
export const LEARNER_PREFIX = '/api/rest/v2';
/** The course player's prefix (the page and its images). */
export const PLAYER_PREFIX = '/learn';

/** Everything the learner API and the course player depend on. */
export interface LearnerDeps {
  readonly store: LearnerStore;
  readonly behaviour: LearnerBehaviour;
  /** Their `apiKey` is the learner API's x-api-key. */
  /** The platform's API key, which every learner API request carries (public-facts). */
  readonly credentials: { readonly apiKey: string };
  readonly clock: () => Date;
  /** Lifetime of a learner token, in seconds. */
  readonly tokenTtlSeconds: number;
}

/** What the guard establishes for a handler. */
export interface LearnerContext {
  /** The token's learner; undefined only for the token exchange. */
  readonly learner: Learner | undefined;
  /** `http://<Host>`: absolute URLs of images and logos. */
  readonly origin: string;
}

export interface LearnerOperation extends Operation<LearnerContext> {
  /** `api-key`: x-api-key only (the token exchange); `token`: x-api-key and a Bearer token. */
  readonly auth: 'api-key' | 'token';
}

/** The context's learner (the guard sets it on every `token` operation). */
export function learnerOf(context: LearnerContext): Learner {
  if (context.learner === undefined) throw new TypeError('a token operation without a learner');
  return context.learner;
}
