/**
 * Reading the learner-facing API: HAL list walks along `_links.next`, and the catalog's categories,
 * courses and sessions that the learner checks judge (spec#learner-facing-api; docs/decisions/learner/reference-server-and-player.md
 * "Learner reference server and player: choices").
 */
import type { OperationId } from '../../../src/profile/index.js';
import { describeResponse, expectStatus, fail } from '../failure.js';
import type { ApiResponse } from '../http.js';
import type { CheckContext } from '../requirement.js';

export type Item = Record<string, unknown>;

/** The HAL key of each learner list operation. */
export const LIST_KEYS = {
  'learner.catalog.list': 'courses',
  'learner.categories.list': 'categories',
  'learner.calendar.list': 'calendar',
  'learner.calendar.sessions': 'sessions',
  'learner.sessions.list': 'sessions',
} as const satisfies Partial<Record<OperationId, string>>;
export type ListOp = keyof typeof LIST_KEYS;

/** The largest page a learner list serves (public-facts: `_limit` above 30 is refused). */
export const MAX_LIMIT = 30;
/** Pages a walk follows at most: a `next` chain longer than this is a loop. */
const MAX_PAGES = 500;

export type Query = Record<string, string | number | boolean | undefined>;

/** The items of one HAL page, under `_embedded.<key>`; fails when they are not there. */
export function pageItems(res: ApiResponse, key: string): Item[] {
  const embedded = (res.json as { _embedded?: Record<string, unknown> } | undefined)?._embedded;
  const items = embedded?.[key];
  if (!Array.isArray(items)) fail(`a HAL list with its items under _embedded.${key}`, describeResponse(res), res);
  return items.filter((i): i is Item => typeof i === 'object' && i !== null);
}

/** The `_links.next.href` of a page, if any. */
export function nextHref(res: ApiResponse): string | undefined {
  const href = (res.json as { _links?: { next?: { href?: unknown } } } | undefined)?._links?.next?.href;
  return typeof href === 'string' ? href : undefined;
}

export interface Walk {
  items: Item[];
  pages: number;
}

/**
 * Every item of a list, following `_links.next` from the first page (the next href's query is sent
 * to the same operation). `strict`: a page reached through `next` must hold items (`next` only when
 * items follow, docs/decisions/learner/reference-server-and-player.md); otherwise an empty page ends the walk.
 */
export async function walk(t: CheckContext, op: ListOp, query: Query = {}, params?: Record<string, string>, strict = false): Promise<Walk> {
  const key = LIST_KEYS[op];
  const items: Item[] = [];
  let q: Query = { _limit: MAX_LIMIT, ...query };
  for (let pages = 1; pages <= MAX_PAGES; pages++) {
    const res = await t.http.send({ op, query: q, ...(params ? { params } : {}) });
    expectStatus(res, 200);
    const page = pageItems(res, key);
    if (page.length === 0 && pages > 1) {
      if (strict) fail('`_links.next` only when items follow the page', `page ${pages}, reached through the previous page's next link, is empty`, res);
      return { items, pages };
    }
    items.push(...page);
    const href = nextHref(res);
    if (href === undefined) return { items, pages };
    q = Object.fromEntries(new URL(href, 'http://next.invalid').searchParams);
  }
  return fail(`a list that ends within ${MAX_PAGES} pages`, `_links.next still present after ${MAX_PAGES} pages`);
}

const idOf = (item: Item): string => String(item.id).toLowerCase();

export interface Category {
  id: string;
  parentCategoryId: string | null;
}

/** Every category of the learner's catalog. */
export async function categories(t: CheckContext): Promise<Category[]> {
  const { items } = await walk(t, 'learner.categories.list');
  return items.map((c) => ({ id: idOf(c), parentCategoryId: typeof c.parentCategoryId === 'string' ? c.parentCategoryId.toLowerCase() : null }));
}

/** The category and every one of its descendants, by the categories' `parentCategoryId`. */
export function subtree(all: readonly Category[], root: string): Set<string> {
  const found = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of all) {
      if (c.parentCategoryId !== null && found.has(c.parentCategoryId) && !found.has(c.id)) {
        found.add(c.id);
        grew = true;
      }
    }
  }
  return found;
}

/** The ids of a list of items, lower-cased. */
export const ids = (items: readonly Item[]): string[] => items.map(idOf);

/** The instructor-led catalog courses, as the catalog calendar lists them (their `courseId`). */
export async function instructorLedCourses(t: CheckContext): Promise<string[]> {
  const { items } = await walk(t, 'learner.calendar.list');
  return items.map((i) => String(i.courseId).toLowerCase());
}

/** A course's sessions with `includeCompletedSessions` as given (undefined: absent). */
export async function sessionsOf(t: CheckContext, courseId: string, include?: boolean): Promise<Item[]> {
  return (await walk(t, 'learner.sessions.list', include === undefined ? {} : { includeCompletedSessions: include }, { courseId })).items;
}

/** Set difference and inclusion of id lists. */
export const missingFrom = (wanted: readonly string[], got: readonly string[]): string[] => wanted.filter((id) => !got.includes(id));

/** A short list of ids for a Received line. */
export function showIds(list: readonly string[], max = 4): string {
  return list.length <= max ? `[${list.join(', ')}]` : `[${list.slice(0, max).join(', ')}, … ${list.length - max} more]`;
}
