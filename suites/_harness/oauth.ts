/**
 * An OAuth 2.0 authorization-code flow (RFC 6749 §4.1) of a family, driven with oauth4webapi (panva,
 * MIT; pinned exactly): the authorization request (PKCE S256 and `state`), the target's log-in page,
 * the code from the redirect, the token exchange and refresh; and the checks every such flow gets
 * (`oauthFlowChecks`), each family describing its flow (`OAuthFlow`: its profile parts, the call its
 * access tokens must be accepted by).
 *
 * The log-in is what a user agent does, not a back door: the first HTML form with a password field
 * the target shows is submitted with the flow's username and password (and the form's other fields
 * as they are), cookies kept per flow. Redirects are followed within the target's origin; a redirect
 * to the redirect URI ends the flow (the URI is never fetched). A target whose log-in page the suite
 * cannot drive may give the client's `refreshToken` instead: the checks that need a log-in are then
 * skipped. Values of the client secret, tokens and codes are secrets.
 */
import * as oauth from 'oauth4webapi';
import type { EnvRef, OAuthClientCredentials, OAuthFlowExpectations } from '../../src/profile/base/types.js';
import { describeResponse, expectStatus, fail } from './failure.js';
import type { ApiRequest } from './http.js';
import { requirement, type CheckContext } from './requirement.js';

/** A family's flow: where the profile keeps it, and what its checks are called and send. */
export interface OAuthFlow {
  /** The start of its checks' ids (`<prefix>.code-single-use`, …). */
  readonly idPrefix: string;
  /** The anchor of the sentence that names the flow. */
  readonly spec: string;
  /** The family's base URL (the flow's paths are under it). */
  readonly baseUrl: (t: CheckContext) => string;
  readonly expectations: (t: CheckContext) => OAuthFlowExpectations;
  readonly client: (t: CheckContext) => OAuthClientCredentials;
  /** Where the profile keeps the client (`credentials.…oauth`), for a skip. */
  readonly clientAt: string;
  /** The log-in page's username and password, and what names them in a skip. */
  readonly login: (t: CheckContext) => { readonly username?: EnvRef; readonly password?: EnvRef; readonly named: string };
  /** The variable names its tokens are shown as: `<tokenVar>_ACCESS_TOKEN`, `<tokenVar>_REFRESH_TOKEN`. */
  readonly tokenVar: string;
  /** A family call that the access token must be accepted by (200 with JSON), and its words in a title. */
  readonly accepted: { readonly request: ApiRequest; readonly title: string; readonly what: string };
}

export interface OAuthSetup {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly clientAuth: oauth.ClientAuth;
  readonly redirectUri: string;
  readonly scope: string;
  readonly origin: string;
  readonly options: { [oauth.allowInsecureRequests]?: boolean };
  readonly login: { readonly username: string; readonly password: string } | undefined;
  /** Why there is no log-in, for a skip. */
  readonly noLogin: string;
  readonly refreshToken: string | undefined;
  readonly tokenVar: string;
}

/** Where a flow ended: the code at the redirect URI (the callback URL), or a refusal. */
export type AuthorizeOutcome =
  { readonly kind: 'redirected'; readonly to: URL } | { readonly kind: 'refused'; readonly status: number; readonly at: string; readonly text: string };

const env = (t: CheckContext, ref: EnvRef | undefined): string | undefined => {
  const name = ref?.env;
  const value = name === undefined ? undefined : process.env[name];
  if (name === undefined || value === undefined || value === '') return undefined;
  t.secrets.remember(name, value);
  return value;
};

/** The client and server of the profile; the check is skipped when the client's variables are not set. */
export function oauthSetup(t: CheckContext, flow: OAuthFlow): OAuthSetup {
  const c = flow.client(t);
  const clientId = env(t, c.clientId);
  const clientSecret = env(t, c.clientSecret);
  if (clientId === undefined || clientSecret === undefined) t.skip(`${flow.clientAt}: ${c.clientId.env} and ${c.clientSecret.env} must be set`);
  const o = flow.expectations(t);
  const base = flow.baseUrl(t).replace(/\/+$/, '');
  const login = flow.login(t);
  const username = env(t, login.username);
  const password = env(t, login.password);
  return {
    as: { issuer: o.issuer ?? `${base}/oauth`, authorization_endpoint: `${base}${o.authorizePath}`, token_endpoint: `${base}${o.tokenPath}` },
    client: { client_id: clientId },
    clientAuth: oauth.ClientSecretBasic(clientSecret),
    redirectUri: o.redirectUri,
    scope: o.scope,
    origin: new URL(base).origin,
    options: base.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {},
    login: username !== undefined && password !== undefined ? { username, password } : undefined,
    noLogin: `the flow's log-in needs ${login.named}`,
    refreshToken: env(t, c.refreshToken),
    tokenVar: flow.tokenVar,
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
  if (login === undefined) return t.skip(s.noLogin);
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
  t.secrets.remember(`${s.tokenVar}_ACCESS_TOKEN`, tokens.access_token);
  if (tokens.refresh_token !== undefined) t.secrets.remember(`${s.tokenVar}_REFRESH_TOKEN`, tokens.refresh_token);
  return tokens;
}

/** A redirect URI no client registers (never fetched). */
const WRONG_REDIRECT = 'https://elsewhere.lp-conformance.invalid/callback';

/**
 * The checks of a flow (level PROFILE: the facts come from what is publicly known of the platform,
 * the paths, redirect URI, scope and lifetime from the profile): a code works once, an unregistered
 * redirect URI is refused, refresh, the access token accepted by a call of the family, and
 * `expires_in` within the profile's bound.
 */
export function oauthFlowChecks(flow: OAuthFlow): void {
  /** The flow's check id of `rule`. */
  const id = (rule: string): string => `${flow.idPrefix}.${rule}`;
  codeChecks(flow, id);
  tokenChecks(flow, id);
}

/** The authorization code's checks: it works once, and only for the registered redirect URI. */
function codeChecks(flow: OAuthFlow, id: (rule: string) => string): void {
  const { spec } = flow;
  requirement(
    { id: id('code-single-use'), level: 'PROFILE', spec, title: 'An authorization code is exchanged for tokens once: a second exchange is refused' },
    async (t) => {
      const s = oauthSetup(t, flow);
      const code = await authorizationCode(t, s);
      const first = await exchangeCode(s, code);
      const tokens = await processCodeAnswer(s, first);
      t.secrets.remember(`${s.tokenVar}_ACCESS_TOKEN`, tokens.access_token);
      const second = await exchangeCode(s, code);
      const body = (await second.text()).slice(0, 200);
      if (second.ok) fail('the second exchange of the code refused (400 invalid_grant)', `${second.status} ${t.secrets.redact(body)}`);
    },
  );

  requirement(
    {
      id: id('wrong-redirect-uri-refused'),
      level: 'PROFILE',
      spec,
      title: 'An authorization request with an unregistered redirect_uri is refused, never redirected there',
    },
    async (t) => {
      const s = oauthSetup(t, flow);
      const { outcome } = await authorize(t, s, WRONG_REDIRECT);
      if (outcome.kind === 'redirected') {
        const to = new URL(outcome.to);
        for (const secret of ['code', 'state']) if (to.searchParams.has(secret)) to.searchParams.set(secret, '…');
        fail(`a refusal (an error page, no redirect to ${WRONG_REDIRECT})`, `a redirect to ${to.href}`);
      }
    },
  );
}

/** The tokens' checks: refresh, the access token accepted by the family, its lifetime. */
function tokenChecks(flow: OAuthFlow, id: (rule: string) => string): void {
  const { spec } = flow;
  requirement(
    { id: id('refresh'), level: 'PROFILE', spec, title: 'The token answer carries a refresh token, and refreshing answers a new access token' },
    async (t) => {
      const s = oauthSetup(t, flow);
      const tokens = await oauthTokens(t, s);
      const refreshToken = tokens.refresh_token ?? s.refreshToken;
      if (refreshToken === undefined) fail('a refresh_token in the token answer (refresh tokens last 1 year)', `the fields ${Object.keys(tokens).join(', ')}`);
      const renewed = await refresh(s, refreshToken);
      t.secrets.remember(`${s.tokenVar}_ACCESS_TOKEN_2`, renewed.access_token);
      if (typeof renewed.access_token !== 'string' || renewed.access_token === '') fail('a new access_token', `the fields ${Object.keys(renewed).join(', ')}`);
    },
  );

  requirement(
    {
      id: id('access-token-accepted'),
      level: 'PROFILE',
      spec,
      title: `An access token of the flow is accepted by ${flow.accepted.title} as Authorization: Bearer`,
    },
    async (t) => {
      const s = oauthSetup(t, flow);
      const tokens = await oauthTokens(t, s);
      const res = await t.http.send({ ...flow.accepted.request, token: { env: `${s.tokenVar}_ACCESS_TOKEN`, value: tokens.access_token } });
      expectStatus(res, 200, `${flow.accepted.what} with the OAuth access token`);
      if (res.json === undefined) fail('a JSON answer', describeResponse(res), res);
    },
  );

  requirement(
    { id: id('expires-in-at-most-4h'), level: 'PROFILE', spec, title: "The access token's expires_in is at most the profile's bound (4 hours)" },
    async (t) => {
      const s = oauthSetup(t, flow);
      const tokens = await oauthTokens(t, s);
      const max = flow.expectations(t).accessTokenMaxSeconds;
      if (typeof tokens.expires_in !== 'number' || tokens.expires_in <= 0 || tokens.expires_in > max) {
        fail(`expires_in from 1 to ${max} seconds`, `expires_in ${JSON.stringify(tokens.expires_in)}`);
      }
    },
  );
}
