/**
 * The two outcomes of a check besides a verdict ("one deviation, one failure"):
 * - **not set up**: a request that makes the check's fixture (a user to work on, the PUT that resets
 *   it) was refused. The check neither passes nor fails its rule; the report names the refused
 *   request and the answer, and the run counts such outcomes once per cause.
 * - **blocked by <check id>**: the check depends on another rule, owned by another check, and found
 *   it broken (a walk that never ends, a PATCH answer without the resource). That check's verdict
 *   says so; this one is not counted a second time.
 * Both end the check as skipped (requirement.ts), with the structured reason in the run model
 * (`CheckResult.notSetUp`, `CheckResult.blockedBy`) and a `skipReason` that says it in words.
 */
import type { NotSetUpCause } from '../../src/runner/base/model.js';
import { describeResponse, errorsOf } from './failure.js';
import type { ApiResponse, Exchange } from './http.js';

/** Thrown when a fixture request is refused: the check ends "not set up". */
export class NotSetUpSignal extends Error {
  constructor(
    readonly detail: NotSetUpCause,
    readonly exchange?: Exchange,
  ) {
    super(`not set up: ${detail.request} answered ${detail.answer} (${detail.what})`);
    this.name = 'NotSetUpSignal';
  }
}

/** Thrown when a rule the check depends on, owned by `by`, is broken: the check ends "blocked by". */
export class BlockedSignal extends Error {
  constructor(
    readonly by: string,
    readonly why: string,
    readonly exchange?: Exchange,
  ) {
    super(`blocked by ${by}: ${why}`);
    this.name = 'BlockedSignal';
  }
}

const GUID_OR_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|\d+)$/i;

/** `POST /v2/Users` from an exchange: the method and the URL's path, ids as `{id}`, no query. */
export function requestLine(exchange: Exchange): string {
  let path: string;
  try {
    path = new URL(exchange.url).pathname;
  } catch {
    path = exchange.url.replace(/\?.*$/, '');
  }
  const template = path
    .split('/')
    .map((segment) => (GUID_OR_ID.test(decodeURIComponent(segment)) ? '{id}' : segment))
    .join('/');
  return `${exchange.method} ${template}`;
}

/** The answer as a cause: the status and the error's machine word (as its family's error body
 * holds it, `http.errors.word`) when it has one. */
function answerKey(res: ApiResponse): string {
  const word = errorsOf(res)?.word?.(res.json);
  return word === undefined ? String(res.status) : `${res.status} ${word}`;
}

/**
 * Ends the check "not set up": `res` answered a request that makes the check's fixture (`what`,
 * e.g. "a user to work on") with something other than success.
 */
export function notSetUp(res: ApiResponse, what: string): never {
  const request = requestLine(res.exchange);
  throw new NotSetUpSignal({ request, answer: describeResponse(res), what, key: `${request} answered ${answerKey(res)}` }, res.exchange);
}

/**
 * Ends the check "not set up" after a fixture request was tried twice: `first` was refused, the
 * check learned from the refusal what to add (`added`), and `second`, the same request with it, was
 * refused too. The cause names both requests and both answers.
 */
export function notSetUpTwice(first: ApiResponse, second: ApiResponse, added: string, what: string): never {
  const request = requestLine(second.exchange);
  const answer = `${requestLine(first.exchange)} answered ${describeResponse(first)}; tried again with ${added}, ${request} answered ${describeResponse(second)}`;
  throw new NotSetUpSignal({ request, answer, what, key: `${request} answered ${answerKey(second)}` }, second.exchange);
}

/** Ends the check "blocked by `checkId`": the rule that check owns is broken, and this check needs it. */
export function blockedBy(checkId: string, why: string, res?: ApiResponse): never {
  throw new BlockedSignal(checkId, why, res?.exchange);
}

/** Whether an error thrown by a check is one of the two outcomes (not a verdict). */
export function isOutcome(error: unknown): error is NotSetUpSignal | BlockedSignal {
  return error instanceof NotSetUpSignal || error instanceof BlockedSignal;
}
