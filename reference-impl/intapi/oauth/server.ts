import { generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Credentials } from '../credentials.js';
import { OAuthStorage } from './adapter.js';

/**
 * OAuth 2.0 authorization-code flow of the Integration API (public-facts#authentication-integration-api:
 * `/oauth/authorize`, `/oauth/token`, single-use code, access token 4 h, refresh token 1 year,
 * scope `admin.v1`), served by `oidc-provider` (panva, MIT; pinned exactly in package.json), not
 * by hand. docs/decisions/intapi/evaluations-countries-oauth.md "OAuth 2.0 (reference server)" records the choices:
 * - mounted under `/oauth` of the Integration API's host: `/oauth/authorize`, `/oauth/token`, the
 *   discovery document `/oauth/.well-known/openid-configuration`, the login at `/oauth/interaction/{uid}`;
 * - one confidential client (client_secret_basic, the profile's redirect URI), PKCE accepted;
 * - the sandbox log-in: an HTML form (`username`, `password`) checked against the Integration API's
 *   credentials (the user of `/authenticate`); consent is implied for the sandbox client;
 * - access tokens are opaque, for the resource `urn:lp-conformance:intapi` with scope `admin.v1`,
 *   and the Integration API accepts them as `Authorization: Bearer` (the guard asks `accessTokenAccount`);
 * - the provider is built on the first `/oauth/` request (oidc-provider is imported then), so a
 *   server that never sees OAuth starts as fast as before.
 */
export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

/** The sandbox client of `lp-conformance serve` and bundled runs (env LPC_OAUTH_CLIENT_ID, LPC_OAUTH_CLIENT_SECRET). */
export const SANDBOX_OAUTH_CLIENT: OAuthClient = Object.freeze({
  clientId: 'lpc-sandbox-client',
  clientSecret: 'lpc-sandbox-client-secret',
  redirectUri: 'https://client.lp-conformance.invalid/callback',
});

export const OAUTH_SCOPE = 'admin.v1';
export const OAUTH_RESOURCE = 'urn:lp-conformance:intapi';
export const OAUTH_PREFIX = '/oauth';
const HOURS = 3600;

/** The rules of the flow, as data (behaviour.ts `oauth`; each fault changes one). */
export interface OAuthBehaviour {
  /** A consumed code is refused (`refused`), or can be exchanged again. */
  codeReuse: 'refused' | 'allowed';
  /** The redirect URI must be the registered one, or any is accepted. */
  redirectUri: 'registered' | 'any';
  /** The token answer carries a refresh token, or none. */
  refreshToken: 'issued' | 'not-issued';
  /** Access token lifetime in seconds (4 hours). */
  accessTokenTtl: number;
  /** The Integration API accepts the access tokens as Bearer tokens, or ignores them. */
  intapiAccepts: 'accepted' | 'ignored';
}

export interface OAuthServer {
  /** Answers a request whose path starts with `/oauth/`. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The issuer once known (`http://HOST/oauth`); set by `listen`, else from the first request's Host. */
  setIssuer(issuer: string): void;
  /** The user of a live access token with scope admin.v1, or undefined. */
  accessTokenAccount(token: string, nowMs: number): string | undefined;
}

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, failed: boolean): string {
  const action = `${OAUTH_PREFIX}/interaction/${encodeURIComponent(uid)}/login`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body>
<h1>Sign in to the sandbox</h1>${failed ? '<p role="alert">Wrong username or password.</p>' : ''}
<form method="post" action="${escapeHtml(action)}">
<label>Username <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * 1024) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

export function createOAuthServer(options: {
  credentials: Credentials;
  /** The user the sandbox log-in signs in (the user of the Integration API's credentials). */
  accountId: string;
  client: OAuthClient;
  behaviour: OAuthBehaviour;
}): OAuthServer {
  const { credentials, accountId, client, behaviour } = options;
  const storage = new OAuthStorage(behaviour.codeReuse === 'refused');
  let issuer: string | undefined;
  let built: Promise<ProviderHandle> | undefined;

  interface ProviderHandle {
    readonly callback: (req: IncomingMessage, res: ServerResponse) => unknown;
    readonly interactionDetails: (req: IncomingMessage, res: ServerResponse) => Promise<{ uid: string; params: Record<string, unknown> }>;
    readonly finish: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  }

  async function build(iss: string): Promise<ProviderHandle> {
    const { default: Provider } = await quietly(() => import('oidc-provider'));
    const signingKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const provider = new Provider(iss, {
      adapter: (name: string) => storage.adapterFor(name),
      clients: [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: [client.redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
          id_token_signed_response_alg: 'ES256',
          scope: OAUTH_SCOPE,
        },
      ],
      jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'ES256', kid: 'lpc-reference' }] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      scopes: [OAUTH_SCOPE],
      routes: { authorization: '/authorize', token: '/token', jwks: '/jwks', revocation: '/revoke', end_session: '/session/end' },
      features: {
        devInteractions: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => OAUTH_RESOURCE,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({ scope: OAUTH_SCOPE, accessTokenTTL: behaviour.accessTokenTtl, accessTokenFormat: 'opaque' }),
        },
      },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${OAUTH_PREFIX}/interaction/${interaction.uid}` },
      findAccount: (_ctx: unknown, id: string) => (id === accountId ? { accountId: id, claims: () => ({ sub: id }) } : undefined),
      issueRefreshToken: (_ctx: unknown, c: { grantTypeAllowed: (type: string) => boolean }) =>
        behaviour.refreshToken === 'issued' && c.grantTypeAllowed('refresh_token'),
      ttl: {
        AccessToken: behaviour.accessTokenTtl,
        AuthorizationCode: 60,
        RefreshToken: 365 * 24 * HOURS,
        Interaction: HOURS,
        Session: 4 * HOURS,
        Grant: 365 * 24 * HOURS,
      },
      renderError: (ctx: { type: string; body: string }, out: { error: string; error_description?: string }) => {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = `<!doctype html><html><body><h1>${escapeHtml(out.error)}</h1><p>${escapeHtml(out.error_description ?? '')}</p></body></html>`;
      },
    });
    if (behaviour.redirectUri === 'any') {
      // The fault `intapi.oauth-any-redirect-uri`: every redirect URI counts as registered.
      (provider.Client.prototype as { redirectUriAllowed: () => boolean }).redirectUriAllowed = () => true;
    }
    const callback = provider.callback();
    return {
      callback,
      interactionDetails: (req, res) => provider.interactionDetails(req, res) as Promise<{ uid: string; params: Record<string, unknown> }>,
      finish: async (req, res) => {
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        // admin.v1 is both a scope of the provider (so that it may be requested) and of the resource.
        grant.addOIDCScope(OAUTH_SCOPE);
        grant.addResourceScope(OAUTH_RESOURCE, OAUTH_SCOPE);
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      },
    };
  }

  const providerFor = (req: IncomingMessage): Promise<ProviderHandle> =>
    (built ??= build(issuer ?? `http://${req.headers.host ?? '127.0.0.1'}${OAUTH_PREFIX}`));

  async function interaction(req: IncomingMessage, res: ServerResponse, handle: ProviderHandle, path: string): Promise<void> {
    const login = /^\/interaction\/([^/]+)\/login$/.exec(path);
    if (req.method === 'GET' && /^\/interaction\/[^/]+$/.test(path)) {
      const details = await handle.interactionDetails(req, res);
      send(res, 200, 'text/html; charset=utf-8', loginPage(details.uid, false));
      return;
    }
    if (req.method === 'POST' && login) {
      const details = await handle.interactionDetails(req, res);
      const form = await readForm(req);
      const ok = same(form.get('username') ?? '', credentials.username) && same(form.get('password') ?? '', credentials.password);
      if (!ok) {
        send(res, 401, 'text/html; charset=utf-8', loginPage(details.uid, true));
        return;
      }
      await handle.finish(req, res);
      return;
    }
    send(res, 404, 'text/plain; charset=utf-8', 'No such page.');
  }

  return {
    setIssuer: (value) => void (issuer ??= value),
    accessTokenAccount: (token, nowMs) => (behaviour.intapiAccepts === 'accepted' ? storage.accessTokenAccount(token, OAUTH_SCOPE, nowMs) : undefined),
    handle: async (req, res) => {
      const handle = await providerFor(req);
      const url = req.url ?? '/';
      const path = url.slice(OAUTH_PREFIX.length).split('?')[0] ?? '/';
      try {
        if (path.startsWith('/interaction/')) {
          await interaction(req, res, handle, path);
          return;
        }
        // oidc-provider finds its mount path from originalUrl and url (as under Express's app.use).
        Object.assign(req, { originalUrl: url, url: url.slice(OAUTH_PREFIX.length) || '/' });
        await handle.callback(req, res);
      } catch (error) {
        if (!res.headersSent) send(res, 400, 'text/plain; charset=utf-8', `OAuth request failed: ${(error as Error).message}`);
        else res.end();
      }
    },
  };
}

/** Imports with oidc-provider's runtime notice held back: it names Node 22 LTS as its supported
 * runtime and says so on Node 20, which the project supports and on which its flow is tested
 * (tests/reference-impl/oauth.test.ts). Only that one line is dropped; any other warning passes.
 * The console is touched here only, to hold back a third-party line, never to write. */
/* eslint-disable no-console -- the library writes the notice with console.warn at import */
async function quietly<T>(load: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    // On a terminal the library paints the line (ANSI colour codes before its text).
    if (typeof args[0] === 'string' && args[0].replace(/\u001b\[[\d;]*m/g, '').startsWith('oidc-provider WARNING: Unsupported runtime')) return;
    warn(...args);
  };
  try {
    return await load();
  } finally {
    console.warn = warn;
  }
}
/* eslint-enable no-console */
