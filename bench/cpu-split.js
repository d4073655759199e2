#!/usr/bin/env node
// `node bench/cpu-split.js DIR`: where a run's suites spent their CPU, from the V8 CPU profiles of
// `node --cpu-prof --cpu-prof-dir=DIR bin/lp-conformance.js run …` (docs/performance.md). The
// profiles of the suites' worker threads (those that ran dist/suites/checks.js) are read; each
// sample goes to the category of the innermost frame that names one (a frame of the bundle is
// mapped back to its source file by esbuild's `// path` comments). Prints each category's share of
// the suites' busy time, fixed costs (paid once per worker) apart from per-request ones.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/cpu-split.js DIR (the --cpu-prof-dir of a run)');
  process.exit(2);
}
const BUNDLE = resolve(import.meta.dirname, '..', 'dist', 'suites', 'checks.js');

/** The bundle's line → source file, from esbuild's module comments. */
const starts = [];
readFileSync(BUNDLE, 'utf8')
  .split('\n')
  .forEach((line, i) => {
    const m = /^\/\/ ((?:node_modules|src|suites|reference-impl|contracts)\/\S+)$/.exec(line);
    if (m) starts.push([i, m[1]]);
  });
function sourceOf(frame) {
  if (!frame.url.endsWith('dist/suites/checks.js')) return frame.url;
  let lo = 0;
  let hi = starts.length - 1;
  let found = '';
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid][0] <= frame.lineNumber) {
      found = starts[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** [category, fixed?, test(source, function name)]: the first that matches a frame, innermost first. */
const RULES = [
  ['module loading', true, (s) => /^node:internal\/modules|^node:internal\/deps\/cjs-module-lexer/.test(s)],
  ['Chromium (browser driver)', true, (s) => /playwright-core|@sparticuz/.test(s)],
  [
    'contract compilation',
    true,
    (s, f) =>
      (/node_modules\/ajv\/dist\/(compile|core|vocabularies)/.test(s) && !/^validate/.test(f)) ||
      (/suites\/_harness\/contracts\.ts/.test(s) && /compile|load|schema/i.test(f)),
  ],
  ['suite loading (registration)', true, (s, f) => /suites\/_harness\/(all-checks|registry|config)\.ts/.test(s) && !/run/i.test(f)],
  ['curl strings and --record', false, (s, f) => /src\/target\/(curl|secrets)\.ts/.test(s) || (/suites\/_harness\/http\.ts/.test(s) && /curl|record/i.test(f))],
  ['digests (--compare)', false, (s, f) => /suites\/_harness\/http\.ts/.test(s) && /digest|guids|listed/i.test(f)],
  [
    'contract validation',
    false,
    (s, f) => (/^validate\d*$/.test(f) && s === '') || /suites\/_harness\/(contracts|violations)\.ts|ajv\/dist\/runtime|ajv-formats|fast-uri/.test(s),
  ],
  ['invariants', false, (s) => /suites\/_harness\/(.*\/)?invariants\.ts|src\/families\/.*\/invariants\.ts/.test(s)],
  ['response parsing (JSON)', false, (s, f) => s === '' && f === 'parse'],
  [
    'HTTP transport (undici, sockets)',
    false,
    (s) =>
      /node_modules\/undici|^node:(net|internal\/stream|internal\/streams|stream|events|internal\/async_hooks|internal\/timers|timers|internal\/process\/task_queues)|suites\/_harness\/connection\.ts/.test(
        s,
      ),
  ],
  ['request building and the client', false, (s) => /suites\/_harness\/(http|url-budget|exchange|request-target)\.ts|src\/profile\/|src\/target\//.test(s)],
  [
    'generation (fast-check)',
    false,
    (s) => /node_modules\/(fast-check|pure-rand)|suites\/_harness\/(.*\/)?generators\.ts|suites\/_harness\/.*\/(models|arbitraries)/.test(s),
  ],
  [
    'scheduling and bookkeeping',
    false,
    (s) => /suites\/_harness\/(scheduler|requirement|coverage|records|journal|budget|outcomes|failure|poll|order|marker|worker)\.ts/.test(s),
  ],
  ['check bodies (judging answers)', false, (s) => /^suites\/|^src\//.test(s)],
];

const totals = new Map();
let busy = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (!profile.nodes.some((n) => n.callFrame.url.endsWith('dist/suites/checks.js'))) continue;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const category = new Map();
  const categoryOf = (id) => {
    if (category.has(id)) return category.get(id);
    const name = byId.get(id).callFrame.functionName;
    if (name === '(idle)') {
      category.set(id, null);
      return null;
    }
    let found;
    if (name === '(garbage collector)') found = ['garbage collection', false];
    else
      for (let x = id; x !== undefined && !found; x = parent.get(x)) {
        const frame = byId.get(x).callFrame;
        const source = sourceOf(frame);
        const rule = RULES.find(([, , test]) => test(source, frame.functionName));
        if (rule) found = [rule[0], rule[1]];
      }
    found ??= ['other (V8, Node internals)', false];
    category.set(id, found);
    return found;
  };
  profile.samples.forEach((id, i) => {
    const found = categoryOf(id);
    if (!found) return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    const key = `${found[1] ? 'fixed' : 'per-request'}\t${found[0]}`;
    totals.set(key, (totals.get(key) ?? 0) + dt);
  });
}
const pct = (t) => `${((t / busy) * 100).toFixed(1)} %`;
const sum = (kind) => [...totals].filter(([k]) => k.startsWith(kind)).reduce((n, [, t]) => n + t, 0);
console.log(`suites' worker threads: ${(busy / 1e6).toFixed(1)} s busy`);
for (const kind of ['fixed', 'per-request']) {
  console.log(`${kind}: ${pct(sum(kind))}`);
  for (const [k, t] of [...totals].filter(([k]) => k.startsWith(kind)).sort((a, b) => b[1] - a[1])) console.log(`  ${pct(t).padStart(7)}  ${k.split('\t')[1]}`);
}
