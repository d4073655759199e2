/**
 * Run model -> one self-contained HTML page, for `--html FILE`: the verdict and its counts, the areas
 * with failures (every area's counts a click away), the run's figures, then the checks grouped by
 * area, with filters by status and level. A run with failures opens on them: the status filter starts
 * at "failed". Each failure shows its expected/received, counterexample, reproduction and replay line
 * (with copy buttons) and its screenshots (embedded); each skipped check its reason; RFC anchors link
 * to the RFC's section.
 *
 * Self-contained: inline CSS and one small inline script, no font, image, script or style from
 * anywhere; the page opens from disk, offline, and makes no request (links are navigation, on click).
 * Hostile text: every string from the run is cleaned like in the other reporters (redacted, control
 * characters made visible, bounded) and then HTML-escaped, so it is only ever text. As defence in
 * depth the page's Content-Security-Policy allows nothing but its own style and script (by hash) and
 * images from data: URIs (the screenshots it embeds): markup that got through anyway could neither
 * run a script nor load anything.
 */
import { createHash } from 'node:crypto';
import { catalogueEntry, fileLink, LEVELS, type CheckResult, type CheckStatus, type RunResult } from '../src/runner/base/model.js';
import { failureView, groupByArea, skipText, type SideFileIndex } from './failure-block.js';
import { makeCleaner, shardsText, type Cleaner, type Redact } from './text.js';
import { markOf, resentText, verdictOf, type Mark, type Verdict } from './verdict.js';

export interface HtmlOptions {
  /** Where the package's files are read, for links to a check's source and catalogue entry: the
   * versioned address of its repository (`https://…/blob/v<version>/`); paths from the package root without it. */
  links?: string;
  /** As `--strict`: SHOULD failures fail the run. */
  strict?: boolean;
  /** Defence in depth: applied to every string taken from the run, although it is already redacted. */
  redact?: Redact;
  /** The files written beside the report (reproductions too long to show) and the screenshots to embed. */
  side?: SideFileIndex;
}

/** A page is read in a browser, which copes with larger fields than a terminal, but not with 1 MB ones. */
const MAX_FIELD_CHARS = 16_384;
const MAX_LINE_CHARS = 1024;

const STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'skipped'];

/** Text -> HTML text or attribute value (always written in double quotes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** An RFC anchor (`rfc7644#section-3.4.2.4`) as the URL of that section at the RFC Editor; other
 * anchors (the specification's, the tool's) have no public page. Built from the match only. */
export function rfcLink(spec: string): string | undefined {
  const m = /^rfc(\d{1,5})(?:#(section-\d+(?:\.\d+)*|appendix-[A-Z](?:\.\d+)*))?$/.exec(spec);
  return m ? `https://www.rfc-editor.org/rfc/rfc${m[1]}${m[2] ? `#${m[2]}` : ''}` : undefined;
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
.verdict { font-size: 1.1rem; font-weight: 600; margin: .25rem 0 0; }
.verdict.failed { color: var(--fail); } .verdict.passed { color: var(--pass); } .verdict.interrupted { color: var(--warn); }
.tally { margin: 0 0 .5rem; }
.caveat { margin: 0 0 .5rem; font-weight: bold; color: #9a6700; }
table.areas { border-collapse: collapse; margin: .25rem 0 .5rem; font-size: .9rem; }
table.areas th, table.areas td { padding: .1rem .6rem; border-bottom: 1px solid var(--line); text-align: right; }
table.areas th:first-child, table.areas td:first-child { text-align: left; }
details { margin: .25rem 0; } summary { cursor: pointer; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .25rem 1rem; margin: .25rem 0 .5rem; }
.figures div { display: flex; flex-direction: column; }
.figures dt { font-size: .8rem; opacity: .75; } .figures dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
#filters { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; position: sticky; top: 0; padding: .5rem 0; background: Canvas; border-bottom: 1px solid var(--line); z-index: 1; }
#filters fieldset { border: 0; margin: 0; padding: 0; display: flex; gap: .6rem; align-items: center; }
#filters legend { float: left; margin-right: .4rem; font-weight: 600; }
#shown { margin-left: auto; opacity: .8; }
.area-counts { font-weight: normal; font-size: .85rem; opacity: .8; margin-left: .5rem; }
.check { border-left: 4px solid var(--line); padding: .3rem .6rem; margin: .3rem 0; }
.check[data-mark="PASS"] { border-color: var(--pass); }
.check[data-mark="FAIL"] { border-color: var(--fail); }
.check[data-mark="WARN"], .check[data-mark="KNOWN"], .check[data-mark="INTERRUPTED"] { border-color: var(--warn); }
.check[data-mark="SKIP"] { border-color: var(--skip); }
.head { display: flex; flex-wrap: wrap; gap: .2rem .6rem; align-items: baseline; }
.badge { font-weight: 700; font-size: .8rem; min-width: 3rem; }
.badge.FAIL { color: var(--fail); } .badge.WARN, .badge.KNOWN, .badge.INTERRUPTED { color: var(--warn); } .badge.PASS { color: var(--pass); } .badge.SKIP { color: var(--skip); }
.level { font-size: .8rem; font-weight: 600; }
.id { overflow-wrap: anywhere; }
.title { flex-basis: 100%; }
.spec, .ms { font-size: .8rem; opacity: .7; overflow-wrap: anywhere; }
.failure { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .3rem .75rem; margin: .5rem 0 .2rem; }
.failure dt { font-weight: 600; } .failure dd { margin: 0; }
.copyable { display: flex; gap: .4rem; align-items: flex-start; } .copyable pre { flex: 1; min-width: 0; }
pre.cmd { overflow-wrap: normal; overflow-x: auto; } pre.cmd .w { white-space: nowrap; }
.table-scroll { max-width: 100%; overflow-x: auto; }
@media (max-width: 640px) {
  body { padding: .75rem .75rem 2rem; }
  .failure { grid-template-columns: minmax(0, 1fr); gap: .1rem; } .failure dd { margin-bottom: .3rem; }
}
button.copy { font: inherit; font-size: .8rem; padding: .1rem .5rem; cursor: pointer; }
figure { margin: 0 0 .5rem; } figure img { max-width: 100%; border: 1px solid var(--line); } figcaption { font-size: .8rem; opacity: .75; }
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

/** Nothing but the page's own style and script and data: images (its screenshots); no request of
 * any kind, no form, no base URL. */
const CSP = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;

interface Ctx {
  clean: Cleaner;
  strict: boolean;
  side?: SideFileIndex;
  /** HtmlOptions.links. */
  links?: string;
  /** Ids of copyable blocks: numbered, never taken from the run. */
  nextId: () => string;
}

/** Columns of the per-area counts, by mark. */
const AREA_COLUMNS: readonly [string, readonly Mark[]][] = [
  ['failed', ['FAIL']],
  ['advisory', ['WARN']],
  ['known', ['KNOWN']],
  ['passed', ['PASS']],
  ['skipped', ['SKIP', 'INTERRUPTED']],
];

/** The run's figures, label and value: what the fold "The run" lists. */
function figuresOf(result: RunResult, verdict: Verdict): [string, string][] {
  const sharded = shardsText(result);
  return [
    ['requests', String(result.requests)],
    ['seed', String(result.seed)],
    ['property runs per check', String(result.runs)],
    ['duration', `${seconds(result.durationMs)} s`],
    ['waited', waitedText(result)],
    ...(result.interrupted ? ([['interrupted', `by ${result.interrupted.signal}: the checks that had not finished are skipped`]] as [string, string][]) : []),
    ...(result.concurrency !== undefined ? ([['concurrency', String(result.concurrency)]] as [string, string][]) : []),
    ['fails the run', verdict.failOn === 'should' ? 'MUST, PROFILE, SHOULD' : 'MUST, PROFILE'],
    ...(result.baseline ? ([['baseline', result.baseline.file]] as [string, string][]) : []),
    ['profile', result.profileName],
    ['started', result.startedAt],
    ...(sharded ? ([['sharded', sharded]] as [string, string][]) : []),
    ...Object.entries(result.targets).map(([family, url]): [string, string] => [`target ${family}`, url]),
  ];
}

type Line = (text: unknown) => string;

/** Counts per area: the areas with a failure at the top, every area in a fold below them. */
function areaCountsHtml(grouped: [string, CheckResult[]][], line: Line, strict: boolean): string {
  const areaRow = ([area, checks]: [string, CheckResult[]]): string =>
    `<tr><td>${line(area)}</td>${AREA_COLUMNS.map(([, marks]) => `<td>${checks.filter((c) => marks.includes(markOf(c, strict))).length}</td>`).join('')}</tr>`;
  const areaTable = (rows: [string, CheckResult[]][], id: string): string =>
    `<div class="table-scroll"><table class="areas" id="${id}"><thead><tr><th>area</th>${AREA_COLUMNS.map(([name]) => `<th>${name}</th>`).join('')}</tr></thead><tbody>${rows.map(areaRow).join('')}</tbody></table></div>`;
  const withFailures = grouped.filter(([, checks]) => checks.some((c) => c.status === 'failed'));
  return `${withFailures.length > 0 ? areaTable(withFailures, 'failing-areas') : ''}
<details id="all-areas"><summary>Counts of all ${grouped.length} areas</summary>
${areaTable(grouped, 'areas')}
</details>`;
}

/** The page's header: the verdict, its caveats, the counts per area and the run's figures. */
function headerHtml(result: RunResult, verdict: Verdict, grouped: [string, CheckResult[]][], line: Line, strict: boolean): string {
  const failing = result.checks.some((c) => c.status === 'failed');
  return `<header>
<h1>lp-conformance report</h1>
<p class="verdict ${verdict.outcome}" id="verdict">${escapeHtml(verdict.headline)}</p>
<p class="tally" id="tally">${escapeHtml(verdict.tally)}</p>
${verdict.caveats.map((caveat) => `<p class="caveat">${escapeHtml(caveat)}</p>`).join('\n')}
${areaCountsHtml(grouped, line, strict)}
<details id="run"${failing ? '' : ' open'}><summary>The run</summary>
<dl class="figures" id="figures">
${figuresOf(result, verdict)
  .map(([label, value]) => `<div><dt>${escapeHtml(label)}</dt><dd>${line(value)}</dd></div>`)
  .join('\n')}
</dl>
</details>
</header>`;
}

/** The filters by status (the failed checks first shown when there are any) and by level. */
function filtersHtml(result: RunResult): string {
  const failing = result.checks.some((c) => c.status === 'failed');
  const radios = (name: string, values: readonly string[], checked: string): string =>
    ['all', ...values].map((v) => `<label><input type="radio" name="${name}" value="${v}"${v === checked ? ' checked' : ''}> ${v}</label>`).join('\n');
  return `<form id="filters" aria-label="Filter the checks">
<fieldset><legend>Status</legend>
${radios('status', STATUSES, failing ? 'failed' : 'all')}
</fieldset>
<fieldset><legend>Level</legend>
${radios('level', LEVELS, 'all')}
</fieldset>
<span id="shown" aria-live="polite">${result.checks.length} checks</span>
</form>`;
}

/** Each area's section: its counts by status and its checks. */
function areasHtml(grouped: [string, CheckResult[]][], line: Line, ctx: Ctx): string {
  return grouped
    .map(([area, checks]) => {
      const counts = STATUSES.map((s) => `${checks.filter((c) => c.status === s).length} ${s}`).join(', ');
      return [
        `<section class="area">`,
        `<h2>${line(area)}<span class="area-counts">${counts}</span></h2>`,
        ...checks.map((check) => renderCheck(check, ctx)),
        `</section>`,
      ].join('\n');
    })
    .join('\n');
}

export function renderHtml(result: RunResult, options: HtmlOptions = {}): string {
  const strict = options.strict ?? false;
  const clean = makeCleaner({ redact: options.redact, maxFieldChars: MAX_FIELD_CHARS, maxLineChars: MAX_LINE_CHARS });
  let copyIds = 0;
  const ctx: Ctx = {
    clean,
    strict,
    ...(options.side ? { side: options.side } : {}),
    ...(options.links ? { links: options.links } : {}),
    nextId: () => `copy-${++copyIds}`,
  };
  const line: Line = (text) => escapeHtml(clean.line(String(text)));
  const verdict = verdictOf(result, { strict });
  const grouped = [...groupByArea(result.checks)];
  const main = areasHtml(grouped, line, ctx);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>lp-conformance: ${escapeHtml(verdict.headline)}</title>
<style>${STYLE}</style>
</head>
<body>
${headerHtml(result, verdict, grouped, line, strict)}
${filtersHtml(result)}
<main>
${main}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function renderCheck(check: CheckResult, ctx: Ctx): string {
  const { clean } = ctx;
  const line = (text: string): string => escapeHtml(clean.line(text));
  // Filter keys come from fixed lists; a value outside them (a hand-edited run) is still shown, as text.
  const status = STATUSES.includes(check.status) ? check.status : 'other';
  const level = LEVELS.includes(check.level) ? check.level : 'other';
  const mark = STATUSES.includes(check.status) ? markOf(check, ctx.strict) : 'OTHER';
  const link = rfcLink(check.spec);
  const spec = link ? `<a class="spec" href="${escapeHtml(link)}" rel="noreferrer">${line(check.spec)}</a>` : `<span class="spec">${line(check.spec)}</span>`;
  const parts = [
    `<article class="check" data-status="${status}" data-level="${level}" data-mark="${mark}">`,
    `<div class="head"><span class="badge ${mark}">${mark}</span><span class="level">${line(check.level)}</span>` +
      `<code class="id">${line(check.id)}</code>${spec}` +
      `<span class="ms">${escapeHtml(String(Math.round(Number(check.durationMs) || 0)))} ms</span>` +
      `<span class="title">${line(check.title)}</span></div>`,
  ];
  if (check.status === 'skipped') {
    parts.push(`<p class="reason">${mark === 'INTERRUPTED' ? 'Interrupted' : 'Skipped'}: ${line(skipText(check))}</p>`);
  }
  if (check.status === 'failed') {
    const side = ctx.side?.get(check.id);
    const v = failureView(check, { clean, strict: ctx.strict, ...(side ? { side } : {}) });
    const row = (label: string, html: string): string => `<dt>${label}</dt><dd>${html}</dd>`;
    const pre = (text: string): string => `<pre>${escapeHtml(text)}</pre>`;
    const copyable = (text: string, what: string): string => {
      const id = ctx.nextId();
      return `<div class="copyable"><pre class="cmd" id="${id}">${commandHtml(text)}</pre><button type="button" class="copy" data-copy="${id}" aria-label="Copy the ${what}">Copy</button></div>`;
    };
    const rows = [
      ...(check.source === undefined
        ? []
        : [
            row(
              'Defined',
              `<a href="${escapeHtml(fileLink(check.source, ctx.links))}"><code>${line(check.source)}</code></a> (<a href="${escapeHtml(fileLink(catalogueEntry(check.id), ctx.links))}">catalogue</a>)`,
            ),
          ]),
      row('Expected', pre(v.expected)),
      row('Received', pre(v.received)),
    ];
    if (v.counterexample !== undefined) rows.push(row('Counterexample (shrunk)', pre(v.counterexample)));
    if (v.reproduce !== undefined) rows.push(row('Reproduce', copyable(v.reproduce, 'reproduction')));
    if (v.request !== undefined) rows.push(row('Request', `<pre class="cmd">${commandHtml(v.request)}</pre>`));
    rows.push(row('Replay', copyable(v.replay, 'replay command')));
    if (v.known !== undefined) rows.push(row('Known', pre(v.known)));
    if (v.attachments.length > 0) {
      // Screenshots embedded (data: URIs, the one kind of image the page's policy allows); other
      // attachments named.
      const shown = v.attachments.map((a) =>
        a.dataUri
          ? `<figure><img src="${escapeHtml(a.dataUri)}" alt="screenshot of the failure"><figcaption>${line(a.path)}</figcaption></figure>`
          : pre(clean.line(a.path)),
      );
      rows.push(row('Attached', shown.join('')));
    }
    parts.push(`<dl class="failure">${rows.join('')}</dl>`);
  }
  parts.push('</article>');
  return parts.join('\n');
}

/** A command (a curl, a replay line) that wraps only between its words: each word unbroken (a word
 * wider than the page scrolls inside its block), its text as it is, for the copy button. */
function commandHtml(text: string): string {
  return text
    .split(/(\s+)/)
    .map((part) => (part === '' || /^\s+$/.test(part) ? part : `<span class="w">${escapeHtml(part)}</span>`))
    .join('');
}

function seconds(ms: number): string {
  return (Math.max(0, Number(ms) || 0) / 1000).toFixed(1);
}

function waitedText(result: RunResult): string {
  const w = result.waited;
  const again = resentText(w?.resent);
  if (!w || w.retryAfterMs + w.maxRpsMs === 0) return `no${again}`;
  return `${seconds(w.retryAfterMs)} s on 429 Retry-After (${w.retries} ${w.retries === 1 ? 'retry' : 'retries'}), ${seconds(w.maxRpsMs)} s pacing to --max-rps${again}`;
}
