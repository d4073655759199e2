#!/usr/bin/env node
// One group of `npm run bench`'s figures, measured in this process alone (bench/run.js starts one
// process per group, without the tool's environment variables): `node bench/figures.js GROUP OUT DIR`
// writes the group's figures to OUT as JSON, [{ id, label, value, unit, target, met, note }], DIR
// holding its work files. Targets are for 2 cores; every ratio compares runs of this process.
//
//   default    the default run against the bundled server (--concurrency 8, --seed 1): its wall
//              time (≤ 6 s) and the cores it keeps busy (its threads' CPU over its wall, ≥ 1.7).
//   replay     the default run, its requests recorded (--record); then a bare undici loop replays
//              exactly those requests at the same concurrency against a fresh bundled server (the
//              loop in a worker thread, the server in the main thread, as in the run). Ratio = the
//              run's requests/s over the replay's: what the suite adds over the bare cost of its
//              requests (≥ 0.5).
//   workers    the default run with one worker thread, then with two, against one bundled server
//              in one process: wall of one over wall of two (≥ 1.6).
//   shard      the default run in one process, then `--jobs 2` (two processes, each with its own
//              bundled server, and the merge of their reports): wall of one over wall of the two.
//              With worker threads one process already keeps the cores busy, so the target only
//              bounds what processes cost over threads (≥ 0.8).
//   latency    the default run against the bundled server behind a loopback proxy that delays every
//              answer by 20 ms; ideal = requests × 20 ms / concurrency (≤ 120 s and ≤ 1.2 × ideal).
//   scale-1e5, scale-1e6
//              bench/scale.js at 10^5 and 10^6 records: a filtered sorted page p50 (≤ 20 ms and
//              ≤ 200 ms) and the process's peak RSS (< 2 GB).
//   soak       bench/soak.js: ten consecutive default runs against one `lp-conformance serve`:
//              every run exits 0 and the last takes at most 1.5 × the first.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { main } from '../dist/src/cli/main.js';
import { createReferenceServer, seededIds } from '../dist/reference-impl/index.js';
import { baseUrlOf, FAMILIES, loadProfile, withTarget } from '../dist/src/profile/index.js';
import { scaleBench } from './scale.js';
import { soakBench } from './soak.js';

const CONCURRENCY = 8;
const DELAY_MS = 20;
const SEED = '1';
const [group, out, dir] = process.argv.slice(2);
const fmt = (n, d = 1) => n.toFixed(d);
const seconds = (since) => Number(process.hrtime.bigint() - since) / 1e9;

const CREDENTIALS = { apiKey: 'bench-key', username: 'lpc.admin', password: 'bench-password', privateKey: 'bench-private-key' };
/** The SCIM bearer token the replay's server accepts: the recording shows the run's as ${LPC_SCIM_TOKEN},
 * and a replay without it would be answered 401 where the run's lists were filtered and paged. */
const SCIM_TOKEN = 'bench-scim-token';
/** The reference profile's credential variables, set to the bench servers' credentials: a bundled run
 * sets them to its own random values (its sandbox), so they are set again before every run and replay. */
const useBenchCredentials = () =>
  Object.assign(process.env, {
    LPC_API_KEY: CREDENTIALS.apiKey,
    LPC_USERNAME: CREDENTIALS.username,
    LPC_PASSWORD: CREDENTIALS.password,
    LPC_PRIVATE_KEY: CREDENTIALS.privateKey,
  });

/** A run of the CLI against `target` (or the bundled server); its exit code, wall time and requests. */
async function conformanceRun(name, extra) {
  useBenchCredentials();
  const json = join(dir, `${name}.json`);
  const started = process.hrtime.bigint();
  const code = await main([
    'run',
    '--seed',
    SEED,
    '--concurrency',
    String(CONCURRENCY),
    '--junit',
    join(dir, `${name}.xml`),
    '--json',
    json,
    '--no-color',
    '--no-progress',
    ...extra,
  ]);
  const wall = seconds(started);
  // A run that ended before its report (a usage error: exit 2) has no requests or checks to count.
  let run = { requests: 0, checks: [] };
  try {
    run = JSON.parse(readFileSync(json, 'utf8'));
  } catch {
    if (code === 0) throw new Error(`bench: the ${name} run exited 0 without its report ${json}`);
  }
  return { code, wall, requests: run.requests, checks: run.checks.length };
}

/** A reference server seeded as the bundled one of a run, with the bench's credentials. */
async function referenceServer() {
  const server = createReferenceServer({ ids: seededIds(Number(SEED)), families: { intapi: { credentials: CREDENTIALS }, scim: { token: SCIM_TOKEN } } });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => server.close() };
}

/** Each family's base URL on a server at `url`, as the reference profile aims it there. */
function familyBases(url) {
  const profile = withTarget(loadProfile(), url);
  const bases = {};
  for (const f of FAMILIES) {
    try {
      bases[f.name] = baseUrlOf(profile, f.name).replace(/\/+$/, '');
    } catch {
      // A family without a base URL of its own (the player's pages): its checks' requests are another family's.
    }
  }
  return bases;
}

/** The recorded requests, replayed by a bare undici loop in a worker thread (as the suites run in one). */
function replay(recordFile, url, concurrency) {
  useBenchCredentials();
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    const { Agent, request } = require(${JSON.stringify(new URL('../node_modules/undici/index.js', import.meta.url).pathname)});
    const { file, url, bases, concurrency, env } = workerData;
    const fill = (s) => s.replace(/\\$\\{(\\w+)\\}/g, (_, v) => env[v] ?? '');
    const lines = readFileSync(file, 'utf8').split('\\n').filter(Boolean).map((l) => JSON.parse(l));
    (async () => {
      const agent = new Agent({ connections: 64 });
      // One session token for the replay (the recording shows it as \${LPC_TOKEN}); the run's own
      // POST /authenticate requests are left out, as they would revoke it.
      const res = await request(url + '/authenticate', { method: 'POST', dispatcher: agent, headers: { 'x-api-key': env.LPC_API_KEY, 'x-api-version': '2', 'content-type': 'application/json' },
        body: JSON.stringify({ username: env.LPC_USERNAME, password: env.LPC_PASSWORD, privateKey: env.LPC_PRIVATE_KEY }) });
      env.LPC_TOKEN = JSON.parse(await res.body.text());
      // A recorded path is relative to its family's base URL (the check's family: its id's first word).
      const requests = lines.filter((r) => r.path !== '/authenticate').map((r) => ({
        url: (bases[r.check.slice(0, r.check.indexOf('.'))] ?? url) + r.path,
        method: r.method,
        headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, fill(v)])),
        body: r.body === undefined ? undefined : fill(r.body),
      }));
      let next = 0;
      const started = process.hrtime.bigint();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < requests.length) {
          const r = requests[next++];
          const res = await request(r.url, { method: r.method, headers: r.headers, body: r.body, dispatcher: agent });
          await res.body.text();
        }
      }));
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      await agent.close();
      parentPort.postMessage({ requests: requests.length, seconds: elapsed });
    })().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));`;
  return new Promise((done, failed) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { file: recordFile, url, bases: familyBases(url), concurrency, env: { ...process.env, LPC_SCIM_TOKEN: SCIM_TOKEN } },
    });
    worker.once('message', (m) => (m.error ? failed(new Error(m.error)) : done(m)));
    worker.once('error', failed);
  });
}

/** A loopback proxy that answers every request as the backend did, DELAY_MS later. */
async function delayingProxy(backend) {
  const agent = new Agent({ connections: 256 });
  const proxy = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const answer = await request(backend + req.url, { method: req.method, headers: req.headers, body, dispatcher: agent });
        const text = Buffer.from(await answer.body.arrayBuffer());
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        delete headers.connection;
        setTimeout(() => {
          res.writeHead(answer.statusCode, headers);
          res.end(text);
        }, DELAY_MS);
      } catch (e) {
        res.writeHead(502).end(String(e));
      }
    });
  });
  proxy.keepAliveTimeout = 60_000;
  await new Promise((done) => proxy.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${proxy.address().port}`, close: () => new Promise((done) => proxy.close(done)).then(() => agent.close()) };
}

/** A figure: `met` is undefined for a figure without a target. */
const figure = (id, label, value, unit, target, met, note) => ({ id, label, value, unit, target: target ?? null, met: met ?? null, ...(note ? { note } : {}) });
const exitNote = (...runs) =>
  runs
    .filter((r) => r.code !== 0)
    .map((r) => `${r.name} exited ${r.code}`)
    .join('; ') || undefined;

/** The default run, its CPU measured: user + system time of every thread of this process. */
async function measuredRun(name, extra) {
  const cpu = process.cpuUsage();
  const run = await conformanceRun(name, extra);
  const { user, system } = process.cpuUsage(cpu);
  return { ...run, name, cpuSeconds: (user + system) / 1e6 };
}

const GROUPS = {
  async default() {
    const run = await measuredRun('default', []);
    const busy = run.cpuSeconds / run.wall;
    console.log(
      `  default run: exit ${run.code}, ${run.checks} checks, ${run.requests} requests in ${fmt(run.wall)} s, CPU ${fmt(run.cpuSeconds)} s (${fmt(busy, 2)} cores busy)`,
    );
    const ok = run.code === 0;
    return [
      figure('default.wall', 'default run wall', Number(fmt(run.wall)), 's', '≤ 6 s, exit 0', ok && run.wall <= 6, exitNote(run)),
      figure('default.cores', 'default run cores busy', Number(fmt(busy, 2)), 'cores', '≥ 1.7', busy >= 1.7),
      figure('default.checks', 'default run checks', run.checks, ''),
      figure('default.requests', 'default run requests', run.requests, ''),
      figure('default.cpu', 'default run CPU (suite and server)', Number(fmt(run.cpuSeconds)), 's'),
      figure('default.cpuPerRequest', 'default run CPU per request', Number(fmt((run.cpuSeconds / run.requests) * 1000, 3)), 'ms'),
    ];
  },

  async replay() {
    const record = join(dir, 'requests.jsonl');
    const run = await measuredRun('replay', ['--record', record]);
    const server = await referenceServer();
    const bare = await replay(record, server.url, CONCURRENCY);
    await server.close();
    const runRps = run.requests / run.wall;
    const bareRps = bare.requests / bare.seconds;
    const ratio = runRps / bareRps;
    console.log(
      `  default run: exit ${run.code}, ${run.checks} checks, ${run.requests} requests in ${fmt(run.wall)} s (${fmt(runRps, 0)} requests/s); bare replay ${fmt(bareRps, 0)} requests/s`,
    );
    return [figure('replay.ratio', 'replay ratio', Number(fmt(ratio, 2)), '', '≥ 0.5, exit 0', run.code === 0 && ratio >= 0.5, exitNote(run))];
  },

  async workers() {
    const one = await measuredRun('one-worker', ['--workers', '1']);
    const two = await measuredRun('two-workers', ['--workers', '2']);
    const ratio = one.wall / two.wall;
    console.log(
      `  one worker: exit ${one.code}, ${one.checks} checks in ${fmt(one.wall)} s (${fmt(one.cpuSeconds / one.wall, 2)} cores busy); two workers: exit ${two.code}, ${two.checks} checks in ${fmt(two.wall)} s (${fmt(two.cpuSeconds / two.wall, 2)} cores busy)`,
    );
    const ok = one.code === 0 && two.code === 0 && one.checks === two.checks;
    const note = exitNote(one, two) ?? (one.checks !== two.checks ? `${one.checks} checks against ${two.checks}` : undefined);
    return [figure('workers.ratio', 'two workers against one', ok ? Number(fmt(ratio, 2)) : null, '', '≥ 1.6, same checks', ok && ratio >= 1.6, note)];
  },

  async shard() {
    const one = await measuredRun('one-process', []);
    const two = await measuredRun('two-shards', ['--jobs', '2']);
    const ratio = one.wall / two.wall;
    console.log(
      `  one process: exit ${one.code}, ${one.checks} checks in ${fmt(one.wall)} s; 2 shards at once and their merge: exit ${two.code}, ${two.checks} checks in ${fmt(two.wall)} s`,
    );
    const ok = one.code === 0 && two.code === 0 && one.checks === two.checks;
    const note = exitNote(one, two) ?? (one.checks !== two.checks ? `${one.checks} checks against ${two.checks}` : undefined);
    return [figure('shard.ratio', '--jobs 2 against one process', ok ? Number(fmt(ratio, 2)) : null, '', '≥ 0.8, same checks', ok && ratio >= 0.8, note)];
  },

  async latency() {
    const server = await referenceServer();
    const proxy = await delayingProxy(server.url);
    const run = { ...(await conformanceRun('latency', ['--target', proxy.url])), name: 'latency' };
    await proxy.close();
    await server.close();
    const ideal = (run.requests * DELAY_MS) / 1000 / CONCURRENCY;
    const times = run.wall / ideal;
    console.log(
      `  latency run: exit ${run.code}, ${run.checks} checks, ${run.requests} requests in ${fmt(run.wall)} s through a proxy delaying every answer ${DELAY_MS} ms (ideal ${fmt(ideal)} s)`,
    );
    return [
      figure('latency.wall', 'latency run wall', Number(fmt(run.wall)), 's', '≤ 120 s, exit 0', run.code === 0 && run.wall <= 120, exitNote(run)),
      figure('latency.ideal', 'latency run over ideal', Number(fmt(times, 2)), '×', '≤ 1.2', times <= 1.2),
    ];
  },

  'scale-1e5': () => scaleFigures(100_000, 20),
  'scale-1e6': () => scaleFigures(1_000_000, 200),

  async soak() {
    const soak = await soakBench();
    return [figure('soak.ratio', 'soak: run 10 over run 1', Number(fmt(soak.ratio, 2)), '', '≤ 1.5, every run exit 0', soak.met)];
  },
};

async function scaleFigures(n, p50Target) {
  const [r] = await scaleBench({ sizes: [n] });
  const label = n >= 1_000_000 ? '10^6' : '10^5';
  return [
    figure(`scale.${n}.p50`, `scale ${label}: page p50`, Number(fmt(r.p50)), 'ms', `≤ ${p50Target} ms`, r.p50 <= p50Target),
    figure(`scale.${n}.p99`, `scale ${label}: page p99`, Number(fmt(r.p99)), 'ms'),
    figure(`scale.${n}.rss`, `scale ${label}: peak RSS`, Math.round(r.peakMb), 'MB', '< 2048 MB', r.peakMb < 2048),
  ];
}

const measure = GROUPS[group];
if (!measure) throw new Error(`bench: no figure group '${group}'`);
writeFileSync(out, JSON.stringify(await measure()));
process.exit(0);
