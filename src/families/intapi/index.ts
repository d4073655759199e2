/** The Integration API (`x-api-version: 1|2`): what it registers with the core (src/families/family.ts). */
import type { EnvRef } from '../../profile/types.js';
import { SetupError, type Family } from '../family.js';
import { INTAPI_AUTH } from './auth.js';
import { INTAPI_INVARIANTS } from './invariants.js';
import { intapiOpenApi } from './openapi.js';
import { INTAPI_OPERATIONS } from './operations.js';
import { INTAPI_PROFILE } from './profile.js';
import { CredentialsError } from '../../target/errors.js';

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
  // Authenticate once before the run: refused credentials are a configuration error (exit 2), not
  // hundreds of failed checks. A target that does not answer is left to the checks to judge.
  async preflight(ctx) {
    try {
      await ctx.token();
    } catch (error) {
      if (error instanceof CredentialsError) throw new SetupError(error.message);
      ctx.warn(`authentication did not complete (${(error as { code?: string }).code ?? String(error)}); the checks will say more`);
    }
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
  // The bundled server's mail goes to a local SMTP sink whose Mailpit-style API the mail checks read.
  async bundled(profile) {
    const { startMailSink } = await import('./mail-sink.js');
    const sink = await startMailSink();
    return { profile: { ...profile, mailbox: { api: sink.api } }, server: { smtp: sink.smtp }, close: () => sink.close() };
  },
};
