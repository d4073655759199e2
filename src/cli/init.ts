/**
 * `lp-conformance init --target URL [--out FILE]`: from a URL to a working profile. Each family's
 * registration finds its part (`init`): the records its checks read, through its API's own list and
 * get operations, and the choices its profile part declares, probed with reads (writes only with
 * `--probe-writes`, named with a run marker and reported). This module runs them in registration
 * order and writes one commented profile (src/profile/write.ts): every value with how it was found,
 * every value not found commented out with why, so that the checks needing it are skipped by name.
 * The profile written is loaded back before it is written: init never writes one `run` refuses.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { SetupError, type InitContext, type InitFound, type InitPart } from '../families/family.js';
import { FAMILIES, OPERATION_IDS, OPERATIONS } from '../families/registry.js';
import { baseUrlOf, familyAbsence, loadProfile, parseProfile, PROFILE_SCHEMA, ProfileError, withTarget, type Profile } from '../profile/index.js';
import { commentedProfile } from '../profile/write.js';
import { newRunId, runMarker } from '../runner/base/marker.js';
import { toolClient } from '../target/client.js';
import { CredentialsError, MissingCredentialsError } from '../target/base/errors.js';
import { createSecrets } from '../target/secrets.js';
import { tlsConfigOf, useTls } from '../target/tls.js';
import { checkOutputs, helpAsked, INIT, parseCommand } from './args.js';
import { tool } from './invocation.js';

/** The profile init starts from without `--profile`: every default, no record. */
const DEFAULTS = 'name: init\n';

/** Why a session cannot be had, in one line without secrets. */
function problemOf(error: unknown, redact: (text: string) => string): string {
  if (error instanceof MissingCredentialsError) return error.message;
  if (error instanceof CredentialsError) return redact(error.message);
  const code = (error as { code?: string }).code;
  return redact(typeof code === 'string' ? code : String((error as Error).message ?? error));
}

/** What the given profile document says at `path`, if anything. */
function given(doc: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined), doc);
}

/** The families' base URLs: found, derived, or absent (`none`). */
function familyPlaces(profile: Profile, parts: ReadonlyMap<string, InitPart>): InitFound[] {
  return FAMILIES.flatMap((f): InitFound[] => {
    const at = f.profile.baseUrl;
    if (!at) return [];
    const part = parts.get(f.name);
    if (part?.absent !== undefined) return [{ path: ['families', f.name], value: 'none', how: part.absent }];
    const how = part?.where ?? ('at' in at ? 'the target URL (--target)' : `the target URL + ${at.suffix} (the default)`);
    return [{ path: ['families', f.name, 'baseUrl'], value: baseUrlOf(profile, f.name), how }];
  });
}

/** What init works from, validated: the options, the profile it starts from aimed at the target. */
interface InitSettings {
  readonly values: ReturnType<typeof parseCommand<typeof INIT>>['values'];
  readonly timeoutMs: number;
  readonly out: string | undefined;
  readonly profile: Profile;
  readonly target: string;
  readonly probeWrites: boolean;
  /** Where the given profile came from, for the comments (`from --profile FILE`). */
  readonly from: string | undefined;
  /** The given profile as written. */
  readonly document: unknown;
}

/** Validate: the options and the profile init starts from (undefined: `--help` was answered). */
function initSettings(argv: string[]): InitSettings | undefined {
  const { values, help } = parseCommand(INIT, argv);
  if (helpAsked(INIT, help)) return undefined;
  if (values.target === undefined && values.profile === undefined)
    throw new SetupError('init needs --target URL: the server to read (or --profile FILE naming it)');
  useTls(tlsConfigOf(values));
  checkOutputs(INIT, values);
  const out = values.out === undefined ? undefined : resolve(values.out);
  if (out && existsSync(out) && !values.force) throw new SetupError(`${values.out} exists: give another --out, or --force to replace it`);
  let profile = values.profile === undefined ? parseProfile(DEFAULTS, 'the defaults') : loadProfile(values.profile);
  if (values.target !== undefined) profile = withTarget(profile, values.target);
  return {
    values,
    timeoutMs: values.timeout ?? 10_000,
    out,
    profile,
    target: baseUrlOf(profile, FAMILIES.find((f) => f.profile.baseUrl && 'at' in f.profile.baseUrl)?.name ?? ''),
    probeWrites: values['probe-writes'] ?? false,
    from: values.profile === undefined ? undefined : `from --profile ${values.profile}`,
    document: values.profile === undefined ? undefined : parse(readFileSync(values.profile, 'utf8')),
  };
}

/** Probe: each family's init in registration order, with what it is handed; what each found. */
async function probeFamilies(settings: InitSettings): Promise<{ parts: Map<string, InitPart>; created: string[]; sent: number }> {
  const { profile, probeWrites, from, timeoutMs } = settings;
  const secrets = createSecrets(profile, timeoutMs);
  const client = toolClient(profile, secrets, { timeoutMs, writes: probeWrites, purpose: 'lpc.init' });
  const marker = runMarker(newRunId());
  const created: string[] = [];
  const parts = new Map<string, InitPart>();
  for (const family of FAMILIES) {
    if (!family.init) continue;
    if (familyAbsence(profile, family.name) !== undefined) {
      parts.set(family.name, { found: [], missing: [], absent: `the target has no such API (${from ?? 'the profile'})` });
      continue;
    }
    const ctx: InitContext = {
      profile,
      probeWrites,
      marker,
      send: (req) => client.send(req),
      get: (url) => client.get(url),
      async sessionProblem(name = family.name) {
        try {
          await secrets.token(name);
          return undefined;
        } catch (error) {
          return problemOf(error, (text) => secrets.redact(text));
        }
      },
      token: (name) => secrets.token(name),
      isSet: (ref) => (secrets.valueOf(ref) ?? '') !== '',
      created: (what) => void created.push(what),
      part: (name) => parts.get(name),
    };
    parts.set(family.name, await family.init(ctx));
  }
  return { parts, created, sent: client.sent };
}

/** Build: the profile's parts, the core's (name, base URLs), each family's (with what the given
 * profile names and init could not find kept, saying so), and the operations the given profile moved. */
function profileParts(settings: InitSettings, parts: ReadonlyMap<string, InitPart>): InitPart[] {
  const { values, profile, target, from, document } = settings;
  const core = {
    found: [
      { path: ['name'], value: values.name ?? new URL(target).host, how: 'the name the reports give the target (--name)' },
      ...familyPlaces(profile, parts),
    ],
    missing: [],
  };
  const written = [...parts.values()].map((part) => {
    const kept = part.missing.flatMap((m): InitFound[] => {
      const mine = given(document, m.path);
      return mine !== undefined && !m.defaults ? [{ path: m.path, value: mine, how: `${from ?? ''}; init did not find one: ${m.why}` }] : [];
    });
    return { found: [...part.found, ...kept], missing: part.missing.filter((m) => !kept.some((k) => k.path === m.path)) };
  });
  const operations = OPERATION_IDS.flatMap((id): InitFound[] => {
    const route = profile.operations[id];
    return route.method !== OPERATIONS[id].method || route.path !== OPERATIONS[id].path
      ? [{ path: ['operations', id], value: { ...route }, how: from ?? '' }]
      : [];
  });
  return [core, ...written, { found: operations, missing: [] }];
}

/** Write: the commented profile, loaded back first (init never writes one `run` refuses), and the summary line. */
function writeProfile(settings: InitSettings, all: readonly InitPart[], probed: { created: readonly string[]; sent: number }): void {
  const { values, out, target } = settings;
  const { created } = probed;
  const found = all.flatMap((p) => p.found);
  const missing = all.flatMap((p) => p.missing);
  const sent = `${probed.sent} request${probed.sent === 1 ? '' : 's'}`;
  const notFound = missing.filter((m) => !m.defaults);
  const header = [
    `Target profile of ${target}, written by \`lp-conformance init\` on ${new Date().toISOString().slice(0, 19)}Z.`,
    'Each value says how init found it. What init could not find is commented out with the reason: the checks that need it are skipped, naming it; fill it in to run them. Expectations init did not probe are commented out with their default, which applies.',
    'Run it:',
    `  ${tool()} run --target ${target} --profile ${values.out ?? 'FILE'} --check-profile`,
    created.length === 0
      ? `init sent ${sent}: reads only (GET), and the token exchanges.`
      : `init sent ${sent}, writes included (--probe-writes); it created: ${created.join('; ')}.`,
  ];
  const text = commentedProfile(header, all, Object.keys(PROFILE_SCHEMA.properties));
  try {
    parseProfile(text, out ?? 'the profile init wrote');
  } catch (error) {
    if (error instanceof ProfileError) throw new Error(`init wrote a profile that does not load (${error.message}): an error of the tool`);
    throw error;
  }
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
  } else process.stdout.write(text);
  const summary = [
    `lp-conformance init: ${out ? `wrote ${values.out}` : 'wrote the profile to stdout'}: ${found.length} values found`,
    `${notFound.length} not found${notFound.length > 0 ? ` (${notFound.map((m) => m.path.join('.')).join(', ')}: commented out, their checks are skipped)` : ''}`,
    `${missing.length - notFound.length} expectations left at their defaults; ${sent}${created.length === 0 ? ', reads only' : `; created: ${created.join('; ')}`}`,
  ];
  process.stderr.write(`${summary.join(', ')}\n`);
}

export async function initCommand(argv: string[]): Promise<number> {
  const settings = initSettings(argv);
  if (settings === undefined) return 0;
  const probed = await probeFamilies(settings);
  writeProfile(settings, profileParts(settings, probed.parts), probed);
  return 0;
}
