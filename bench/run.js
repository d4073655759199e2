#!/usr/bin/env node
// `npm run bench`: the default suite against the in-process reference server, and in the same run
// a baseline: undici requests per second to a trivial node:http server on loopback at the same
// concurrency (the suite sends one request at a time). Figures are printed as ratios: machines here
// are noisy, so only numbers measured in one run are compared. Targets (2 cores): the whole default
// suite within 20 s, and at least half the baseline's request rate.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { main } from '../dist/src/cli/main.js';

const CONCURRENCY = 1;

async function baseline(seconds) {
  const body = JSON.stringify({ ok: true });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const dispatcher = new Agent({ connections: 16 });
  let count = 0;
  const until = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const res = await request(url, { dispatcher, headers: { 'x-api-version': '2' } });
        await res.body.text();
        count++;
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  await dispatcher.close();
  await new Promise((done) => server.close(done));
  return { requests: count, seconds: elapsed, rps: count / elapsed };
}

const dir = mkdtempSync(join(tmpdir(), 'lpc-bench-'));
const before = await baseline(3);
const started = process.hrtime.bigint();
const code = await main(['run', '--seed', '1', '--junit', join(dir, 'junit.xml'), '--json', join(dir, 'run.json'), '--no-color']);
const wall = Number(process.hrtime.bigint() - started) / 1e9;
const after = await baseline(3);
const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
const base = (before.rps + after.rps) / 2;
const suiteRps = run.requests / wall;
const fmt = (n) => n.toFixed(1);
console.log('\nlp-conformance benchmark');
console.log(`  suite exit code          ${code}`);
console.log(`  checks                   ${run.checks.length}`);
console.log(`  requests                 ${run.requests}`);
console.log(`  wall time                ${fmt(wall)} s   (target ≤ 20 s)`);
console.log(`  suite requests/s         ${fmt(suiteRps)}`);
console.log(`  baseline requests/s      ${fmt(base)}   (undici → trivial node:http, concurrency ${CONCURRENCY}; before ${fmt(before.rps)}, after ${fmt(after.rps)})`);
console.log(`  ratio suite/baseline     ${(suiteRps / base).toFixed(2)}   (target ≥ 0.50)`);
process.exit(code === 0 ? 0 : 1);
