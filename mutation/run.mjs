// `npm run mutation -- [--family NAME] [--files GLOB] [--sample N] [--seed S] [--concurrency N]`:
// StrykerJS (its command runner) mutates the reference server's code and judges each family's mutants
// by that family's checks against the bundled server (mutation/families.json). One sandbox build holds
// every mutant behind its switch; each mutant is one run of the checks with that mutant switched on.
//
// --sample N keeps a seeded sample of at most N mutants per family: the mutants are listed first with
// Stryker's own instrumenter, shuffled by the seed, and each kept one is given to Stryker as the range
// of its node (a range holds the mutants of the nodes inside it too, so those are counted in N).
//
// Survivors listed in mutation/equivalent.json (file, mutator, original, replacement, reason, and
// optionally within: code of the lines the mutant sits on, where the same code is found twice) are
// counted apart: they change nothing a client can observe. The score is killed and timed out over the
// mutants that are not equivalent. Stryker writes its JSON and HTML reports per family under the
// output directory; the table per family and per file goes to stdout (and summary.json).
// --tally DIR counts the reports an earlier run left under DIR again, with the list as it is now
// (mutation/tally.mjs), without running a mutant.
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { globSync } from 'tinyglobby';
import { readEquivalents, table, tally } from './tally.mjs';

const EXCLUDED_MUTATIONS = ['StringLiteral', 'ObjectLiteral'];
const USAGE =
  'usage: npm run mutation -- [--family NAME]... [--files GLOB]... [--sample N] [--seed S] [--concurrency N] [--config FILE] [--out DIR]\n' +
  '       npm run mutation -- --tally DIR [--family NAME]... [--config FILE]   (count the reports under DIR again)';

/** One line on stderr and exit 2: a set-up mistake. */
function fail(message) {
  process.stderr.write(`mutation: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      family: { type: 'string', multiple: true },
      files: { type: 'string', multiple: true },
      sample: { type: 'string' },
      seed: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '1' },
      config: { type: 'string', default: 'mutation/families.json' },
      out: { type: 'string' },
      tally: { type: 'string' },
      help: { type: 'boolean' },
    },
  }).values;
} catch (error) {
  fail(error.message);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const positive = (name, text) => {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(text)) fail(`--${name} takes a positive whole number, not "${text}"`);
  return Number(text);
};
const sample = positive('sample', args.sample);
const seed = positive('seed', args.seed);
const concurrency = positive('concurrency', args.concurrency);

const configPath = resolve(args.config);
if (!existsSync(configPath)) fail(`no configuration at ${args.config}`);
const config = JSON.parse(readFileSync(configPath, 'utf8'));
// The project the configuration describes: the repository for mutation/families.json.
const root = resolve(dirname(configPath), config.root ?? '..');
const out = resolve(args.out ?? join(root, config.out ?? 'reports/mutation'));
let equivalents;
try {
  equivalents = readEquivalents(join(root, config.equivalents ?? 'mutation/equivalent.json'));
} catch (error) {
  fail(error.message);
}

const names = args.family ?? Object.keys(config.families);
for (const name of names) if (!config.families[name]) fail(`no family "${name}" (${Object.keys(config.families).join(', ')})`);
if (args.tally !== undefined) {
  process.stdout.write(table(retally(resolve(args.tally), names)));
  process.exit(0);
}
const familyFiles = Object.fromEntries(Object.entries(config.families).map(([name, family]) => [name, globSync(family.files, { cwd: root }).sort()]));

/** The files each selected family mutates: its own globs, or the --files among them. */
const plan = [];
if (args.files) {
  const chosen = globSync(args.files, { cwd: root }).sort();
  if (chosen.length === 0) fail(`--files ${args.files.join(' ')} matches no file`);
  for (const name of names) {
    const files = chosen.filter((f) => familyFiles[name].includes(f));
    if (files.length) plan.push({ name, files });
  }
  const orphans = chosen.filter((f) => !plan.some((p) => p.files.includes(f)));
  if (orphans.length) fail(`${orphans[0]} belongs to none of the families ${names.join(', ')}`);
} else {
  for (const name of names) plan.push({ name, files: familyFiles[name] });
}

const require = createRequire(import.meta.url);
const strykerBin = join(dirname(require.resolve('@stryker-mutator/core/package.json')), 'bin', 'stryker.js');

const summary = { seed, sample: sample ?? null, families: [] };
for (const { name, files } of plan) {
  const family = config.families[name];
  const mutate = sample === undefined ? files : await sampledRanges(files, sample, seed);
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const strykerConfig = {
    $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    testRunner: 'command',
    commandRunner: { command: family.command },
    buildCommand: config.build,
    mutate,
    mutator: { excludedMutations: EXCLUDED_MUTATIONS },
    coverageAnalysis: 'off',
    concurrency,
    reporters: ['json', 'html', 'progress'],
    jsonReporter: { fileName: join(dir, 'mutation.json') },
    htmlReporter: { fileName: join(dir, 'mutation.html') },
    ignorePatterns: ['dist', 'reports', '.stryker-tmp', 'bench', 'docs', ...(config.ignorePatterns ?? [])],
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
    timeoutFactor: 2,
    timeoutMS: 20000,
    disableBail: true,
    thresholds: { high: 90, low: 80, break: null },
  };
  const configFile = join(dir, 'stryker.config.json');
  writeFileSync(configFile, `${JSON.stringify(strykerConfig, null, 2)}\n`);
  process.stderr.write(`mutation: ${name}: ${mutate.length} ${sample === undefined ? 'files' : 'ranges'}, concurrency ${concurrency}\n`);
  const stryker = spawnSync(process.execPath, [strykerBin, 'run', configFile], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (stryker.status !== 0 || !existsSync(strykerConfig.jsonReporter.fileName)) {
    process.stderr.write(`mutation: Stryker ended with exit code ${stryker.status} for ${name}\n`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(strykerConfig.jsonReporter.fileName, 'utf8'));
  summary.families.push({ family: name, ...tally(report, root, equivalents) });
}
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(table(summary));

/**
 * --tally DIR: the Stryker reports an earlier run left under DIR (DIR/<family>/mutation.json), counted
 * with the equivalents as they are now. A report holds the source its mutants were made from, so the
 * count does not depend on the code checked out.
 */
function retally(dir, families) {
  const summary = { families: [] };
  for (const name of families) {
    const file = join(dir, name, 'mutation.json');
    if (existsSync(file)) summary.families.push({ family: name, ...tally(JSON.parse(readFileSync(file, 'utf8')), root, equivalents) });
  }
  if (summary.families.length === 0) fail(`--tally ${dir}: no ${families.map((n) => `${n}/mutation.json`).join(', ')} there`);
  return summary;
}

/**
 * A seeded sample of at most n mutants of the files, as Stryker mutate ranges
 * (`file:line:column-line:column`, lines from 1, columns from 0 as Stryker's ranges read them).
 */
async function sampledRanges(files, n, seedValue) {
  const logger = {
    isDebugEnabled: () => false,
    isTraceEnabled: () => false,
    isInfoEnabled: () => false,
    debug() {},
    trace() {},
    info() {},
    warn() {},
    error() {},
    fatal() {},
  };
  const inputs = files.map((name) => ({ name, content: readFileSync(join(root, name), 'utf8'), mutate: true }));
  const { mutants } = await new Instrumenter(logger).instrument(inputs, {
    plugins: null,
    excludedMutations: EXCLUDED_MUTATIONS,
    ignorers: [],
  });
  const all = mutants.filter((m) => m.status === undefined).map((m) => ({ file: m.fileName, loc: m.location }));
  const inside = (outer, inner) => outer.file === inner.file && before(outer.loc.start, inner.loc.start) && before(inner.loc.end, outer.loc.end);
  const order = shuffle(
    all.map((_, i) => i),
    seedValue,
  );
  const taken = new Set();
  const ranges = [];
  for (const i of order) {
    if (taken.has(i)) continue;
    const held = all.flatMap((m, j) => (inside(all[i], m) && !taken.has(j) ? [j] : []));
    if (taken.size + held.length > n) continue;
    for (const j of held) taken.add(j);
    const { start, end } = all[i].loc;
    ranges.push(`${all[i].file}:${start.line + 1}:${start.column}-${end.line + 1}:${end.column}`);
    if (taken.size === n) break;
  }
  return ranges.sort();
}

function before(a, b) {
  return a.line < b.line || (a.line === b.line && a.column <= b.column);
}

/** Fisher-Yates with mulberry32: the same seed, the same sample. */
function shuffle(items, seedValue) {
  let state = seedValue >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
