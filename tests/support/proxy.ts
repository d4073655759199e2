// A bundled reference server started in this process behind a node:http proxy that the test
// controls: it counts what reaches the target (send times, requests in flight at once) and may
// answer a request itself (a 429) instead of passing it on. Tests run the CLI against its URL.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createReferenceServer } from '../../reference-impl/index.js';

/** Headers of one connection, which a proxy does not forward (RFC 9110 §7.6.1, RFC 9112 §9.6). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

export const PROXY_CREDENTIALS = { apiKey: 'key-proxied-4c1e', username: 'user-proxied', password: 'pass-proxied-8d20', privateKey: 'priv-proxied-b713' };
/** The environment of a CLI run against the proxy: the profile's credential variables. */
export const PROXY_ENV = {
  LPC_API_KEY: PROXY_CREDENTIALS.apiKey,
  LPC_USERNAME: PROXY_CREDENTIALS.username,
  LPC_PASSWORD: PROXY_CREDENTIALS.password,
  LPC_PRIVATE_KEY: PROXY_CREDENTIALS.privateKey,
};

export interface ProxyStats {
  /** Arrival time (ms) of every request that reached the proxy, answered by it or passed on. */
  arrivals: number[];
  inFlight: number;
  maxInFlight: number;
  /** Requests the proxy answered itself. */
  intercepted: number;
  /** Every request, as `METHOD /path`, in order of arrival. */
  requests: string[];
  /** The longest this process's event loop was held up so far (ms): an arrival is stamped when the
   * loop gets to it, up to this much after the request arrived. */
  loopDelayMs(): number;
}

/** Answers the request itself (and returns true), or leaves it to the target. `n` counts from 1;
 * `body` is the request's body, read whole. */
export type Intercept = (req: IncomingMessage, res: ServerResponse, n: number, body: string) => boolean;

export interface Proxied {
  url: string;
  /** The target behind the proxy. */
  upstream: string;
  stats: ProxyStats;
  close(): Promise<void>;
}

export async function startProxied(options: { intercept?: Intercept; faults?: string[]; scimToken?: string } = {}): Promise<Proxied> {
  const target = createReferenceServer({
    faults: options.faults ?? [],
    families: { intapi: { credentials: PROXY_CREDENTIALS }, ...(options.scimToken === undefined ? {} : { scim: { token: options.scimToken } }) },
  });
  const upstream = new URL(await target.listen({ port: 0, host: '127.0.0.1' }));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const stats: ProxyStats = { arrivals: [], inFlight: 0, maxInFlight: 0, intercepted: 0, requests: [], loopDelayMs: () => delay.max / 1e6 };
  const server: Server = createServer((req, res) => {
    stats.arrivals.push(Date.now());
    stats.requests.push(`${req.method} ${new URL(req.url ?? '/', 'http://proxy').pathname}`);
    const n = stats.arrivals.length;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    // Counted out before the answer's first byte is written: the client cannot send its next
    // request before it has this whole answer, so two requests overlap here only if they did there.
    let counted = true;
    const out = () => {
      if (counted) stats.inFlight--;
      counted = false;
    };
    res.on('close', out);
    // The request is read whole before it is answered: a proxy that answers (429, say) while the
    // client still sends a large body would reset the connection.
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      if (options.intercept?.(req, res, n, Buffer.concat(body).toString('utf8'))) {
        stats.intercepted++;
        return;
      }
      const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          out();
          // Hop-by-hop headers are the target's connection's, not this one's (RFC 9110 §7.6.1): its
          // Keep-Alive (fastify's 72 s) would tell the client to reuse a connection this server
          // closes after its own 5 s idle.
          const headers = { ...answer.headers };
          const named = String(answer.headers.connection ?? '').split(',');
          for (const name of [...HOP_BY_HOP, ...named.map((n) => n.trim().toLowerCase())]) delete headers[name];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(Buffer.concat(chunks));
        });
      });
      forward.on('error', () => {
        out();
        res.writeHead(502).end();
      });
      forward.end(Buffer.concat(body));
    });
  });
  const url = await new Promise<string>((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      done(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
  return {
    url,
    upstream: upstream.origin,
    stats,
    async close() {
      delay.disable();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await target.close();
    },
  };
}

/** The most arrivals within any window of `windowMs`. */
export function busiestWindow(arrivals: readonly number[], windowMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while ((sorted[j] as number) - (sorted[i] as number) >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}
