/**
 * SCIM's session (public-facts#authentication-scim): a long-lived bearer token from the profile, or
 * one obtained by posting `{username, password}` to the token exchange (`scim.auth.token`), answered
 * `{token, scope, tokenExpiryDate}`.
 */
import { operation } from '../../profile/base/operation.js';
import type { EnvRef, Profile } from '../../profile/base/types.js';
import { ownCredentialsToken } from '../../target/base/exchange.js';
import type { FamilyAuth } from '../family.js';

/** The variable under which a token from SCIM's token exchange is shown. */
export const SCIM_TOKEN_VAR = 'LPC_SCIM_TOKEN';

const refs = (p: Profile): EnvRef[] => {
  const c = p.familyCredentials.scim;
  return [c.token, c.username, c.password].filter((ref): ref is EnvRef => ref !== undefined);
};

export const SCIM_AUTH: FamilyAuth = {
  refs,
  required: false,
  exchangesToken: (p) => p.familyCredentials.scim.token === undefined,
  token: (ctx) => {
    const { method, path } = operation(ctx.profile, 'scim.auth.token');
    return ownCredentialsToken(ctx, {
      credentials: ctx.profile.familyCredentials.scim,
      url: `${ctx.profile.families.scim.baseUrl.replace(/\/+$/, '')}${path}`,
      method,
      tokenField: 'token',
      tokenVar: SCIM_TOKEN_VAR,
      what: 'SCIM token',
    });
  },
};
