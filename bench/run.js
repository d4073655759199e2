#!/usr/bin/env node
// `npm run bench`: the tool's speed, each figure against a baseline measured in the same run
// (machines here are noisy: only numbers from one run are compared). Four figures, each printed on
// a line of its own that a script can read:
//
//   shard ratio X
//     The default run against the bundled server in one process, then the same checks as 2 shards
//     at the same time (`run --jobs 2`: two processes, each with its bundled server, and the merge of
//     their reports), one after the other. X = the one process's wall time over the shards' (merge
//     included). Target ≥ 1.6 on 2 cores.
//   replay ratio X
//     The default run (--concurrency 8) against the bundled server, its requests recorded
//     (--record); then a bare undici loop replays exactly those requests at the same concurrency
//     against a fresh bundled server, the loop in a worker thread and the server in the main thread,
//     as in the run. X = the run's requests/s over the replay's: what the suite adds (generation,
//     validation, bookkeeping) over the bare cost of its requests. Target ≥ 0.6.
//   latency run: R requests in T s (ideal I s)
//     The default run against the bundled server behind a loopback proxy that delays every answer
//     by 20 ms; I = R × 20 ms / concurrency. Target T ≤ 120 s and T ≤ 1.5 × I.
//   scale: N records, filtered sorted page p50 X ms p99 Y ms
//     bench/scale.js at 10^5 and 10^6 records. Targets p50 ≤ 20 ms and ≤ 200 ms, RSS < 2 GB.
//   soak: run 1 X s, run 10 Y s, ratio Y/X
//     bench/soak.js: ten consecutive default runs against one `lp-conformance serve`, as a nightly
//     gate makes against a long-lived server. Target: every run exits 0 and Y/X ≤ 1.5.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { main } from '../dist/src/cli/main.js';
import { createReferenceServer, seededIds } from '../dist/reference-impl/index.js';
import { scaleBench } from './scale.js';
import { soakBench } from './soak.js';

const CONCURRENCY = 8;
const DELAY_MS = 20;
const SEED = '1';
const dir = mkdtempSync(join(tmpdir(), 'lpc-bench-'));
const fmt = (n, d = 1) => n.toFixed(d);
const seconds = (since) => Number(process.hrtime.bigint() - since) / 1e9;
const only = process.argv.slice(2); // e.g. `node bench/run.js latency` runs one figure

const CREDENTIALS = { apiKey: 'bench-key', username: 'lpc.admin', password: 'bench-password', privateKey: 'bench-private-key' };
/** The reference profile's credential variables, set to the bench servers' credentials: a bundled run
 * sets them to its own random values, so they are set again before every run and replay. */
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
  const run = JSON.parse(readFileSync(json, 'utf8'));
  return { code, wall, requests: run.requests, checks: run.checks.length };
}

/** A reference server seeded as the bundled one of a run, with the bench's credentials. */
async function referenceServer() {
  const server = createReferenceServer({ credentials: CREDENTIALS, ids: seededIds(Number(SEED)) });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => server.close() };
}

/** The recorded requests, replayed by a bare undici loop in a worker thread (as the suites run in one). */
function replay(recordFile, url, concurrency) {
  useBenchCredentials();
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    const { Agent, request } = require(${JSON.stringify(new URL('../node_modules/undici/index.js', import.meta.url).pathname)});
    const { file, url, concurrency, env } = workerData;
    const fill = (s) => s.replace(/\\$\\{(\\w+)\\}/g, (_, v) => env[v] ?? '');
    const lines = readFileSync(file, 'utf8').split('\\n').filter(Boolean).map((l) => JSON.parse(l));
    (async () => {
      const agent = new Agent({ connections: 64 });
      // One session token for the replay (the recording shows it as \${LPC_TOKEN}); the run's own
      // POST /authenticate requests are left out, as they would revoke it.
      const res = await request(url + '/authenticate', { method: 'POST', dispatcher: agent, headers: { 'x-api-key': env.LPC_API_KEY, 'x-api-version': '2', 'content-type': 'application/json' },
        body: JSON.stringify({ username: env.LPC_USERNAME, password: env.LPC_PASSWORD, privateKey: env.LPC_PRIVATE_KEY }) });
      env.LPC_TOKEN = JSON.parse(await res.body.text());
      const requests = lines.filter((r) => r.path !== '/authenticate').map((r) => ({
        url: url + r.path,
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
    const worker = new Worker(source, { eval: true, workerData: { file: recordFile, url, concurrency, env: { ...process.env } } });
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

const wanted = (name) => only.length === 0 || only.includes(name);
let failed = false;
console.log('lp-conformance benchmark (2 cores; every figure against a baseline of the same run)');

if (wanted('replay')) {
  const record = join(dir, 'requests.jsonl');
  const run = await conformanceRun('replay', ['--record', record]);
  const server = await referenceServer();
  const bare = await replay(record, server.url, CONCURRENCY);
  await server.close();
  const runRps = run.requests / run.wall;
  const bareRps = bare.requests / bare.seconds;
  const ratio = runRps / bareRps;
  console.log(
    `  default run: exit ${run.code}, ${run.checks} checks, ${run.requests} requests in ${fmt(run.wall)} s (${fmt(runRps, 0)} requests/s); bare replay ${fmt(bareRps, 0)} requests/s`,
  );
  console.log(`replay ratio ${fmt(ratio, 2)}`);
  console.log(`  target ≥ 0.60: ${ratio >= 0.6 ? 'met' : 'not met'}`);
  failed ||= run.code !== 0;
}

if (wanted('shard')) {
  const cpu = process.cpuUsage();
  const one = await conformanceRun('one-process', []);
  const { user, system } = process.cpuUsage(cpu);
  const two = await conformanceRun('two-shards', ['--jobs', '2']);
  const ratio = one.wall / two.wall;
  // What one process keeps busy (its threads' CPU over its wall time) bounds what 2 cores can gain.
  const busy = (user + system) / 1e6 / one.wall;
  console.log(
    `  one process: exit ${one.code}, ${one.checks} checks in ${fmt(one.wall)} s, ${fmt(busy, 2)} cores busy of what it was given (2 idle cores would allow a ratio of at most ${fmt(2 / busy, 2)}); 2 shards at once and their merge: exit ${two.code}, ${two.checks} checks in ${fmt(two.wall)} s`,
  );
  console.log(`shard ratio ${fmt(ratio, 2)}`);
  console.log(`  target ≥ 1.60: ${ratio >= 1.6 ? 'met' : 'not met'}`);
  failed ||= one.code !== 0 || two.code !== 0 || one.checks !== two.checks;
}

if (wanted('latency')) {
  const server = await referenceServer();
  const proxy = await delayingProxy(server.url);
  const run = await conformanceRun('latency', ['--target', proxy.url]);
  await proxy.close();
  await server.close();
  const ideal = (run.requests * DELAY_MS) / 1000 / CONCURRENCY;
  console.log(`  latency run: exit ${run.code}, ${run.checks} checks through a proxy delaying every answer ${DELAY_MS} ms, --concurrency ${CONCURRENCY}`);
  console.log(`latency run: ${run.requests} requests in ${fmt(run.wall)} s (ideal ${fmt(ideal)} s)`);
  console.log(
    `  target T ≤ 120 s and ≤ 1.5 × ideal (${fmt(1.5 * ideal)} s): ${run.wall <= 120 && run.wall <= 1.5 * ideal ? 'met' : 'not met'} (${fmt(run.wall / ideal, 2)} × ideal)`,
  );
  failed ||= run.code !== 0;
}

if (wanted('scale')) await scaleBench();

if (wanted('soak')) failed ||= !(await soakBench()).met;

process.exit(failed ? 1 : 0);
