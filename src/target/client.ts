/**
 * The tool's own requests to the target, outside any check: what `lp-conformance init` reads to
 * write a profile, and the records `run --check-profile` tries. Each request speaks its operation's
 * family protocol as the suites' client does (the registration's `http`: version header, API key,
 * accept, session token), without a check's bookkeeping. A request that gets no answer (refused,
 * reset, past its deadline) is an answer of status 0 with the error's code, not a throw, so that
 * a caller can say what it found. Writes are refused unless the client allows them: the tool reads
 * unless told otherwise. A GET that got no answer is sent once more: its connection closed without
 * one (`resendable`, as in the suites' client), or past its deadline. The second covers a large
 * target's first sort or filter on a field, which builds what answers the next at once (an index of
 * 100,000 users took a reference server 0.43 s alone, and longer than init's 10 s under load with
 * init's other probes queued behind it): one slow answer is not "not found".
 */
import { familyOf, isTokenExchange } from '../families/registry.js';
import { baseUrlOf, fillPath, operation, queryOf, type Profile } from '../profile/index.js';

export type { ToolAnswer, ToolRequest };
import type { ToolAnswer, ToolRequest } from '../families/family.js';
import { exchangeOnce } from './base/exchange.js';
import { resendable } from './base/retry.js';
import type { Secrets } from './secrets.js';

export interface ToolClient {
  send(req: ToolRequest): Promise<ToolAnswer>;
  /** A GET of an absolute URL, with no header of any family (a page). */
  get(url: string): Promise<ToolAnswer>;
  /** Requests sent so far. */
  readonly sent: number;
  /** The writes sent (`POST /path`), when the client allows them. */
  readonly writes: readonly string[];
}

export interface ToolClientOptions {
  readonly timeoutMs: number;
  /** Whether writes may be sent (anything but GET and a family's token exchange). */
  readonly writes?: boolean;
  /** What the requests say they are, in `x-lpc-check` (so that the target's logs show it). */
  readonly purpose: string;
}

export function toolClient(profile: Profile, secrets: Secrets, options: ToolClientOptions): ToolClient {
  let sent = 0;
  const writes: string[] = [];

  async function exchange(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    shown: string,
    again = true,
  ): Promise<ToolAnswer> {
    sent++;
    try {
      const answer = await exchangeOnce(url, { method, headers: { 'x-lpc-check': options.purpose, ...headers }, body }, options.timeoutMs);
      return { status: answer.status, headers: answer.headers, text: answer.text, json: answer.json, request: shown };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (again && method === 'GET' && (code === 'LPC_DEADLINE' || resendable(method, error))) return exchange(url, method, headers, body, shown, false);
      return { status: 0, headers: {}, text: '', json: undefined, error: code ?? String(error), request: shown };
    }
  }

  return {
    get sent() {
      return sent;
    },
    writes,
    async send(req) {
      const { method, path } = req.route ?? operation(profile, req.op);
      const family = familyOf(req.op);
      const speaks = family.http;
      const pathAndQuery = `${fillPath(path, req.params)}${queryOf(req.query)}`;
      const shown = `${method} ${pathAndQuery}`;
      if (method !== 'GET' && !isTokenExchange(req.op)) {
        if (!options.writes) throw new Error(`${options.purpose}: ${shown} is a write, and writes are not allowed`);
        writes.push(shown);
      }
      const headers: Record<string, string> = {};
      const version = speaks?.version ? (req.version === undefined ? speaks.version.default : req.version) : null;
      if (speaks?.version && version !== null) headers[speaks.version.header] = version;
      if (speaks?.apiKey) headers[speaks.apiKey.header] = secrets.valueOf(speaks.apiKey.ref(profile)) ?? '';
      if (speaks?.accept) headers.accept = speaks.accept;
      if (req.token !== false && !isTokenExchange(req.op)) headers.authorization = `Bearer ${(await secrets.token(family.name)).value}`;
      let body: string | undefined;
      if (req.json !== undefined || req.rawBody !== undefined) {
        body = req.rawBody ?? JSON.stringify(req.json);
        headers['content-type'] = req.contentType ?? speaks?.contentType ?? 'application/json';
      }
      return exchange(`${baseUrlOf(profile, family.name).replace(/\/+$/, '')}${pathAndQuery}`, method, headers, body, shown);
    },
    get(url) {
      return exchange(url, 'GET', {}, undefined, `GET ${new URL(url).pathname}`);
    },
  };
}
