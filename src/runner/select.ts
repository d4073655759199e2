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

/** The id prefix of the failed check a suite file that does not load becomes (suites/_harness/all-checks.ts). */
export const LOAD_CHECK_PREFIX = 'lpc.harness.load.';

/** The checks `only` selects (all without patterns) less those `skip` matches (`--skip`); with `ids`,
 * only those of them (a shard's). A suite file that did not load is selected whatever `only` and
 * the shard say (`skip` can still name it): its checks are missing from the selection, and a run
 * narrowed to them must not pass without them. */
export function selection(only?: readonly string[], skip?: readonly string[], ids?: readonly string[]): (id: string) => boolean {
  const matched = idMatcher(only, ids);
  const included = (id: string): boolean => id.startsWith(LOAD_CHECK_PREFIX) || matched(id);
  if (!skip || skip.length === 0) return included;
  const excluded = idMatcher(skip);
  return (id) => included(id) && !excluded(id);
}

/** Whether `only` and `skip` can leave checks of a family selected (its ids start `<family>.`): no
 * pattern, a pattern of that family or one that begins with a wildcard; and no `skip` pattern that
 * matches every check of the family. */
export function selectsFamily(only: readonly string[], skip: readonly string[], family: string): boolean {
  const named =
    only.length === 0 || only.some((p) => p.startsWith(`${family}.`) || p === family || /^[*?[]/.test(p) || family.startsWith(p.replace(/[*?].*$/, '')));
  const left = skip.some((p) => p === '*' || p === family || p === `${family}.` || p === `${family}.*`);
  return named && !left;
}
