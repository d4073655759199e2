/** The learner-facing API (catalog, instructor-led sessions, progress): what it registers with the core. */
import { firstArrayList, listOperations, stringsAt } from '../bodies.js';
import type { Family } from '../family.js';
import { LEARNER_AUTH } from './auth.js';
import { learnerInit } from './init.js';
import { LEARNER_INVARIANTS } from './invariants.js';
import { LEARNER_OPERATIONS } from './operations.js';
import { learnerOpenApi } from './openapi.js';
import { LEARNER_PROFILE } from './profile.js';

export const LEARNER: Family = {
  name: 'learner',
  title: 'learner API',
  operations: LEARNER_OPERATIONS,
  profile: LEARNER_PROFILE,
  auth: LEARNER_AUTH,
  // The platform's API key travels with every learner API request too (public-facts).
  http: {
    apiKey: { header: 'x-api-key', ref: (p) => p.credentials.apiKey },
    contentType: 'application/json',
    tokenExchange: 'learner.auth.token',
    // The learner error body `{code, message, validations}`: reasons, no machine word.
    errors: { validations: (json) => stringsAt(json, 'validations') },
    // A HAL page, read as the digest reads a list: its first array field.
    lists: { operations: listOperations(LEARNER_OPERATIONS), listed: (json) => firstArrayList(json) },
  },
  invariants: LEARNER_INVARIANTS,
  init: learnerInit,
  // Before the run: the learner's log-in (or ready token) and one catalog read.
  async preflight(ctx) {
    await ctx.read('learner.catalog.list', { _limit: '1' });
  },
  openapi: learnerOpenApi,
  sandbox(profile) {
    const c = profile.familyCredentials.learner;
    // The sandbox's learner (a department with branding) logs in through the token exchange.
    return c.token
      ? [[c.token, 'token']]
      : [
          [c.username, 'username'],
          [c.password, 'password'],
        ];
  },
};
