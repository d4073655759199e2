/**
 * The OAuth 2.0 authorization-code flow of the Integration API (public-facts#authentication-integration-api),
 * driven with oauth4webapi (panva, MIT; pinned exactly): the authorization request (PKCE S256 and
 * `state`), the target's log-in page, the code from the redirect, the token exchange and refresh.
 *
 * The log-in is what a user agent does, not a back door: the first HTML form with a password field
 * the target shows is submitted with the Integration API's username and password (and the form's
 * other fields as they are), cookies kept per flow. Redirects are followed within the target's
 * origin; a redirect to the redirect URI ends the flow (the URI is never fetched). A target whose
 * log-in page the suite cannot drive may give `credentials.oauth.refreshToken` instead: the checks
 * that need a log-in are then skipped. Values of the client secret, tokens and codes are secrets.
 */
import * as oauth from 'oauth4webapi';
import type { CheckContext } from '../requirement.js';

export interface OAuthSetup {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly clientAuth: oauth.ClientAuth;
  readonly redirectUri: string;
  readonly scope: string;
  readonly origin: string;
  readonly options: { [oauth.allowInsecureRequests]?: boolean };
  readonly login: { readonly username: string; readonly password: string } | undefined;
  readonly refreshToken: string | undefined;
}

/** Where a flow ended: the code at the redirect URI (the callback URL), or a refusal. */
export type AuthorizeOutcome =
  { readonly kind: 'redirected'; readonly to: URL } | { readonly kind: 'refused'; readonly status: number; readonly at: string; readonly text: string };

const env = (t: CheckContext, name: string | undefined): string | undefined => {
  const value = name === undefined ? undefined : process.env[name];
  if (name === undefined || value === undefined || value === '') return undefined;
  t.secrets.remember(name, value);
  return value;
};

/** The client and server of the profile; the check is skipped when the client's variables are not set. */
export function oauthSetup(t: CheckContext): OAuthSetup {
  const c = t.profile.oauthCredentials;
  const clientId = env(t, c.clientId.env);
  const clientSecret = env(t, c.clientSecret.env);
  if (clientId === undefined || clientSecret === undefined) t.skip(`credentials.oauth: ${c.clientId.env} and ${c.clientSecret.env} must be set`);
  const o = t.profile.expectations.oauth;
  const base = t.profile.families.intapi.baseUrl.replace(/\/+$/, '');
  const username = env(t, t.profile.credentials.username?.env);
  const password = env(t, t.profile.credentials.password?.env);
  return {
    as: { issuer: o.issuer ?? `${base}/oauth`, authorization_endpoint: `${base}${o.authorizePath}`, token_endpoint: `${base}${o.tokenPath}` },
    client: { client_id: clientId },
    clientAuth: oauth.ClientSecretBasic(clientSecret),
    redirectUri: o.redirectUri,
    scope: o.scope,
    origin: new URL(base).origin,
    options: base.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {},
    login: username !== undefined && password !== undefined ? { username, password } : undefined,
    refreshToken: env(t, c.refreshToken?.env),
  };
}

/** A user agent's cookie jar for one flow (name → value; attributes ignored, one origin). */
class Jar {
  readonly #cookies = new Map<string, string>();
  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq > 0) this.#cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const decodeHtml = (text: string): string =>
  text.replace(/&(#x?[0-9a-f]+|amp|quot|lt|gt|apos);/gi, (_m, e: string) => {
    const named: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'" };
    if (e[0] !== '#') return named[e.toLowerCase()] ?? '';
    return String.fromCodePoint(e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });

const attribute = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m === null ? undefined : decodeHtml(m[1] ?? m[2] ?? m[3] ?? '');
};

/** The log-in form of a page: the first form with a password field, its action and fields. */
function loginForm(html: string, page: URL, login: { username: string; password: string }): { action: URL; body: URLSearchParams } | undefined {
  for (const m of html.matchAll(/(<form\b[^>]*>)[\s\S]*?<\/form>/gi)) {
    const [form, open = ''] = m;
    const inputs = [...form.matchAll(/<input\b[^>]*>/gi)].map((m) => m[0]);
    const passwordField = inputs.find((i) => attribute(i, 'type')?.toLowerCase() === 'password');
    if (passwordField === undefined) continue;
    const body = new URLSearchParams();
    const textField = inputs.find((i) => ['text', 'email', undefined].includes(attribute(i, 'type')?.toLowerCase()) && attribute(i, 'name') !== undefined);
    for (const input of inputs) {
      const name = attribute(input, 'name');
      if (name === undefined) continue;
      if (input === passwordField) body.set(name, login.password);
      else if (input === textField) body.set(name, login.username);
      else body.set(name, attribute(input, 'value') ?? '');
    }
    return { action: new URL(attribute(open, 'action') ?? page.href, page), body };
  }
  return undefined;
}

/**
 * Sends the authorization request (with `redirectUri`, by default the registered one) and plays the
 * user agent until the target redirects out of its origin or stops: logging in once on the first
 * log-in form. Skips the check when the profile gives no username and password.
 */
export async function authorize(
  t: CheckContext,
  s: OAuthSetup,
  redirectUri = s.redirectUri,
): Promise<{ outcome: AuthorizeOutcome; state: string; verifier: string }> {
  const login = s.login;
  if (login === undefined) return t.skip("the flow's log-in needs the Integration API's username and password (credentials.username, credentials.password)");
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(s.as.authorization_endpoint ?? '');
  for (const [k, v] of Object.entries({
    client_id: s.client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: s.scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  })) {
    url.searchParams.set(k, v);
  }
  const jar = new Jar();
  let loggedIn = false;
  let request: { url: URL; init: RequestInit } = { url, init: { method: 'GET' } };
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(request.url, {
      ...request.init,
      redirect: 'manual',
      headers: { ...(request.init.headers as Record<string, string> | undefined), cookie: jar.header() },
      signal: AbortSignal.timeout(t.config.timeoutMs),
    });
    jar.keep(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location !== null) {
      const to = new URL(location, request.url);
      await res.body?.cancel();
      if (to.origin !== s.origin) return { outcome: { kind: 'redirected', to }, state, verifier };
      request = { url: to, init: { method: 'GET' } };
      continue;
    }
    const text = await res.text();
    const form = res.ok && !loggedIn ? loginForm(text, request.url, login) : undefined;
    if (form === undefined) return { outcome: { kind: 'refused', status: res.status, at: request.url.pathname, text: text.slice(0, 200) }, state, verifier };
    loggedIn = true;
    request = {
      url: form.action,
      init: { method: 'POST', body: form.body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    };
  }
  return { outcome: { kind: 'refused', status: 0, at: 'more than 12 redirects', text: '' }, state, verifier };
}

/** A code for the registered redirect URI, with what its exchange needs; fails the check otherwise. */
export async function authorizationCode(t: CheckContext, s: OAuthSetup): Promise<{ params: URLSearchParams; verifier: string }> {
  const { outcome, state, verifier } = await authorize(t, s);
  if (outcome.kind !== 'redirected') {
    throw new Error(`the authorization request to end at the redirect URI with a code; it stopped at ${outcome.at} with ${outcome.status}: ${outcome.text}`);
  }
  return { params: oauth.validateAuthResponse(s.as, s.client, outcome.to, state), verifier };
}

export const exchangeCode = (s: OAuthSetup, code: { params: URLSearchParams; verifier: string }): Promise<Response> =>
  oauth.authorizationCodeGrantRequest(s.as, s.client, s.clientAuth, code.params, s.redirectUri, code.verifier, s.options);

export const processCodeAnswer = (s: OAuthSetup, res: Response): Promise<oauth.TokenEndpointResponse> =>
  oauth.processAuthorizationCodeResponse(s.as, s.client, res);

export const refresh = async (s: OAuthSetup, refreshToken: string): Promise<oauth.TokenEndpointResponse> =>
  oauth.processRefreshTokenResponse(s.as, s.client, await oauth.refreshTokenGrantRequest(s.as, s.client, s.clientAuth, refreshToken, s.options));

/** Tokens of the flow: through the log-in when the profile allows it, else from the profile's refresh token. */
export async function oauthTokens(t: CheckContext, s: OAuthSetup): Promise<oauth.TokenEndpointResponse> {
  const tokens =
    s.login === undefined && s.refreshToken !== undefined
      ? await refresh(s, s.refreshToken)
      : await processCodeAnswer(s, await exchangeCode(s, await authorizationCode(t, s)));
  t.secrets.remember('LPC_OAUTH_ACCESS_TOKEN', tokens.access_token);
  if (tokens.refresh_token !== undefined) t.secrets.remember('LPC_OAUTH_REFRESH_TOKEN', tokens.refresh_token);
  return tokens;
}
