/**
 * Run model -> one self-contained HTML page, for `--html FILE`: the run's figures, the checks grouped by
 * area, filters by status and level, each failure with its expected/received, counterexample, curl and
 * replay line (with copy buttons), and each skipped check with its reason.
 *
 * Self-contained: inline CSS and one small inline script, no font, image, script or style from
 * anywhere; the page opens from disk, offline, and makes no request.
 * Hostile text: every string from the run is cleaned like in the other reporters (redacted, control
 * characters made visible, bounded) and then HTML-escaped, so it is only ever text. As defence in
 * depth the page's Content-Security-Policy allows nothing but its own style and script (by hash):
 * markup that got through anyway could neither run a script nor load anything.
 */
import { createHash } from 'node:crypto';
import { failsRun, LEVELS, type CheckResult, type CheckStatus, type RunResult } from '../src/runner/model.js';
import { failureOf, groupByArea, isAdvisory } from './failure-block.js';
import { makeCleaner, type Cleaner, type Redact } from './text.js';

export interface HtmlOptions {
  /** As `--strict`: SHOULD failures fail the run. */
  strict?: boolean;
  /** Defence in depth: applied to every string taken from the run, although it is already redacted. */
  redact?: Redact;
}

/** A page is read in a browser, which copes with larger fields than a terminal, but not with 1 MB ones. */
const MAX_FIELD_CHARS = 16_384;
const MAX_LINE_CHARS = 1024;

const STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'skipped'];

/** Text -> HTML text or attribute value (always written in double quotes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE = `
:root { color-scheme: light dark; --fail: #c62828; --warn: #b26a00; --pass: #2e7d32; --skip: #6d6d6d; --line: #8884; --code: #8881; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; padding: 1rem 1.5rem 3rem; max-width: 1200px; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { margin: 0; padding: .4rem .6rem; background: var(--code); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
.verdict { font-size: 1.1rem; font-weight: 600; margin: .25rem 0 .75rem; }
.verdict.fail { color: var(--fail); } .verdict.pass { color: var(--pass); }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .25rem 1rem; margin: 0 0 1rem; }
.figures div { display: flex; flex-direction: column; }
.figures dt { font-size: .8rem; opacity: .75; } .figures dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
#filters { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; position: sticky; top: 0; padding: .5rem 0; background: Canvas; border-bottom: 1px solid var(--line); z-index: 1; }
#filters fieldset { border: 0; margin: 0; padding: 0; display: flex; gap: .6rem; align-items: center; }
#filters legend { float: left; margin-right: .4rem; font-weight: 600; }
#shown { margin-left: auto; opacity: .8; }
.area-counts { font-weight: normal; font-size: .85rem; opacity: .8; margin-left: .5rem; }
.check { border-left: 4px solid var(--line); padding: .3rem .6rem; margin: .3rem 0; }
.check[data-status="passed"] { border-color: var(--pass); }
.check[data-status="failed"] { border-color: var(--fail); }
.check.advisory { border-color: var(--warn); }
.check[data-status="skipped"] { border-color: var(--skip); }
.head { display: flex; flex-wrap: wrap; gap: .2rem .6rem; align-items: baseline; }
.badge { font-weight: 700; font-size: .8rem; min-width: 3rem; }
.badge.FAIL { color: var(--fail); } .badge.WARN { color: var(--warn); } .badge.PASS { color: var(--pass); } .badge.SKIP { color: var(--skip); }
.level { font-size: .8rem; font-weight: 600; }
.id { overflow-wrap: anywhere; }
.title { flex-basis: 100%; }
.spec, .ms { font-size: .8rem; opacity: .7; overflow-wrap: anywhere; }
.failure { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .3rem .75rem; margin: .5rem 0 .2rem; }
.failure dt { font-weight: 600; } .failure dd { margin: 0; }
.copyable { display: flex; gap: .4rem; align-items: flex-start; } .copyable pre { flex: 1; }
button.copy { font: inherit; font-size: .8rem; padding: .1rem .5rem; cursor: pointer; }
.reason { margin: .3rem 0 0; }
`;

/** Filters (status, level; both radio groups) and copy buttons. Reads only the page's own attributes. */
const SCRIPT = `
(function () {
  var form = document.getElementById('filters');
  var checks = Array.prototype.slice.call(document.querySelectorAll('.check'));
  var areas = Array.prototype.slice.call(document.querySelectorAll('.area'));
  var shown = document.getElementById('shown');
  function apply() {
    var status = form.elements.namedItem('status').value;
    var level = form.elements.namedItem('level').value;
    var n = 0;
    checks.forEach(function (c) {
      var show = (status === 'all' || c.dataset.status === status) && (level === 'all' || c.dataset.level === level);
      c.hidden = !show;
      if (show) n++;
    });
    areas.forEach(function (a) { a.hidden = !a.querySelector('.check:not([hidden])'); });
    shown.textContent = n + ' of ' + checks.length + ' checks shown';
  }
  form.addEventListener('change', apply);
  apply();
  document.addEventListener('click', function (e) {
    var button = e.target instanceof Element ? e.target.closest('button.copy') : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) return;
    var done = function (word) { button.textContent = word; setTimeout(function () { button.textContent = 'Copy'; }, 1500); };
    var select = function () {
      var range = document.createRange();
      range.selectNodeContents(source);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      done(document.execCommand('copy') ? 'Copied' : 'Selected');
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(source.textContent).then(function () { done('Copied'); }, select);
    else select();
  });
})();
`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Nothing but the page's own style and script; no request of any kind, no form, no base URL. */
const CSP = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`;

interface Ctx {
  clean: Cleaner;
  strict: boolean;
  /** Ids of copyable blocks: numbered, never taken from the run. */
  nextId: () => string;
}

export function renderHtml(result: RunResult, options: HtmlOptions = {}): string {
  const strict = options.strict ?? false;
  const clean = makeCleaner({ redact: options.redact, maxFieldChars: MAX_FIELD_CHARS, maxLineChars: MAX_LINE_CHARS });
  let copyIds = 0;
  const ctx: Ctx = { clean, strict, nextId: () => `copy-${++copyIds}` };
  const line = (text: unknown): string => escapeHtml(clean.line(String(text)));

  const count = (status: CheckStatus, checks: readonly CheckResult[] = result.checks): number => checks.filter((c) => c.status === status).length;
  const failing = result.checks.filter((c) => c.status === 'failed' && failsRun(c.level, strict)).length;
  const advisory = result.checks.filter((c) => isAdvisory(c, strict)).length;
  const verdict = failing === 0 ? 'passed' : `${failing} failed`;

  const figures: [string, string][] = [
    ['checks', String(result.checks.length)],
    ['passed', String(count('passed'))],
    ['failed', `${count('failed')}${advisory > 0 ? ` (${advisory} advisory)` : ''}`],
    ['skipped', String(count('skipped'))],
    ['requests', String(result.requests)],
    ['seed', String(result.seed)],
    ['property runs per check', String(result.runs)],
    ['duration', `${seconds(result.durationMs)} s`],
    ['waited', waitedText(result)],
    ...(result.interrupted ? ([['interrupted', `by ${result.interrupted.signal}: the checks that had not finished are skipped`]] as [string, string][]) : []),
    ...(result.concurrency !== undefined ? ([['concurrency', String(result.concurrency)]] as [string, string][]) : []),
    ['profile', result.profileName],
    ['started', result.startedAt],
    ...Object.entries(result.targets).map(([family, url]): [string, string] => [`target ${family}`, url]),
  ];

  const radios = (name: string, values: readonly string[]): string =>
    ['all', ...values].map((v) => `<label><input type="radio" name="${name}" value="${v}"${v === 'all' ? ' checked' : ''}> ${v}</label>`).join('\n');

  const areas = [...groupByArea(result.checks)].map(([area, checks]) => {
    const counts = STATUSES.map((s) => `${count(s, checks)} ${s}`).join(', ');
    return [
      `<section class="area">`,
      `<h2>${line(area)}<span class="area-counts">${counts}</span></h2>`,
      ...checks.map((check) => renderCheck(check, ctx)),
      `</section>`,
    ].join('\n');
  });

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>lp-conformance: ${escapeHtml(verdict)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>lp-conformance report</h1>
<p class="verdict ${failing === 0 ? 'pass' : 'fail'}" id="verdict">${escapeHtml(verdict)}${advisory > 0 ? ` · ${advisory} advisory` : ''}${strict ? ' · strict' : ''}</p>
<dl class="figures" id="figures">
${figures.map(([label, value]) => `<div><dt>${escapeHtml(label)}</dt><dd>${line(value)}</dd></div>`).join('\n')}
</dl>
</header>
<form id="filters" aria-label="Filter the checks">
<fieldset><legend>Status</legend>
${radios('status', STATUSES)}
</fieldset>
<fieldset><legend>Level</legend>
${radios('level', LEVELS)}
</fieldset>
<span id="shown" aria-live="polite">${result.checks.length} checks</span>
</form>
<main>
${areas.join('\n')}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function renderCheck(check: CheckResult, ctx: Ctx): string {
  const { clean } = ctx;
  const line = (text: string): string => escapeHtml(clean.line(text));
  const field = (text: string): string => escapeHtml(clean.field(text));
  // Filter keys come from fixed lists; a value outside them (a hand-edited run) is still shown, as text.
  const status = STATUSES.includes(check.status) ? check.status : 'other';
  const level = LEVELS.includes(check.level) ? check.level : 'other';
  const advisory = isAdvisory(check, ctx.strict);
  const badge = status === 'passed' ? 'PASS' : status === 'skipped' ? 'SKIP' : status === 'failed' ? (advisory ? 'WARN' : 'FAIL') : 'OTHER';
  const parts = [
    `<article class="check${advisory ? ' advisory' : ''}" data-status="${status}" data-level="${level}">`,
    `<div class="head"><span class="badge ${badge}">${badge}</span><span class="level">${line(check.level)}</span>` +
      `<code class="id">${line(check.id)}</code><span class="spec">${line(check.spec)}</span>` +
      `<span class="ms">${escapeHtml(String(Math.round(Number(check.durationMs) || 0)))} ms</span>` +
      `<span class="title">${line(check.title)}</span></div>`,
  ];
  if (check.status === 'skipped') {
    parts.push(`<p class="reason">Skipped: ${line(check.skipReason ?? 'no reason recorded')}</p>`);
  }
  if (check.status === 'failed') {
    const f = failureOf(check);
    const row = (label: string, html: string): string => `<dt>${label}</dt><dd>${html}</dd>`;
    const copyable = (text: string, what: string): string => {
      const id = ctx.nextId();
      return `<div class="copyable"><pre id="${id}">${field(text)}</pre><button type="button" class="copy" data-copy="${id}" aria-label="Copy the ${what}">Copy</button></div>`;
    };
    const rows = [row('Expected', `<pre>${field(f.expected)}</pre>`), row('Received', `<pre>${field(f.received)}</pre>`)];
    if (f.counterexample !== undefined) rows.push(row('Counterexample (shrunk)', `<pre>${field(f.counterexample)}</pre>`));
    if (f.curl !== undefined) rows.push(row('Reproduce', copyable(f.curl, 'curl command')));
    else if (f.operation !== undefined) rows.push(row('Request', `<pre>${field(f.operation)}</pre>`));
    rows.push(row('Replay', copyable(f.replay, 'replay command')));
    parts.push(`<dl class="failure">${rows.join('')}</dl>`);
  }
  parts.push('</article>');
  return parts.join('\n');
}

function seconds(ms: number): string {
  return (Math.max(0, Number(ms) || 0) / 1000).toFixed(1);
}

function waitedText(result: RunResult): string {
  const w = result.waited;
  if (!w || w.retryAfterMs + w.maxRpsMs === 0) return 'no';
  return `${seconds(w.retryAfterMs)} s on 429 Retry-After (${w.retries} ${w.retries === 1 ? 'retry' : 'retries'}), ${seconds(w.maxRpsMs)} s pacing to --max-rps`;
}
