#!/usr/bin/env node
// The negative controls' run (tests/negative-controls.test.ts): one reference server per fault, all
// in this process, and ONE conformance run over all of them (the runner's matrix: every target's
// checks scheduled together, --concurrency at a time). Cheaper by far than a process and a vitest
// start per fault, and it keeps both proofs: each target is a fault with its own seed, runs and
// selection, and its own results.
//   node tests/support/controls-run.mjs PLAN.json RESULT.json
// PLAN: { concurrency, targets: [{ key, fault?, variant?, profile?, scimSeed?, seed, runs, only? }] }; targets of one
// fault (and SCIM variant) share its server; a target without a fault gets a server without one (a
// control of the controls, or with a variant a positive control: tests/positive-controls.test.ts);
// `profile` is a profile file (default: the reference profile); `scimSeed` gives the server its 2,500
// SCIM users (others' data the checks must not depend on).
// RESULT: { durationMs, requests, targets: { key: { failed: [{ id, expected, received, cause?, operation? }], skipped: [{ id, reason, notSetUp?, blockedBy? }], checks, requests } } }
import { readFileSync, writeFileSync } from 'node:fs';
import { BUNDLED_RULE_BATCH_MS, createReferenceServer, freshSandbox, sandboxOptions, seededIds } from '../../dist/reference-impl/index.js';
import { startMailSink } from '../../dist/src/families/intapi/mail-sink.js';
import { loadProfile, withTarget } from '../../dist/src/profile/index.js';
import { sandboxEnvironment } from '../../dist/src/runner/bundled.js';
import { runMatrix } from '../../dist/src/runner/run.js';

const [planFile, resultFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const base = loadProfile(undefined);
// Every server accepts one fresh sandbox of credentials, which the profile's variables hold.
const sandbox = freshSandbox();
Object.assign(process.env, sandboxEnvironment(base, sandbox));

/** The SCIM faults whose checks need the SCIM seed (a collection of more than 1000 users). */
const SEEDED_SCIM_FAULTS = new Set(['scim.count-uncapped']);
const servers = new Map();
const targets = [];
for (const t of plan.targets) {
  const fault = t.fault ?? '';
  const serverKey = `${fault}|${t.variant ?? ''}`;
  let running = servers.get(serverKey);
  if (!running) {
    // Each server sends its mail to a sink of its own, as a bundled run does (the mail checks count
    // the messages to one address, which another server's mail would disturb).
    const sink = await startMailSink();
    const server = createReferenceServer({
      ...sandboxOptions(sandbox),
      faults: fault ? [fault] : [],
      ...(t.variant ? { scimVariant: t.variant } : {}),
      ids: seededIds(t.seed),
      ruleBatchMs: BUNDLED_RULE_BATCH_MS,
      // SCIM checks create what they read: the 2,500 seeded users only slow every filtered list down,
      // except for the control of the 1000 cap, which needs more than 1000 users to exist.
      scimSeed: SEEDED_SCIM_FAULTS.has(fault) || t.scimSeed === true,
      smtp: sink.smtp,
    });
    running = { server, sink, url: await server.listen({ port: 0, host: '127.0.0.1' }) };
    servers.set(serverKey, running);
  }
  targets.push({
    key: t.key,
    profile: { ...withTarget(t.profile ? loadProfile(t.profile) : base, running.url), mailbox: { api: running.sink.api } },
    seed: t.seed,
    runs: t.runs,
    ...(t.only ? { only: t.only } : {}),
    replayBase: fault ? `lp-conformance run --faults ${fault}` : 'lp-conformance run',
    timeoutMs: 60_000,
  });
}
const started = Date.now();
try {
  const results = await runMatrix({ targets, concurrency: plan.concurrency });
  const out = { durationMs: Date.now() - started, requests: 0, targets: {} };
  results.forEach((r, i) => {
    out.requests += r.requests;
    out.targets[targets[i].key] = {
      checks: r.checks.length,
      requests: r.requests,
      failed: r.checks
        .filter((x) => x.status === 'failed')
        .map(({ id, failure }) => ({
          id,
          expected: failure?.expected ?? '',
          received: failure?.received ?? '',
          ...(failure?.cause ? { cause: failure.cause } : {}),
          ...(failure?.operation ? { operation: failure.operation } : {}),
        })),
      skipped: r.checks
        .filter((x) => x.status === 'skipped')
        .map((x) => ({ id: x.id, reason: x.skipReason, ...(x.notSetUp ? { notSetUp: x.notSetUp } : {}), ...(x.blockedBy ? { blockedBy: x.blockedBy } : {}) })),
    };
  });
  writeFileSync(resultFile, JSON.stringify(out));
} finally {
  await Promise.all(
    [...servers.values()].map(async ({ server, sink }) => {
      await server.close();
      await sink.close();
    }),
  );
}
