/**
 * How a check says it failed: what the rule demands, what the target did, and the exchange that
 * shows it. The harness turns a CheckFailure into the run model's Failure (with counterexample,
 * curl and replay), see requirement.ts.
 */
import { familyNamed } from '../../src/profile/index.js';
import type { FamilyHttp } from '../../src/families/family.js';
import type { ApiResponse, Exchange } from './exchange.js';

export class CheckFailure extends Error {
  /** Files saved to show the failure (a screenshot), absolute paths. */
  attachments?: string[];
  /** The check's runs did not exercise its rule (coverage.ts): the server broke no sentence, so the
   * failure names none. */
  notExercised?: true;
  constructor(
    readonly expected: string,
    readonly received: string,
    readonly exchange?: Exchange,
  ) {
    super(`Expected: ${expected}\nReceived: ${received}`);
    this.name = 'CheckFailure';
  }
}

/** Fails the check. `response` names the exchange to reproduce. */
export function fail(expected: string, received: string, response?: ApiResponse): never {
  throw new CheckFailure(expected, received, response?.exchange);
}

/** The first characters of a body, for a Received line. */
export function excerpt(text: string, max = 300): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…(${oneLine.length - max} more chars)` : oneLine;
}

export function describeResponse(res: ApiResponse): string {
  const answer = res.text.length === 0 ? `${res.status} with an empty body` : `${res.status} ${excerpt(res.text)}`;
  return `${answer}${res.status === 414 || res.status === 431 ? tooLongHint(res) : ''}`;
}

/** A URL refused as too long was within the profile's budget (the client sends no longer one). */
function tooLongHint(res: ApiResponse): string {
  const { pathname, search } = new URL(res.exchange.url);
  return ` (a request target of ${pathname.length + search.length} bytes, within the profile's limits.maxUrlBytes; if the target refuses URLs this long, lower it)`;
}

/** The status must be one of `expected`; `what` says what the rule is about. */
export function expectStatus(res: ApiResponse, expected: number | readonly number[], what = ''): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (!allowed.includes(res.status)) {
    fail(`${allowed.join(' or ')}${what ? ` ${what}` : ''}`, describeResponse(res), res);
  }
}

/** Any success (2xx): a request the check needs accepted, whose exact status another check judges
 * (an operation's success-status check): one deviation, one failure. */
export function expectSuccess(res: ApiResponse, what = ''): void {
  if (res.status < 200 || res.status > 299) fail(`a success (2xx)${what ? ` ${what}` : ''}`, describeResponse(res), res);
}

/** What the error body of the family that answered holds (its registration's `http.errors`). */
export function errorsOf(res: ApiResponse): FamilyHttp['errors'] {
  const family = res.exchange.family;
  return family === undefined ? undefined : familyNamed(family).http?.errors;
}

/** The validation reasons of an error body, as its family reads them, or undefined when it has none. */
export function validationsOf(res: ApiResponse): readonly string[] | undefined {
  return errorsOf(res)?.validations?.(res.json);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when some validation entry names `field` as a whole word, case-insensitively
 * (docs/decisions/, Errors: "names the field"). */
export function namesField(validations: readonly string[], field: string): boolean {
  const word = new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(field)}($|[^A-Za-z0-9_])`, 'i');
  return validations.some((entry) => word.test(entry));
}

/** spec#errors: a request that fails validation answers 422 with the reasons its family's error
 * body holds (`validationsOf`), and the reasons name the offending field. */
export function expectRejected(res: ApiResponse, field: string, status = 422): void {
  const validations = validationsOf(res);
  if (res.status !== status || !validations || !namesField(validations, field)) {
    fail(`${status} with validations naming "${field}"`, describeResponse(res), res);
  }
}

/** A 4xx status: the request was refused as the client's fault, with no server failure. */
export function expectClientError(res: ApiResponse): void {
  if (res.status < 400 || res.status > 499) fail('a 4xx status', describeResponse(res), res);
}
