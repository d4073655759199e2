#!/usr/bin/env node
// The negative controls' run (tests/controls/negative.test.ts): one reference server per fault, all
// in this process, and ONE conformance run over all of them (the runner's matrix: every target's
// checks scheduled together, --concurrency at a time). Cheaper by far than a process and a run's
// start per fault, and it keeps both proofs: each target is a fault with its own seed, runs and
// selection, and its own results.
//   node tests/support/controls-run.mjs PLAN.json RESULT.json
// PLAN: { concurrency, targets: [{ key, fault?, variant?, profile?, scimSeed?, seed, runs, only? }] }; targets of one
// fault (and SCIM variant) share its server; a target without a fault gets a server without one (a
// control of the controls, or with a variant a positive control: tests/controls/positive.test.ts);
// `profile` is a profile file (default: the reference profile); `scimSeed` gives the server its 2,500
// SCIM users (others' data the checks must not depend on).
// A target with `traced: true` (an Integration API fault's sweep) runs only the checks of its `only`
// that call an operation whose handling reads what the fault changes, found by a trace: first one
// run of those patterns against a server without a fault, which records every read of its behaviour
// table (reference-impl/intapi/trace.ts). See traceScopes below for when the whole `only` is kept.
// A traced target with `shares: { allowed, mustFail }` (the ids its fault may, and must, make fail)
// shares ONE run with up to GROUP_SIZE others of its trace and selection (groupSweeps below): a
// server with all their faults on, the checks of the others' `allowed` run again under its fault alone.
// A target with `unlessFailedIn: { key, ids }` (a detection under the seed of its fault's sweep) is
// not run when every one of `ids` failed with its own verdict in target `key`'s result: that result
// stands for it (the same fault and seed, a share of its runs). Otherwise it runs after the others.
// RESULT: { durationMs, requests, targets: { key: { failed: [{ id, expected, received, cause?, operation? }], skipped: [{ id, reason, notSetUp?, blockedBy? }], checks, requests, traced?, from? } } }
// where `traced` is { checks: [ids run], reason } for a traced target, and `from` the key whose
// result stands for the target's.
import { readFileSync, writeFileSync } from 'node:fs';
import {
  BUNDLED_RULE_BATCH_MS,
  createReferenceServer,
  intapiFaultedPaths,
  freshSandbox,
  mergeServerOptions,
  sandboxOptions,
  seededIds,
} from '../../dist/reference-impl/index.js';
import { startMailSink } from '../../dist/src/families/intapi/mail-sink.js';
import { loadProfile, withTarget } from '../../dist/src/profile/index.js';
import { sandboxEnvironment } from '../../dist/src/runner/bundled.js';
import { runMatrix } from '../../dist/src/runner/run.js';
import { idMatcher } from '../../dist/src/runner/select.js';

const [planFile, resultFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const base = loadProfile(undefined);
// Every server accepts one fresh sandbox of credentials, which the profile's variables hold.
const sandbox = freshSandbox();
Object.assign(process.env, sandboxEnvironment(base, sandbox));

/** The SCIM faults whose checks need the SCIM seed (a collection of more than 1000 users). */
const SEEDED_SCIM_FAULTS = new Set(['scim.count-uncapped']);
/** Sweeps in one group at most (its cross-checks grow with its square: groupSweeps), and ids a member may allow. */
const GROUP_SIZE = 6;
const MAX_ALLOWED = 40;
/** A reference server with `options` and a mail sink of its own (as a bundled run has: the mail
 * checks count the messages to one address, which another server's mail would disturb). */
async function startServer(options) {
  const sink = await startMailSink();
  const server = createReferenceServer(
    mergeServerOptions(sandboxOptions(sandbox), { ruleBatchMs: BUNDLED_RULE_BATCH_MS }, options, { families: { intapi: { smtp: sink.smtp } } }),
  );
  return { server, sink, url: await server.listen({ port: 0, host: '127.0.0.1' }) };
}

/** `profile` pointed at a started server and its mail sink. */
const profileOf = (profile, { url, sink }) => ({ ...withTarget(profile, url), mailbox: { api: sink.api } });

const servers = new Map();
const targets = [];
const traced = await traceScopes(plan.targets.filter((t) => t.traced === true));
/** The faults whose sweep was narrowed although an operation that writes reads what they change
 * (after its writes, in the trace), and the first request that refuted it under the fault. */
const verified = new Set(plan.targets.filter((t) => traced.get(t.key)?.verify).map((t) => t.fault));
const refuted = new Map();
for (const t of plan.targets) {
  const fault = t.fault ?? '';
  const serverKey = `${fault}|${t.variant ?? ''}`;
  let running = servers.get(serverKey);
  if (!running) {
    running = await startServer({
      faults: fault ? [fault] : [],
      ids: seededIds(t.seed),
      families: {
        intapi: verified.has(fault) ? { traceBehaviour: writesAfterReading(fault) } : {},
        // SCIM checks create what they read: the 2,500 seeded users only slow every filtered list down,
        // except for the control of the 1000 cap, which needs more than 1000 users to exist.
        scim: { ...(t.variant ? { variant: t.variant } : {}), seed: SEEDED_SCIM_FAULTS.has(fault) || t.scimSeed === true },
      },
    });
    servers.set(serverKey, running);
  }
  targets.push({
    key: t.key,
    profile: profileOf(t.profile ? loadProfile(t.profile) : base, running),
    seed: t.seed,
    runs: t.runs,
    ...(traced.has(t.key) ? { only: traced.get(t.key).only } : t.only ? { only: t.only } : {}),
    replayBase: fault ? `lp-conformance run --faults ${fault}` : 'lp-conformance run',
    timeoutMs: 60_000,
    // Each server is this process's own and ends with it: deleting what the checks created would only
    // add a request per record (the checks never assume a fresh target, so a later run's checks on
    // the same server do not need it either).
    keep: true,
  });
}
const groups = await groupSweeps();
/** The plan's indices whose sweep one of `groups` runs (unless it falls back to its own). */
const inGroup = new Set(groups.flatMap((g) => g.members));
/** How each member of a group was swept (settleGroups), by plan index: `shared` in its result. */
const shared = new Map();
const started = Date.now();
try {
  const deferred = plan.targets.flatMap((t, i) => (t.unlessFailedIn ? [i] : []));
  const first = [
    ...plan.targets.flatMap((t, i) => (t.unlessFailedIn || inGroup.has(i) ? [] : [i])),
    ...groups.flatMap((g) => [g.run, ...g.cross.filter((c) => c !== undefined)]),
  ];
  /** Each target's result, by its index in the plan. */
  const results = [];
  /** Runs the targets at `indices` (each as `targetOf` gives it) in one matrix run, into `results`. */
  const runInto = async (indices, targetOf = (i) => targets[i]) => {
    if (indices.length === 0) return;
    (await runMatrix({ targets: indices.map(targetOf), concurrency: plan.concurrency })).forEach((r, j) => (results[indices[j]] = r));
  };
  await runInto(first);
  // A group's run stands for its members' sweeps unless it found what one of them alone must show.
  const alone = settleGroups(groups, results);
  await runInto(alone);
  // A narrowed sweep whose fault made a request write after reading what it changes: the store may
  // differ from the trace's, so any check may see it. Its sweep runs again, over its whole `only`
  // (a member of a shared run too, whose server saw that in its cross-check or detection).
  const again = plan.targets.flatMap((t, i) => (traced.get(t.key)?.verify && refuted.has(t.fault) ? [i] : []));
  await runInto(again, (i) => ({ ...targets[i], only: plan.targets[i].only }));
  for (const i of again) {
    const scope = traced.get(targets[i].key);
    scope.traced = { checks: [], reason: `${scope.traced.reason}; under the fault ${refuted.get(plan.targets[i].fault)}: swept whole` };
  }
  // A detection whose checks all failed with their own verdict in the run it names is proven there
  // (not in a group's run: there the other faults were on too).
  const indexOf = new Map(plan.targets.map((t, i) => [t.key, i]));
  const grouped = new Set([...inGroup].filter((i) => !alone.includes(i)).map((i) => plan.targets[i].key));
  const from = new Map();
  const rest = deferred.filter((i) => {
    const { key, ids } = plan.targets[i].unlessFailedIn;
    if (grouped.has(key)) return true;
    const own = new Set((results[indexOf.get(key)]?.checks ?? []).filter((c) => c.status === 'failed' && !c.failure?.cause).map((c) => c.id));
    if (ids.length === 0 || !ids.every((id) => own.has(id))) return true;
    from.set(i, key);
    return false;
  });
  await runInto(rest);
  const out = { durationMs: Date.now() - started, requests: 0, targets: {} };
  results.forEach((r, i) => {
    if (!r) return;
    out.requests += r.requests;
    // A group's run and its cross-checks: counted above, reported through its members.
    if (i >= plan.targets.length) return;
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
      ...(traced.has(targets[i].key) ? { traced: traced.get(targets[i].key).traced } : {}),
      ...(shared.has(i) ? { shared: shared.get(i) } : {}),
      skipped: r.checks
        .filter((x) => x.status === 'skipped')
        .map((x) => ({ id: x.id, reason: x.skipReason, ...(x.notSetUp ? { notSetUp: x.notSetUp } : {}), ...(x.blockedBy ? { blockedBy: x.blockedBy } : {}) })),
    };
  });
  for (const [i, key] of from) out.targets[targets[i].key] = { ...out.targets[key], requests: 0, from: key };
  writeFileSync(resultFile, JSON.stringify(out));
} finally {
  await Promise.all(
    [...servers.values()].map(async ({ server, sink }) => {
      await server.close();
      await sink.close();
    }),
  );
}

/**
 * Sweeps that share a run. Each traced sweep would cost a run of its selection per fault (the whole
 * family when its trace keeps it, as for a change read by an operation that writes): most of the
 * controls' requests, growing as faults times checks. Up to GROUP_SIZE traced sweeps of one trace
 * (the same seed, runs and `only`) and the same selection after it (the whole family, or the same
 * narrowed checks), whose faults change different entries and may make different checks fail, run
 * as ONE target: a server with all their faults on. It stands for each member's sweep when
 * - nothing failed that no member allows, nothing was skipped that the trace (no fault) ran, and
 *   each member's mustFail checks failed there (settleGroups): a check that a member's fault breaks
 *   fails there too, since the other faults change other entries. What a shared run cannot rule out
 *   is one fault hiding another's effect on the same check; the members' entries differ, their
 *   allowed checks too, and every member's own checks must still fail, so that would take two
 *   deviations in one exchange, the second undoing the first;
 * - for the checks another member allows among the selection (their failure in the group's run says
 *   nothing of this fault), this member's result is theirs run again under its own fault alone
 *   (`cross`).
 * A member's allowed ids hold no invariant: an invariant is judged on every exchange of the run, so
 * its cross-check would be the family's run again.
 * @returns [{ key, members: plan indices, allowed and mustFail: per member, run: index of the group's
 * target, cross: per member the index of its cross-check target (undefined when the others allow
 * nothing), crossIds: per member the ids it cross-checks, trace, only }]
 */
async function groupSweeps() {
  const candidates = plan.targets.flatMap((t, i) => {
    if (!t.shares || !t.traced) return [];
    const allowed = [...new Set(t.shares.allowed)];
    if (allowed.length > MAX_ALLOWED || allowed.some((id) => /^[a-z]+\.invariant\./.test(id))) return [];
    const only = targets[i].only;
    const { trace } = traced.get(t.key);
    return [{ i, fault: t.fault, allowed, mustFail: t.shares.mustFail, paths: intapiFaultedPaths(t.fault), trace, only, selection: JSON.stringify(only) }];
  });
  const groups = [];
  for (const c of candidates) {
    const apart = (g) =>
      g.trace === c.trace &&
      g.selection === c.selection &&
      g.members.length < GROUP_SIZE &&
      g.members.every((m) => !m.allowed.some((id) => c.allowed.includes(id)) && !m.paths.some((p) => c.paths.includes(p)));
    const g = groups.find(apart);
    if (g) g.members.push(c);
    else groups.push({ trace: c.trace, selection: c.selection, only: c.only, members: [c] });
  }
  const formed = [];
  for (const g of groups.filter((x) => x.members.length > 1)) {
    const [lead] = g.members;
    const t = plan.targets[lead.i];
    const faults = g.members.map((m) => m.fault);
    const key = `group:${g.members.map((m) => plan.targets[m.i].key).join(',')}`;
    // A group of narrowed sweeps that the trace verifies under their faults: verified under all of them.
    const verify = g.members.some((m) => traced.get(plan.targets[m.i].key)?.verify);
    const running = await startServer({
      faults,
      ids: seededIds(t.seed),
      families: {
        scim: { seed: false },
        intapi: verify ? { traceBehaviour: writesAfterReading(key, new Set(g.members.flatMap((m) => m.paths))) } : {},
      },
    });
    servers.set(`${key}|`, running);
    const run =
      targets.push({
        ...targets[lead.i],
        key,
        profile: profileOf(base, running),
        only: g.only,
        replayBase: `lp-conformance run --faults ${faults.join(',')}`,
      }) - 1;
    const selected = idMatcher(g.only);
    // Per member, what the others allow among the group's selection: its cross-check.
    const crossIds = g.members.map((m) => g.members.filter((o) => o !== m).flatMap((o) => o.allowed.filter(selected)));
    const cross = g.members.map((m, k) => {
      const ids = crossIds[k];
      if (ids.length === 0) return undefined;
      return targets.push({ ...targets[m.i], key: `cross:${plan.targets[m.i].key}`, only: g.only, ids }) - 1;
    });
    formed.push({
      key,
      members: g.members.map((m) => m.i),
      allowed: g.members.map((m) => m.allowed),
      mustFail: g.members.map((m) => m.mustFail),
      run,
      cross,
      crossIds,
      trace: g.trace,
      only: g.only,
    });
  }
  return formed;
}

/**
 * Each group's members' results from its run and cross-checks (`results`, by target index), or the
 * members to sweep alone, `shared` saying which and why:
 * - all of them when the run found what the group cannot vouch for: a check that no member allows
 *   failed, a check of the selection that the trace ran was skipped or not run, or, for narrowed
 *   sweeps that their servers verify, a request wrote after reading an entry a member changes (each
 *   member's own sweep is then verified under its own fault);
 * - a member whose mustFail checks did not all fail there with their own verdict (its fault did not
 *   show, so the run says nothing of what it would break), or whose cross-check lost a check.
 * @returns the plan indices to sweep alone
 */
function settleGroups(groups, results) {
  const alone = [];
  for (const g of groups) {
    const run = results[g.run];
    // What the trace ran of the group's selection: what the group's run must run.
    const expected = [...g.trace.ran].filter(idMatcher(g.only));
    const faults = g.members.map((i) => plan.targets[i].fault);
    const allowed = new Set(g.allowed.flat());
    const byId = new Map(run.checks.map((c) => [c.id, c]));
    const lost = (checks, ids) =>
      ids.filter((id) => g.trace.ran.has(id) && (!checks.has(id) || (checks.get(id).status === 'skipped' && !g.trace.skipped.has(id))));
    const surprise = [
      ...(refuted.has(g.key) ? [`under the faults ${refuted.get(g.key)}`] : []),
      ...run.checks.filter((c) => c.status === 'failed' && !allowed.has(c.id)).map((c) => `${c.id} failed`),
      ...lost(byId, expected).map((id) => `${id} ${byId.has(id) ? 'skipped' : 'not run'}`),
    ];
    g.members.forEach((i, k) => {
      const others = faults.filter((_, j) => j !== k);
      const crossed = g.cross[k] === undefined ? new Map() : new Map(results[g.cross[k]].checks.map((c) => [c.id, c]));
      const own = [
        ...g.mustFail[k].filter((id) => byId.get(id)?.status !== 'failed' || byId.get(id).failure?.cause).map((id) => `${id} did not fail`),
        ...lost(crossed, g.crossIds[k]).map((id) => `${id} ${crossed.has(id) ? 'skipped' : 'not run'} under this fault alone`),
      ];
      const why = [...surprise, ...own];
      if (why.length > 0) {
        alone.push(i);
        shared.set(i, `in one run with ${others.join(', ')}: ${why.slice(0, 3).join(', ')}${why.length > 3 ? ', …' : ''}, so swept alone`);
        return;
      }
      results[i] = { checks: run.checks.map((c) => crossed.get(c.id) ?? c), requests: 0 };
      shared.set(i, `swept in one run with ${others.join(', ')}, the checks they allow again under this fault alone`);
    });
  }
  return alone;
}

/** A tracer for the server of `key` (a fault, or a group's key) whose sweep is narrowed: notes in
 * `refuted` the first request that writes after reading one of `paths`, the entries its fault(s) change. */
function writesAfterReading(key, paths = new Set(intapiFaultedPaths(key))) {
  const readBy = new WeakMap();
  return {
    read(path, request) {
      if (request && paths.has(path) && !readBy.has(request)) readBy.set(request, path);
    },
    write(request) {
      const path = readBy.get(request);
      if (path !== undefined && !refuted.has(key)) refuted.set(key, `${request.operation} (check ${request.check ?? 'none'}) wrote after reading ${path}`);
    },
  };
}

/**
 * The `only` of each traced target. One run of their `only` (per seed, runs and `only` they share)
 * against a server without a fault records which operations read each entry of the behaviour table,
 * which requests write to the store (or send a mail) after which reads, and which operations each check calls. A
 * fault changes entries (intapiFaultedPaths), so a request whose handling reads none of them gets the
 * answer it gets without the fault, and stores the same. The target keeps its whole `only` when an
 * entry the fault changes is
 * - read outside the guard and handler of a request (at start-up, while an error body is rendered):
 *   every request may depend on it;
 * - read by an operation that is not a GET, unless some request of it read the entry after having
 *   written, to answer (a list it has just changed, a record it has just stored): with the fault on,
 *   a request that is not a GET may store something else, or store where it did not (a rejected
 *   create kept), and any later request of any check may read it. An operation that reads the entry
 *   to answer after writing stores the same with the fault on, unless the fault makes one of its
 *   requests write after the read (one that wrote nothing in the trace, say): the sweep's server
 *   checks that (writesAfterReading), and a sweep so refuted runs again over its whole `only`;
 * - read by a GET that writes after the read (the enrollment rules' catch-up writes after reading
 *   `enrollmentRules.*`). A GET's catch-up that writes before its list is read does not count: what
 *   it stores does not depend on what the list reads, and whether a batch is due depends on time;
 * - not read at all in the trace: nothing to narrow to.
 * Otherwise it runs the checks that call an operation reading those entries (every call of it, not
 * only those that read them: a read that depends on the data is still covered), and the family's
 * invariants, judged on those checks' exchanges.
 * @returns Map of target key to { only, verify, traced: { checks, reason }, trace }, where `trace` is
 * { ran, skipped }, one object for the targets of one trace run: the checks that run ran and skipped
 */
async function traceScopes(tracedTargets) {
  const scopes = new Map();
  const groups = new Map();
  for (const t of tracedTargets) {
    if (t.variant || t.profile) throw new Error(`${t.key}: a traced target has no variant or profile`);
    const key = JSON.stringify([t.seed, t.runs, t.only]);
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  for (const group of groups.values()) {
    for (const [key, scope] of await traceGroup(group)) scopes.set(key, scope);
  }
  return scopes;
}

async function traceGroup(group) {
  const [first] = group;
  const scopes = new Map();
  const global = new Set();
  const opsReading = new Map();
  const opsOfCheck = new Map();
  const writing = new Set();
  const storedAfter = new Set();
  const readAfterWriting = new Set();
  const wrote = new WeakSet();
  const readBy = new WeakMap();
  const add = (map, key, value) => map.set(key, (map.get(key) ?? new Set()).add(value));
  const tracer = {
    read(path, request) {
      if (!request) return void global.add(path);
      add(opsReading, path, request.operation);
      if (request.method !== 'GET') {
        writing.add(request.operation);
        if (wrote.has(request)) readAfterWriting.add(`${request.operation} ${path}`);
      }
      if (request.check !== undefined) add(opsOfCheck, request.check, request.operation);
      if (!readBy.has(request)) readBy.set(request, new Set());
      readBy.get(request).add(path);
    },
    write(request) {
      wrote.add(request);
      for (const path of readBy.get(request) ?? []) storedAfter.add(path);
    },
  };
  const running = await startServer({
    ids: seededIds(first.seed),
    families: { scim: { seed: false }, intapi: { traceBehaviour: tracer } },
  });
  try {
    const [run] = await runMatrix({
      targets: [
        {
          key: 'trace',
          profile: profileOf(base, running),
          seed: first.seed,
          runs: first.runs,
          only: first.only,
          timeoutMs: 60_000,
        },
      ],
      concurrency: plan.concurrency,
    });
    const failed = run.checks.filter((c) => c.status === 'failed');
    if (failed.length > 0) {
      const [f] = failed;
      throw new Error(
        `the trace run (no fault) failed ${failed.length} checks, e.g. ${f.id}: expected ${f.failure?.expected}, received ${f.failure?.received}`,
      );
    }
    const ran = new Set(run.checks.map((c) => c.id));
    const trace = { ran, skipped: new Set(run.checks.filter((c) => c.status === 'skipped').map((c) => c.id)) };
    const invariants = [...new Set([...ran].map((id) => id.split('.')[0]))].map((family) => `${family}.invariant.*`);
    for (const t of group) {
      const paths = intapiFaultedPaths(t.fault);
      const ops = new Set(paths.flatMap((p) => [...(opsReading.get(p) ?? [])]));
      const writers = [...ops].filter((op) => writing.has(op));
      const whole = (reason) => scopes.set(t.key, { only: t.only, traced: { checks: [], reason }, trace });
      if (paths.some((p) => global.has(p))) whole(`${paths.join(', ')} read outside a request`);
      else if (paths.some((p) => storedAfter.has(p))) whole(`${paths.join(', ')} read by a request that writes after it`);
      else if (ops.size === 0) whole(`${paths.join(', ')} not read in the trace`);
      else if (writers.some((op) => paths.some((p) => opsReading.get(p)?.has(op) && !readAfterWriting.has(`${op} ${p}`))))
        whole(`${paths.join(', ')} read by ${writers.sort().join(', ')}, which write, and not to answer after writing`);
      else {
        const checks = [...opsOfCheck]
          .filter(([check, called]) => ran.has(check) && [...called].some((op) => ops.has(op)))
          .map(([check]) => check)
          .sort();
        const answering = writers.length > 0 ? `; ${writers.sort().join(', ')} read it to answer after writing, which the sweep verifies under the fault` : '';
        scopes.set(t.key, {
          only: [...checks, ...invariants],
          verify: writers.length > 0,
          traced: { checks, reason: `${paths.join(', ')} read by ${[...ops].sort().join(', ')}${answering}` },
          trace,
        });
      }
    }
    return scopes;
  } finally {
    await running.server.close();
    await running.sink.close();
  }
}
