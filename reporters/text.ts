/**
 * Text hygiene shared by the reporters. Everything a reporter prints comes from the target (bodies,
 * headers) or from the profile, so it is treated as hostile: secrets are redacted once more,
 * control characters are made visible, and every field is bounded in size.
 */

import type { RunResult } from '../src/runner/base/model.js';

/** Replaces secret values by the name of the variable that holds them. */
export type Redact = (text: string) => string;

const identity: Redact = (text) => text;

/**
 * Characters that must not reach the output raw: C0 controls other than tab and newline (an ESC
 * would let a hostile body recolour or rewrite the user's terminal, and XML 1.0 forbids most of
 * them), DEL and C1 controls (U+009B is a one-byte CSI on some terminals), U+FFFE/U+FFFF (not XML
 * characters) and unpaired surrogates (not encodable in UTF-8, not XML characters).
 */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Makes unsafe characters visible as `\uXXXX` instead of dropping them, so the reader still sees
 * that the target sent them. */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** Number of characters (code points) in `text`. */
function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A low surrogate that follows a high one is the second half of the same character.
    if (!(unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1)))) count++;
  }
  return count;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * Keeps at most `max` UTF-16 units of `text` and says how much was cut: `…(N more chars)`, or with
 * `where` (the file that holds all of it) `…(N more chars, M in all; in full: where)`.
 * Never cuts between the two halves of a surrogate pair (a lone half is invalid XML).
 */
export function truncate(text: string, max: number, where?: string): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max);
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
  const rest = codePointCount(text.slice(cut));
  return `${text.slice(0, cut)}…(${rest} more chars${where === undefined ? '' : `, ${codePointCount(text)} in all; in full: ${where}`})`;
}

/** Collapses a field to one line, for attributes and one-line summaries. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A cleaner applies, in this order: redaction (first, so that no truncation can split a secret
 * into a prefix that no longer matches), escaping of unsafe characters, then truncation (last, so
 * the bound holds on what is written).
 */
export interface Cleaner {
  /** A block field: newlines kept; `where` names the file that holds it uncut. */
  field(text: string, max?: number, where?: string): string;
  /** An attribute or a summary line: whitespace collapsed; `where` names the file that holds it uncut. */
  line(text: string, max?: number, where?: string): string;
}

export function makeCleaner(opts: { redact?: Redact; maxFieldChars: number; maxLineChars: number }): Cleaner {
  const redact = opts.redact ?? identity;
  return {
    field: (text, max = opts.maxFieldChars, where) => truncate(escapeUnsafe(redact(text)), max, where),
    line: (text, max = opts.maxLineChars, where) => truncate(oneLine(escapeUnsafe(redact(text))), max, where),
  };
}

/** What a sharded run was, for the reports' figures: `shard 2 of 3` for a shard's run, `3 shards: 1
 * (run 0a1b2c, seed 8), …` for a merged one; undefined for a run of one piece. */
export function shardsText(result: RunResult): string | undefined {
  if (result.shard) return `shard ${result.shard.index} of ${result.shard.count}`;
  if (!result.shards) return undefined;
  const each = result.shards.map((s) => `${s.index} (${s.runId ? `run ${s.runId}, ` : ''}seed ${s.seed})`);
  return `${result.shards.length} shards: ${each.join(', ')}`;
}
