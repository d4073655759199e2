// The learner API and course player of the reference server, over real HTTP (undici) on loopback.
import { type Answer, type JsonRecord, send } from '../intapi/_support.js';
import { createReferenceServer, LEARNER_SEED_IDS, type ReferenceServerOptions, SANDBOX_CREDENTIALS, SANDBOX_LEARNERS } from '../../../reference-impl/index.js';

export const API = '/api/rest/v2';
export const KEY = SANDBOX_CREDENTIALS.apiKey;
export const UNKNOWN = '0f0f0f0f-0000-4000-8000-00000000dead';

export interface LearnerOptions {
  /** Leave out x-api-key / Authorization. */
  noKey?: boolean;
  noToken?: boolean;
  /** Another token than the harness's (learner a's). */
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface LearnerHarness {
  readonly base: string;
  /** Learner a's token (branded department). */
  token: string;
  /** A new token for a learner: POST /token (revokes the learner's previous one). */
  login(who?: 'a' | 'b'): Promise<string>;
  call(method: string, path: string, options?: LearnerOptions): Promise<Answer>;
  /** GET under /api/rest/v2. */
  get(path: string, options?: LearnerOptions): Promise<Answer>;
  /** GET of a path outside the API (the player), no headers. */
  raw(path: string, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

export async function startLearner(options: ReferenceServerOptions = {}): Promise<LearnerHarness> {
  const server = createReferenceServer(options);
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  const harness: LearnerHarness = {
    base,
    token: '',
    async login(who = 'a') {
      const answer = await send(base, 'POST', `${API}/token`, SANDBOX_LEARNERS[who], { 'x-api-key': KEY });
      if (answer.status !== 200) throw new Error(`token: ${answer.status} ${answer.text}`);
      return String(answer.obj.access_token);
    },
    call(method, path, o = {}) {
      const headers: Record<string, string> = {};
      if (!o.noKey) headers['x-api-key'] = KEY;
      if (!o.noToken) headers.authorization = `Bearer ${o.token ?? harness.token}`;
      return send(base, method, `${API}${path}`, o.body, { ...headers, ...o.headers });
    },
    get: (path, o) => harness.call('GET', path, o),
    raw: (path, headers = {}) => send(base, 'GET', path, undefined, headers),
    close: () => server.close(),
  };
  harness.token = await harness.login('a');
  return harness;
}

/** The items of a HAL page under `_embedded.<key>`. */
export function embedded(answer: Answer, key: string): JsonRecord[] {
  const e = answer.obj._embedded as JsonRecord | undefined;
  const items = e?.[key];
  if (!Array.isArray(items)) throw new Error(`no _embedded.${key}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return items as JsonRecord[];
}

export const ids = (items: readonly JsonRecord[]): string[] => items.map((i) => String(i.id));

/** `next` href of a HAL page, or undefined. */
export function nextHref(answer: Answer): string | undefined {
  const links = answer.obj._links as Record<string, { href: string } | undefined>;
  return links.next?.href;
}

/** Every item of a list, following `_links.next` from `path` (under /api/rest/v2). */
export async function walk(h: LearnerHarness, path: string, key: string, limit = 30): Promise<JsonRecord[]> {
  const all: JsonRecord[] = [];
  let answer = await h.get(`${path}${path.includes('?') ? '&' : '?'}_limit=${limit}`);
  for (let pages = 0; pages < 100; pages++) {
    all.push(...embedded(answer, key));
    const next = nextHref(answer);
    if (next === undefined) return all;
    answer = await h.get(next.slice(API.length));
  }
  throw new Error(`more than 100 pages at ${path}`);
}

/** The error body `{code, message, validations}` with `code` equal to the status. */
export function expectLearnerError(answer: Answer, status: number): JsonRecord {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.text.slice(0, 400)}`);
  if (!answer.contentType.startsWith('application/json')) throw new Error(`error content type ${answer.contentType}`);
  const body = answer.obj;
  const ok =
    body.code === status &&
    typeof body.message === 'string' &&
    Array.isArray(body.validations) &&
    body.validations.every((v) => typeof v === 'string') &&
    Object.keys(body).sort().join(',') === 'code,message,validations';
  if (!ok) throw new Error(`not a learner error body: ${answer.text}`);
  return body;
}

/** True when some `validations` entry starts with `<name>:`. */
export const names = (answer: Answer, name: string): boolean =>
  Array.isArray(answer.obj.validations) && answer.obj.validations.some((v) => String(v).startsWith(`${name}:`));

/** A clock the test moves. */
export function testClock(start = Date.parse('2030-06-01T12:00:00Z')): { now: () => Date; advance: (ms: number) => void } {
  let t = start;
  return { now: () => new Date(t), advance: (ms) => void (t += ms) };
}

/** The course player's path for a token (default: the seed's player course). */
export const playerPath = (token: string, query = '', course: string = LEARNER_SEED_IDS.playerCourse): string =>
  `/learn/course-player/${course}?token=${token}${query}`;

/** The configuration block the player page hands its script. */
export function configOf(page: Answer): JsonRecord {
  const m = /<script type="application\/json" id="lpc-player-config">(.*?)<\/script>/s.exec(page.text);
  if (m?.[1] === undefined) throw new Error(`no configuration in ${page.status} ${page.text.slice(0, 200)}`);
  return JSON.parse(m[1]) as JsonRecord;
}
