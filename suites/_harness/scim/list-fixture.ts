/**
 * Users for the list checks (pagination, sort): a set the check creates itself under one prefix
 * (`<run marker><tag>-<8 hex>.`), every list of the check confined to it by the filter the target
 * supports (target.ts, `scope`): `userName sw "<prefix>"`, else one `externalId eq "<prefix>"` the
 * set shares, else `userName eq` of each joined by `or`; with none of these the check is skipped.
 * Values are ASCII letters only (no locale question in a case-insensitive order), mixed case, and
 * distinct case-insensitively (every order the checks judge is total); some users have no title and
 * no emails (missing sort values); some have a primary email that is not their first, some three
 * emails, some two without a primary (first, primary and last value give different orders).
 */
import type { Json } from '../records.js';
import type { CheckContext } from '../requirement.js';
import { createUser, literal, uniqueName } from './records.js';
import { scimTargetOf, supportsAttribute, supportsOperator } from './target.js';

export interface ListFixture {
  /** The common userName prefix. */
  prefix: string;
  /** The filter that selects exactly the set (`userName sw "<prefix>"`, …): every list of the check carries it. */
  filter: string;
  /** The users as created (POST answers), in creation order. */
  users: (Json & { id: string; userName: string })[];
  ids: string[];
}

/** Case folding for caseExact-false strings: the values are ASCII letters only, so lower case is
 * the fold whatever the server's Unicode case-insensitive order does with other characters. */
export const fold = (s: string): string => s.toLowerCase();

export const compareFolded = (a: string, b: string): number => {
  const x = fold(a);
  const y = fold(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The sort value of a multi-valued attribute (RFC 7644 §3.4.2.3): the primary value, else the first. */
export function primaryOrFirst(values: unknown): string | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const items = values as Json[];
  const chosen = items.find((v) => v.primary === true) ?? items[0];
  return typeof chosen?.value === 'string' ? chosen.value : undefined;
}

/** mulberry32 over the check's seed: the fixture's values replay with the run's seed. */
function randomOf(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

interface Plan {
  suffix: string;
  givenName: string;
  title?: string;
  emails?: Json[];
}

const orderOf = (keys: readonly string[], compare: (a: string, b: string) => number): string =>
  keys
    .map((k, i) => [k, i] as const)
    .sort((x, y) => compare(x[0], y[0]))
    .map(([, i]) => i)
    .join(',');
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const identity = (keys: readonly string[]): string => keys.map((_, i) => i).join(',');
const reversed = (keys: readonly string[]): string => keys.map((_, i) => keys.length - 1 - i).join(',');

/** Whether every order a check judges tells the rules apart on these values. */
function discriminates(plans: readonly Plan[]): boolean {
  const names = plans.map((p) => p.suffix);
  const given = plans.map((p) => p.givenName);
  const withEmails = plans.filter((p) => p.emails !== undefined);
  const first = withEmails.map((p) => primaryOrFirst(p.emails) ?? '');
  const last = withEmails.map((p) => String(p.emails?.at(-1)?.value));
  const folded = orderOf(names, compareFolded);
  return (
    folded !== orderOf(names, byCodeUnits) &&
    folded !== identity(names) &&
    folded !== reversed(names) &&
    orderOf(given, compareFolded) !== identity(given) &&
    orderOf(first, compareFolded) !== orderOf(last, compareFolded)
  );
}

function plan(seed: number, size: number, tag: string): Plan[] {
  const random = randomOf(seed);
  const used = new Set<string>();
  const word = (): string => {
    for (;;) {
      let w = '';
      for (let i = 0; i < 7; i++) {
        const c = String.fromCharCode(97 + Math.floor(random() * 26));
        w += random() < 0.5 ? c.toUpperCase() : c;
      }
      if (!used.has(fold(w))) {
        used.add(fold(w));
        return w;
      }
    }
  };
  for (;;) {
    const plans = Array.from({ length: size }, (_, i): Plan => {
      const emailKind = i % 3;
      const emails =
        emailKind === 0
          ? undefined
          : emailKind === 1
            ? [
                { value: `${word()}.${tag}@example.com`, type: 'work' },
                { value: `${word()}.${tag}@example.com`, type: 'home', primary: true },
                { value: `${word()}.${tag}@example.com`, type: 'other' },
              ]
            : [
                { value: `${word()}.${tag}@example.com`, type: 'work' },
                { value: `${word()}.${tag}@example.com`, type: 'home' },
              ];
      return { suffix: word(), givenName: word(), ...(i % 4 === 0 ? {} : { title: word() }), ...(emails ? { emails } : {}) };
    });
    if (discriminates(plans)) return plans;
  }
}

/** More attributes of one fixture user (the `index`-th created), from its planned givenName (unique,
 * folded, within the fixture, and in an order other than the users' creation order). */
export type ListFixtureExtra = (planned: { readonly givenName: string }, index: number) => Json;

/** Creates `size` users under a fresh prefix (sequential POSTs, 201 each); emails carry the prefix's
 * tail, so that no other user of any run holds them (a target may hold them unique). `extra` adds
 * attributes to each user. */
export async function createListFixture(t: CheckContext, tag: string, size: number, extra?: ListFixtureExtra): Promise<ListFixture> {
  const target = await scimTargetOf(t);
  if (target.scope === undefined)
    t.skip(`the target's filter cannot confine a list to the check's own users (${target.why}: none of userName sw, externalId eq, userName eq with or)`);
  const prefix = `${uniqueName(t, tag)}.`;
  const users: ListFixture['users'] = [];
  for (const [index, p] of plan(t.seed, size, prefix.slice(-9, -1)).entries()) {
    users.push(
      await createUser(t, tag, {
        userName: `${prefix}${p.suffix}`,
        name: { givenName: p.givenName, familyName: 'Lpc' },
        ...(target.scope === 'externalId' ? { externalId: prefix } : {}),
        ...(p.title === undefined ? {} : { title: p.title }),
        ...(p.emails === undefined ? {} : { emails: p.emails }),
        ...(extra ? extra(p, index) : {}),
      }),
    );
  }
  const filter =
    target.scope === 'prefix'
      ? `userName sw ${literal(prefix)}`
      : target.scope === 'externalId'
        ? `externalId eq ${literal(prefix)}`
        : users.map((u) => `userName eq ${literal(u.userName)}`).join(' or ');
  return { prefix, filter, users, ids: users.map((u) => u.id) };
}

/** One user of the check's own (with `extra`) and the filter that lists it alone, `userName eq`; the
 * check is skipped where the profile says the target cannot filter on userName eq. */
export async function createFilteredUser(t: CheckContext, tag: string, extra: Json = {}): Promise<{ filter: string; id: string }> {
  const { filter } = await scimTargetOf(t);
  if (!supportsOperator(filter, 'eq') || !supportsAttribute(filter, 'userName')) t.skip('the profile says the target cannot filter on userName eq');
  const u = await createUser(t, tag, extra);
  return { filter: `userName eq ${literal(u.userName)}`, id: u.id };
}
