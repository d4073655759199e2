// The tally of a Stryker JSON report (mutation-testing-report-schema) against the equivalents list
// (mutation/equivalent.json): per file and per family, killed, survived, timed out, equivalent and the
// score. `npm run mutation` tallies each run's report; `--tally DIR` counts saved reports again with the
// list as it is now, so a tally quoted in the docs can be reproduced from the report alone.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

/**
 * mutation/equivalent.json: the survivors that change nothing a client can observe. Throws on an entry
 * without its file, mutator, original, replacement or reason, or with a within that does not hold the
 * original.
 */
export function readEquivalents(path) {
  if (!existsSync(path)) return [];
  const list = JSON.parse(readFileSync(path, 'utf8'));
  const name = relative(process.cwd(), path);
  for (const [i, e] of list.entries()) {
    for (const key of ['file', 'mutator', 'original', 'replacement', 'reason']) {
      if (typeof e[key] !== 'string' || e[key] === '') throw new Error(`${name}[${i}] has no ${key}`);
    }
    if (e.within !== undefined && (typeof e.within !== 'string' || !squash(e.within).includes(squash(e.original))))
      throw new Error(`${name}[${i}]: within must be code that holds the original`);
  }
  return list;
}

/** The entries whose original (or within) the current code of their file no longer holds: stale. */
export function staleEquivalents(list, root) {
  const sources = new Map();
  const source = (file) => {
    if (!sources.has(file)) sources.set(file, existsSync(resolve(root, file)) ? squash(readFileSync(resolve(root, file), 'utf8')) : '');
    return sources.get(file);
  };
  return list.flatMap((e, i) => (source(e.file).includes(squash(e.within ?? e.original)) ? [] : [{ index: i, file: e.file, original: e.original }]));
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
function isEquivalent(equivalents, file, mutant, source) {
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

/** Counts per file of Stryker's JSON report; base is the project its paths are relative to. */
export function tally(report, base, equivalents) {
  const files = [];
  for (const [path, file] of Object.entries(report.files)) {
    const rel = relative(base, resolve(base, path)).split('\\').join('/');
    const row = { file: rel, mutants: 0, killed: 0, survived: 0, timedOut: 0, equivalent: 0, invalid: 0, listedButKilled: [], survivors: [] };
    for (const m of file.mutants) {
      if (m.status === 'Ignored') continue;
      row.mutants += 1;
      const equivalent = isEquivalent(equivalents, rel, m, file.source);
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

/** The table on stdout: one row per file and per family. */
export function table({ families }) {
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
