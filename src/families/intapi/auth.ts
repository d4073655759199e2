/**
 * The Integration API's session (public-facts#authentication-integration-api): `POST /authenticate`
 * with `x-api-key` and `{username, password, privateKey}` answers a bare JSON string, the token;
 * or the profile gives a token issued elsewhere. A refusal (400, 401, 403) is the caller's
 * configuration (CredentialsError); any other odd answer is the target's, for the checks to judge.
 */
import { operation } from '../../profile/base/operation.js';
import type { EnvRef, Profile } from '../../profile/base/types.js';
import { shellQuote } from '../../target/base/curl.js';
import { CredentialsError, NoTokenError } from '../../target/base/errors.js';
import { answerLine, exchangeOnce, REFUSALS, sentLine } from '../../target/base/exchange.js';
import type { AuthContext, FamilyAuth, Token } from '../family.js';

/** The variable name under which a token from POST /authenticate is shown. */
export const TOKEN_VAR = 'LPC_TOKEN';

/** The Integration API's credential variables, in the order apiKey, username, password, privateKey, token. */
export function credentialRefs(p: Profile): EnvRef[] {
  const c = p.credentials;
  return [c.apiKey, c.username, c.password, c.privateKey, c.token].filter((ref): ref is EnvRef => ref !== undefined);
}

/** The line that obtains a token from POST /authenticate into `tokenVar`, credentials as variables
 * (public-facts#authentication-integration-api). */
export function renderTokenPreamble(opts: {
  url: string;
  tokenVar: string;
  apiKeyVar: string;
  usernameVar: string;
  passwordVar: string;
  privateKeyVar: string;
}): string {
  const body = `{\\"username\\":\\"\${${opts.usernameVar}}\\",\\"password\\":\\"\${${opts.passwordVar}}\\",\\"privateKey\\":\\"\${${opts.privateKeyVar}}\\"}`;
  return (
    `${opts.tokenVar}=$(curl -sS -X POST ${shellQuote(opts.url)} -H "x-api-key: \${${opts.apiKeyVar}}" ` +
    `-H 'x-api-version: 2' -H 'content-type: application/json' -d "${body}" | tr -d '"')`
  );
}

async function authenticate(ctx: AuthContext): Promise<Token> {
  const { profile, value } = ctx;
  const creds = profile.credentials;
  if (creds.token) return { env: creds.token.env, value: value(creds.token) };
  const { method, path } = operation(profile, 'auth.authenticate');
  const url = `${profile.families.intapi.baseUrl.replace(/\/+$/, '')}${path}`;
  const answer = await exchangeOnce(
    url,
    {
      method,
      headers: { 'x-api-key': value(creds.apiKey), 'x-api-version': '2', 'content-type': 'application/json' },
      body: JSON.stringify({ username: value(creds.username), password: value(creds.password), privateKey: value(creds.privateKey) }),
    },
    ctx.timeoutMs,
  );
  const line = answerLine(answer, ctx.redact);
  const body = { username: creds.username?.env, password: creds.password?.env, privateKey: creds.privateKey?.env };
  const exchanged = {
    sent: sentLine(method, url, {
      headers: { 'x-api-key': creds.apiKey.env },
      body: Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => e[1] !== undefined)),
    }),
    answer,
  };
  // Refused credentials are the caller's configuration; any other odd answer is the target's.
  if (REFUSALS.includes(answer.status)) throw new CredentialsError(`POST ${path} refused the profile's credentials: ${line}`, exchanged);
  // Any 2xx with a token will do for the session; intapi.auth.authenticate-token judges the status.
  const token = answer.json;
  if (answer.status < 200 || answer.status > 299 || typeof token !== 'string' || token.length === 0) {
    throw new NoTokenError(`POST ${path} did not issue a token: ${line}`, exchanged);
  }
  const preamble = renderTokenPreamble({
    url,
    tokenVar: TOKEN_VAR,
    apiKeyVar: creds.apiKey.env,
    usernameVar: creds.username?.env ?? 'LPC_USERNAME',
    passwordVar: creds.password?.env ?? 'LPC_PASSWORD',
    privateKeyVar: creds.privateKey?.env ?? 'LPC_PRIVATE_KEY',
  });
  return { env: TOKEN_VAR, value: token, preamble };
}

export const INTAPI_AUTH: FamilyAuth = { refs: credentialRefs, required: true, token: authenticate, exchangesToken: (p) => p.credentials.token === undefined };
