/**
 * Before any check runs, each family the run selects is tried once, in registration order, and the
 * first set-up mistake is exit 2 with one line naming the family, its URL, what was sent (secrets as
 * `${VAR}`) and what came back:
 * 1. its base URL takes a connection (each server once; for https a TLS handshake verified as the
 *    run will verify it: `--ca`, `--insecure`);
 * 2. its credential variables are set: a family whose credentials a run requires stops the run; one
 *    whose credentials are optional is not tried further (its checks are skipped, saying why);
 * 3. its registration's `preflight`: typically its token (a log-in, or a ready token) and one cheap
 *    read (`ctx.read`). A refusal (401, 403; a token exchange's 400), a TLS error, a connection never
 *    made, or an answer that is not an API (404, a web page, a success that is not JSON) is a
 *    SetupError; another odd answer (a 5xx, a reset, no answer in time), or the family's JSON under
 *    another media type (text/html, say), is a warning, and the checks judge it.
 * Families the run does not select are not contacted.
 */
import { SetupError, type Family, type PreflightContext } from '../families/family.js';
import { FAMILIES } from '../families/registry.js';
import { baseUrlOf, operation, type FamilyTarget, type Profile } from '../profile/index.js';
import { CredentialsError, NoTokenError, type Exchanged, type ExchangeAnswer } from '../target/base/errors.js';
import { judge, noConnection, reach, readOnce, transportProblem } from '../target/probe.js';
import { createSecrets, credentialsMissing, type Secrets } from '../target/secrets.js';
import { tlsProblem } from '../target/tls.js';

export { SetupError };

/** The longest wait for a connection before a run. */
const CONNECT_MS = 10_000;

export interface PreflightOptions {
  selects: (family: string) => boolean;
  timeoutMs: number;
  warn: (line: string) => void;
  /** Where the credential variables are read (default: the process's environment). */
  env?: NodeJS.ProcessEnv;
}

/** An answer in a line: status, media type and the start of the body, secrets redacted. */
function said(answer: ExchangeAnswer, redact: (text: string) => string): string {
  const body = redact(answer.text).replace(/\s+/g, ' ').trim();
  return `${answer.status}${answer.contentType ? ` ${answer.contentType.split(';')[0]}` : ''}${body ? `: ${body.length > 160 ? `${body.slice(0, 160)}…` : body}` : ''}`;
}

/**
 * Without `--target`, each selected family's base URL must come from the profile: its own
 * `families.<name>.baseUrl`, or the one of the family at the target URL that the others follow.
 * Otherwise it would be the default address, which the user never wrote: a SetupError naming the
 * families, what to give, and the `--only` that selects the families the profile does name.
 */
export function checkUrlsGiven(profile: Profile, selects: (family: string) => boolean): void {
  const targets = profile.families as unknown as Readonly<Record<string, FamilyTarget | undefined>>;
  const root = FAMILIES.find((f) => f.profile.baseUrl !== undefined && 'at' in f.profile.baseUrl);
  const rootGiven = root !== undefined && targets[root.name]?.explicit === true;
  const given = (f: Family) => targets[f.name]?.explicit === true || rootGiven;
  const located = FAMILIES.filter((f) => f.profile.baseUrl !== undefined);
  const unnamed = located.filter((f) => selects(f.name) && !given(f));
  if (unnamed.length === 0) return;
  const named = located.filter(given).map((f) => `'${f.name}.*'`);
  const fields = unnamed.map((f) => `families.${f.name}.baseUrl`).join(', ');
  throw new SetupError(
    `the profile ${profile.source} gives no URL for the ${unnamed.map((f) => f.title).join(', ')} (${fields}) and no --target was given: ` +
      `give --target URL or those fields${named.length > 0 ? `, or select only what the profile names with --only ${named.join(',')}` : ''}`,
  );
}

/** The base URLs of the selected families, each server tried once: a problem is a SetupError. */
export async function reachFamilies(profile: Profile, selects: (family: string) => boolean, timeoutMs: number): Promise<void> {
  const tried = new Set<string>();
  for (const family of FAMILIES) {
    if (!family.profile.baseUrl || !selects(family.name)) continue;
    const url = baseUrlOf(profile, family.name);
    const origin = new URL(url).origin;
    if (tried.has(origin)) continue;
    tried.add(origin);
    const problem = await reach(url, Math.min(timeoutMs, CONNECT_MS));
    if (problem)
      throw new SetupError(`${family.title} at ${url} ${problem.startsWith('TLS') ? `refused the connection: ${problem}` : `is unreachable: ${problem}`}`);
  }
}

/** The context a family's preflight gets: token and read judged as the module comment says. */
function contextOf(family: Family, profile: Profile, secrets: Secrets, options: PreflightOptions): PreflightContext {
  const base = family.profile.baseUrl ? baseUrlOf(profile, family.name) : undefined;
  const where = base ? `${family.title} at ${base}` : family.title;
  const hint = `is the URL right? --target, or the profile's families.${family.name}.baseUrl`;
  /** The exchange as one line for its judgement: a SetupError, or a warning. */
  const setUp = (exchanged: Exchanged, exchange: boolean): void => {
    const verdict = judge(exchanged.answer, { exchange, ...(family.http?.answers ? { answers: family.http.answers } : {}) });
    const answer = said(exchanged.answer, (text) => secrets.redact(text));
    if (verdict.kind === 'refused') throw new SetupError(`${where}: ${exchanged.sent} was refused: ${answer}`);
    if (verdict.kind === 'foreign')
      throw new SetupError(`${where}: ${exchanged.sent} answered ${verdict.why}, so this is not the ${family.title} (${hint}): ${answer}`);
    if (verdict.kind === 'odd') options.warn(`${where}: ${exchanged.sent} answered ${answer}; the checks will say more`);
    if (verdict.kind === 'mislabelled')
      options.warn(`${where}: ${exchanged.sent} answered ${verdict.why}; going on, the checks judge the media type: ${answer}`);
  };
  /** A transport error: a TLS error or a connection never made is the set-up's; an answer cut short
   * (a reset, a deadline) is the target's, a warning, and the checks judge it. */
  const transport = (error: unknown, what: string): undefined => {
    if (tlsProblem(error) || noConnection(error)) throw new SetupError(`${where}: ${what} failed: ${transportProblem(error)}`);
    const late = (error as { code?: string }).code === 'LPC_DEADLINE';
    options.warn(`${where}: ${what} ${late ? `got no answer within ${options.timeoutMs} ms` : `failed: ${transportProblem(error)}`}; the checks will say more`);
    return undefined;
  };
  let token: Promise<Awaited<ReturnType<PreflightContext['token']>>> | undefined;
  const context: PreflightContext = {
    profile,
    timeoutMs: options.timeoutMs,
    warn: options.warn,
    token: () =>
      (token ??= secrets.token(family.name).catch((error: unknown) => {
        if (error instanceof CredentialsError && error.exchanged) setUp(error.exchanged, true);
        if (error instanceof CredentialsError) throw new SetupError(`${where}: ${error.message}`);
        if (error instanceof NoTokenError) {
          setUp(error.exchanged, true);
          options.warn(
            `${where}: ${error.exchanged.sent} issued no token (${said(error.exchanged.answer, (t) => secrets.redact(t))}); the checks will say more`,
          );
          return undefined;
        }
        return transport(error, 'the log-in');
      })),
    async read(op, query = {}) {
      const session = family.auth ? await context.token() : undefined;
      if (family.auth && !session) return;
      let exchanged: Exchanged;
      try {
        exchanged = await readOnce(profile, op, query, {
          ...(session ? { token: session } : {}),
          value: (ref) => secrets.valueOf(ref) ?? '',
          timeoutMs: options.timeoutMs,
        });
      } catch (error) {
        const { method, path } = operation(profile, op);
        transport(error, `${method} ${path}`);
        return;
      }
      setUp(exchanged, false);
    },
  };
  return context;
}

export async function preflight(profile: Profile, options: PreflightOptions): Promise<void> {
  const secrets = createSecrets(profile, options.timeoutMs, options.env);
  await reachFamilies(profile, options.selects, options.timeoutMs);
  for (const family of FAMILIES) {
    if (!options.selects(family.name)) continue;
    if (family.auth) {
      const missing = credentialsMissing(profile, family.name, options.env);
      const where = family.profile.baseUrl ? `${family.title} at ${baseUrlOf(profile, family.name)}` : family.title;
      if (missing && family.auth.required) throw new SetupError(`${where}: ${missing}`);
      // Optional credentials that are not set: the family's checks are skipped, each saying why.
      if (missing) continue;
    }
    await family.preflight?.(contextOf(family, profile, secrets, options));
  }
}
