/**
 * Differential runs (`run --compare URL|bundled`): every selected check runs against the target
 * (key `target`) and against a second server (key `compare`) in one matrix run, with the same seed,
 * so both are sent the same seeded requests. Each check's client keeps a digest of every exchange
 * (model.ts ExchangeDigest); afterwards the two sequences of each check are compared and reported
 * as one check of their own, `compare.<check id>` (area `compare`), after the target's own checks,
 * which keep their verdicts. docs/decisions/core/compare.md "Differential runs" states what is compared and why.
 */
import { isTokenExchange } from '../families/registry.js';
import { collectionOf, FAMILIES, OPERATION_IDS, OPERATIONS, resolveSecrets, withTarget, type Profile } from '../profile/index.js';
import { CredentialsError } from '../target/secrets.js';
import { sandboxOfEnvironment, startBundled, type Sandbox } from './bundled.js';
import { newRunId } from './cleanup.js';
import { DEFAULT_CONCURRENCY, type CheckResult, type ExchangeDigest, type Failure, type Level, type RunResult } from './base/model.js';
import { runMatrix, type RunOptions } from './run.js';

export const TARGET_KEY = 'target';
export const COMPARE_KEY = 'compare';
export const COMPARE_ANCHOR = 'lpc#compare';
const TITLE = 'The target answers as the compare server does: statuses, contracts and listed items.';

/** Collections the suite writes (they have an operation other than GET): their lists hold records
 * other checks wrote, in an order that depends on the run's interleaving on each server. */
export const WRITTEN_COLLECTIONS: ReadonlySet<string> = new Set(
  OPERATION_IDS.filter((id) => !isTokenExchange(id) && OPERATIONS[id].method !== 'GET').map(collectionOf),
);

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const guidsOf = (text: string): string[] => [...new Set(Array.from(text.matchAll(GUID), (m) => m[0].toLowerCase()))];

/** The profile's record ids, named by their place in the profile (`$userId`, `$enrollment.courseId`):
 * a compare profile may name other records for the same roles. */
function profileNames(profile: Profile): Map<string, string> {
  const names = new Map<string, string>();
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string' && guidsOf(value).length === 1 && !names.has(value.toLowerCase())) names.set(value.toLowerCase(), `$${path}`);
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(profile.records, '');
  return names;
}

/**
 * The names of one check's GUIDs on one server, in the order of its exchanges:
 * - a profile record: its place in the profile (`$userId`);
 * - first seen in a request: the suite's own value (drawn from the check's seed), kept literally;
 * - first seen in a 2xx answer to a write (POST/PUT) of a written collection: created for this check,
 *   named by where it appeared (`@3.1`: exchange 3, first new GUID of that answer), so that the two
 *   servers' different ids for the same record get the same name;
 * - first seen in another answer of a written collection: another check's (or seeded) record, `?`;
 * - first seen in an answer of a collection the suite does not write: the target's data, literally.
 */
class Naming {
  private readonly names: Map<string, string>;
  /** Names of the records this check created or named itself. */
  private readonly own = new Set<string>();
  constructor(profile: Profile) {
    this.names = profileNames(profile);
  }
  request(d: ExchangeDigest): string {
    for (const g of guidsOf(d.request)) {
      if (!this.names.has(g)) {
        this.names.set(g, g);
        this.own.add(g);
      }
    }
    return d.request.replace(GUID, (m) => this.names.get(m.toLowerCase()) ?? m);
  }
  answer(d: ExchangeDigest, index: number): void {
    const written = WRITTEN_COLLECTIONS.has(collectionOf(d.op));
    const created = written && d.method !== 'GET' && d.status >= 200 && d.status < 300;
    let k = 0;
    for (const g of d.guids) {
      if (this.names.has(g)) continue;
      if (created) {
        const name = `@${index + 1}.${++k}`;
        this.names.set(g, name);
        this.own.add(name);
      } else this.names.set(g, written ? '?' : g);
    }
  }
  name(id: string): string {
    return this.names.get(id) ?? id;
  }
  isOwn(name: string): boolean {
    return this.own.has(name);
  }
}

/** One side's exchange as compared: the request and listed items under that side's names. */
interface Named {
  digest: ExchangeDigest;
  request: string;
  items?: string[];
  total?: number;
}

function named(digests: readonly ExchangeDigest[], profile: Profile): Named[] {
  const naming = new Naming(profile);
  return digests.map((d, i) => {
    const request = naming.request(d);
    naming.answer(d, i);
    if (!d.items) return { digest: d, request };
    // A written collection's list: only the records this check created or named, in their order
    // (other checks' records come and go with the interleaving); its totalItems is not compared.
    if (WRITTEN_COLLECTIONS.has(collectionOf(d.op))) return { digest: d, request, items: d.items.map((id) => naming.name(id)).filter((n) => naming.isOwn(n)) };
    return { digest: d, request, items: d.items.map((id) => naming.name(id)), ...(d.total !== undefined ? { total: d.total } : {}) };
  });
}

export interface Difference {
  /** 0-based exchange index. */
  index: number;
  kind: 'status' | 'contract' | 'items' | 'shape';
  /** The compare server's side. */
  expected: string;
  /** The target's side. */
  received: string;
  /** Both exchanges' curls (the target's first), when both exist. */
  curl?: string;
  operation?: string;
}

export interface Comparison {
  /** The first difference, when there is one. */
  difference?: Difference;
  /** Exchanges compared (both sides sent the same request). */
  compared: number;
  /** Where comparing stopped without a difference: the check sent different requests from there on. */
  diverged?: { index: number; target: string; compare: string };
}

const MAX_SHOWN = 8;
function listText(items: readonly string[], total: number | undefined, from: number): string {
  const start = Math.max(0, Math.min(from, items.length) - 2);
  const shown = items.slice(start, start + MAX_SHOWN);
  return `lists ${items.length} item${items.length === 1 ? '' : 's'}${total !== undefined ? ` (totalItems ${total})` : ''}: ${start > 0 ? '…, ' : ''}[${shown.join(', ')}${start + MAX_SHOWN < items.length ? ', …' : ''}]${Number.isFinite(from) ? `, first difference at item ${from + 1}${from >= items.length ? ' (this list ends before it)' : ''}` : ''}`;
}

function answerText(n: Named): string {
  const d = n.digest;
  const status = d.status === 0 ? 'no answer' : String(d.status);
  return d.contract ? `${status}, body ${d.valid ? 'valid' : 'not valid'} against ${d.contract}` : status;
}

const where = (i: number, n: Named): string => `exchange ${i + 1}, ${n.digest.method} ${n.request.replace(/^v\S+ /, '')}`.slice(0, 300);

/** Compares one check's exchanges on the target with those on the compare server (see the module doc). */
export function compareExchanges(
  target: readonly ExchangeDigest[],
  compare: readonly ExchangeDigest[],
  profiles: { target: Profile; compare: Profile },
): Comparison {
  const a = named(target, profiles.target);
  const b = named(compare, profiles.compare);
  const pairs = new Map<string, string>();
  const both = (i: number) => `# target\n${a[i]?.digest.curl ?? ''}\n# compare server\n${b[i]?.digest.curl ?? ''}`;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const t = a[i];
    const c = b[i];
    if (!t || !c || t.digest.op !== c.digest.op || t.digest.method !== c.digest.method) {
      const side = (n: Named | undefined, all: Named[]) =>
        n ? `${where(i, n)} (${n.digest.op})` : `no exchange ${i + 1} (the check ended after ${all.length})`;
      return {
        compared: i,
        difference: {
          index: i,
          kind: 'shape',
          expected: `the check's exchanges to follow the compare server's: ${side(c, b)}`,
          received: `the check took another path: ${side(t, a)}`,
          ...(t && c ? { curl: both(i) } : t || c ? { curl: (t ?? c)?.digest.curl ?? '' } : {}),
          ...(t ? { operation: `${t.digest.method} ${t.request.replace(/^v\S+ (\S+).*$/, '$1')}` } : {}),
        },
      };
    }
    // Another request (an input drawn from data other checks wrote): the answers that follow answer
    // other questions; compare no further.
    if (!sameRequest(t.request, c.request, pairs)) return { compared: i, diverged: { index: i, target: t.request, compare: c.request } };
    const operation = `${t.digest.method} ${t.request.replace(/^v\S+ (\S+).*$/, '$1')}`;
    const diff = (kind: Difference['kind'], expected: string, received: string): Comparison => ({
      compared: i,
      difference: { index: i, kind, expected: `${where(i, c)}: ${expected}`, received: `${where(i, t)}: ${received}`, curl: both(i), operation },
    });
    if (t.digest.status !== c.digest.status) return diff('status', answerText(c), answerText(t));
    if (t.digest.contract !== c.digest.contract || t.digest.valid !== c.digest.valid) return diff('contract', answerText(c), answerText(t));
    if (t.items || c.items) {
      const ti = t.items ?? [];
      const ci = c.items ?? [];
      let k = 0;
      while (k < ti.length && k < ci.length && ti[k] === ci[k]) k++;
      if (k < Math.max(ti.length, ci.length) || t.total !== c.total || !t.items !== !c.items) {
        const at = k < Math.max(ti.length, ci.length) ? k : Number.POSITIVE_INFINITY;
        return diff('items', listText(ci, c.total, at), listText(ti, t.total, at));
      }
    }
  }
  return { compared: a.length };
}

/**
 * Whether two requests are the same, GUIDs aside that each server gave the check through another
 * check (the question bank the question-list checks share, created by whichever asks first): such
 * an id reaches the check's first request literally on each side. Two literal GUIDs at the same
 * place, both new, are paired for the rest of the check (a GUID pairs with one GUID only).
 */
function sameRequest(target: string, compare: string, pairs: Map<string, string>): boolean {
  if (target === compare) return true;
  const split = (text: string) => ({ rest: text.split(GUID), ids: Array.from(text.matchAll(GUID), (m) => m[0].toLowerCase()) });
  const a = split(target);
  const b = split(compare);
  if (a.rest.join('\u0000') !== b.rest.join('\u0000') || a.ids.length !== b.ids.length) return false;
  const paired = new Set(pairs.values());
  const bound = new Map<string, string>();
  for (let k = 0; k < a.ids.length; k++) {
    const x = a.ids[k] as string;
    const y = b.ids[k] as string;
    if (x === y || (pairs.get(x) ?? bound.get(x)) === y) continue;
    if (pairs.has(x) || bound.has(x) || paired.has(y) || [...bound.values()].includes(y)) return false;
    bound.set(x, y);
  }
  for (const [x, y] of bound) pairs.set(x, y);
  return true;
}

export interface CompareOptions extends RunOptions {
  /** The second server's profile (its base URL set): the target's with another URL, `--compare-profile`, or the bundled server's. */
  compareProfile: Profile;
}

/**
 * The verdict of `compare.<id>`. A difference is the gate's own rule, not a specification's: level
 * MUST (it fails the run), except when the target passes the check that the compare server fails
 * (the difference is a fix): MAY, reported and never failing the run.
 */
export function compareResult(check: CheckResult, compared: CheckResult | undefined, comparison: Comparison, replay: string): CheckResult {
  const fix = check.status === 'passed' && compared?.status === 'failed';
  const level: Level = fix ? 'MAY' : 'MUST';
  const base = { id: `compare.${check.id}`, level, spec: COMPARE_ANCHOR, title: TITLE, area: 'compare', durationMs: 0 };
  const d = comparison.difference;
  if (d) {
    const failure: Failure = {
      expected: d.expected,
      received: `${d.received}${fix ? ' (the target passes this check, the compare server fails it)' : d.kind === 'shape' && compared && compared.status !== check.status ? ` (the check ${check.status} on the target, ${compared.status} on the compare server)` : ''}`,
      ...(d.curl ? { curl: d.curl } : {}),
      ...(d.operation ? { operation: d.operation } : {}),
      replay,
    };
    return { ...base, status: 'failed', failure };
  }
  if (comparison.compared === 0) {
    const reason = comparison.diverged
      ? "not compared: the check's first request differed between the servers (an input drawn from data other checks wrote)"
      : 'not compared: the check made no exchange';
    return { ...base, status: 'skipped', skipReason: reason };
  }
  return { ...base, status: 'passed' };
}

/** Runs the checks against the target and the compare server; the target's result, with one
 * `compare.<id>` check per check that ran against both. */
export async function runCompare(options: CompareOptions): Promise<RunResult> {
  const { concurrency = DEFAULT_CONCURRENCY, maxRps, progress, compareProfile, record, signal, tls, env, ...target } = options;
  const digests = new Map<string, Map<string, readonly ExchangeDigest[]>>([
    [TARGET_KEY, new Map()],
    [COMPARE_KEY, new Map()],
  ]);
  // One run id for both servers: the records they are sent carry the same marker, so the same requests.
  const runId = target.runId ?? newRunId();
  const [mine, theirs] = await runMatrix({
    targets: [
      // --record keeps the target's requests only: the compare server is sent the same ones.
      { ...target, runId, ...(record ? { record } : {}), key: TARGET_KEY, digests: true },
      { ...target, runId, profile: compareProfile, key: COMPARE_KEY, digests: true },
    ],
    concurrency,
    ...(maxRps ? { maxRps } : {}),
    ...(progress ? { progress } : {}),
    ...(signal ? { signal } : {}),
    ...(tls ? { tls } : {}),
    ...(env ? { env } : {}),
    onDigests: (key, id, d) => digests.get(key)?.set(id, d),
  });
  const result = mine as RunResult;
  const other = new Map((theirs as RunResult).checks.map((c) => [c.id, c]));
  const compared: CheckResult[] = [];
  for (const check of result.checks) {
    const t = digests.get(TARGET_KEY)?.get(check.id);
    const c = digests.get(COMPARE_KEY)?.get(check.id);
    if (!t || !c) continue;
    const comparison = compareExchanges(t, c, { target: options.profile, compare: compareProfile });
    compared.push(compareResult(check, other.get(check.id), comparison, `${options.replayBase} --only ${check.id} --seed ${options.seed}`));
  }
  return { ...result, checks: [...result.checks, ...compared] };
}

export interface CompareServer {
  /** The compare server's profile, its base URL set. */
  profile: Profile;
  close(): Promise<void>;
}

/**
 * The second server of `--compare`: a URL is reached with `profile` (the target's, or
 * `--compare-profile`) at that URL; `bundled` starts a bundled reference server whose new ids follow
 * the run's seed (as the bundled target's do) and holding `scale` records as the bundled target
 * does (never its faults), accepting the bundled target's `sandbox`, or else, for every family, the
 * values of the profile's credential variables (so that the same requests are answered alike on both
 * sides). What the families start beside a bundled server (a mail sink) starts with it, for the
 * families `selects`, so that their checks run on both sides.
 */
export async function compareServer(
  spec: string,
  options: { profile: Profile; seed: number; sandbox?: Sandbox; scale?: number; selects: (family: string) => boolean; env?: NodeJS.ProcessEnv },
): Promise<CompareServer> {
  if (spec !== 'bundled') return { profile: withTarget(options.profile, spec), close: async () => {} };
  const reference = await import('../../reference-impl/index.js');
  let sandbox = options.sandbox;
  if (!sandbox) {
    const { values, missingByFamily } = resolveSecrets(options.profile, options.env);
    const missing = FAMILIES.filter((f) => f.auth?.required).flatMap((f) => missingByFamily[f.name] ?? []);
    if (missing.length > 0)
      throw new CredentialsError(`--compare bundled: the compare profile's credentials (${missing.join(', ')}) must be set, its server accepts them`);
    sandbox = sandboxOfEnvironment(options.profile, values, reference.SANDBOX);
  }
  return startBundled({
    profile: options.profile,
    sandbox,
    selects: options.selects,
    server: { ids: reference.seededIds(options.seed), ruleBatchMs: reference.BUNDLED_RULE_BATCH_MS, ...(options.scale ? { scale: options.scale } : {}) },
  });
}
