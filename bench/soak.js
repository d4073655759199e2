#!/usr/bin/env node
// `node bench/soak.js [runs]` (after `npm run build`): a nightly gate's life in minutes. It starts
// one `lp-conformance serve` (the sandbox, as a user would) and makes `runs` (default 10) consecutive
// default runs against it, each a command line of its own with every family's credentials (the SCIM
// token from the sandbox's token exchange), recording every request. After each run it counts what
// the server holds. Target: every run exits 0, and the last takes at most 1.5 x the first
// (`soak: run 1 X s, run 10 Y s, ratio Y/X`); no request target is longer than limits.maxUrlBytes.
// `soakBench()` is exported for bench/run.js.
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/lp-conformance.js');
const MAX_URL_BYTES = 8000;
const fmt = (n, d = 1) => n.toFixed(d);

/** The sandbox credentials of `serve` (docs/sandbox.md "The reference server as a sandbox"). */
const SANDBOX = {
  LPC_API_KEY: 'lpc-sandbox-key',
  LPC_USERNAME: 'lpc.admin',
  LPC_PASSWORD: 'lpc-sandbox-password',
  LPC_PRIVATE_KEY: 'lpc-sandbox-private-key',
  LPC_LEARNER_USERNAME: 'learner.a@example.com',
  LPC_LEARNER_PASSWORD: 'lpc-learner-a-password',
  LPC_OAUTH_CLIENT_ID: 'lpc-sandbox-client',
  LPC_OAUTH_CLIENT_SECRET: 'lpc-sandbox-client-secret',
};

/** CPU seconds (user + system) from a /proc/<pid>/stat: the process's own, or its reaped children's. */
function cpuOf(pid, children = false) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
    return (Number(user) + Number(system)) / 100;
  } catch {
    return Number.NaN;
  }
}

function serve() {
  return new Promise((done, failed) => {
    const env = { ...process.env };
    for (const name of Object.keys(SANDBOX)) delete env[name];
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) done({ url: m[1], pid: child.pid, stop: () => new Promise((stopped) => child.once('close', stopped).kill('SIGTERM')) });
    });
    child.once('close', (code) => failed(new Error(`serve exited ${code}`)));
  });
}

async function json(url, init) {
  const res = await request(url, init);
  return res.body.json();
}

/** What the server holds: the Integration API's collections (totalItems) and SCIM's users and groups. */
async function holdings(url, scimToken) {
  const token = await json(`${url}/authenticate`, {
    method: 'POST',
    headers: { 'x-api-key': SANDBOX.LPC_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ username: SANDBOX.LPC_USERNAME, password: SANDBOX.LPC_PASSWORD, privateKey: SANDBOX.LPC_PRIVATE_KEY }),
  });
  const headers = { 'x-api-key': SANDBOX.LPC_API_KEY, 'x-api-version': '2', authorization: `Bearer ${token}` };
  const held = {};
  for (const [name, path] of [
    ['submissions', '/submissions'],
    ['questionBanks', '/question-banks'],
    ['users', '/users'],
    ['groups', '/groups'],
  ])
    held[name] = (await json(`${url}${path}?_limit=1`, { headers })).totalItems;
  for (const kind of ['Users', 'Groups'])
    held[`scim${kind}`] = (await json(`${url}/scim/v2/${kind}?count=0`, { headers: { authorization: `Bearer ${scimToken}` } })).totalResults;
  return held;
}

/** The longest request target of a --record file (its paths are relative to the family's base URL). */
async function longestTarget(file) {
  let longest = 0;
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (line === '') continue;
    const { path, check } = JSON.parse(line);
    const base = check.startsWith('scim.') ? '/scim/v2' : check.startsWith('learner.') ? '/api/rest/v2' : '';
    longest = Math.max(longest, base.length + path.length);
  }
  return longest;
}

function run(args, env) {
  return new Promise((done) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', (code) => done({ code, seconds: Number(process.hrtime.bigint() - started) / 1e9, stderr }));
  });
}

export async function soakBench({ runs = 10, log = console.log } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-soak-'));
  const server = await serve();
  try {
    const { token: scimToken } = await json(`${server.url}/scim/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: SANDBOX.LPC_USERNAME, password: SANDBOX.LPC_PASSWORD }),
    });
    const env = { ...SANDBOX, LPC_SCIM_TOKEN: scimToken };
    log(`  soak: ${runs} default runs against one lp-conformance serve (${server.url}); it holds ${JSON.stringify(await holdings(server.url, scimToken))}`);
    const results = [];
    for (let i = 1; i <= runs; i++) {
      const report = join(dir, `run-${i}.json`);
      const record = join(dir, `run-${i}.jsonl`);
      const args = ['run', '--target', server.url, '--no-progress', '--json', report, '--junit', join(dir, `run-${i}.xml`), '--record', record];
      const [runCpu, serverCpu] = [cpuOf(process.pid, true), cpuOf(server.pid)];
      const { code, seconds, stderr } = await run(args, env);
      const cpu = { run: cpuOf(process.pid, true) - runCpu, server: cpuOf(server.pid) - serverCpu };
      const result = JSON.parse(readFileSync(report, 'utf8'));
      const count = (status) => result.checks.filter((c) => c.status === status).length;
      const longest = await longestTarget(record);
      const held = await holdings(server.url, scimToken);
      results.push({ code, seconds, cpu, longest, held });
      log(
        `  soak run ${i}: exit ${code}, ${result.checks.length} checks, ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped, ` +
          `${result.requests} requests in ${fmt(seconds)} s (CPU: the run ${fmt(cpu.run)} s, the server ${fmt(cpu.server)} s); ` +
          `longest request target ${longest} bytes; the server then holds ${JSON.stringify(held)}` +
          `${code === 0 ? '' : `\n${stderr}`}`,
      );
    }
    const first = results[0];
    const last = results.at(-1);
    const ratio = last.seconds / first.seconds;
    const longest = Math.max(...results.map((r) => r.longest));
    log(`soak: run 1 ${fmt(first.seconds)} s, run ${runs} ${fmt(last.seconds)} s, ratio ${fmt(ratio, 2)}`);
    // CPU time is what the machine's other load changes least: the run's process and the server's.
    const cpuOfRun = (r) => r.cpu.run + r.cpu.server;
    log(`  CPU (run and server): run 1 ${fmt(cpuOfRun(first))} s, run ${runs} ${fmt(cpuOfRun(last))} s, ratio ${fmt(cpuOfRun(last) / cpuOfRun(first), 2)}`);
    const met = results.every((r) => r.code === 0) && ratio <= 1.5 && longest <= MAX_URL_BYTES;
    log(`  target every run exits 0, ratio ≤ 1.5, no request target over ${MAX_URL_BYTES} bytes (longest ${longest}): ${met ? 'met' : 'not met'}`);
    return { results, ratio, met };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { met } = await soakBench({ runs: Number(process.argv[2] ?? 10) });
  process.exit(met ? 0 : 1);
}
