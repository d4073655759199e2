/** SCIM 2.0 provisioning (RFC 7643/7644): what it registers with the core (src/families/family.ts). */
import type { EnvRef } from '../../profile/base/types.js';
import { firstArrayList, listOperations, stringAt } from '../bodies.js';
import type { Family } from '../family.js';
import { SCIM_BINDS } from './binds.js';
import { SCIM_AUTH } from './auth.js';
import { SCIM_CLEANUP } from './cleanup.js';
import { scimInit } from './init.js';
import { SCIM_INVARIANTS } from './invariants.js';
import { SCIM_OPERATIONS } from './operations.js';
import { scimOpenApi } from './openapi.js';
import { SCIM_PROFILE } from './profile.js';

/** The SCIM media type (RFC 7644 §3.1, §8.1). */
export const SCIM_MEDIA_TYPE = 'application/scim+json';

export const SCIM: Family = {
  name: 'scim',
  title: 'SCIM',
  operations: SCIM_OPERATIONS,
  profile: SCIM_PROFILE,
  auth: SCIM_AUTH,
  http: {
    accept: SCIM_MEDIA_TYPE,
    contentType: SCIM_MEDIA_TYPE,
    tokenExchange: 'scim.auth.token',
    // A SCIM message or resource names its schemas (RFC 7643 §3, RFC 7644 §3.4.2, §3.12).
    answers: (json) => typeof json === 'object' && json !== null && Array.isArray((json as { schemas?: unknown }).schemas),
    // RFC 7644 §3.12: `scimType` is the machine word of an error; SCIM errors carry no validations.
    errors: { word: (json) => stringAt(json, 'scimType') },
    // A ListResponse (RFC 7644 §3.4.2), read as the digest reads a list: its first array field.
    lists: { operations: listOperations(SCIM_OPERATIONS), listed: (json) => firstArrayList(json) },
  },
  invariants: SCIM_INVARIANTS,
  cleanup: SCIM_CLEANUP,
  init: scimInit,
  // Before the run: the token (the profile's, or the exchange's) and one user read (RFC 7644 §3.4.2.4).
  async preflight(ctx) {
    await ctx.read('scim.users.list', { count: '1' });
  },
  openapi: scimOpenApi,
  binds: SCIM_BINDS,
  sandbox(profile) {
    const c = profile.familyCredentials.scim;
    // A ready bearer token, or the username and password of the token exchange (docs/profile.md); the
    // OAuth flow's client, and its log-in (the sandbox username and password).
    const session: [EnvRef, string][] = c.token
      ? [[c.token, 'token']]
      : [
          [c.username, 'username'],
          [c.password, 'password'],
        ];
    const o = c.oauth;
    const flow: [EnvRef | undefined, string][] = o
      ? [
          [o.clientId, 'oauthClientId'],
          [o.clientSecret, 'oauthClientSecret'],
          [o.username, 'username'],
          [o.password, 'password'],
        ]
      : [];
    return [...session, ...flow.flatMap(([ref, name]) => (ref ? [[ref, name] as [EnvRef, string]] : []))];
  },
};
