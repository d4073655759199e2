/**
 * Credentials of the target, read from the environment variables the profile names, and the
 * redactor that replaces each secret value with its variable name in everything the suite writes.
 * The session token is a secret too: it is shown as ${LPC_TOKEN} (or the profile's token variable).
 */
import { request } from 'undici';
import { operation, redactor, resolveSecrets, type Profile } from '../profile/index.js';
import { renderTokenPreamble } from './curl.js';
import { honouring429 } from './retry.js';

export interface Token {
  env: string;
  value: string;
  /** How to obtain it with curl, when it comes from POST /authenticate. */
  preamble?: string;
}

export interface Secrets {
  apiKey: { env: string; value: string };
  /** The session token, obtained once per worker and shared by the checks. */
  token(): Promise<Token>;
  /** Asks POST /authenticate for a new token and makes it the session's. */
  authenticate(): Promise<Token>;
  /** The SCIM or learner API session token: the profile's ready token, or one from the family's
   * token exchange, obtained once per server. Rejects with MissingCredentialsError when the
   * family's variables are not set (its checks are then skipped, naming them). */
  familyToken(family: 'scim' | 'learner'): Promise<Token>;
  /** Asks the family's token exchange for a new token and makes it the session's. */
  familyAuthenticate(family: 'scim' | 'learner'): Promise<Token>;
  /** Makes `value` a secret shown as `${env}` (a token a check obtained itself). */
  remember(env: string, value: string): void;
  redact(text: string): string;
}

/** The variable name under which a token from POST /authenticate is shown. */
export const TOKEN_VAR = 'LPC_TOKEN';

export class CredentialsError extends Error {}

/** A family's credentials are not set: its checks are skipped, not failed. */
export class MissingCredentialsError extends Error {
  readonly code = 'LPC_NO_CREDENTIALS';
}

/** Variable names under which tokens from the SCIM and learner token exchanges are shown. */
export const FAMILY_TOKEN_VARS = { scim: 'LPC_SCIM_TOKEN', learner: 'LPC_LEARNER_TOKEN' } as const;

/** The field of a token exchange's answer that holds the token: SCIM's `token` (public-facts), the
 * learner API's OAuth-style `access_token`. */
const TOKEN_FIELD = { scim: 'token', learner: 'access_token' } as const;

/** Why a run that selects Integration API checks cannot start: its variables are not set. */
export function intapiCredentialsMissing(profile: Profile, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const { missing } = resolveSecrets(profile, env);
  return missing.length > 0 ? `credentials: ${missing.join(', ')} not set` : undefined;
}

export function createSecrets(profile: Profile, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Secrets {
  const { values, missing, missingByFamily } = resolveSecrets(profile, env);
  // Unset Integration API variables fail its session (the command line refuses such a run when it
  // selects Integration API checks, see intapiCredentialsMissing); other families run without them.
  const intapiMissing = missing.length > 0 ? `credentials: ${missing.join(', ')} not set` : undefined;
  const known: Record<string, string> = { ...values };
  let redact = redactor(known);
  const creds = profile.credentials;
  const valueOf = (ref: { env: string } | undefined): string => (ref ? (values[ref.env] ?? '') : '');

  let current: Promise<Token> | undefined;

  function remember(env: string, value: string): void {
    if (value.length === 0) return;
    known[env] = value;
    redact = redactor(known);
  }

  async function authenticate(): Promise<Token> {
    if (intapiMissing) throw new MissingCredentialsError(intapiMissing);
    if (creds.token) return { env: creds.token.env, value: valueOf(creds.token) };
    const { method, path } = operation(profile, 'auth.authenticate');
    const url = `${profile.families.intapi.baseUrl.replace(/\/+$/, '')}${path}`;
    // undici's timeouts bound the wait for headers and between chunks; the signal bounds the whole
    // answer, so that a token trickled forever fails the session instead of hanging the run.
    // A rate-limited log-in is waited out like any request (retry.ts).
    const res = await honouring429(async () => {
      const deadline = AbortSignal.timeout(timeoutMs);
      try {
        const answer = await request(url, {
          method: method as 'POST',
          headers: { 'x-api-key': valueOf(creds.apiKey), 'x-api-version': '2', 'content-type': 'application/json' },
          body: JSON.stringify({ username: valueOf(creds.username), password: valueOf(creds.password), privateKey: valueOf(creds.privateKey) }),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: deadline,
        });
        return Object.assign(answer, { text: await answer.body.text() });
      } catch (error) {
        if (!deadline.aborted) throw error;
        throw Object.assign(new Error(`no complete answer within ${timeoutMs} ms (POST ${path})`), { code: 'LPC_DEADLINE' });
      }
    });
    const text = res.text;
    let token: unknown;
    try {
      token = JSON.parse(text);
    } catch {
      token = undefined;
    }
    const answer = `${res.statusCode} ${redact(text).replace(/\s+/g, ' ').slice(0, 200)}`;
    // Refused credentials are the caller's configuration; any other odd answer is the target's.
    if ([400, 401, 403].includes(res.statusCode)) throw new CredentialsError(`POST ${path} refused the profile's credentials: ${answer}`);
    // Any 2xx with a token will do for the session; intapi.auth.authenticate-token judges the status.
    if (res.statusCode < 200 || res.statusCode > 299 || typeof token !== 'string' || token.length === 0) {
      throw Object.assign(new Error(`POST ${path} did not issue a token: ${answer}`), { code: 'LPC_NO_TOKEN' });
    }
    remember(TOKEN_VAR, token);
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

  const familyCurrent: Partial<Record<'scim' | 'learner', Promise<Token>>> = {};

  async function familyAuthenticate(family: 'scim' | 'learner'): Promise<Token> {
    if (missingByFamily[family].length > 0) throw new MissingCredentialsError(`${missingByFamily[family].join(', ')} not set`);
    const c = profile.familyCredentials[family];
    if (c.token) return { env: c.token.env, value: valueOf(c.token) };
    const { method, path } = operation(profile, family === 'scim' ? 'scim.auth.token' : 'learner.auth.token');
    const url = `${profile.families[family].baseUrl.replace(/\/+$/, '')}${path}`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (family === 'learner') headers['x-api-key'] = valueOf(creds.apiKey);
    const res = await honouring429(async () => {
      const deadline = AbortSignal.timeout(timeoutMs);
      try {
        const answer = await request(url, {
          method: method as 'POST',
          headers,
          body: JSON.stringify({ username: valueOf(c.username), password: valueOf(c.password) }),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: deadline,
        });
        return Object.assign(answer, { text: await answer.body.text() });
      } catch (error) {
        if (!deadline.aborted) throw error;
        throw Object.assign(new Error(`no complete answer within ${timeoutMs} ms (${method} ${path})`), { code: 'LPC_DEADLINE' });
      }
    });
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      json = undefined;
    }
    const answer = `${res.statusCode} ${redact(res.text).replace(/\s+/g, ' ').slice(0, 200)}`;
    const token = typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[TOKEN_FIELD[family]] : undefined;
    if (res.statusCode < 200 || res.statusCode > 299 || typeof token !== 'string' || token.length === 0) {
      throw Object.assign(new Error(`${method} ${path} did not issue a ${family} token: ${answer}`), { code: 'LPC_NO_TOKEN' });
    }
    remember(FAMILY_TOKEN_VARS[family], token);
    return { env: FAMILY_TOKEN_VARS[family], value: token };
  }

  return {
    apiKey: { env: creds.apiKey.env, value: valueOf(creds.apiKey) },
    token: () => (current ??= authenticate()),
    authenticate: () => (current = authenticate()),
    familyToken: (family) => (familyCurrent[family] ??= familyAuthenticate(family)),
    familyAuthenticate: (family) => (familyCurrent[family] = familyAuthenticate(family)),
    redact: (text) => redact(text),
    remember,
  };
}

const shared = new Map<string, Secrets>();
/** One set of secrets (and so one session token) per target server for every check of the run:
 * a new token revokes the previous one, so the checks against one server share theirs. */
export function sessionSecrets(profile: Profile, timeoutMs: number): Secrets {
  const server = profile.families.intapi.baseUrl;
  let secrets = shared.get(server);
  if (!secrets) shared.set(server, (secrets = createSecrets(profile, timeoutMs)));
  return secrets;
}
