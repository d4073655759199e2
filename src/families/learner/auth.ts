/**
 * The learner API's session: a learner token from the profile, or one from the token exchange
 * (`learner.auth.token`, the reference server's choice: `{username, password}` with the platform's
 * `x-api-key`, answered OAuth-style with `access_token`).
 */
import { operation } from '../../profile/base/operation.js';
import type { EnvRef, Profile } from '../../profile/base/types.js';
import { ownCredentialsToken } from '../../target/base/exchange.js';
import type { FamilyAuth } from '../family.js';

/** The variable under which a token from the learner API's token exchange is shown. */
export const LEARNER_TOKEN_VAR = 'LPC_LEARNER_TOKEN';

/** The learner API's variables: its own, and the platform's API key its requests carry. */
export const learnerRefs = (p: Profile): EnvRef[] => {
  const c = p.familyCredentials.learner;
  return [p.credentials.apiKey, c.token, c.username, c.password].filter((ref): ref is EnvRef => ref !== undefined);
};

export const LEARNER_AUTH: FamilyAuth = {
  refs: learnerRefs,
  required: false,
  exchangesToken: (p) => p.familyCredentials.learner.token === undefined,
  token: (ctx) => {
    const { method, path } = operation(ctx.profile, 'learner.auth.token');
    return ownCredentialsToken(ctx, {
      credentials: ctx.profile.familyCredentials.learner,
      url: `${ctx.profile.families.learner.baseUrl.replace(/\/+$/, '')}${path}`,
      method,
      headers: { 'x-api-key': ctx.value(ctx.profile.credentials.apiKey) },
      headerVars: { 'x-api-key': ctx.profile.credentials.apiKey.env },
      tokenField: 'access_token',
      tokenVar: LEARNER_TOKEN_VAR,
      what: 'learner token',
    });
  },
};
