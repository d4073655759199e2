/**
 * The pace of --max-rps (at most N requests per second to each server), shared by the suites' client
 * and the tool's own requests to the target after the checks (the cleanup's lists and DELETEs).
 */
import { honouring429, sleep } from './retry.js';

/** Paces the requests to each server to at most `rps` per second (a shared schedule of send times). */
export class Pacer {
  /** Per server, the release of the last request granted (its time, once it has come). */
  private readonly last = new Map<string, Promise<number>>();
  constructor(private readonly rps: number) {}
  /** Resolves when a request to `server` may be sent; the milliseconds it waited. Each release
   * comes at least 1000/rps ms after the previous one as it actually happened: a timer that fires
   * late (a busy process) delays the releases after it, and never lets them out together. */
  async slot(server: string): Promise<number> {
    const asked = Date.now();
    const interval = 1000 / this.rps;
    const released = (this.last.get(server) ?? Promise.resolve(-Infinity)).then(async (previous) => {
      for (let wait = previous + interval - Date.now(); wait > 0; wait = previous + interval - Date.now()) await sleep(wait);
      return Date.now();
    });
    this.last.set(server, released);
    return (await released) - asked;
  }
}

/** Sends one request of the tool's own: paced to `maxRps` (when given) on `server`'s schedule, each
 * 429 waited out and sent again (honouring429; a 429 means the request was not processed). */
export type PacedSend = <R extends { statusCode: number; headers: Record<string, string | string[] | undefined> }>(
  server: string,
  attempt: () => Promise<R>,
) => Promise<R>;

/** A PacedSend of its own schedule: the tool's requests after a run, which no check sends beside. */
export function pacedSend(maxRps?: number): PacedSend {
  const pacer = maxRps === undefined ? undefined : new Pacer(maxRps);
  return (server, attempt) =>
    honouring429(async () => {
      if (pacer) await pacer.slot(server);
      return attempt();
    });
}
