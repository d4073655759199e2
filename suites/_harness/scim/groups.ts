/**
 * Groups for the group checks (suites/scim/groups.check.ts) and the identity-provider checks: sets
 * of groups a check creates under one prefix, the filter that confines a list to them (what the
 * target's filter supports: `displayName sw "<prefix>"`, else one `externalId eq` the set shares,
 * else `displayName eq` of each joined by `or`), and the members a group answers.
 */
import { describeResponse, fail } from '../failure.js';
import type { ApiResponse } from '../http.js';
import { blockedBy, notSetUp } from '../outcomes.js';
import type { Json } from '../records.js';
import type { CheckContext } from '../requirement.js';
import { createGroup, literal, pageOf, resourceOf, uniqueName, type ListPage } from './records.js';
import { scimTargetOf, supportsAttribute, supportsLogical, supportsOperator } from './target.js';

/** The check that owns "a filter on displayName selects the groups it names": a list that shows groups outside its set is blocked by it. */
export const GROUP_FILTER_CHECK = 'scim.groups.filter-display-name-eq';
/** The check that owns "a created group answers its members' values". */
export const GROUP_MEMBERS_CHECK = 'scim.groups.create-members';

export type Group = Json & { id: string; displayName: string };

export interface GroupSet {
  prefix: string;
  /** The filter that selects exactly the set. */
  filter: string;
  /** The groups as created, in creation order. */
  groups: Group[];
}

/** Whether the target's filter supports `op` on the attribute (the profile's declaration, narrowed by discovery). */
export async function groupFilterSupports(t: CheckContext, attribute: string, op: 'eq' | 'sw' = 'eq'): Promise<boolean> {
  const { filter } = await scimTargetOf(t);
  return supportsOperator(filter, op) && supportsAttribute(filter, attribute);
}

/**
 * Creates groups named `<prefix><suffix>` for each suffix, in the order given, and the filter that
 * confines a list to them; the check is skipped when the target's filter can confine none.
 */
export async function createGroupSet(t: CheckContext, tag: string, suffixes: readonly string[], extra: Json = {}): Promise<GroupSet> {
  const { filter: support } = await scimTargetOf(t);
  const eq = (a: string): boolean => supportsOperator(support, 'eq') && supportsAttribute(support, a);
  const strategy =
    supportsOperator(support, 'sw') && supportsAttribute(support, 'displayName')
      ? 'prefix'
      : eq('externalId')
        ? 'externalId'
        : eq('displayName') && supportsLogical(support, 'or')
          ? 'or'
          : undefined;
  if (strategy === undefined)
    t.skip(
      "the target's filter (expectations.scim.filter) cannot confine a list to the check's own groups: none of displayName sw, externalId eq, displayName eq with or",
    );
  const prefix = `${uniqueName(t, tag)}.`;
  const groups: Group[] = [];
  for (const suffix of suffixes) {
    groups.push(await createGroup(t, tag, { displayName: `${prefix}${suffix}`, ...(strategy === 'externalId' ? { externalId: prefix } : {}), ...extra }));
  }
  const filter =
    strategy === 'prefix'
      ? `displayName sw ${literal(prefix)}`
      : strategy === 'externalId'
        ? `externalId eq ${literal(prefix)}`
        : groups.map((g) => `displayName eq ${literal(g.displayName)}`).join(' or ');
  return { prefix, filter, groups };
}

/** GET /Groups with the query; 200 expected. A 400 invalidFilter to a filter the check only lists
 * with (chosen from what the target declares) leaves the check not set up; where the filter is the
 * check's rule (`own`), it fails the check. */
export async function listGroups(
  t: CheckContext,
  query: Record<string, string | number>,
  what: string,
  own = false,
): Promise<{ res: ApiResponse; page: ListPage }> {
  const res = await t.http.send({ op: 'scim.groups.list', query });
  if (!own && res.status === 400 && resourceOf(res).scimType === 'invalidFilter' && query.filter !== undefined)
    notSetUp(res, "the list of the check's groups (its filter)");
  if (res.status !== 200) fail(`200 with a ListResponse ${what}`, describeResponse(res), res);
  return { res, page: pageOf(res) };
}

/** The page's groups, which must all be of the set: a group outside it means the filter did not confine the list (blocked by the filter check). */
export function ofSet(set: GroupSet, page: ListPage, res: ApiResponse): Json[] {
  const ids = new Set(set.groups.map((g) => g.id));
  const outside = page.resources.filter((r) => !ids.has(String(r.id)));
  if (outside.length > 0) blockedBy(GROUP_FILTER_CHECK, `the filter ${set.filter} listed ${outside.length} group(s) outside the check's ${ids.size}`, res);
  return page.resources;
}

/**
 * When a filtered list showed groups it should not have: whether the target applies a group filter
 * at all. A displayName eq naming no group must list none; when it lists some, the filter is
 * ignored, which is the displayName check's deviation (the check is blocked by it). Sent only on
 * the failing path, and only where the target declares displayName eq.
 */
export async function blockedIfFilterIgnored(t: CheckContext, res: ApiResponse): Promise<void> {
  if (!(await groupFilterSupports(t, 'displayName'))) return;
  const probe = await t.http.send({ op: 'scim.groups.list', query: { filter: `displayName eq ${literal(uniqueName(t, 'no-such-group'))}`, count: 1 } });
  const total = pageOf(probe).totalResults;
  if (probe.status === 200 && total !== undefined && total > 0)
    blockedBy(
      GROUP_FILTER_CHECK,
      `a displayName eq naming no group listed ${total} groups: the filter is not applied (the check's list: ${describeResponse(res)})`,
      probe,
    );
}

/** The member values of a group as answered; a member without `value` is scim.groups.create-members' deviation. */
export function memberValues(group: Json, res?: ApiResponse): string[] {
  const members = group.members;
  if (members === undefined || members === null) return [];
  const list = Array.isArray(members) ? (members as unknown[]) : [members];
  const values = list.map((m) => (typeof m === 'object' && m !== null ? (m as Json).value : undefined));
  if (values.some((v) => typeof v !== 'string'))
    blockedBy(GROUP_MEMBERS_CHECK, `the group's members do not all carry their value: ${JSON.stringify(members)}`, res);
  return values as string[];
}

/** A group made with these members; the check is blocked when its answer does not name them (create-members' rule). */
export async function groupWithMembers(t: CheckContext, tag: string, members: readonly string[], extra: Json = {}): Promise<Group> {
  const group = await createGroup(t, tag, { members: members.map((value) => ({ value })), ...extra });
  const shown = memberValues(group);
  if (members.some((m) => !shown.includes(m)))
    blockedBy(GROUP_MEMBERS_CHECK, `the created group's members ${JSON.stringify(group.members)} do not name ${members.join(', ')}`);
  return group;
}

/** Same members, order not judged. */
export function expectMembers(expected: readonly string[], group: Json, what: string, res: ApiResponse): void {
  const got = memberValues(group, res);
  const same = got.length === expected.length && expected.every((v) => got.includes(v));
  if (!same) fail(`${what}: members exactly ${JSON.stringify([...expected].sort())}`, `members ${JSON.stringify(group.members ?? null)}`, res);
}
