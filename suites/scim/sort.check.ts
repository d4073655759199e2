// SCIM sorting (RFC 7644 §3.4.2.3; specification "SCIM 2.0 API" sortBy/sortOrder): each check sorts
// users it created itself (confined to them by the filter the target supports, list-fixture.ts), read
// over pages of a generated size: the pages put together must be in order. Values are distinct, so
// every order judged is total. One rule per check: the reading stops on what the pages
// say (totalResults), so a server whose paging breaks another rule leaves the order to be judged or
// blocks the check, naming the paging check; and only scim.sort.username-ascending judges case: the
// others judge only pairs whose order is the same compared case-insensitively and by code units.
import fc from 'fast-check';
import { fail } from '../_harness/failure.js';
import { blockedBy } from '../_harness/outcomes.js';
import type { ApiResponse } from '../_harness/http.js';
import { memo, type Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { compareFolded, createFilteredUser, createListFixture, type ListFixtureExtra, primaryOrFirst } from '../_harness/scim/list-fixture.js';
import { listUsers, readSet } from '../_harness/scim/paging.js';
import { expectScimError, pageOf, SCIM_SCHEMAS } from '../_harness/scim/records.js';
import { requireUserAttributes, scimTargetOf, uniqueEmail } from '../_harness/scim/target.js';

const SIZE = 25;
/** A sortBy that names no attribute of the User schema (nor of any schema RFC 7643 defines). */
const UNKNOWN_SORT_BY = 'lpcNoSuchAttribute';
const WRITES = { write: ['scim.users'] } as const;

type Order = 'ascending' | 'descending' | 'absent';

const sortsOrSkip = async (t: CheckContext): Promise<void> => {
  if (!(await scimTargetOf(t)).sort) t.skip('the target does not sort, says the profile or /ServiceProviderConfig (RFC 7644 §3.4.2.3 makes sorting optional)');
};

const show = (v: string | undefined): string => (v === undefined ? 'no value' : JSON.stringify(v));

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The resources must be in the order of their keys compared case-insensitively (caseExact false),
 * ascending or descending; resources without a key are not judged here. With `caseMatters` false
 * (the check's rule is not case), only pairs whose order is the same by code units are judged: a
 * server that compares case-sensitively breaks scim.sort.username-ascending's rule, not this one's.
 */
function expectOrdered(
  resources: readonly Json[],
  key: (r: Json) => string | undefined,
  descending: boolean,
  what: string,
  res: ApiResponse,
  caseMatters = false,
): void {
  const keyed = resources.map((r, i) => ({ k: key(r), at: i + 1 })).filter((x): x is { k: string; at: number } => x.k !== undefined);
  const wrong = (c: number): boolean => (descending ? c < 0 : c > 0);
  for (let i = 0; i < keyed.length; i++) {
    for (let j = i + 1; j < keyed.length; j++) {
      const a = keyed[i] as { k: string; at: number };
      const b = keyed[j] as { k: string; at: number };
      const folded = compareFolded(a.k, b.k);
      if (!wrong(folded) || (!caseMatters && !wrong(byCodeUnits(a.k, b.k)))) continue;
      fail(
        `${what} ${descending ? 'descending' : 'ascending'}, compared case-insensitively`,
        `${show(a.k)} at position ${a.at} before ${show(b.k)} at position ${b.at}`,
        res,
      );
    }
  }
}

interface SortRule {
  id: string;
  title: string;
  sortBy: string;
  orders: readonly Order[];
  /** The attributes of the target's User the rule needs (GET /Schemas). */
  needs?: readonly string[];
  /** An extension of the User the rule needs (its /Schemas lists it), the attributes the fixture's
   * users carry in it (`given`: which of them, by index), and the sort key they give each user: a
   * user given it that the target answers without it means the target did not keep the extension,
   * and the check is skipped. */
  extension?: { urn: string; extra: ListFixtureExtra; given: (index: number) => boolean; key: (r: Json) => string | undefined };
  judge: (resources: readonly Json[], descending: boolean, res: ApiResponse) => void;
}

/** Skips the check when the target does not take the rule's extension, or did not keep it. */
async function requireExtension(t: CheckContext, rule: SortRule, users?: readonly Json[]): Promise<void> {
  const ext = rule.extension;
  if (ext === undefined) return;
  if (!(await scimTargetOf(t)).schema.extensions.has(ext.urn.toLowerCase())) t.skip(`the target's /Schemas lists no ${ext.urn} (optional, RFC 7643 §4.3)`);
  if (users?.some((u, i) => ext.given(i) && ext.key(u) === undefined))
    t.skip(`the target answered the fixture's users without their ${ext.urn} attributes: it did not keep them`);
}

function sortCheck(rule: SortRule): void {
  const fixture = memo((t) => createListFixture(t, 'st', SIZE, rule.extension?.extra));
  requirement(
    { id: rule.id, level: 'MUST', spec: 'rfc7644#section-3.4.2.3', title: rule.title },
    async (t) => {
      await sortsOrSkip(t);
      await requireUserAttributes(t, rule.needs ?? []);
      await requireExtension(t, rule);
      const f = await fixture(t);
      await requireExtension(t, rule, f.users);
      const ask = fc.record({ count: fc.oneof(fc.integer({ min: 5, max: 12 }), fc.constantFrom(SIZE, SIZE + 2)), order: fc.constantFrom(...rule.orders) });
      await t.property(ask, async ({ count, order }) => {
        const w = await readSet(t, { filter: f.filter, sortBy: rule.sortBy, sortOrder: order === 'absent' ? undefined : order }, count, f.ids);
        rule.judge(w.resources, order === 'descending', w.last);
      });
    },
    WRITES,
  );
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const userName = (r: Json): string | undefined => text(r.userName);

sortCheck({
  id: 'scim.sort.username-ascending',
  title: 'sortBy=userName&sortOrder=ascending orders by userName, case-insensitively (caseExact false)',
  sortBy: 'userName',
  orders: ['ascending'],
  judge: (rs, desc, res) => expectOrdered(rs, userName, desc, 'userName', res, true),
});

sortCheck({
  id: 'scim.sort.default-ascending',
  title: 'sortBy without sortOrder sorts ascending',
  sortBy: 'userName',
  orders: ['absent'],
  judge: (rs, desc, res) => expectOrdered(rs, userName, desc, 'userName (no sortOrder)', res),
});

sortCheck({
  id: 'scim.sort.username-descending',
  title: 'sortOrder=descending orders by userName descending',
  sortBy: 'userName',
  orders: ['descending'],
  judge: (rs, desc, res) => expectOrdered(rs, userName, desc, 'userName', res),
});

sortCheck({
  id: 'scim.sort.nested-given-name',
  title: 'sortBy=name.givenName orders by the sub-attribute, in both orders',
  sortBy: 'name.givenName',
  orders: ['ascending', 'descending'],
  needs: ['name.givenName'],
  judge: (rs, desc, res) => expectOrdered(rs, (r) => text((r.name as Json | undefined)?.givenName), desc, 'name.givenName', res),
});

// An extension attribute is named by its schema URN (RFC 7644 §3.10); sortBy takes an attribute
// name as a filter does (§3.4.2.3), so the enterprise employeeNumber sorts as a core attribute.
const withoutExtension = (index: number): boolean => index % 5 === 0;
const employeeNumber = (r: Json): string | undefined => text((r[SCIM_SCHEMAS.enterprise] as Json | undefined)?.employeeNumber);
sortCheck({
  id: 'scim.sort.extension-attribute',
  title: 'sortBy=urn:…:enterprise:2.0:User:employeeNumber orders by the extension attribute',
  sortBy: `${SCIM_SCHEMAS.enterprise}:employeeNumber`,
  orders: ['ascending', 'descending'],
  extension: {
    urn: SCIM_SCHEMAS.enterprise,
    // One user in five without the extension: a server must sort the others around users that lack
    // the extension as a whole (their key is missing, which expectOrdered leaves unjudged).
    extra: ({ givenName }, i) =>
      withoutExtension(i) ? {} : { schemas: [SCIM_SCHEMAS.user, SCIM_SCHEMAS.enterprise], [SCIM_SCHEMAS.enterprise]: { employeeNumber: givenName } },
    given: (i) => !withoutExtension(i),
    key: employeeNumber,
  },
  judge: (rs, desc, res) => expectOrdered(rs, employeeNumber, desc, `${SCIM_SCHEMAS.enterprise}:employeeNumber`, res),
});

sortCheck({
  id: 'scim.sort.multi-valued-primary-or-first',
  title: 'sortBy=emails orders by the primary email, else the first one',
  sortBy: 'emails',
  orders: ['ascending', 'descending'],
  needs: ['emails'],
  judge: (rs, desc, res) => expectOrdered(rs, (r) => primaryOrFirst(r.emails), desc, "emails (the primary value's, else the first's)", res),
});

sortCheck({
  id: 'scim.sort.missing-values',
  title: 'Resources without the sortBy value come last ascending and first descending',
  sortBy: 'title',
  orders: ['ascending', 'descending'],
  needs: ['title'],
  judge: (rs, desc, res) => {
    const has = rs.map((r) => text(r.title) !== undefined);
    // Ascending: every resource with a title before every one without; descending: the reverse.
    const firstGroup = !desc;
    const switchAt = has.findIndex((h) => h !== firstGroup);
    const back = switchAt === -1 ? -1 : has.slice(switchAt).findIndex((h) => h === firstGroup);
    if (back !== -1)
      fail(
        `the users without a title ${desc ? 'first' : 'last'} (sortOrder ${desc ? 'descending' : 'ascending'})`,
        `a user ${firstGroup ? 'with' : 'without'} a title at position ${switchAt + back + 1}, after one ${firstGroup ? 'without' : 'with'} at ${switchAt + 1}`,
        res,
      );
  },
});

{
  const fixture = memo((t) => createFilteredUser(t, 'st', { emails: [{ value: uniqueEmail(t, 'sort'), type: 'work' }] }));
  requirement(
    {
      id: 'scim.sort.unknown-attribute',
      level: 'SHOULD',
      spec: 'rfc7644#section-3.4.2.3',
      title: 'sortBy naming no attribute of the User answers 200 (ignored) or a 400 SCIM error, not a 5xx',
    },
    async (t) => {
      // RFC 7644 §3.4.2.3 leaves an unknown sortBy open: ignoring it and refusing it (§3.12, a 400
      // such as invalidValue) are both read as conforming; a server error is neither.
      const f = await fixture(t);
      const what = `to sortBy=${UNKNOWN_SORT_BY} (an attribute the User schema does not define)`;
      const res = await t.http.send({ op: 'scim.users.list', query: { filter: f.filter, sortBy: UNKNOWN_SORT_BY } });
      if (res.status !== 200) return expectScimError(res, 400, undefined, `or 200 ${what}`);
      if (pageOf(res).resources.some((r) => r.id === f.id)) return;
      // The same list without sortBy tells a sort that lost the user from a filter that never found it.
      const plain = await t.http.send({ op: 'scim.users.list', query: { filter: f.filter } });
      if (plain.status === 200 && !pageOf(plain).resources.some((r) => r.id === f.id))
        blockedBy('scim.filter.generated', `the filter ${f.filter} without sortBy leaves out the user ${f.id} too`, plain);
      fail(`200 listing the user its filter matches ${what}`, `Resources without ${f.id}: ${res.text.slice(0, 200)}`, res);
    },
    WRITES,
  );
  requirement(
    {
      id: 'scim.sort.sub-attribute-status',
      level: 'PROFILE',
      spec: 'spec#scim-20-api',
      title: 'sortBy on a sub-attribute of a multi-valued attribute (emails.type) answers the profile status',
    },
    async (t) => {
      const status = t.profile.expectations.scim.sortSubAttributeStatus;
      if (status === 0) t.skip('the profile does not say what sortBy=emails.type answers (sortSubAttributeStatus 0)');
      const f = await fixture(t);
      if (status === 200) {
        await listUsers(t, { filter: f.filter, sortBy: 'emails.type' }, 'to sortBy=emails.type (the profile says 200)');
        return;
      }
      const res = await t.http.send({ op: 'scim.users.list', query: { filter: f.filter, sortBy: 'emails.type' } });
      expectScimError(res, status, undefined, 'to sortBy=emails.type (the specification: sorting by a sub-attribute is unsupported)');
    },
    WRITES,
  );
}
