/**
 * The suites' HTTP client (undici). Every request goes through one Client bound to the running
 * check: it speaks the protocol of the operation's family (its registration's `http`: version
 * header, API key, media types, session token), counts requests, keeps the exchange for
 * reproduction, and checks the family's invariants on every response (invariants.ts). A hanging, garbled or huge answer becomes a failed
 * check, never a crash of the tool: each exchange has a deadline for the whole answer, and a
 * response-size cap is set on the dispatcher. A 429 is waited out (Retry-After) and sent again, and
 * `--max-rps` paces the requests to each server; both waits are counted for the report. A safe
 * request whose connection the target closed without an answer is sent again once (`resendable`),
 * paced as well.
 * Every request names its check in `x-lpc-check` (as Schemathesis' X-Schemathesis-TestCaseId), so
 * that a server's logs show which check sent it, and a request of a property run names its case in
 * `x-lpc-case` (the run's fast-check path): the bundled server derives new ids from both, so that a
 * replay is handed the ids the original run was. With `--record FILE`, every request is appended
 * to FILE as a JSON line (check, case, method, path, headers, body; secrets as `${VAR}`); with
 * `--har FILE`, every exchange as a HAR entry (har.ts), secrets as `${VAR}` too.
 */
import { EventEmitter } from 'node:events';
import { appendFileSync } from 'node:fs';
import { Agent, Client as Connection, type Dispatcher } from 'undici';
import { answerReadingConnector } from './connection.js';
import { baseUrlOf, collectionOf, familyOf, isTokenExchange, operation, type OperationId, type Profile, queryOf } from '../../src/profile/index.js';
import type { ExchangeDigest, InvariantViolation } from '../../src/runner/base/model.js';
import { renderCurl, type CurlRequest } from '../../src/target/base/curl.js';
import { Pacer } from '../../src/target/base/pace.js';
import { honouring429, resendable } from '../../src/target/base/retry.js';
import { tlsOptions } from '../../src/target/tls.js';
import type { ApiRequest, ApiResponse, Exchange } from './exchange.js';
import { CheckFailure } from './failure.js';
import { harEntry, type ExchangeTiming } from './har.js';
import { checkInvariants, type InvariantOutcome } from './invariants.js';
import { requestTarget } from './request-target.js';
import { buildPath, overBudget, type OverBudget } from './url-budget.js';
import type { Uses } from './scheduler.js';
import type { Secrets } from '../../src/target/secrets.js';
import type { FamilyHttp } from '../../src/families/family.js';
import { sessionOfCheck } from '../../src/families/registry.js';

type FamilyLists = NonNullable<FamilyHttp['lists']>;

export type { ApiRequest, ApiResponse, Exchange } from './exchange.js';
export { buildPath } from './url-budget.js';

/** Answers larger than this fail the check (UND_ERR_RES_EXCEEDED_MAX_SIZE) instead of filling memory. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** What one check did over HTTP; copied into the check's results for the runner. */
export class Recorder {
  requests = 0;
  /** Time spent waiting out 429 answers, and pacing to --max-rps, in milliseconds; requests sent again. */
  readonly waited = { retryAfterMs: 0, maxRpsMs: 0, retries: 0, resent: 0 };
  readonly violations: InvariantViolation[] = [];
  private readonly perInvariant = new Map<string, number>();
  /** Exchanges subject to each invariant. */
  readonly applied: Record<string, number> = {};
  /** Every exchange's digest, in order, in a differential run (`--compare`); otherwise undefined. */
  readonly digests: ExchangeDigest[] | undefined;

  constructor(
    readonly checkId: string,
    keepDigests = false,
  ) {
    this.digests = keepDigests ? [] : undefined;
  }

  addViolation(v: Omit<InvariantViolation, 'checkId'>): void {
    const seen = this.perInvariant.get(v.invariant) ?? 0;
    this.perInvariant.set(v.invariant, seen + 1);
    // Keep the first few of each invariant: the count says the rest.
    if (seen < 3) this.violations.push({ ...v, checkId: this.checkId });
  }

  countsByInvariant(): Record<string, number> {
    return Object.fromEntries(this.perInvariant);
  }
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Every GUID of a text, lower-cased, in order of first appearance. */
export function guidsIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(GUID), (m) => m[0].toLowerCase()))];
}

/** The listed items' ids of a list answer, read by its family's list envelope (`http.lists`). */
export function listedOf(json: unknown, lists: FamilyLists): { items: string[]; total?: number } | undefined {
  const listed = lists.listed(json);
  if (!listed) return undefined;
  const items = listed.items.map((item) => String((item as { id?: unknown } | null)?.id ?? '').toLowerCase());
  return { items, ...(listed.total !== undefined ? { total: listed.total } : {}) };
}

/** After this many transport failures in a row (timeouts, resets) the target is taken as down and
 * every further request fails at once: a hanging target fails the rest of the run in seconds
 * instead of one timeout per request. Any answer resets the count. */
export const DOWN_AFTER = 3;
/** Consecutive transport failures by target server (base URL). */
const consecutiveTransportFailures = new Map<string, number>();

export class TargetDownError extends Error {
  readonly code = 'LPC_TARGET_DOWN';
}

/** The exchange a transport error happened in, so that its failure still carries a curl. */
export function exchangeOf(error: unknown): Exchange | undefined {
  return typeof error === 'object' && error !== null ? (error as { lpcExchange?: Exchange }).lpcExchange : undefined;
}

function withExchange<E>(error: E, exchange: Exchange): E {
  if (typeof error === 'object' && error !== null) Object.assign(error, { lpcExchange: exchange });
  return error;
}

/** What every connection of the harness is: timeouts, the answer-reading connector, the size cap. */
function connectionOptions(timeoutMs: number) {
  return {
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // An answer sent before the target closed on a body still being sent is read (connection.ts);
    // certificates are verified as the run says (`--ca`, `--insecure`: src/target/tls.ts).
    connect: answerReadingConnector({ timeout: timeoutMs, ...tlsOptions() }),
    maxResponseSize: MAX_RESPONSE_BYTES,
  };
}

let agent: Agent | undefined;
function dispatcher(timeoutMs: number): Agent {
  // Connections per origin: the scheduler keeps at most --concurrency checks (so requests) in flight.
  agent ??= new Agent({ connections: 64, ...connectionOptions(timeoutMs) });
  return agent;
}

/** A request that names an exceeded deadline: the whole answer did not arrive in time. */
export class DeadlineError extends Error {
  readonly code = 'LPC_DEADLINE';
}

const pacers = new Map<number, Pacer>();

/** The collection an operation belongs to, for the scheduler's locks (`submissions.create` → `submissions`). */
export { collectionOf };

export interface ClientOptions {
  /** Deadline of one exchange, for the whole answer. */
  timeoutMs: number;
  /** What the check declared it does to shared state: a write it did not declare is a harness error. */
  uses?: Uses;
  /** Requests per second per server (--max-rps). */
  maxRps?: number;
  /** Appends every request to this file as a JSON line (--record). */
  record?: string;
  /** Appends every exchange to this file as a HAR entry, one JSON line each (--har). */
  har?: string;
  /** `--read-only`: a write (anything but GET and a token exchange) is not sent; the check is skipped. */
  readOnly?: boolean;
  /** Aborted when the run is interrupted: no further request is sent. */
  signal?: AbortSignal;
  /** Whether the run was interrupted (the runner's stop file): no further request is sent. */
  stopped?: () => boolean;
  /** Hears every answer (the run's journal notes the records it says were created). */
  onAnswer?: (req: ApiRequest, res: ApiResponse) => void;
}

/**
 * A request target over the URL budget, which the client does not send. A generated query value is
 * the suite's own defect (its generator must keep within the budget): a harness error naming it. A
 * path parameter is a value the target gave (an id too long for any URL within the budget): the
 * check fails on it.
 */
function urlBudgetError(checkId: string, operation: string, over: OverBudget): Error {
  const size = `${operation} would be a request target of ${over.bytes} bytes, over limits.maxUrlBytes (${over.budget})`;
  if (over.fromTarget) {
    return new CheckFailure(
      `ids of the target that fit a URL within limits.maxUrlBytes (${over.budget} bytes)`,
      `${size}: ${over.part} is ${over.partBytes} bytes`,
    );
  }
  return new Error(
    `harness: check ${checkId}: ${size}; its largest part, ${over.part} (${over.partBytes} bytes), was drawn by a generator that must keep within the budget`,
  );
}

/** Thrown instead of sending a write in a read-only run: the check that needs it is skipped. */
export class ReadOnlySkip extends Error {
  readonly code = 'LPC_READ_ONLY';
}

/** Thrown instead of sending a request once the run is interrupted (Ctrl-C): the check stops. */
export class InterruptedSkip extends Error {
  readonly code = 'LPC_INTERRUPTED';
}

/** One line of a `--record` file: a request as sent, secrets shown as `${VAR}`. */
export interface RecordedRequest {
  check: string;
  /** The property case (fast-check path) the request belongs to; absent outside property runs. */
  case?: string;
  method: string;
  /** Path and query, relative to the target's base URL (the run's, not the check's: a replay
   * against another port or host sends the same requests). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A request as the client will send it (Client.prepare). */
interface Prepared {
  op: OperationId;
  method: string;
  /** The family's base URL, without a trailing slash: the server whose failures are counted. */
  base: string;
  pathAndQuery: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The version header's value (null: none sent). */
  version: string | null;
  exchange: Exchange;
  /** The family's list envelope, when it has lists. */
  lists: FamilyLists | undefined;
}

/** An answer as the transport read it, and when (for --har). */
type Answer = Dispatcher.ResponseData & { text: string; timing: ExchangeTiming };

const trimmedBases = new Map<string, string>();
/** A base URL without its trailing slashes (the same few per run: kept). */
function trimmedBase(base: string): string {
  let trimmed = trimmedBases.get(base);
  if (trimmed === undefined) trimmedBases.set(base, (trimmed = base.replace(/\/+$/, '')));
  return trimmed;
}

/** The answer as the checks read it: headers flattened, the body parsed once when it is JSON. */
function parse(answer: Answer, exchange: Exchange): ApiResponse {
  exchange.status = answer.statusCode;
  const headers: Record<string, string> = {};
  const read = answer.headers;
  for (const k in read) {
    const v = read[k];
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  let json: unknown;
  try {
    json = answer.text.length > 0 ? JSON.parse(answer.text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: answer.statusCode, headers, text: answer.text, json, exchange };
}

export class Client {
  private readonly timeoutMs: number;
  private readonly pacer: Pacer | undefined;
  /** The family whose session token the check sends (sessionOfCheck), read once per client. */
  private readonly session: string | undefined;
  /** The property case in progress (its fast-check path), sent as `x-lpc-case`; set by requirement.ts. */
  caseId: string | undefined;

  constructor(
    private readonly profile: Profile,
    private readonly secrets: Secrets,
    private readonly recorder: Recorder,
    private readonly options: ClientOptions,
  ) {
    this.timeoutMs = options.timeoutMs;
    this.session = sessionOfCheck(recorder.checkId);
    const rps = options.maxRps;
    this.pacer = rps === undefined ? undefined : (pacers.get(rps) ?? pacers.set(rps, new Pacer(rps)).get(rps));
  }

  /** A check that writes a collection, or asks for a new token, without saying so would run beside
   * checks that observe it: the scheduler could not keep them apart. */
  private checkDeclared(op: OperationId, method: string): void {
    const uses = this.options.uses;
    if (isTokenExchange(op)) {
      if (!uses?.rotatesSession) throw new Error(`harness: check ${this.recorder.checkId} calls ${op} without declaring rotatesSession`);
      return;
    }
    // An observer may send writes the rule says change nothing (a create that must be rejected).
    const collection = collectionOf(op);
    if (method !== 'GET' && !uses?.write?.includes(collection) && !uses?.observe?.includes(collection)) {
      throw new Error(`harness: check ${this.recorder.checkId} writes ${collection} (${op}) without declaring it`);
    }
  }

  /**
   * One request, in stages: `prepare` (the check's declaration, the read-only and interrupt guards,
   * the URL budget, the family's headers and the reproduction), `recordRequest` (--record),
   * `transmit` (the down-target guard, 429s, pacing and the transport), `parse`, `judge` (the
   * family's invariants) and `digest` (a differential run's). What only a failure needs (the curl
   * line, its redaction) is rendered when a failure asks for it (curlOf).
   */
  async send(req: ApiRequest): Promise<ApiResponse> {
    const prepared = await this.prepare(req);
    this.recordRequest(prepared);
    const answer = this.options.har ? await this.transmitArchived(prepared) : await this.transmit(prepared);
    const response = parse(answer, prepared.exchange);
    const outcome = this.judge(req, response);
    this.options.onAnswer?.(req, response);
    if (this.recorder.digests) this.recorder.digests.push(this.answeredDigest(prepared, response, outcome));
    return response;
  }

  /** The request as it will be sent, or the reason it is not: an undeclared write or token
   * exchange (a harness error), an interrupted or read-only run (a skip), a request target over
   * the URL budget (url-budget.ts). */
  private async prepare(req: ApiRequest): Promise<Prepared> {
    const { method, path } = req.route ?? operation(this.profile, req.op);
    const family = familyOf(req.op);
    this.checkDeclared(req.op, method);
    if (this.options.signal?.aborted || this.options.stopped?.()) throw new InterruptedSkip('the run was interrupted');
    if (this.options.readOnly && method !== 'GET' && !isTokenExchange(req.op)) {
      throw new ReadOnlySkip(`it writes (${method} ${path}), and the run is --read-only`);
    }
    const base = trimmedBase(baseUrlOf(this.profile, family.name));
    const pathAndQuery = `${buildPath(path, req.params)}${queryOf(req.query)}`;
    const over = overBudget(this.profile, base, pathAndQuery, req.params, req.query);
    if (over) throw urlBudgetError(this.recorder.checkId, `${method} ${path}`, over);
    const url = `${base}${pathAndQuery}`;
    const { headers, curlHeaders, version, tokenPreamble } = await this.headersOf(req, family);
    let body: string | undefined;
    if (req.json !== undefined || req.rawBody !== undefined) {
      body = req.rawBody ?? JSON.stringify(req.json);
      headers['content-type'] = curlHeaders['content-type'] = req.contentType ?? family.http?.contentType ?? 'application/json';
    }
    const curl: CurlRequest = { method, url, headers: curlHeaders, ...(body !== undefined ? { body } : {}) };
    const exchange: Exchange = {
      method,
      url,
      operation: `${method} ${pathAndQuery}`,
      family: family.name,
      curl,
      status: 0,
      ...(tokenPreamble ? { tokenPreamble } : {}),
    };
    return { op: req.op, method, base, pathAndQuery, url, headers, body, version, exchange, lists: family.http?.lists };
  }

  /** The headers the family speaks (version, API key, media type, session token) and the request's
   * own; beside them, the same headers as the reproduction shows them (secrets as variables). */
  private async headersOf(req: ApiRequest, family: ReturnType<typeof familyOf>) {
    const speaks = family.http;
    const headers: Record<string, string> = { 'x-lpc-check': this.recorder.checkId };
    if (this.caseId !== undefined) headers['x-lpc-case'] = this.caseId;
    const curlHeaders: CurlRequest['headers'] = {};
    // The family's version header, when it has one (`null` leaves it out).
    const version = speaks?.version ? (req.version === undefined ? speaks.version.default : req.version) : null;
    if (speaks?.version && version !== null) headers[speaks.version.header] = curlHeaders[speaks.version.header] = version;
    this.addApiKey(req, family, headers, curlHeaders);
    if (speaks?.accept) headers.accept = curlHeaders.accept = speaks.accept;
    let tokenPreamble: string | undefined;
    const tokenMode = req.token ?? 'valid';
    if (tokenMode !== 'none' && !isTokenExchange(req.op)) {
      if (typeof tokenMode === 'object' && 'literal' in tokenMode) {
        headers.authorization = curlHeaders.authorization = tokenMode.literal;
      } else {
        const token = typeof tokenMode === 'object' ? tokenMode : await this.sessionToken(family.name);
        const scheme = tokenMode === 'raw' ? '' : 'Bearer ';
        headers.authorization = `${scheme}${token.value}`;
        curlHeaders.authorization = { env: token.env, prefix: scheme };
        if ('preamble' in token && typeof token.preamble === 'string') tokenPreamble = token.preamble;
      }
    }
    for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = curlHeaders[name.toLowerCase()] = value;
    return { headers, curlHeaders, version, tokenPreamble };
  }

  /** The session token of `session`, which must be the check's own (sessionOfCheck): the scheduler
   * keeps a check that sends it apart from one that asks for a new one only for that session. */
  private sessionToken(session: string) {
    if (this.session !== session) {
      throw new Error(`harness: check ${this.recorder.checkId} sends the ${session} session's token, not its own (${this.session ?? 'none'})`);
    }
    return this.secrets.token(session);
  }

  /** The family's API key in its header, unless the request says otherwise ('none', or a literal
   * value); a literal for a family whose requests carry no key is a harness error. */
  private addApiKey(req: ApiRequest, family: ReturnType<typeof familyOf>, headers: Record<string, string>, curlHeaders: CurlRequest['headers']): void {
    const key = family.http?.apiKey;
    const apiKey = req.apiKey ?? (key ? 'valid' : 'none');
    if (apiKey === 'none' || (apiKey === 'valid' && !key)) return;
    if (!key) throw new Error(`harness: ${req.op} sends an API key, and ${family.name} requests carry none`);
    if (apiKey === 'valid') {
      const ref = key.ref(this.profile);
      headers[key.header] = this.secrets.valueOf(ref) ?? '';
      curlHeaders[key.header] = { env: ref.env };
    } else {
      headers[key.header] = curlHeaders[key.header] = apiKey;
    }
  }

  /** --record: the request as a JSON line. */
  private recordRequest(p: Prepared): void {
    if (!this.options.record) return;
    const kase = this.caseId !== undefined ? { case: this.caseId } : {};
    this.record({
      check: this.recorder.checkId,
      ...kase,
      method: p.method,
      path: p.pathAndQuery,
      headers: p.headers,
      ...(p.body !== undefined ? { body: p.body } : {}),
    });
  }

  /** transmit, and the exchange appended to the --har file as a HAR entry (its answer, or the
   * transport error that took its place), secrets replaced by their variables. */
  private async transmitArchived(p: Prepared): Promise<Answer> {
    const of = { check: this.recorder.checkId, ...(this.caseId !== undefined ? { case: this.caseId } : {}) };
    const request = { method: p.method, url: p.url, headers: p.headers, body: p.body };
    const startedAt = Date.now();
    let entry;
    try {
      const answer = await this.transmit(p);
      entry = harEntry(of, request, { status: answer.statusCode, headers: answer.headers, text: answer.text }, answer.timing);
      return answer;
    } catch (error) {
      // A request not sent (the target taken as down) is no exchange.
      if (error instanceof TargetDownError) throw error;
      const timing = { startedAt, waitMs: Date.now() - startedAt, receiveMs: 0 };
      entry = harEntry(of, request, undefined, timing, (error as { code?: string }).code ?? String((error as Error).message ?? error));
      throw error;
    } finally {
      if (entry) appendFileSync(this.options.har as string, `${this.secrets.redact(JSON.stringify(entry))}\n`);
    }
  }

  /** The request sent and its whole answer: not sent to a target taken as down; a 429 waited out
   * and sent again; paced to --max-rps; counted. A transport failure carries its exchange. */
  private async transmit(p: Prepared): Promise<Answer> {
    if ((consecutiveTransportFailures.get(p.base) ?? 0) >= DOWN_AFTER) {
      throw withExchange(
        new TargetDownError(`the target stopped answering (${DOWN_AFTER} failed exchanges in a row); ${p.exchange.operation} was not sent`),
        p.exchange,
      );
    }
    return honouring429(
      async () => {
        if (this.pacer) this.recorder.waited.maxRpsMs += await this.pacer.slot(p.base);
        this.recorder.requests++;
        try {
          const answer = await this.exchange(p);
          return Object.assign(answer.res, { text: answer.text, timing: answer.timing });
        } catch (error) {
          this.recorder.digests?.push(this.digestOf(p, 0));
          throw error;
        }
      },
      (wait) => {
        this.recorder.waited.retries++;
        this.recorder.waited.retryAfterMs += wait;
      },
    );
  }

  /** The family's invariants on the exchange, counted and recorded against the check. */
  private judge(req: ApiRequest, response: ApiResponse): InvariantOutcome {
    const outcome = checkInvariants(req, response, this.profile);
    const applied = this.recorder.applied;
    for (const id of outcome.applied) applied[id] = (applied[id] ?? 0) + 1;
    for (const v of outcome.violations) {
      this.recorder.addViolation({ ...v, operation: response.exchange.operation, curl: this.curlOf(response.exchange) });
    }
    return outcome;
  }

  /** A differential run's digest of an answered exchange: the contract's verdict, the listed ids, the GUIDs. */
  private answeredDigest(p: Prepared, response: ApiResponse, outcome: InvariantOutcome): ExchangeDigest {
    const { status, json, text } = response;
    const lists = p.lists;
    const listed = p.method === 'GET' && status >= 200 && status < 300 && lists?.operations.has(p.op) ? listedOf(json, lists) : undefined;
    return {
      ...this.digestOf(p, status),
      ...(outcome.contract ? { contract: outcome.contract.name, valid: outcome.contract.valid } : {}),
      ...(listed ?? {}),
      guids: guidsIn(text),
    };
  }

  /** A differential run's digest of an exchange (`--compare`), before its answer's part. */
  private digestOf(p: Prepared, status: number): ExchangeDigest {
    return {
      op: p.op,
      method: p.method,
      request: `v${p.version ?? '-'} ${p.pathAndQuery}${p.body !== undefined ? ` ${p.body}` : ''}`,
      status,
      guids: [],
      curl: this.curlOf(p.exchange),
    };
  }

  /** Appends the request to the --record file, secrets replaced by their variables. One write per
   * line, so that the lines of concurrent checks never mix. */
  private record(r: RecordedRequest): void {
    appendFileSync(this.options.record as string, `${this.secrets.redact(JSON.stringify(r))}\n`);
  }

  /** One request and its whole answer, within the deadline: undici's timeouts bound the wait for
   * headers and between body chunks; the abort signal bounds the whole, so a body trickled forever
   * fails the exchange too. */
  private async exchange(p: Prepared) {
    const { method, headers, body, exchange, base: server } = p;
    // The deadline is an event emitter (which undici takes as a signal) and a timer: an
    // AbortSignal.timeout per request was a measurable share of a long run's CPU (its event target, and
    // its timer firing long after the exchange had ended).
    const deadline = new EventEmitter();
    let expired = false;
    const expire = () => {
      expired = true;
      deadline.emit('abort');
    };
    let timer = setTimeout(expire, this.timeoutMs);
    const once = async (via: Dispatcher) => {
      const startedAt = Date.now();
      // The dispatcher's own request, not undici's top-level one, which parses every URL again.
      const { origin, path } = requestTarget(server, p.pathAndQuery);
      const res = await via.request({ origin, path, method: method as 'GET', headers, body: body ?? null, signal: deadline });
      const headed = Date.now();
      const text = await res.body.text();
      return { res, text, timing: { startedAt, waitMs: headed - startedAt, receiveMs: Date.now() - headed } };
    };
    try {
      let answer: Awaited<ReturnType<typeof once>>;
      try {
        answer = await once(dispatcher(this.timeoutMs));
      } catch (error) {
        if (expired || !resendable(method, error)) throw error;
        // A request sent again is a request like any other: paced to --max-rps, and its own deadline
        // runs from when it goes out (the wait for its slot is not the target's).
        if (this.pacer) {
          clearTimeout(timer);
          this.recorder.waited.maxRpsMs += await this.pacer.slot(server);
          timer = setTimeout(expire, this.timeoutMs);
        }
        this.recorder.requests++;
        this.recorder.waited.resent++;
        // On a new connection (RFC 9112 §9.3.1), not another pooled one the target may close as well.
        const fresh = new Connection(requestTarget(server, p.pathAndQuery).origin, connectionOptions(this.timeoutMs));
        try {
          answer = await once(fresh);
        } finally {
          void fresh.close();
        }
      }
      consecutiveTransportFailures.set(server, 0);
      return answer;
    } catch (error) {
      const failure = expired ? new DeadlineError(`no complete answer within ${this.timeoutMs} ms`) : error;
      // An answer too large to read is still an answer; silence and broken connections are not.
      if ((error as { code?: string }).code !== 'UND_ERR_RES_EXCEEDED_MAX_SIZE')
        consecutiveTransportFailures.set(server, (consecutiveTransportFailures.get(server) ?? 0) + 1);
      throw withExchange(failure, exchange);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The full reproduction of an exchange: the token line (when needed), then the request. */
  curlOf(exchange: Exchange): string {
    const curl = renderCurl(exchange.curl);
    return this.secrets.redact(exchange.tokenPreamble ? `${exchange.tokenPreamble}\n${curl}` : curl);
  }
}
