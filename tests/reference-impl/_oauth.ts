// The reference server's OAuth 2.0 authorization-code flow, played by hand (fetch, a cookie jar, the
// log-in form): the reference server's own tests, independent of the suite's harness.
import { createHash, randomBytes } from 'node:crypto';
import { SANDBOX_CREDENTIALS, SANDBOX_OAUTH_CLIENT } from '../../reference-impl/index.js';

const BASIC = `Basic ${Buffer.from(`${SANDBOX_OAUTH_CLIENT.clientId}:${SANDBOX_OAUTH_CLIENT.clientSecret}`).toString('base64')}`;

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The Integration API's scope (its flow under `{root}/oauth`); SCIM's flow, under `{root}/scim/v2/oauth`, takes `scim`. */
const INTAPI_SCOPE = 'admin.v1';

/** GET {base}/oauth/authorize with the sandbox client; the answer as is (no redirect followed). */
export function authorizeRequest(base: string, redirectUri = SANDBOX_OAUTH_CLIENT.redirectUri, scope = INTAPI_SCOPE): { url: URL; verifier: string } {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: SANDBOX_OAUTH_CLIENT.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope,
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return { url, verifier };
}

/** The flow up to the code: authorize, the log-in form (sandbox username and password), the redirect. */
export async function obtainCode(
  base: string,
  password = SANDBOX_CREDENTIALS.password,
  scope = INTAPI_SCOPE,
): Promise<{ code: string | undefined; verifier: string; status: number }> {
  const { url, verifier } = authorizeRequest(base, SANDBOX_OAUTH_CLIENT.redirectUri, scope);
  const cookies = new Map<string, string>();
  const go = async (target: URL, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string> | undefined), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return res;
  };
  let res = await go(url);
  const interaction = new URL(res.headers.get('location') ?? '', base);
  res = await go(interaction);
  const action = /action="([^"]+)"/.exec(await res.text())?.[1] ?? '';
  res = await go(new URL(action, base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: SANDBOX_CREDENTIALS.username, password }).toString(),
  });
  if (res.status !== 303) return { code: undefined, verifier, status: res.status };
  res = await go(new URL(res.headers.get('location') ?? '', base));
  const to = new URL(res.headers.get('location') ?? '', base);
  return { code: to.searchParams.get('code') ?? undefined, verifier, status: res.status };
}

export async function tokenRequest(base: string, form: Record<string, string>): Promise<TokenAnswer> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export const exchange = (base: string, code: string, verifier: string): Promise<TokenAnswer> =>
  tokenRequest(base, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: SANDBOX_OAUTH_CLIENT.redirectUri });

/** Tokens of a whole flow. */
export async function oauthTokens(base: string, scope = INTAPI_SCOPE): Promise<TokenAnswer & { code: string; verifier: string }> {
  const { code, verifier } = await obtainCode(base, SANDBOX_CREDENTIALS.password, scope);
  if (code === undefined) throw new Error('no code');
  return { ...(await exchange(base, code, verifier)), code, verifier };
}
