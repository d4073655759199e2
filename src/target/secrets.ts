/**
 * Credentials of the target, read from the environment variables the profile names, each family's
 * session token, and the redactor that replaces each secret value with its variable name in
 * everything the suite writes. A session token is a secret too: it shows as the variable its family
 * names (`${LPC_TOKEN}`, say).
 */
import { familyNamed } from '../families/registry.js';
import type { AuthContext, Token } from '../families/family.js';
import { redactor, resolveSecrets, type Profile } from '../profile/index.js';
import { MissingCredentialsError } from './base/errors.js';

export { CredentialsError, MissingCredentialsError } from './base/errors.js';
export type { Token } from '../families/family.js';

export interface Secrets {
  /** The value of a credential variable, when set; the variable becomes a secret. */
  valueOf(ref: { env: string } | undefined): string | undefined;
  /** A family's session token, obtained once per server and shared by the checks: the profile's
   * ready token, or one from the family's token exchange. Rejects with MissingCredentialsError when
   * the family's variables are not set (its checks are then skipped, naming them). */
  token(family: string): Promise<Token>;
  /** Asks the family's token exchange for a new token and makes it the session's. */
  authenticate(family: string): Promise<Token>;
  /** Makes `value` a secret shown as `${env}` (a token a check obtained itself). */
  remember(env: string, value: string): void;
  redact(text: string): string;
}

/** Why a run that selects a family's checks cannot start: its variables are not set. */
export function credentialsMissing(profile: Profile, family: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const missing = resolveSecrets(profile, env).missingByFamily[family] ?? [];
  return missing.length > 0 ? `credentials: ${missing.join(', ')} not set` : undefined;
}

/** How the worker threads of a run share their session tokens (suites/_harness/threads.ts): `key`
 * names a family at a server; `exchange` makes the token exchange when this thread is the one to. */
export interface SessionBroker {
  token(key: string, exchange: () => Promise<Token>): Promise<Token>;
  /** A check of this thread replaced the session token: the others are handed the new one. */
  rotated(key: string, token: Token): void;
}

let broker: SessionBroker | undefined;
/** The session tokens held by every Secrets of this thread, by family. */
const sessions = new Set<Map<string, Promise<Token>>>();

/** This thread shares its session tokens with the run's other threads through `b`. */
export function shareSessions(b: SessionBroker): void {
  broker = b;
}

/** Forgets every session token held (another thread replaced them): the next request asks again. */
export function forgetSessions(): void {
  for (const current of sessions) current.clear();
}

export function createSecrets(profile: Profile, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Secrets {
  const { values, missingByFamily } = resolveSecrets(profile, env);
  const known: Record<string, string> = { ...values };
  let redact = redactor(known);

  function remember(name: string, value: string): void {
    if (value.length === 0) return;
    known[name] = value;
    redact = redactor(known);
  }

  const context: AuthContext = {
    profile,
    timeoutMs,
    value: (ref) => (ref ? (values[ref.env] ?? '') : ''),
    redact: (text) => redact(text),
  };

  async function authenticate(family: string): Promise<Token> {
    const missing = missingByFamily[family] ?? [];
    const { auth, title } = familyNamed(family);
    if (missing.length > 0) throw new MissingCredentialsError(`${missing.join(', ')} not set`, title);
    if (!auth) throw new Error(`harness: the ${family} family has no session`);
    const token = await auth.token(context);
    remember(token.env, token.value);
    return token;
  }

  const current = new Map<string, Promise<Token>>();
  sessions.add(current);
  const keyOf = (family: string): string => `${serverKey(profile)} ${family}`;
  /** A token another thread obtained is a secret here too. */
  const shared = async (family: string): Promise<Token> => {
    const token = await (broker as SessionBroker).token(keyOf(family), () => authenticate(family));
    remember(token.env, token.value);
    return token;
  };
  return {
    valueOf: (ref) => (ref ? values[ref.env] : undefined),
    token: (family) => {
      let token = current.get(family);
      if (!token) current.set(family, (token = broker ? shared(family) : authenticate(family)));
      return token;
    },
    authenticate: (family) => {
      const token = authenticate(family);
      current.set(family, token);
      if (broker) {
        const to = broker;
        void token.then((t) => to.rotated(keyOf(family), t)).catch(() => undefined);
      }
      return token;
    },
    redact: (text) => redact(text),
    remember,
  };
}

const shared = new Map<string, Secrets>();

/** Each profile's server key, computed once: a check, a record and a session ask for it on every
 * use, and a profile's families are not changed once it is loaded. */
const serverKeys = new WeakMap<Profile['families'], string>();

/** What tells one target server from another: its families' base URLs. */
export function serverKey(profile: Profile): string {
  let key = serverKeys.get(profile.families);
  if (key === undefined) serverKeys.set(profile.families, (key = JSON.stringify(profile.families)));
  return key;
}

/** One set of secrets (and so one session token per family) per target server for every check of
 * the run: a new token revokes the previous one, so the checks against one server share theirs. */
export function sessionSecrets(profile: Profile, timeoutMs: number): Secrets {
  const server = serverKey(profile);
  let secrets = shared.get(server);
  if (!secrets) shared.set(server, (secrets = createSecrets(profile, timeoutMs)));
  return secrets;
}
