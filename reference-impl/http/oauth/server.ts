import { generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { OAuthStorage } from './adapter.js';

/**
 * An OAuth 2.0 authorization-code flow (RFC 6749 §4.1) served by `oidc-provider` (panva, MIT;
 * pinned exactly in package.json), not by hand: each family that offers the flow mounts one under
 * its own prefix, with its own scope, resource and rules (its behaviour table's `oauth`). Choices
 * (docs/decisions pages of the families that mount it):
 * - under `{prefix}`: `{prefix}/authorize`, `{prefix}/token`, the discovery document
 *   `{prefix}/.well-known/openid-configuration`, the log-in at `{prefix}/interaction/{uid}`;
 * - one confidential client (client_secret_basic, the profile's redirect URI), PKCE accepted;
 * - the sandbox log-in: an HTML form (`username`, `password`) checked against the family's
 *   credentials; consent is implied for the sandbox client;
 * - access tokens are opaque, for the family's resource with its scope; the family's guard accepts
 *   them as `Authorization: Bearer` by asking `accessTokenAccount`;
 * - the provider is built on the first request under the prefix (oidc-provider is imported then),
 *   so a server that never sees OAuth starts as fast as before.
 */
export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

/** The sandbox client of `lp-conformance serve` and bundled runs (each family's client variables). */
export const SANDBOX_OAUTH_CLIENT: OAuthClient = Object.freeze({
  clientId: 'lpc-sandbox-client',
  clientSecret: 'lpc-sandbox-client-secret',
  redirectUri: 'https://client.lp-conformance.invalid/callback',
});

const HOURS = 3600;

/** Where a flow is mounted and what its tokens are for. */
export interface OAuthMount {
  /** The path the flow is served under (no trailing slash), e.g. `/oauth`. */
  readonly prefix: string;
  /** The one scope the client may ask for, and its access tokens carry. */
  readonly scope: string;
  /** The resource (RFC 8707) the access tokens are for. */
  readonly resource: string;
}

/** The rules of the flow, as data (a family behaviour table's `oauth`; each fault changes one). */
export interface OAuthBehaviour {
  /** A consumed code is refused (`refused`), or can be exchanged again. */
  codeReuse: 'refused' | 'allowed';
  /** The redirect URI must be the registered one, or any is accepted. */
  redirectUri: 'registered' | 'any';
  /** The token answer carries a refresh token, or none. */
  refreshToken: 'issued' | 'not-issued';
  /** Access token lifetime in seconds. */
  accessTokenTtl: number;
}

export interface OAuthServer {
  readonly prefix: string;
  /** Answers a request whose path starts with `{prefix}/`. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The issuer once known (`http://HOST{prefix}`); set by `listen`, else from the first request's Host. */
  setIssuer(issuer: string): void;
  /** The user of a live access token with the mount's scope, or undefined. */
  accessTokenAccount(token: string, nowMs: number): string | undefined;
}

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(prefix: string, uid: string, failed: boolean): string {
  const action = `${prefix}/interaction/${encodeURIComponent(uid)}/login`;
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

/** What the flow is made of: where it is mounted, the sandbox log-in, its client and its behaviour. */
interface OAuthOptions {
  mount: OAuthMount;
  /** The username and password the sandbox log-in takes. */
  credentials: { readonly username: string; readonly password: string };
  /** The user the sandbox log-in signs in. */
  accountId: string;
  client: OAuthClient;
  behaviour: OAuthBehaviour;
}

/** What the flow uses of a built provider. */
interface ProviderHandle {
  readonly callback: (req: IncomingMessage, res: ServerResponse) => unknown;
  readonly interactionDetails: (req: IncomingMessage, res: ServerResponse) => Promise<{ uid: string; params: Record<string, unknown> }>;
  readonly finish: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/** The provider's configuration: its one client, keys, scope, routes, resource and lifetimes. */
function providerConfiguration(options: OAuthOptions, storage: OAuthStorage): Record<string, unknown> {
  const { accountId, client, behaviour } = options;
  const { prefix, scope, resource } = options.mount;
  const signingKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return {
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
        scope: scope,
      },
    ],
    jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'ES256', kid: 'lpc-reference' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: [scope],
    routes: { authorization: '/authorize', token: '/token', jwks: '/jwks', revocation: '/revoke', end_session: '/session/end' },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: scope, accessTokenTTL: behaviour.accessTokenTtl, accessTokenFormat: 'opaque' }),
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${prefix}/interaction/${interaction.uid}` },
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
  };
}

/** Builds the provider (oidc-provider, imported now) for the issuer `iss`. */
async function buildProvider(options: OAuthOptions, storage: OAuthStorage, iss: string): Promise<ProviderHandle> {
  const { accountId, behaviour } = options;
  const { scope, resource } = options.mount;
  const { default: Provider } = await quietly(() => import('oidc-provider'));
  const provider = new Provider(iss, providerConfiguration(options, storage));
  if (behaviour.redirectUri === 'any') {
    // The fault `<family>.oauth-any-redirect-uri`: every redirect URI counts as registered.
    (provider.Client.prototype as { redirectUriAllowed: () => boolean }).redirectUriAllowed = () => true;
  }
  const callback = provider.callback();
  return {
    callback,
    interactionDetails: (req, res) => provider.interactionDetails(req, res) as Promise<{ uid: string; params: Record<string, unknown> }>,
    finish: async (req, res) => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      // The scope is both a scope of the provider (so that it may be requested) and of the resource.
      grant.addOIDCScope(scope);
      grant.addResourceScope(resource, scope);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    },
  };
}

/** The log-in page of an interaction, and its form's answer. */
async function interaction(options: OAuthOptions, req: IncomingMessage, res: ServerResponse, handle: ProviderHandle, path: string): Promise<void> {
  const { credentials } = options;
  const { prefix } = options.mount;
  const login = /^\/interaction\/([^/]+)\/login$/.exec(path);
  if (req.method === 'GET' && /^\/interaction\/[^/]+$/.test(path)) {
    const details = await handle.interactionDetails(req, res);
    send(res, 200, 'text/html; charset=utf-8', loginPage(prefix, details.uid, false));
    return;
  }
  if (req.method === 'POST' && login) {
    const details = await handle.interactionDetails(req, res);
    const form = await readForm(req);
    const ok = same(form.get('username') ?? '', credentials.username) && same(form.get('password') ?? '', credentials.password);
    if (!ok) {
      send(res, 401, 'text/html; charset=utf-8', loginPage(prefix, details.uid, true));
      return;
    }
    await handle.finish(req, res);
    return;
  }
  send(res, 404, 'text/plain; charset=utf-8', 'No such page.');
}

export function createOAuthServer(options: OAuthOptions): OAuthServer {
  const { prefix, scope } = options.mount;
  const storage = new OAuthStorage(options.behaviour.codeReuse === 'refused');
  let issuer: string | undefined;
  let built: Promise<ProviderHandle> | undefined;
  const providerFor = (req: IncomingMessage): Promise<ProviderHandle> =>
    (built ??= buildProvider(options, storage, issuer ?? `http://${req.headers.host ?? '127.0.0.1'}${prefix}`));
  return {
    prefix,
    setIssuer: (value) => void (issuer ??= value),
    accessTokenAccount: (token, nowMs) => storage.accessTokenAccount(token, scope, nowMs),
    handle: async (req, res) => {
      const handle = await providerFor(req);
      const url = req.url ?? '/';
      const path = url.slice(prefix.length).split('?')[0] ?? '/';
      try {
        if (path.startsWith('/interaction/')) {
          await interaction(options, req, res, handle, path);
          return;
        }
        // oidc-provider finds its mount path from originalUrl and url (as under Express's app.use).
        Object.assign(req, { originalUrl: url, url: url.slice(prefix.length) || '/' });
        await handle.callback(req, res);
      } catch (error) {
        if (!res.headersSent) send(res, 400, 'text/plain; charset=utf-8', `OAuth request failed: ${(error as Error).message}`);
        else res.end();
      }
    },
  };
}

/** Mounts the flow on the app: fastify hands every request under its prefix over before reading any
 * body (the flow answers its own forms, redirects and cookies). */
export function mountOAuth(fastify: FastifyInstance, oauth: OAuthServer): void {
  fastify.route({
    method: ['GET', 'POST'],
    url: `${oauth.prefix}/*`,
    onRequest: async (request, reply) => {
      reply.hijack();
      await oauth.handle(request.raw, reply.raw);
    },
    handler: () => undefined,
  });
}

/** Imports with oidc-provider's runtime notice held back: it names Node 22 LTS as its supported
 * runtime and says so on Node 20, which the project supports and on which its flows are tested
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
