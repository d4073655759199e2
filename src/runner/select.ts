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

/** A predicate over check ids; undefined patterns select everything. */
export function idMatcher(patterns: readonly string[] | undefined): (id: string) => boolean {
  if (!patterns || patterns.length === 0) return () => true;
  const re = new RegExp(`^(?:${patterns.map(patternSource).join('|')})`);
  return (id) => re.test(id);
}

/** The same selection as a vitest testNamePattern over test names `[<id>] <title>`. */
export function testNamePattern(patterns: readonly string[]): RegExp {
  const ids = patterns.map((p) => patternSource(p).replace(/\.\*/g, '[^\\]]*').replace(/\$$/, ''));
  return new RegExp(`^\\[(?:${ids.join('|')})[^\\]]*\\] `);
}
