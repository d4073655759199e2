/** The Integration API (`x-api-version: 1|2`): what it registers with the core (src/families/family.ts). */
import type { EnvRef } from '../../profile/base/types.js';
import { firstArrayList, listOperations, stringAt, stringsAt } from '../bodies.js';
import type { Family } from '../family.js';
import { INTAPI_BINDS } from './binds.js';
import { INTAPI_AUTH } from './auth.js';
import { INTAPI_INVARIANTS } from './invariants.js';
import { intapiOpenApi } from './openapi.js';
import { INTAPI_OPERATIONS } from './operations.js';
import { INTAPI_PROFILE } from './profile.js';
import { intapiInit } from './init.js';
import { intapiRecordReads } from './records.js';

export const INTAPI: Family = {
  name: 'intapi',
  title: 'Integration API',
  operations: INTAPI_OPERATIONS,
  profile: INTAPI_PROFILE,
  auth: INTAPI_AUTH,
  // The key and the version travel in headers (public-facts#authentication-integration-api, spec#versioning).
  http: {
    version: { header: 'x-api-version', default: '2' },
    apiKey: { header: 'x-api-key', ref: (p) => p.credentials.apiKey },
    contentType: 'application/json',
    tokenExchange: 'auth.authenticate',
    // Its answers: a list (v1 and most v2 lists are bare arrays), a paged envelope, or an object (spec#paged-list-envelope-v2-list-operations).
    answers: (json) => Array.isArray(json) || (typeof json === 'object' && json !== null && ('totalItems' in json || 'resources' in json || 'id' in json)),
    // spec#error-body: `term` is the machine word, `validations` the reasons.
    errors: { word: (json) => stringAt(json, 'term'), validations: (json) => stringsAt(json, 'validations') },
    // A bare array, or the paged envelope `{<items>: [...], totalItems}`.
    lists: { operations: listOperations(INTAPI_OPERATIONS), listed: (json) => firstArrayList(json, 'totalItems') },
  },
  invariants: INTAPI_INVARIANTS,
  // The API has no delete operation: the run leaves these, and says how many (README).
  creates: {
    'submissions.create': { collection: 'submissions' },
    'questionBanks.create': { collection: 'questionBanks' },
    'questions.create': { collection: 'questions' },
    'groups.create': { collection: 'groups' },
    'users.upsert': { collection: 'users', only201: true },
    'enrollments.create': { collection: 'enrollments', only201: true },
  },
  openapi: intapiOpenApi,
  // Before the run: authenticate once and read one resource. Refused credentials, or a target that is
  // not this API, are a configuration error (exit 2), not hundreds of failed checks.
  async preflight(ctx) {
    await ctx.read('resources.list', { _limit: '1' });
  },
  sandbox(profile) {
    const c = profile.credentials;
    const o = profile.oauthCredentials;
    const pairs: [EnvRef | undefined, string][] = [
      [c.apiKey, 'apiKey'],
      [c.username, 'username'],
      [c.password, 'password'],
      [c.privateKey, 'privateKey'],
      // The OAuth 2.0 flow: the sandbox client (its log-in is the sandbox username and password).
      [o.clientId, 'oauthClientId'],
      [o.clientSecret, 'oauthClientSecret'],
    ];
    return pairs.flatMap(([ref, name]) => (ref ? [[ref, name] as const] : []));
  },
  recordReads: intapiRecordReads,
  init: intapiInit,
  // The bundled server's mail goes to a local SMTP sink whose Mailpit-style API the mail checks read.
  // `serve` prints the variable the profile reads the mailbox from (LPC_MAILBOX_API in the reference
  // profile), or says to name the API in the profile.
  async bundled(profile, options = {}) {
    const { startMailSink } = await import('./mail-sink.js');
    const sink = await startMailSink(options.host);
    const env = profile.mailbox?.env;
    const reach = env ? `a profile reads it from ${env}` : `give it to a profile as mailbox: { api: ${sink.api} }`;
    return {
      profile: { ...profile, mailbox: { api: sink.api } },
      server: { families: { intapi: { smtp: sink.smtp } } },
      ...(env ? { env: { [env]: sink.api } } : {}),
      says: [`mail: the server's mail goes to an SMTP sink at ${sink.smtp.host}:${sink.smtp.port}, read at ${sink.api}/api/v1/messages (${reach})`],
      close: () => sink.close(),
    };
  },
  binds: INTAPI_BINDS,
};
