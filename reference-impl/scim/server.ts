import { mountFamily } from '../http/app.js';
import { createOAuthServer, mountOAuth, type OAuthClient, SANDBOX_OAUTH_CLIENT } from '../http/oauth/server.js';
import { PORTAL_ACCOUNT, type PortalAccount, type ServerCore, type ServerFamily, type ServerFamilyMount } from '../http/server-family.js';
import { SCIM_FAULTS, scimBehaviourWithFaults } from './faults.js';
import { createScimFamily } from './index.js';
import { SCIM_OAUTH_MOUNT } from './oauth.js';
import { ScimStore } from './store.js';
import { SCIM_VARIANTS } from './variants.js';

/**
 * SCIM 2.0 as a family of the reference server: its routes under /scim/v2, its OAuth 2.0 flow under
 * /scim/v2/oauth, its faults, variants and options. Its token exchange and its flow's log-in take
 * the platform account (PORTAL_ACCOUNT).
 */

export interface ScimServerOptions {
  /** A bearer token accepted from the start, besides those of the token exchange. */
  token?: string;
  /** A variant (SCIM_VARIANTS): a legitimate configuration RFC 7643/7644 allow, such as a server
   * built for identity providers; faults apply on top of it. Default: the reference. */
  variant?: string;
  /** Whether it starts with its seed of 2,500 users and 50 groups (default true); false starts it
   * empty (the negative controls' servers: the suite creates what it reads). */
  seed?: boolean;
  /** The OAuth 2.0 client of the authorization-code flow under /scim/v2/oauth. Default: SANDBOX_OAUTH_CLIENT. */
  oauthClient?: OAuthClient;
}

/** The family's credentials in the sandbox: a ready bearer token; the token exchange and the OAuth
 * flow's log-in take the platform account's username and password; the OAuth flow's client. */
export interface ScimSandbox {
  readonly token: string;
  readonly username: string;
  readonly password: string;
  readonly oauthClientId: string;
  readonly oauthClientSecret: string;
}

function mount(core: ServerCore, options: ScimServerOptions): ServerFamilyMount {
  const behaviour = scimBehaviourWithFaults(core.faults, options.variant);
  const portal = core.shared<PortalAccount>(PORTAL_ACCOUNT);
  const oauth = createOAuthServer({
    mount: SCIM_OAUTH_MOUNT,
    credentials: portal.credentials,
    accountId: portal.accountId,
    client: options.oauthClient ?? SANDBOX_OAUTH_CLIENT,
    behaviour: behaviour.oauth,
  });
  const family = createScimFamily({
    oauth,
    behaviour,
    credentials: portal.credentials,
    clock: core.clock,
    ids: core.ids,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.seed === false ? { store: new ScimStore() } : { seedIdOf: core.seedIdOf }),
  });
  return {
    scopes: [mountFamily(core.around ? { ...family, around: core.around } : family)],
    onApp: (app) => mountOAuth(app, oauth),
    listening: (url) => oauth.setIssuer(`${url}${oauth.prefix}`),
  };
}

export const SCIM_SERVER: ServerFamily<'scim', ScimServerOptions, ScimSandbox> = {
  name: 'scim',
  faults: SCIM_FAULTS,
  variants: SCIM_VARIANTS,
  variantOptions: (variant: string): ScimServerOptions => ({ variant }),
  sandbox: {
    make: (ctx): ScimSandbox => ({
      token: ctx.secret('lpc-sandbox-scim-token'),
      ...ctx.shared<{ username: string; password: string }>(PORTAL_ACCOUNT),
      oauthClientId: SANDBOX_OAUTH_CLIENT.clientId,
      oauthClientSecret: SANDBOX_OAUTH_CLIENT.clientSecret,
    }),
    options: (part) => ({ token: part.token, oauthClient: { ...SANDBOX_OAUTH_CLIENT, clientId: part.oauthClientId, clientSecret: part.oauthClientSecret } }),
  },
  mount,
};
