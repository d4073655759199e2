/**
 * lp-conformance command line.
 *   run    run the conformance suites against a target (default: the bundled reference server)
 *   serve  start the bundled reference server
 * Exit codes: 0 every failing-level check passed; 1 a check failed; 2 usage, configuration or an
 * unreachable target, always with one line on stderr and never a stack trace.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from 'node:net';
import type { MailSink } from '../mail/sink.js';
import {
  loadProfile,
  ProfileError,
  redactor,
  resolveSecrets,
  scimVariantProfilePath,
  withMailbox,
  withScimExpectations,
  withTarget,
  type Profile,
} from '../profile/index.js';
import { applyBaseline, BaselineError, loadBaseline, writeBaseline } from '../runner/baseline.js';
import { DEFAULT_CONCURRENCY, failsRun } from '../runner/model.js';
import type { CompareServer } from '../runner/compare.js';
import { createSecrets, CredentialsError, intapiCredentialsMissing, MissingCredentialsError } from '../target/secrets.js';
import { ChromiumUnavailableError, resolveChromium } from '../browser/chromium.js';

/*
 * The heavy parts are imported where a command needs them: the runner (vitest), the reference
 * server (fastify, oidc-provider), the mail sink (smtp-server) and the reporters. Loading them all
 * took 0.8 s before the first line of any command, a bad flag's answer included.
 */
const referenceServer = () => import('../../reference-impl/index.js');
const runner = () => import('../runner/run.js');

/** A problem with how the tool was called or configured: exit 2 with this one line. */
class UsageError extends Error {}

const HELP = `lp-conformance: conformance suite for the learning platform's APIs

Usage:
  lp-conformance run [options]     run the suites (default target: the bundled reference server)
  lp-conformance baseline --out FILE [run options]
                                   run, then write the failing checks as a known-failure baseline
  lp-conformance serve [options]   start the bundled reference server
  lp-conformance openapi [options] write the profile's OpenAPI 3.1 document (YAML) to stdout
  lp-conformance cleanup --target URL [--profile FILE]
                                   delete the SCIM users and groups earlier runs left behind
                                   (names starting lpc-<run id>-; a run deletes its own when it ends)

run options:
  --target URL      base URL of the Integration API (SCIM: URL/scim/v2, learner API: URL/api/rest/v2)
  --profile FILE    target profile (YAML); default: the bundled server's profile
  --junit FILE      JUnit report path (default reports/junit.xml)
  --json FILE       also write the run as JSON (schema: reports/run.schema.json in the package)
  --markdown FILE   also write a Markdown summary (and append it to $GITHUB_STEP_SUMMARY when set)
  --html FILE       also write a self-contained HTML report (filters by status and level; no network)
  --record FILE     write every request (check, case, method, url, headers, body; secrets as \${VAR}) as JSON lines
  --seed N          run seed (default: random, printed)
  --runs N          property runs per check (default 100)
  --only PATTERN    check-id prefix or glob; repeatable or comma-separated
  --path PATH       fast-check path to replay (with --only naming one check)
  --replay-path P   fast-check commands replay path (model-based checks print it in their replay line)
  --list            list every check id, level and spec anchor, without running
  --strict          SHOULD-level failures fail the run too (the same as --fail-on should)
  --fail-on LEVEL   must (default: MUST and PROFILE failures fail the run) or should (SHOULD too)
  --baseline FILE   known failures (from lp-conformance baseline): only new failures fail the run
  --read-only       send no write (only reads, and POST /authenticate); checks that must write are skipped
  --include-slow    also run the checks that wait more than 60 s for the target (the rule-based enrollment
                    check waits up to records.ruleEnrollment.withinMs, 10 minutes by default)
  --timeout MS      deadline of one exchange, for the whole answer (default 10000)
  --concurrency N   checks in flight at once (default 8; 1 runs them one by one, in order)
  --max-rps N       at most N requests per second to the target (a 429's Retry-After is always honoured)
  --faults LIST     faults to enable in the bundled server (negative controls), comma-separated
  --scale N         bundled server: N users, resources and submissions (0..2000000; default: the seed)
  --scim-variant NAME  the bundled server's SCIM as another kind of real server (serve --list-scim-variants),
                    judged with that variant's SCIM expectations (fixtures/profiles/scim-NAME.yaml)
  --no-color        no ANSI colours in the console summary
  --no-progress     no progress on stderr (default: a live line on a terminal, else a line every 10 s)
  --compare URL     also send the same seeded requests to the server at URL (or 'bundled': the bundled
                    reference server) and report each check's first difference as compare.<check id>
  --compare-profile FILE  profile of the --compare server (default: the target's; with 'bundled' the reference)

serve options:
  --port N          port (default 8080; 0 = any free port)
  --host HOST       interface (default 127.0.0.1)
  --faults LIST     faults to enable, comma-separated (see --list-faults)
  --scale N         N users, resources and submissions (0..2000000; default: the seed data only)
  --scim-variant NAME  SCIM as another kind of real server (a legitimate configuration, not a fault)
  --list-faults     list the fault names and exit
  --list-scim-variants  list the SCIM variants, what each does, and exit

openapi options:
  --profile FILE    target profile (YAML): its paths, statuses and list parameters; default: the bundled server's
  --target URL      the document's server URL (default: the profile's Integration API base URL)

Exit codes: 0 passed, 1 a check failed, 2 usage, configuration or unreachable target.`;

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, not '${value}'`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${name} must be from ${min} to ${max}, not ${value}`);
  return n;
}

function splitList(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

async function scimVariantOf(value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const { isScimVariant, SCIM_VARIANTS } = await referenceServer();
  if (!isScimVariant(value)) throw new UsageError(`unknown SCIM variant '${value}' (${Object.keys(SCIM_VARIANTS).join(', ')})`);
  return value;
}

async function faultsOf(values: string[] | undefined): Promise<string[]> {
  const faults = splitList(values);
  if (faults.length === 0) return faults;
  const { listFaults, SCIM_FAULTS, LEARNER_FAULTS } = await referenceServer();
  const known = new Set([...listFaults(), ...Object.keys(SCIM_FAULTS), ...Object.keys(LEARNER_FAULTS)]);
  const unknown = faults.find((f) => !known.has(f));
  if (unknown) throw new UsageError(`unknown fault '${unknown}' (lp-conformance serve --list-faults lists them)`);
  return faults;
}

/** Whether `--only` can select checks of a family: no pattern, a pattern of that family, or one
 * that begins with a wildcard. */
function selectsFamily(only: readonly string[], family: string): boolean {
  return only.length === 0 || only.some((p) => p.startsWith(`${family}.`) || p === family || /^[*?[]/.test(p) || family.startsWith(p.replace(/[*?].*$/, '')));
}

/** Sandbox credentials for one bundled run: fresh random values, put where the profile names them
 * (the SCIM token too: a bearer token the bundled server accepts from the start). */
async function bundledCredentials(profile: Profile): Promise<{ apiKey: string; username: string; password: string; privateKey: string; scimToken: string }> {
  const { SANDBOX_LEARNERS, SANDBOX_OAUTH_CLIENT } = await referenceServer();
  const make = () => randomBytes(18).toString('base64url');
  const creds = { apiKey: make(), username: 'lpc.admin', password: make(), privateKey: make(), scimToken: make() };
  const c = profile.credentials;
  process.env[c.apiKey.env] = creds.apiKey;
  if (c.username) process.env[c.username.env] = creds.username;
  if (c.password) process.env[c.password.env] = creds.password;
  if (c.privateKey) process.env[c.privateKey.env] = creds.privateKey;
  const scim = profile.familyCredentials.scim;
  // The SCIM token exchange takes the sandbox username and password (DEVELOPERS.md).
  if (scim.token) process.env[scim.token.env] = creds.scimToken;
  else {
    process.env[scim.username.env] = creds.username;
    process.env[scim.password.env] = creds.password;
  }
  // The learner API's log-in: the sandbox's learner A (a department with branding).
  const learner = profile.familyCredentials.learner;
  if (learner.username) {
    process.env[learner.username.env] = SANDBOX_LEARNERS.a.username;
    process.env[learner.password.env] = SANDBOX_LEARNERS.a.password;
  }
  // The OAuth 2.0 flow: the sandbox client (its log-in is the sandbox username and password).
  process.env[profile.oauthCredentials.clientId.env] = SANDBOX_OAUTH_CLIENT.clientId;
  process.env[profile.oauthCredentials.clientSecret.env] = SANDBOX_OAUTH_CLIENT.clientSecret;
  return creds;
}

const sandboxOf = ({ scimToken: _scimToken, ...credentials }: Awaited<ReturnType<typeof bundledCredentials>>) => credentials;

/** Reachable means it accepts a connection: what it then answers (or fails to) is for the checks to judge. */
async function ensureReachable(url: string, timeoutMs: number): Promise<void> {
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  await new Promise<void>((done, failed) => {
    const socket = connect({ host, port: Number(port || (protocol === 'https:' ? 443 : 80)), timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      done();
    });
    socket.once('timeout', () => {
      socket.destroy();
      failed(new UsageError(`target ${url} is unreachable (no connection within ${timeoutMs} ms)`));
    });
    socket.once('error', (e: NodeJS.ErrnoException) => failed(new UsageError(`target ${url} is unreachable (${e.code ?? e.message})`)));
  });
}

async function run(argv: string[], command: 'run' | 'baseline' = 'run'): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      target: { type: 'string' },
      profile: { type: 'string' },
      junit: { type: 'string' },
      json: { type: 'string' },
      markdown: { type: 'string' },
      baseline: { type: 'string' },
      out: { type: 'string' },
      'fail-on': { type: 'string' },
      'read-only': { type: 'boolean' },
      'include-slow': { type: 'boolean' },
      html: { type: 'string' },
      record: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      only: { type: 'string', multiple: true },
      path: { type: 'string' },
      'replay-path': { type: 'string' },
      list: { type: 'boolean' },
      strict: { type: 'boolean' },
      timeout: { type: 'string' },
      concurrency: { type: 'string' },
      'max-rps': { type: 'string' },
      faults: { type: 'string', multiple: true },
      scale: { type: 'string' },
      'scim-variant': { type: 'string' },
      'no-color': { type: 'boolean' },
      'no-progress': { type: 'boolean' },
      compare: { type: 'string' },
      'compare-profile': { type: 'string' },
    },
  });
  const color = !values['no-color'] && process.stdout.isTTY === true && !process.env.NO_COLOR;
  if (command === 'baseline' && values.out === undefined) throw new UsageError('baseline needs --out FILE: where to write the failing checks');
  if (command === 'run' && values.out !== undefined) throw new UsageError('--out belongs to `lp-conformance baseline`');
  const failOn = values['fail-on'];
  if (failOn !== undefined && failOn !== 'must' && failOn !== 'should') throw new UsageError(`--fail-on must be must or should, not '${failOn}'`);
  if (failOn === 'must' && values.strict) throw new UsageError('--fail-on must contradicts --strict (which is --fail-on should)');
  // --fail-on should is --strict: SHOULD failures fail the run too; must (the default) says so.
  const strict = (values.strict ?? false) || failOn === 'should';
  let profile = loadProfile(values.profile);
  if (values.list) {
    const [{ listChecks }, { formatList }] = await Promise.all([runner(), import('../../reporters/console.js')]);
    process.stdout.write(`${formatList(await listChecks())}\n`);
    return 0;
  }
  const seed = integer('seed', values.seed, Math.floor(Math.random() * 2 ** 31), -(2 ** 31), 2 ** 31 - 1);
  const runs = integer('runs', values.runs, 100, 1, 1_000_000);
  const timeoutMs = integer('timeout', values.timeout, 10_000, 1, 3_600_000);
  const concurrency = integer('concurrency', values.concurrency, DEFAULT_CONCURRENCY, 1, 256);
  const maxRps = values['max-rps'] === undefined ? undefined : integer('max-rps', values['max-rps'], 0, 1, 100_000);
  const only = splitList(values.only);
  if (values.path && only.length !== 1) throw new UsageError('--path replays one check: give exactly one --only');
  if (values.path && !/^\d+(:\d+)*$/.test(values.path)) throw new UsageError(`--path must look like 4:1:0, not '${values.path}'`);
  const faults = await faultsOf(values.faults);
  const bundled = values.target === undefined && values.profile === undefined;
  if (faults.length > 0 && !bundled) throw new UsageError('--faults applies to the bundled reference server only (no --target/--profile)');
  if (values.scale !== undefined && !bundled) throw new UsageError('--scale applies to the bundled reference server only (no --target/--profile)');
  const scimVariant = await scimVariantOf(values['scim-variant']);
  if (scimVariant !== undefined && !bundled) throw new UsageError('--scim-variant applies to the bundled reference server only (no --target/--profile)');
  if (scimVariant !== undefined) profile = withScimExpectations(profile, loadProfile(scimVariantProfilePath(scimVariant)));
  const reference = bundled ? await referenceServer() : undefined;
  const scale = integer('scale', values.scale, 0, 0, reference?.MAX_SCALE ?? 0);
  if (values.target !== undefined) {
    let url: URL;
    try {
      url = new URL(values.target);
    } catch {
      throw new UsageError(`--target must be an http(s) URL, not '${values.target}'`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target must be an http(s) URL, not '${values.target}'`);
    profile = withTarget(profile, values.target);
  }
  if (values['compare-profile'] !== undefined && values.compare === undefined) throw new UsageError('--compare-profile needs --compare');
  if (values.compare !== undefined && values.compare !== 'bundled' && !/^https?:\/\/[^/?#\s]+/.test(values.compare)) {
    throw new UsageError(`--compare must be an http(s) URL or 'bundled', not '${values.compare}'`);
  }

  const { listChecks, runSuites } = await runner();
  // A baseline is configuration: read and checked before any server is contacted.
  const baseline = values.baseline === undefined ? undefined : loadBaseline(resolve(values.baseline), new Set((await listChecks()).map((c) => c.id)));
  // The bundled server's new ids follow the run seed, so a seeded run repeats exactly.
  const credentials = bundled ? await bundledCredentials(profile) : undefined;
  // The bundled server's mail goes to a local SMTP sink whose Mailpit-style API the mail checks read.
  const sink: MailSink | undefined = credentials && selectsFamily(only, 'intapi') ? await (await import('../mail/sink.js')).startMailSink() : undefined;
  if (sink) profile = withMailbox(profile, sink.api);
  const server =
    credentials && reference
      ? reference.createReferenceServer({
          credentials: sandboxOf(credentials),
          scimToken: credentials.scimToken,
          faults,
          ...(scimVariant ? { scimVariant } : {}),
          ids: reference.seededIds(seed),
          ruleBatchMs: reference.BUNDLED_RULE_BATCH_MS,
          scale,
          ...(sink ? { smtp: sink.smtp } : {}),
        })
      : undefined;
  let comparing: CompareServer | undefined;
  try {
    if (server) profile = withTarget(profile, await server.listen({ port: 0, host: '127.0.0.1' }));
    else await ensureReachable(profile.families.intapi.baseUrl, Math.min(timeoutMs, 10_000));
    // Authenticate once before the run: refused credentials are a configuration error (exit 2), not
    // hundreds of failed checks. A target that does not answer is left to the checks to judge.
    // A run of other families' checks only (`--only 'scim.*'` against a SCIM server) needs neither
    // the Integration API's credentials nor its log-in.
    // The player checks need a browser: none is a configuration error (exit 2, one line saying how
    // to get one), not a run of skipped checks.
    if (selectsFamily(only, 'player') && profile.player !== 'none') {
      try {
        await resolveChromium();
      } catch (error) {
        if (error instanceof ChromiumUnavailableError) throw new UsageError(`the player checks need a browser: ${error.message}`);
        throw error;
      }
    }
    if (selectsFamily(only, 'intapi')) {
      const missing = intapiCredentialsMissing(profile);
      if (missing) throw new CredentialsError(missing);
      try {
        await createSecrets(profile, timeoutMs).token();
      } catch (error) {
        if (error instanceof CredentialsError) throw error;
        process.stderr.write(
          `lp-conformance: warning: authentication did not complete (${(error as { code?: string }).code ?? String(error)}); the checks will say more\n`,
        );
      }
    }
    const compare = values.compare === undefined ? undefined : await import('../runner/compare.js');
    if (values.compare !== undefined && compare) {
      const compareProfile = values['compare-profile'] !== undefined || values.compare === 'bundled' ? loadProfile(values['compare-profile']) : profile;
      comparing = await compare.compareServer(values.compare, {
        profile: compareProfile,
        seed,
        ...(values.compare === 'bundled' && credentials ? { credentials, scale } : {}),
        ...(values.compare === 'bundled' && profile.mailbox ? { mail: true } : {}),
      });
      if (values.compare !== 'bundled') await ensureReachable(comparing.profile.families.intapi.baseUrl, Math.min(timeoutMs, 10_000));
      await createSecrets(comparing.profile, timeoutMs)
        .token()
        .catch((error: unknown) => {
          if (error instanceof CredentialsError) throw new CredentialsError(`--compare server: ${error.message}`);
          process.stderr.write(
            `lp-conformance: warning: authentication with the --compare server did not complete (${(error as { code?: string }).code ?? String(error)})\n`,
          );
        });
    }

    // --runs too: a run's count shows in verdicts (coverage), and a replay repeats the run.
    const replayBase = [
      'lp-conformance run',
      values.target ? `--target ${values.target}` : '',
      values.profile ? `--profile ${values.profile}` : '',
      faults.length ? `--faults ${faults.join(',')}` : '',
      scale ? `--scale ${scale}` : '',
      scimVariant ? `--scim-variant ${scimVariant}` : '',
      values.runs !== undefined ? `--runs ${runs}` : '',
      values['include-slow'] ? '--include-slow' : '',
      values.compare ? `--compare ${values.compare}` : '',
      values['compare-profile'] ? `--compare-profile ${values['compare-profile']}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const replay = { ...(values.path ? { path: values.path } : {}), ...(values['replay-path'] ? { replayPath: values['replay-path'] } : {}) };
    const record = values.record === undefined ? undefined : resolve(values.record);
    if (record) {
      mkdirSync(dirname(record), { recursive: true });
      writeFileSync(record, '');
    }
    const runOptions = {
      profile,
      seed,
      runs,
      only,
      ...replay,
      replayBase,
      timeoutMs,
      concurrency,
      ...(maxRps ? { maxRps } : {}),
      ...(record ? { record } : {}),
      ...(values['no-progress'] ? {} : { progress: process.stderr }),
      ...(values['read-only'] ? { readOnly: true } : {}),
      ...(values['include-slow'] ? { includeSlow: true } : {}),
    };
    // Ctrl-C: no further check starts, the records the run created are deleted, then exit 130;
    // a second Ctrl-C stops at once.
    const interrupted = new AbortController();
    const onInterrupt = (): void => {
      process.stderr.write('lp-conformance: interrupted; stopping the checks and deleting what the run created (Ctrl-C again to quit at once)\n');
      interrupted.abort();
      process.once('SIGINT', () => process.exit(130));
    };
    process.once('SIGINT', onInterrupt);
    let ran;
    try {
      ran =
        comparing && compare
          ? await compare.runCompare({ ...runOptions, compareProfile: comparing.profile })
          : await runSuites({ ...runOptions, signal: interrupted.signal });
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
    if (interrupted.signal.aborted) {
      const c = ran.cleanup;
      process.stderr.write(
        `lp-conformance: interrupted${c ? `; deleted ${c.deleted + c.gone} of the records the run created${c.failed.length > 0 ? `, ${c.failed.length} left (lp-conformance cleanup)` : ''}` : ''}\n`,
      );
      return 130;
    }
    const result = baseline ? applyBaseline(ran, baseline) : ran;
    if (result.checks.length === 0) throw new UsageError(`--only ${only.join(',')} selects no check (lp-conformance run --list shows them)`);
    const junit = resolve(values.junit ?? 'reports/junit.xml');
    mkdirSync(dirname(junit), { recursive: true });
    // Failure texts are redacted where they are made; the reporters redact again as defence in depth.
    const redact = redactor(resolveSecrets(profile).values);
    const [{ writeJUnit }, { formatSummary }] = await Promise.all([import('../../reporters/junit.js'), import('../../reporters/console.js')]);
    writeJUnit(result, junit, { strict, redact });
    if (values.json) {
      const json = resolve(values.json);
      mkdirSync(dirname(json), { recursive: true });
      writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
    }
    const markdown =
      values.markdown !== undefined || process.env.GITHUB_STEP_SUMMARY
        ? (await import('../../reporters/markdown.js')).renderMarkdown(result, { strict, redact })
        : '';
    if (values.markdown !== undefined) {
      const file = resolve(values.markdown);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, markdown);
    }
    // GitHub Actions' job summary: appended, as other steps may write to it too.
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);
    if (values.html !== undefined) {
      const file = resolve(values.html);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, (await import('../../reporters/html.js')).renderHtml(result, { strict, redact }));
    }
    process.stdout.write(`${formatSummary(result, { color, strict, redact })}\nJUnit report: ${junit}\n`);
    if (command === 'baseline') {
      const out = resolve(values.out ?? '');
      mkdirSync(dirname(out), { recursive: true });
      const n = writeBaseline(result, out);
      process.stdout.write(`Baseline: ${n} failing check${n === 1 ? '' : 's'} written to ${out}; give each a reason.\n`);
      return 0;
    }
    return result.checks.some((c) => c.status === 'failed' && failsRun(c.level, strict) && !c.known) ? 1 : 0;
  } finally {
    await comparing?.close();
    await server?.close();
    await sink?.close();
  }
}

/** `lp-conformance cleanup`: deletes the SCIM users and groups of earlier runs (run markers). */
async function cleanup(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: { target: { type: 'string' }, profile: { type: 'string' }, timeout: { type: 'string' } },
  });
  if (values.target === undefined && values.profile === undefined) throw new UsageError('cleanup needs --target URL (or --profile FILE naming the target)');
  const timeoutMs = integer('timeout', values.timeout, 10_000, 1, 3_600_000);
  let profile = loadProfile(values.profile);
  if (values.target !== undefined) profile = withTarget(profile, values.target);
  await ensureReachable(profile.families.scim.baseUrl, Math.min(timeoutMs, 10_000));
  const { deleteRecords, findLeftovers } = await import('../runner/cleanup.js');
  let found;
  try {
    found = await findLeftovers(profile, timeoutMs);
  } catch (error) {
    if (error instanceof MissingCredentialsError) throw new UsageError(`cleanup: the SCIM credentials are missing (${error.message})`);
    throw new UsageError(`cleanup: cannot list the SCIM records (${redactor(resolveSecrets(profile).values)((error as Error).message)})`);
  }
  const outcome = await deleteRecords(profile, found, timeoutMs);
  process.stdout.write(
    `lp-conformance cleanup: ${found.length} record${found.length === 1 ? '' : 's'} of earlier runs found, ${outcome.deleted} deleted` +
      `${outcome.gone > 0 ? `, ${outcome.gone} already gone` : ''}${outcome.failed.length > 0 ? `, ${outcome.failed.length} not deleted: ${outcome.failed[0]}` : ''}\n`,
  );
  return outcome.failed.length > 0 ? 1 : 0;
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      faults: { type: 'string', multiple: true },
      scale: { type: 'string' },
      'scim-variant': { type: 'string' },
      'list-faults': { type: 'boolean' },
      'list-scim-variants': { type: 'boolean' },
    },
  });
  const { createReferenceServer, LEARNER_FAULTS, listFaults, MAX_SCALE, SCIM_FAULTS, SCIM_VARIANTS } = await referenceServer();
  if (values['list-faults']) {
    process.stdout.write(`${[...listFaults(), ...Object.keys(SCIM_FAULTS), ...Object.keys(LEARNER_FAULTS)].join('\n')}\n`);
    return 0;
  }
  if (values['list-scim-variants']) {
    process.stdout.write(
      `${Object.entries(SCIM_VARIANTS)
        .map(([name, v]) => `${name}  ${v.description}`)
        .join('\n')}\n`,
    );
    return 0;
  }
  const scimVariant = await scimVariantOf(values['scim-variant']);
  const port = integer('port', values.port, 8080, 0, 65535);
  const host = values.host ?? '127.0.0.1';
  const env = process.env;
  const server = createReferenceServer({
    faults: await faultsOf(values.faults),
    scale: integer('scale', values.scale, 0, 0, MAX_SCALE),
    ...(scimVariant ? { scimVariant } : {}),
    ...(env.LPC_API_KEY && env.LPC_USERNAME && env.LPC_PASSWORD && env.LPC_PRIVATE_KEY
      ? { credentials: { apiKey: env.LPC_API_KEY, username: env.LPC_USERNAME, password: env.LPC_PASSWORD, privateKey: env.LPC_PRIVATE_KEY } }
      : {}),
  });
  let url: string;
  try {
    url = await server.listen({ port, host });
  } catch (error) {
    throw new UsageError(`cannot listen on ${host}:${port} (${(error as { code?: string }).code ?? String(error)})`);
  }
  process.stdout.write(`listening on ${url}\n`);
  await new Promise<void>((done) => {
    const stop = () => void server.close().then(done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await run(rest);
      case 'baseline':
        return await run(rest, 'baseline');
      case 'serve':
        return await serve(rest);
      case 'openapi':
        return (await import('./openapi.js')).openapiCommand(rest);
      case 'cleanup':
        return await cleanup(rest);
      case '--version':
      case '-v':
        process.stdout.write('lp-conformance 0.1.0\n');
        return 0;
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(`${HELP}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${command}' (run, baseline, serve, openapi or cleanup; --help shows the options)`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ProfileError || error instanceof CredentialsError || error instanceof BaselineError) {
      process.stderr.write(`lp-conformance: ${error.message}\n`);
      return 2;
    }
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`lp-conformance: ${(error as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    process.stderr.write(`lp-conformance: internal error: ${(error as Error).message?.split('\n')[0] ?? String(error)}\n`);
    return 2;
  }
}
