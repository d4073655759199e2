import { mountFamily } from '../http/app.js';
import { createOAuthServer, mountOAuth, type OAuthClient, SANDBOX_OAUTH_CLIENT } from '../http/oauth/server.js';
import type { Family, Headers, Operation } from '../http/route.js';
import { PORTAL_ACCOUNT, type PortalAccount, type ServerCore, type ServerFamily, type ServerFamilyMount } from '../http/server-family.js';
import { originOf } from '../http/server.js';
import { noteWrite } from '../store/writes.js';
import { type Credentials, SANDBOX_CREDENTIALS } from './credentials.js';
import { INTAPI_FAULTS, intapiBehaviourWithFaults, listIntapiFaults } from './faults.js';
import { createIntapiFamily } from './index.js';
import { type EnrollmentMail, smtpMailer, type SmtpOptions } from './mail.js';
import { INTAPI_OAUTH_MOUNT } from './oauth.js';
import { createSeededStore } from './seed.js';
import type { Store } from './store/store.js';
import { type BehaviourTracer, traceBehaviour, type TracedRequest } from './trace.js';

/**
 * The Integration API as a family of the reference server: its routes at the host root, its OAuth
 * 2.0 flow under /oauth, its faults and options. It holds the platform account and shares it (PORTAL_ACCOUNT).
 */

export interface IntapiServerOptions {
  /** Default: SANDBOX_CREDENTIALS. */
  credentials?: Credentials;
  /** Default: createSeededStore({ scale, idSeed }) (deterministic seed data). Not with the core's
   * `scale` or `idSeed`. */
  store?: Store;
  /** The OAuth 2.0 client of the authorization-code flow under /oauth. Default: SANDBOX_OAUTH_CLIENT. */
  oauthClient?: OAuthClient;
  /** Where course enrollment emails go (SMTP, no TLS); absent: no mail is sent. */
  smtp?: SmtpOptions;
  /** Receives each course enrollment email instead of SMTP (tests of the server itself). */
  mailer?: (mail: EnrollmentMail) => void;
  /** Receives every read of the behaviour table with the request it serves, and that request's
   * writes (trace.ts): the negative controls' trace of where a fault can act. Absent: no tracing. */
  traceBehaviour?: BehaviourTracer;
}

/** The family's credentials in the sandbox (strings only, as the tool reads them). */
export interface IntapiSandbox {
  readonly apiKey: string;
  readonly username: string;
  readonly password: string;
  readonly privateKey: string;
  readonly oauthClientId: string;
  readonly oauthClientSecret: string;
}

/** The family with its guard and handlers run `during` their request (trace.ts): one
 * TracedRequest per HTTP request (its headers object), for its guard and its handler. */
function tracedFamily<C, O extends Operation<C>>(family: Family<C, O>, during: <R>(request: TracedRequest, run: () => R) => R): Family<C, O> {
  const requests = new WeakMap<Headers, TracedRequest>();
  const request = (headers: Headers, operation: O): TracedRequest => {
    let traced = requests.get(headers);
    if (traced === undefined) {
      const check = originOf(headers)?.check;
      traced = { ...(check === undefined ? {} : { check }), operation: operation.id, method: operation.method };
      requests.set(headers, traced);
    }
    return traced;
  };
  const around = family.around;
  return {
    ...family,
    guard: (headers, operation) => during(request(headers, operation), () => family.guard(headers, operation)),
    around: <T>(headers: Headers, handle: () => T, operation: O): T =>
      during(request(headers, operation), () => (around ? around(headers, handle, operation) : handle())),
  };
}

/** The store the options and the core ask for. */
function storeOf(core: ServerCore, options: IntapiServerOptions): Store {
  if (options.store === undefined) {
    return createSeededStore({ ...(core.scale === undefined ? {} : { scale: core.scale }), ...(core.idSeed === undefined ? {} : { idSeed: core.idSeed }) });
  }
  if ((core.scale ?? 0) > 0) throw new TypeError('createReferenceServer: give store or scale, not both');
  if (core.idSeed !== undefined) throw new TypeError('createReferenceServer: give store or idSeed, not both');
  return options.store;
}

function mount(core: ServerCore, options: IntapiServerOptions): ServerFamilyMount {
  const store = storeOf(core, options);
  const faulted = intapiBehaviourWithFaults(core.faults);
  const traced = options.traceBehaviour ? traceBehaviour(faulted, options.traceBehaviour) : undefined;
  const behaviour = traced ? traced.table : faulted;
  const credentials = options.credentials ?? SANDBOX_CREDENTIALS;
  core.share(PORTAL_ACCOUNT, { credentials, accountId: store.principalUserId } satisfies PortalAccount);
  const mailer = options.smtp === undefined || options.mailer !== undefined ? undefined : smtpMailer(options.smtp);
  const send = options.mailer ?? mailer?.send;
  // A mail sent is a write, as a stored record is: what the mail checks read later.
  const mail = send && ((message: EnrollmentMail) => (noteWrite(), send(message)));
  // The sandbox log-in of the OAuth flow signs in the user of the credentials.
  const oauth = createOAuthServer({
    mount: INTAPI_OAUTH_MOUNT,
    credentials,
    accountId: store.principalUserId,
    client: options.oauthClient ?? SANDBOX_OAUTH_CLIENT,
    behaviour: behaviour.oauth,
  });
  const accepted = {
    accessTokenAccount: (token: string, nowMs: number) => (behaviour.oauth.intapiAccepts === 'accepted' ? oauth.accessTokenAccount(token, nowMs) : undefined),
  };
  const { clock, ids, ruleBatchMs } = core;
  const family = createIntapiFamily({ ...(mail ? { mail } : {}), store, behaviour, credentials, clock, ids, oauth: accepted, ruleBatchMs });
  const withIds = core.around ? { ...family, around: core.around } : family;
  return {
    scopes: [mountFamily(traced ? tracedFamily(withIds, traced.during) : withIds)],
    onApp: (app) => mountOAuth(app, oauth),
    listening: (url) => oauth.setIssuer(`${url}${oauth.prefix}`),
    close: () => mailer?.close(),
  };
}

export const INTAPI_SERVER: ServerFamily<'intapi', IntapiServerOptions, IntapiSandbox> = {
  name: 'intapi',
  faults: INTAPI_FAULTS,
  faultNames: listIntapiFaults,
  sandbox: {
    make: (ctx): IntapiSandbox => {
      const part = {
        ...SANDBOX_CREDENTIALS,
        apiKey: ctx.secret(SANDBOX_CREDENTIALS.apiKey),
        password: ctx.secret(SANDBOX_CREDENTIALS.password),
        privateKey: ctx.secret(SANDBOX_CREDENTIALS.privateKey),
        oauthClientId: SANDBOX_OAUTH_CLIENT.clientId,
        oauthClientSecret: SANDBOX_OAUTH_CLIENT.clientSecret,
      };
      ctx.share(PORTAL_ACCOUNT, { username: part.username, password: part.password });
      return part;
    },
    options: ({ oauthClientId, oauthClientSecret, ...credentials }) => ({
      credentials,
      oauthClient: { ...SANDBOX_OAUTH_CLIENT, clientId: oauthClientId, clientSecret: oauthClientSecret },
    }),
  },
  mount,
};
