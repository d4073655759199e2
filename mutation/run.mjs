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
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { globSync } from 'tinyglobby';

const EXCLUDED_MUTATIONS = ['StringLiteral', 'ObjectLiteral'];
const USAGE = 'usage: npm run mutation -- [--family NAME]... [--files GLOB]... [--sample N] [--seed S] [--concurrency N] [--config FILE] [--out DIR]';

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
const equivalents = readEquivalents(join(root, config.equivalents ?? 'mutation/equivalent.json'));

const names = args.family ?? Object.keys(config.families);
for (const name of names) if (!config.families[name]) fail(`no family "${name}" (${Object.keys(config.families).join(', ')})`);
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
  summary.families.push({ family: name, ...tally(report, root) });
}
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(table(summary));

/** mutation/equivalent.json: the survivors that change nothing a client can observe. */
function readEquivalents(path) {
  if (!existsSync(path)) return [];
  const list = JSON.parse(readFileSync(path, 'utf8'));
  for (const [i, e] of list.entries()) {
    for (const key of ['file', 'mutator', 'original', 'replacement', 'reason']) {
      if (typeof e[key] !== 'string' || e[key] === '') fail(`${relative(process.cwd(), path)}[${i}] has no ${key}`);
    }
    if (e.within !== undefined && (typeof e.within !== 'string' || !squash(e.within).includes(squash(e.original))))
      fail(`${relative(process.cwd(), path)}[${i}]: within must be code that holds the original`);
  }
  return list;
}

/** Code compared without its layout: Stryker prints a replacement with its own spacing. */
function squash(code) {
  return code.replace(/\s+/g, '');
}

function originalText(source, location) {
  const lines = source.split('\n');
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
}

/** The whole source lines a mutant sits on. */
function linesOf(source, location) {
  return source
    .split('\n')
    .slice(location.start.line - 1, location.end.line)
    .join('\n');
}

/** An entry matches a mutant by its file, mutator, original and replacement; with `within`, only a
 * mutant whose lines hold that code too (the same code elsewhere in the file is another place). */
function isEquivalent(file, mutant, source) {
  const original = squash(originalText(source, mutant.location));
  return equivalents.some(
    (e) =>
      e.file === file &&
      e.mutator === mutant.mutatorName &&
      squash(e.original) === original &&
      squash(e.replacement) === squash(mutant.replacement) &&
      (e.within === undefined || squash(linesOf(source, mutant.location)).includes(squash(e.within))),
  );
}

/** Counts per file of Stryker's JSON report (mutation-testing-report-schema). */
function tally(report, base) {
  const files = [];
  for (const [path, file] of Object.entries(report.files)) {
    const rel = relative(base, resolve(base, path)).split('\\').join('/');
    const row = { file: rel, mutants: 0, killed: 0, survived: 0, timedOut: 0, equivalent: 0, invalid: 0, listedButKilled: [], survivors: [] };
    for (const m of file.mutants) {
      if (m.status === 'Ignored') continue;
      row.mutants += 1;
      const equivalent = isEquivalent(rel, m, file.source);
      if (m.status === 'Killed') {
        row.killed += 1;
        if (equivalent) row.listedButKilled.push(describe(m, file.source));
      } else if (m.status === 'Timeout') row.timedOut += 1;
      else if (m.status === 'Survived' || m.status === 'NoCoverage') {
        if (equivalent) row.equivalent += 1;
        else {
          row.survived += 1;
          row.survivors.push(describe(m, file.source));
        }
      } else row.invalid += 1;
    }
    row.score = score(row);
    files.push(row);
  }
  files.sort((a, b) => a.file.localeCompare(b.file));
  const total = { mutants: 0, killed: 0, survived: 0, timedOut: 0, equivalent: 0, invalid: 0 };
  for (const row of files) for (const key of Object.keys(total)) total[key] += row[key];
  return { files, total: { ...total, score: score(total) } };
}

function describe(m, source) {
  return { line: m.location.start.line, mutator: m.mutatorName, original: originalText(source, m.location), replacement: m.replacement };
}

/** Killed and timed out over the mutants judged that are not equivalent; null when there are none. */
function score({ killed, timedOut, survived }) {
  const judged = killed + timedOut + survived;
  return judged === 0 ? null : Math.round((1000 * (killed + timedOut)) / judged) / 10;
}

function table({ families }) {
  const lines = ['', '| family | file | mutants | killed | survived | timed out | equivalent | score |', '|---|---|---|---|---|---|---|---|'];
  const cells = (family, file, r) =>
    `| ${family} | ${file} | ${r.mutants} | ${r.killed} | ${r.survived} | ${r.timedOut} | ${r.equivalent} | ${r.score === null ? '-' : `${r.score} %`} |`;
  for (const f of families) {
    for (const row of f.files) if (row.mutants) lines.push(cells(f.family, `\`${row.file}\``, row));
    lines.push(cells(`**${f.family}**`, 'all', f.total));
  }
  for (const f of families) {
    for (const row of f.files) {
      for (const m of row.listedButKilled) lines.push(`listed as equivalent but killed: ${row.file}:${m.line} ${m.mutator} ${m.replacement}`);
    }
  }
  lines.push('', 'score: (killed + timed out) / (killed + timed out + survived); equivalents (mutation/equivalent.json) counted apart.', '');
  return `${lines.join('\n')}\n`;
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
