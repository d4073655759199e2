/**
 * `--only` selection: each pattern is a check-id prefix, or a glob where `*` matches any run of
 * characters and `?` one character (`<family>.v2.*.create.*`).
 */
const escape = (s: string): string => s.replace(/[.+^${}()|[\]\\]/g, '\\$&');

function patternSource(pattern: string): string {
  const glob = /[*?]/.test(pattern);
  const body = escape(pattern).replace(/\*/g, '.*').replace(/\?/g, '.');
  return glob ? `${body}$` : `${body}`;
}

/** A predicate over check ids; undefined patterns select everything. `ids`, when given, limits the
 * selection to exactly those ids (a shard's). */
export function idMatcher(patterns: readonly string[] | undefined, ids?: readonly string[]): (id: string) => boolean {
  const exact = ids === undefined ? undefined : new Set(ids);
  const within = (id: string): boolean => exact === undefined || exact.has(id);
  if (!patterns || patterns.length === 0) return within;
  const re = new RegExp(`^(?:${patterns.map(patternSource).join('|')})`);
  return (id) => re.test(id) && within(id);
}

/** The same selection as a vitest testNamePattern over test names `[<id>] <title>`. */
export function testNamePattern(patterns: readonly string[]): RegExp {
  const ids = patterns.map((p) => patternSource(p).replace(/\.\*/g, '[^\\]]*').replace(/\$$/, ''));
  return new RegExp(`^\\[(?:${ids.join('|')})[^\\]]*\\] `);
}

/** A vitest testNamePattern that selects exactly these check ids. */
export function exactNamePattern(ids: readonly string[]): RegExp {
  return new RegExp(`^\\[(?:${ids.map((id) => escape(id).replace(/[*?]/g, '\\$&')).join('|')})\\] `);
}
