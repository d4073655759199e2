#!/usr/bin/env node
// `node bench/scale.js` (after `npm run build`): the reference server at scale. For each size N it
// starts the bundled server in-process with `scale: N` (N users, resources and submissions), builds
// the list indexes with one request per field (timed apart: the warm-up), then sends a fixed,
// seeded mix of filtered and sorted page requests over HTTP (undici, one at a time): equality,
// range, prefix, null and full-scan filters (substringof, tolower, or/not), one to three sort keys
// ascending and descending, page sizes 10..100 and pages from the first to deep ones.
// Targets: a page p50 <= 20 ms at 10^5 records, <= 200 ms at 10^6, the process under 2 GB RSS.
// `scaleBench()` is exported for bench/run.js.
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { createReferenceServer, SANDBOX_CREDENTIALS } from '../dist/reference-impl/index.js';
import { seededRandom } from '../dist/reference-impl/rules/random.js';

const TARGET_P50_MS = { 100000: 20, 1000000: 200 };
const RSS_LIMIT_MB = 2048;

const SUBMISSION_SORTS = [
  '-score',
  'completionDate',
  'title,-credits',
  'vendor,completionDate',
  '-expiryDate',
  'status,-score',
  'cost,grade,-id',
  '-totalTimeSpent',
  'userId',
];
const RESOURCE_SORTS = ['name', '-name', 'file,name', '-description,id', 'id'];
const SUBMISSION_FILTER_FIELDS = ['score', 'status', 'completionDate', 'title', 'vendor', 'credits', 'userId', 'totalTimeSpent', 'startDate', 'grade', 'cost'];
const RESOURCE_FILTER_FIELDS = ['name', 'file', 'description'];

function submissionFilter(pick, r, userIds) {
  const date = () => new Date(Date.UTC(2015, 0, 1) + Math.floor(r() * 12 * 365) * 86_400_000).toISOString();
  const x = Math.round(r() * 900) / 10;
  return pick([
    () => `score ge ${x} and score lt ${x + 1 + Math.round(r() * 5)}`,
    () => `status eq ${Math.floor(r() * 3)} and credits gt ${Math.round(r() * 30)}`,
    () => `completionDate gt datetime'${date()}' and completionDate le datetime'${date().slice(0, 4)}-12-31T23:59:59Z'`,
    () => `startswith(title, '${pick(['A', 'Agile', 'public', 'Z', 'Ω', 'AWS', 'Data'])}')`,
    () => `vendor eq '${pick(['Coursera', 'coursera', 'Udemy', 'LinkedIn Learning', 'Zürcher Hochschule'])}' and credits gt ${Math.round(r() * 30)}`,
    () => `userId eq guid'${pick(userIds)}'`,
    () => `substringof('${pick(['Summit', 'Day', 'Work', '🚀', 'online'])}', title)`,
    () => `tolower(grade) eq '${pick(['pass', 'a', 'b+'])}'`,
    () => `cost eq null or vendor eq null`,
    () => `not (status eq 1) and totalTimeSpent le ${Math.round(r() * 20)}`,
    () => `startDate ge datetime'${date()}' and score gt ${x}`,
  ])();
}

function resourceFilter(pick, r) {
  const letter = () => String.fromCharCode(65 + Math.floor(r() * 26));
  return pick([
    () => `startswith(name, '${pick(['Intro', 'intro', 'Module', 'Über', 'Advanced', 'Basics of C'])}')`,
    () => `file eq null and description eq '${pick(['', 'A short quiz', 'Covers the basics.'])}'`,
    () => `name ge '${letter()}' and name lt '${letter()}'`,
    () => `substringof('${pick(['quiz', 'Part 2', 'Café', '🚀'])}', name)`,
    () => `endswith(file, '.pdf') and startswith(name, 'Module')`,
  ])();
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(n, requests, log) {
  const seeding = process.hrtime.bigint();
  const server = createReferenceServer({ scale: n });
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  const seedSeconds = Number(process.hrtime.bigint() - seeding) / 1e9;
  const dispatcher = new Agent({ connections: 1, bodyTimeout: 0, headersTimeout: 0 });
  const creds = SANDBOX_CREDENTIALS;
  const auth = await request(`${base}/authenticate`, {
    method: 'POST',
    dispatcher,
    headers: { 'x-api-key': creds.apiKey, 'x-api-version': '2', 'content-type': 'application/json' },
    body: JSON.stringify({ username: creds.username, password: creds.password, privateKey: creds.privateKey }),
  });
  const token = await auth.body.json();
  const headers = { 'x-api-key': creds.apiKey, 'x-api-version': '2', authorization: `Bearer ${token}` };
  const get = async (path, query) => {
    const res = await request(`${base}${path}?${new URLSearchParams(query)}`, { dispatcher, headers });
    const body = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`${path} ${JSON.stringify(query)}: ${res.statusCode} ${JSON.stringify(body)}`);
    return body;
  };
  try {
    // Warm-up: every index the mix uses is built by its first request.
    const warming = process.hrtime.bigint();
    const sortFields = (sorts) => [...new Set(sorts.flatMap((s) => s.split(',').map((f) => f.replace(/^-/, ''))))];
    for (const field of new Set([...sortFields(SUBMISSION_SORTS), ...SUBMISSION_FILTER_FIELDS])) await get('/submissions', { _sort: field, _limit: '1' });
    for (const field of new Set([...sortFields(RESOURCE_SORTS), ...RESOURCE_FILTER_FIELDS])) await get('/resources', { _sort: field, _limit: '1' });
    const warmSeconds = Number(process.hrtime.bigint() - warming) / 1e9;
    const userIds = (await get('/submissions', { _limit: '100', _offset: '7' })).submissions.map((s) => s.userId);

    const r = seededRandom(0x5ca1e + n);
    const pick = (items) => items[Math.floor(r() * items.length)];
    const times = [];
    let items = 0;
    for (let i = 0; i < requests; i++) {
      const submissions = r() < 0.7;
      const limit = pick([10, 20, 20, 50, 100]);
      const depth = r();
      const offset = depth < 0.4 ? 0 : depth < 0.7 ? 1 + Math.floor(r() * 10) : 50 + Math.floor(r() * 1500);
      const query = {
        _filter: submissions ? submissionFilter(pick, r, userIds) : resourceFilter(pick, r),
        _sort: pick(submissions ? SUBMISSION_SORTS : RESOURCE_SORTS),
        _limit: String(limit),
        _offset: String(offset),
      };
      const started = process.hrtime.bigint();
      const body = await get(submissions ? '/submissions' : '/resources', query);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (process.env.LPC_BENCH_VERBOSE)
        log(`  ${times.at(-1).toFixed(1)} ms ${submissions ? 'submissions' : 'resources'} ${JSON.stringify(query)} -> ${body.totalItems}`);
      items += body.returnedItems;
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    const rssMb = process.memoryUsage().rss / 2 ** 20;
    const peakMb = process.resourceUsage().maxRSS / 1024;
    const target = TARGET_P50_MS[n];
    log(`scale: ${n} records, filtered sorted page p50 ${p50.toFixed(1)} ms p99 ${p99.toFixed(1)} ms`);
    log(
      `  targets: p50 <= ${target ?? '-'} ms (${target === undefined ? 'none' : p50 <= target ? 'met' : 'MISSED'}), RSS < ${RSS_LIMIT_MB} MB: ` +
        `RSS ${rssMb.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB (${peakMb < RSS_LIMIT_MB ? 'met' : 'MISSED'}); ` +
        `${requests} requests, ${items} items; seed ${seedSeconds.toFixed(1)} s, index warm-up ${warmSeconds.toFixed(1)} s`,
    );
    return { n, p50, p99, rssMb, peakMb, seedSeconds, warmSeconds, requests, met: (target === undefined || p50 <= target) && peakMb < RSS_LIMIT_MB };
  } finally {
    await dispatcher.close();
    await server.close();
  }
}

/** Runs the scale benchmark; resolves one result per size. */
export async function scaleBench({ sizes = [100_000, 1_000_000], requests = (n) => (n >= 1_000_000 ? 120 : 300), log = console.log } = {}) {
  const results = [];
  for (const n of sizes) results.push(await measure(n, typeof requests === 'function' ? requests(n) : requests, log));
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await scaleBench();
  process.exit(results.every((r) => r.met) ? 0 : 1);
}
