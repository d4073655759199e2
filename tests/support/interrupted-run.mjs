#!/usr/bin/env node
// An interrupted run, as the command line makes one: the Integration API's template-list checks against
// a bundled server, one at a time, stopped (as Ctrl-C or a CI's cancel stops a run) once the first
// request has gone out; the run model marked with markInterrupted over the run's selection, what the
// command line hands its reporters. Used by tests/cli/run-schema.test.ts.
//   node tests/support/interrupted-run.mjs OUT.json SIGINT|SIGTERM
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createReferenceServer, seededIds } from '../../dist/reference-impl/index.js';
import { loadProfile, withTarget } from '../../dist/src/profile/index.js';
import { markInterrupted } from '../../dist/src/runner/base/model.js';
import { listChecks, runSuites } from '../../dist/src/runner/run.js';
import { idMatcher } from '../../dist/src/runner/select.js';

const [out, signal] = process.argv.slice(2);
const ONLY = ['intapi.v2.templates.list'];
const profile = loadProfile(undefined);
const make = () => randomBytes(18).toString('base64url');
const credentials = { apiKey: make(), username: 'lpc.admin', password: make(), privateKey: make() };
const c = profile.credentials;
Object.assign(process.env, {
  [c.apiKey.env]: credentials.apiKey,
  [c.username.env]: credentials.username,
  [c.password.env]: credentials.password,
  [c.privateKey.env]: credentials.privateKey,
});
const server = createReferenceServer({ ids: seededIds(5), families: { intapi: { credentials } } });
const url = await server.listen({ port: 0, host: '127.0.0.1' });
const record = `${out}.requests.jsonl`;
writeFileSync(record, '');
const stop = new AbortController();
const watch = setInterval(() => {
  if (readFileSync(record, 'utf8').length > 0) {
    clearInterval(watch);
    stop.abort();
  }
}, 10);
try {
  const result = await runSuites({
    profile: withTarget(profile, url),
    seed: 5,
    runs: 3,
    only: ONLY,
    replayBase: 'lp-conformance run',
    timeoutMs: 10_000,
    concurrency: 1,
    record,
    signal: stop.signal,
  });
  const select = idMatcher(ONLY);
  writeFileSync(
    out,
    JSON.stringify(
      markInterrupted(
        result,
        signal,
        (await listChecks()).filter((c) => select(c.id)),
      ),
    ),
  );
} finally {
  clearInterval(watch);
  await server.close();
}
