#!/usr/bin/env node
// `npm run bench`: the tool's speed. Every figure is measured in a Node process of its own
// (bench/figures.js), started with the caller's environment less every `LPC_` variable: no
// credential, module state or dispatcher of one figure reaches the next. A figure whose process fails
// or says nothing is reported as not met, with the reason; the bench never stops on it.
//
// Prints one table (figure, value, target, met) and writes every figure as JSON to
// reports/bench.json (or `--json FILE`). Exit 0 when every figure with a target meets it.
//
//   node bench/run.js                 every figure
//   node bench/run.js replay latency  only these groups (default, replay, workers, shard, latency,
//                                     scale-1e5, scale-1e6, soak)
//   node bench/run.js --json FILE     the JSON file elsewhere
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const GROUPS = ['default', 'replay', 'workers', 'shard', 'latency', 'scale-1e5', 'scale-1e6', 'soak'];

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = resolve(jsonAt >= 0 ? (args[jsonAt + 1] ?? 'reports/bench.json') : join(ROOT, 'reports', 'bench.json'));
const named = args.filter((a, i) => a !== '--json' && args[i - 1] !== '--json');
const unknown = named.find((g) => !GROUPS.includes(g));
if (unknown) {
  console.error(`bench: unknown figure group '${unknown}' (one of ${GROUPS.join(', ')})`);
  process.exit(2);
}
const groups = named.length > 0 ? named : GROUPS;

/** The caller's environment without the tool's variables: each figure starts from a fresh clone's. */
function cleanEnvironment() {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LPC_') && name !== 'NODE_OPTIONS'));
}

/** One group's figures, from a process of its own; a failure becomes its figures, not met. */
function measureGroup(group, dir) {
  const out = join(dir, `${group}.figures.json`);
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'figures.js'), group, out, dir], {
      cwd: ROOT,
      env: cleanEnvironment(),
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-4000);
      process.stderr.write(d);
    });
    child.once('close', (code, signal) => {
      let figures;
      try {
        figures = JSON.parse(readFileSync(out, 'utf8'));
      } catch {
        const last = stderr.trim().split('\n').filter(Boolean).at(-1) ?? '';
        const why = `not measured: its process ended (${signal ?? `exit ${code}`}) without its figures${last ? `: ${last}` : ''}`;
        figures = [{ id: group, label: group, value: null, unit: '', target: 'measured', met: false, note: why }];
      }
      done(figures);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'lpc-bench-'));
console.log(`lp-conformance benchmark: each figure in a process of its own, ratios between runs of the same process (work files in ${dir})`);
const figures = [];
for (const group of groups) {
  console.log(`\n[${group}]`);
  figures.push(...(await measureGroup(group, dir)));
}

const show = (f) => (f.value === null ? '—' : `${f.value}${f.unit ? ` ${f.unit}` : ''}`);
const rows = [
  ['figure', 'value', 'target', 'met'],
  ...figures.map((f) => [f.label, show(f), f.target ?? '(none)', f.met === null ? '' : f.met ? 'met' : 'NOT MET']),
];
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
const line = (r) =>
  r
    .map((cell, c) => cell.padEnd(widths[c]))
    .join('  ')
    .trimEnd();
console.log(`\n${line(rows[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.slice(1).map(line).join('\n')}`);
for (const f of figures.filter((f) => f.note)) console.log(`  ${f.label}: ${f.note}`);

const cores = (await import('node:os')).availableParallelism();
mkdirSync(dirname(jsonFile), { recursive: true });
writeFileSync(jsonFile, `${JSON.stringify({ node: process.version, cores, figures }, null, 2)}\n`);
console.log(`\nevery figure: ${jsonFile}`);
process.exit(figures.every((f) => f.met !== false) ? 0 : 1);
