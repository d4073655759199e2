// SCIM filtering (rfc7644#section-3.4.2.2; RFC 7643 for the attributes' characteristics;
// spec#scim-20-api, the "filter" row): the answers of a target's `filter` parameter over a set of
// users the checks create, judged by the suite's own evaluator (suites/_harness/scim/filter.ts),
// never by what one server happens to do. Every request is confined to the fixture's users (with
// `userName sw "<fixture prefix>" and …`, or one `userName eq` per user where the target filters
// on eq and and alone: `Mode`), so the target's own data and concurrent checks never matter; a
// resource that is not one of the fixture's users in an answer is a failure. What the target's
// filter does not support (the profile's `expectations.scim.filter`, RFC 7644 §3.4.2.2 makes
// filtering optional) is neither generated nor sent: a check whose filters it all lacks is skipped.
import { describeResponse, excerpt, fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { blockedBy } from '../_harness/outcomes.js';
import { perServer, type Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { queryRoom } from '../_harness/url-budget.js';
import {
  and,
  attrPath,
  booleanValue,
  compare,
  ENTERPRISE_USER_URN,
  group,
  invalidScimFilter,
  judgeFilter,
  not,
  NULL_VALUE,
  or,
  present,
  print,
  scimFilterOver,
  scoped,
  scopedText,
  stringValue,
  valuePath,
  type AttributeDescription,
  type CompareOperator,
  type FilterJudgement,
  type ResourceSchema,
  type ScimFilter,
  type Verdict,
  USER_SCHEMA_URN as USER_URN,
} from '../_harness/scim/filter.js';
import { createUser, expectScimError, pageOf, pageSaid, runMarker, SCIM_SCHEMAS } from '../_harness/scim/records.js';
import {
  filterableUser,
  scimTargetOf,
  supportsAttribute,
  supportsLogical,
  supportsOperator,
  unsupportedIn,
  type ScimFilterSupport,
} from '../_harness/scim/target.js';

const FILTER = 'rfc7644#section-3.4.2.2';
const USES = { write: ['scim.users'] } as const;

// ---------------------------------------------------------------------------------------------
// The fixture: about twenty users of mixed case, some without optional attributes, several emails
// with types and a primary, the enterprise extension on some. Created once per target server.

interface Fixture {
  /** The prefix of every fixture userName (lower case): the scope of every request. */
  prefix: string;
  /** A token unique to the fixture, in its emails and externalIds. */
  tok: string;
  /** The users as the target answered their creation. */
  users: Json[];
  /** Users by role in the specific checks. */
  byTail: Map<string, Json>;
  /** How requests are confined to the fixture. */
  mode: Mode;
  /** What the target's filter supports (profile, narrowed by discovery). */
  support: ScimFilterSupport;
  /** The User as far as the target filters on it: the evaluator's description, narrowed to the supported attributes. */
  schema: ResourceSchema;
}

function fixtureUsers(tok: string): [tail: string, extra: Json][] {
  const ent = (v: Json): Json => ({ schemas: [SCIM_SCHEMAS.user, SCIM_SCHEMAS.enterprise], [SCIM_SCHEMAS.enterprise]: v });
  const email = (value: string, type: string, primary?: boolean): Json => ({ value, type, ...(primary === undefined ? {} : { primary }) });
  return [
    [
      'Alice.Smith',
      {
        name: { givenName: 'Alice', familyName: 'Smith' },
        displayName: 'Alice Smith',
        title: 'Engineer',
        userType: 'Employee',
        active: true,
        externalId: `Ext-${tok}-AbC`,
        emails: [email(`alice.${tok}@Example.com`, 'work', true), email(`ALICE.${tok}@Home.example.org`, 'home')],
        ...ent({ employeeNumber: '1001', department: 'Sales' }),
      },
    ],
    [
      'BOB',
      {
        name: { givenName: 'Bob', familyName: 'Brown' },
        title: 'engineer',
        userType: 'Contractor',
        active: false,
        externalId: `ext-${tok}-bob`,
        emails: [email(`bob.${tok}@home.example.net`, 'home'), email(`Bob.${tok}@Example.COM`, 'work', true)],
      },
    ],
    ['carol', { name: { givenName: 'Carol', familyName: 'Clark' } }],
    [
      'Dave.JONES',
      {
        name: { givenName: 'Dave', familyName: 'Jones' },
        title: 'Manager',
        userType: 'Employee',
        active: true,
        emails: [email(`dave.${tok}@example.org`, 'work')],
        ...ent({ employeeNumber: '1002', department: 'Engineering' }),
      },
    ],
    ['eve', { name: { givenName: 'Eve', familyName: 'Evans' }, title: 'MANAGER', active: false, displayName: 'Eve', externalId: `EXT-${tok}-EVE` }],
    [
      'Frank-Ng',
      {
        name: { givenName: 'Frank', familyName: 'Ng' },
        userType: 'employee',
        preferredLanguage: 'en-US',
        emails: [email(`frank.${tok}@Example.org`, 'other')],
      },
    ],
    [
      'grace',
      {
        name: { givenName: 'Grace', familyName: 'Hopper' },
        title: 'Director',
        active: true,
        emails: [email(`grace.${tok}@work.example.com`, 'work', true), email(`g.${tok}@EXAMPLE.net`, 'home')],
        ...ent({ department: 'Sales', costCenter: 'CC-9' }),
      },
    ],
    ['HEIDI', { name: { givenName: 'Heidi', familyName: 'Klum' }, displayName: 'heidi h', active: true, externalId: `ext-${tok}-Heidi` }],
    [
      'ValPath-Hit',
      {
        name: { givenName: 'Val', familyName: 'Hit' },
        active: true,
        // The matching value is the SECOND one: a server reading only the first value misses it.
        emails: [email(`x.${tok}@home.example`, 'home'), email(`vp${tok}.w@corp.example`, 'work')],
      },
    ],
    [
      'ValPath-Miss',
      {
        name: { givenName: 'Val', familyName: 'Miss' },
        active: false,
        // "work" and the piece are on different values: no one value satisfies the value filter.
        emails: [email(`vp${tok}.h@home.example`, 'home'), email(`y.${tok}@corp.example`, 'work')],
      },
    ],
    ['ivan', { name: { givenName: 'Ivan', familyName: 'Petrov' }, title: 'Engineer II', userType: 'Contractor', active: true }],
    ['Judy.O', { name: { givenName: 'Judy', familyName: "O'Neil" }, active: false, ...ent({ employeeNumber: '1003' }) }],
    ['KARL', { name: { givenName: 'Karl', familyName: 'Marx' }, title: 'engineer', emails: [email(`karl.${tok}@Example.Com`, 'work', true)] }],
    ['Liam', { name: { givenName: 'Liam', familyName: 'Neeson' }, userType: 'EMPLOYEE', externalId: `LIAM-${tok}` }],
    ['mallory', { name: { givenName: 'Mallory', familyName: 'Mal' }, title: 'Auditor', active: false, displayName: 'MALLORY' }],
    [
      'Nina.Ruiz',
      {
        name: { givenName: 'Nina', familyName: 'Ruiz' },
        title: 'Manager',
        active: true,
        emails: [email(`nina.${tok}@corp.example`, 'work', true), email(`NINA.${tok}@mail.example`, 'home'), email(`n.${tok}@other.example`, 'other')],
        ...ent({ employeeNumber: '1004', department: 'engineering' }),
      },
    ],
    ['oscar', { name: { givenName: 'Oscar', familyName: 'Wilde' }, displayName: 'Oscar W', preferredLanguage: 'fr' }],
    [
      'Quinn',
      {
        name: { givenName: 'Quinn', familyName: 'Fabray' },
        userType: 'Employee',
        active: true,
        // The example.org email is the second value.
        emails: [email(`quinn.${tok}@mail.example.net`, 'home'), email(`quinn.${tok}@example.org`, 'work')],
      },
    ],
    ['Peggy', { name: { givenName: 'Peggy', familyName: 'Sue' }, title: 'director', userType: 'Contractor', active: true, externalId: `peggy-${tok}` }],
  ];
}

/**
 * How the fixture's requests are confined to its users (a server whose filter supports
 * `eq` and `and` alone is still judged): `prefix` sends `userName sw "<prefix>" and …` once;
 * `per-record` sends `userName eq "<user>" and …` once per fixture user (the answers together are
 * the answer over the fixture); `unscoped` sends the filter alone and judges only the fixture's users
 * in the answer (other users are other clients'), totalResults unjudged.
 */
type Mode = 'prefix' | 'per-record' | 'unscoped';

/** The fixture, made once per target server by the first check that needs it. */
const fixture = perServer(async (t): Promise<Fixture> => {
  const target = await scimTargetOf(t);
  const support = target.filter;
  const canEqUserName = supportsOperator(support, 'eq') && supportsAttribute(support, 'userName');
  const mode: Mode = target.scope === 'prefix' ? 'prefix' : canEqUserName && supportsLogical(support, 'and') ? 'per-record' : 'unscoped';
  const tok = t.uuid().slice(0, 6);
  const prefix = `${runMarker(t)}flt${tok}-`.toLowerCase();
  const users: Json[] = [];
  const byTail = new Map<string, Json>();
  for (const [tail, extra] of fixtureUsers(tok)) {
    const user = await createUser(t, 'flt', { ...extra, userName: `${prefix}${tail}` });
    users.push(user);
    byTail.set(tail, user);
  }
  // A target whose lists trail its writes (a search index) gets a few seconds to list them all
  // before any check judges a filter; one that never does fails the checks with the evidence.
  const scope = print(compare(attrPath('userName'), 'sw', stringValue(prefix)));
  for (let attempt = 1; mode === 'prefix' && attempt <= 5; attempt++) {
    const res = await t.http.send({ op: 'scim.users.list', query: { filter: scope, startIndex: 1, count: 1000 } });
    const listed = new Set(pageOf(res).resources.map((r) => String(r.id)));
    if (res.status !== 200 || users.every((u) => listed.has(String(u.id)))) break;
    await new Promise((resolve) => setTimeout(resolve, 400 * attempt));
  }
  return { prefix, tok, users, byTail, mode, support, schema: filterableUser(support) };
});

function userOf(f: Fixture, tail: string): Json & { id: string; userName: string } {
  const user = f.byTail.get(tail);
  if (!user) throw new Error(`no fixture user ${tail}`);
  return user as Json & { id: string; userName: string };
}

const userName = attrPath('userName');
const eqUserName = (name: string): ScimFilter => compare(userName, 'eq', stringValue(name));
const eqUserNameAt = (name: string, uri: string): ScimFilter => compare(attrPath('userName', undefined, uri), 'eq', stringValue(name));

/** The filters that confine a request to the fixture (one request each); undefined: none (unscoped). */
function scopesOf(f: Fixture): (ScimFilter | undefined)[] {
  switch (f.mode) {
    case 'prefix':
      return [compare(userName, 'sw', stringValue(f.prefix))];
    case 'per-record':
      return f.users.map((u) => eqUserName(String(u.userName)));
    case 'unscoped':
      return [undefined];
  }
}

/** The text of `inner` confined by `scope` (`scoped`: `<scope> and <inner>`, parentheses only around an `or`);
 * `inner` may be a text that does not parse (then always `<scope> and (<inner>)`). */
const within = (scope: ScimFilter | undefined, inner: ScimFilter | string): string =>
  typeof inner === 'string' ? (scope ? scopedText(scope, inner) : inner) : print(scope ? scoped(scope, inner) : inner);

/** Skips the check when the target's filter does not support `filter` (what the profile declares). */
function requireSupported(t: CheckContext, f: Fixture, filter: ScimFilter): void {
  const missing = unsupportedIn(filter, f.support);
  if (missing !== undefined) t.skip(`the profile says the target's filter does not support ${missing} (RFC 7644 §3.4.2.2 makes filtering optional)`);
}

/** Every string attribute of `schema` with caseExact 'either': where the case of a value decides a
 * verdict, the verdict is ambiguous. For checks whose rule is not case (one deviation, one
 * failure): a server that compares some attribute's case wrongly fails the case checks, not these. */
function caseAgnostic(schema: ResourceSchema): ResourceSchema {
  const relax = (a: AttributeDescription): AttributeDescription => ({
    ...a,
    caseExact: a.type === 'string' ? 'either' : a.caseExact,
    ...(a.subAttributes ? { subAttributes: a.subAttributes.map(relax) } : {}),
  });
  return {
    ...schema,
    attributes: schema.attributes.map(relax),
    extensions: Object.fromEntries(Object.entries(schema.extensions).map(([k, v]) => [k, v.map(relax)])),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading an answer and judging it

type Answer =
  | { kind: 'rejected'; res: ApiResponse; text: string }
  | { kind: 'listed'; res: ApiResponse; text: string; resources: Json[]; totalResults: number | undefined; scoped: boolean };

/** The check that owns "a filter matching nothing answers 200, not 404": another check meeting a 404 is blocked by it. */
const NO_MATCH_CHECK = 'scim.filter.no-match-empty-list';

/**
 * Every match of `filter`: pages of up to 1000 from startIndex 1, bounded by totalResults. A 404 to
 * a filter that matches nothing (`matchesNone`) is scim.filter.no-match-empty-list's deviation: the
 * check is blocked by it; to one that matches something it is the check's own failure.
 */
async function readMatches(
  t: CheckContext,
  filter: string,
  pageSize: number,
  matchesNone: boolean,
): Promise<{ kind: 'rejected'; res: ApiResponse } | { kind: 'listed'; res: ApiResponse; resources: Json[]; totalResults: number | undefined }> {
  const first = await t.http.send({ op: 'scim.users.list', query: { filter, startIndex: 1, count: pageSize } });
  if (first.status === 400) return { kind: 'rejected', res: first };
  if (first.status === 404 && matchesNone) blockedBy(NO_MATCH_CHECK, `filter ${filter}, which matches nothing, answered ${describeResponse(first)}`, first);
  if (first.status !== 200) fail(`200 with the ListResponse of filter ${filter}`, describeResponse(first), first);
  const page = pageOf(first);
  const resources = [...page.resources];
  const total = page.totalResults;
  let res = first;
  for (let pages = 1; total !== undefined && resources.length < total && pages < 30; pages++) {
    res = await t.http.send({ op: 'scim.users.list', query: { filter, startIndex: resources.length + 1, count: pageSize } });
    if (res.status !== 200) fail(`200 with the next page of filter ${filter}`, describeResponse(res), res);
    const next = pageOf(res);
    if (next.totalResults !== total)
      fail(`totalResults ${total} on every page of filter ${filter}`, `totalResults ${next.totalResults} at startIndex ${resources.length + 1}`, res);
    if (next.resources.length === 0) break;
    resources.push(...next.resources);
  }
  return { kind: 'listed', res: first, resources, totalResults: total };
}

/** The answer over the fixture to `inner`, confined as the fixture's mode says; the first refusal
 * (400) is the answer when a request is refused. totalResults is the sum of the requests'.
 * `verdicts` (the evaluator's, when it has them) tell which requests should match nothing. */
async function ask(t: CheckContext, f: Fixture, inner: ScimFilter | string, verdicts: readonly Verdict[] = [], pageSize = 1000): Promise<Answer> {
  const scopes = scopesOf(f);
  const texts = scopes.map((scope) => within(scope, inner));
  const first = texts[0] ?? '';
  const text = texts.length > 1 ? `${first} (one request per fixture user: userName eq each)` : first;
  const resources = new Map<string, Json>();
  let total: number | undefined = 0;
  let shown: ApiResponse | undefined;
  for (const [i, filter] of texts.entries()) {
    // Per record, request i is about user i alone; otherwise about them all.
    const matchesNone = f.mode === 'per-record' ? verdicts[i] === false : verdicts.length > 0 && verdicts.every((v) => v === false);
    const answer = await readMatches(t, filter, pageSize, matchesNone);
    if (answer.kind === 'rejected') return { kind: 'rejected', res: answer.res, text: filter };
    shown ??= answer.res;
    for (const r of answer.resources) resources.set(String(r.id), r);
    total = total === undefined || answer.totalResults === undefined ? undefined : total + answer.totalResults;
  }
  return { kind: 'listed', res: shown as ApiResponse, text, resources: [...resources.values()], totalResults: total, scoped: f.mode !== 'unscoped' };
}

const nameOf = (r: Json): string => (typeof r.userName === 'string' ? r.userName : String(r.id));

/**
 * The answer to `filter` must be what `verdicts` say of the fixture's users: each user judged true
 * in it, each judged false out of it ('ambiguous' either), nothing else in it (when the request was
 * confined to the fixture), and (unless told otherwise) totalResults the number of matches.
 * Returns the number of fixture users in the answer.
 */
function expectAnswer(
  f: Fixture,
  verdicts: readonly Verdict[],
  answer: Extract<Answer, { kind: 'listed' }>,
  options: { totalResults: boolean } = { totalResults: true },
): number {
  const { res, resources, totalResults, text: filter } = answer;
  const known = new Set(f.users.map((u) => String(u.id)));
  // What the answer said, beside what the check missed in it: the first page's envelope, and how
  // many resources the pages held in all.
  const said = `${pageSaid(pageOf(res))}${resources.length !== pageOf(res).resources.length ? `; ${resources.length} Resources over all its pages` : ''}`;
  const stranger = resources.find((r) => !known.has(String(r.id)));
  if (stranger && answer.scoped)
    fail(
      `only users whose userName starts with "${f.prefix}" in the answer of filter ${filter}`,
      `${nameOf(stranger)} (id ${String(stranger.id)}); ${said}`,
      res,
    );
  const answered = new Set(resources.map((r) => String(r.id)).filter((id) => known.has(id)));
  f.users.forEach((user, i) => {
    const verdict = verdicts[i];
    const inAnswer = answered.has(String(user.id));
    if (verdict === true && !inAnswer) {
      fail(
        `${nameOf(user)} in the answer of filter ${filter} (it matches by RFC 7644 §3.4.2.2)`,
        `not among the ${answered.size} returned (${said})${resources.length > 0 ? `: ${excerpt(resources.map(nameOf).join(', '), 400)}` : ''}`,
        res,
      );
    }
    if (verdict === false && inAnswer)
      fail(`${nameOf(user)} not in the answer of filter ${filter} (it does not match by RFC 7644 §3.4.2.2)`, `it was returned (${said})`, res);
  });
  if (options.totalResults && answer.scoped && totalResults !== answered.size)
    fail(`totalResults ${answered.size} (the number of matches of filter ${filter})`, `totalResults ${String(totalResults)} (${said})`, res);
  return answered.size;
}

/** The check that owns "a filter on a multi-valued attribute matches when any value does". */
const MULTI_VALUED_CHECK = 'scim.filter.multi-valued-any-value';

/**
 * Sends `inner` confined to the fixture and judges the answer; the judgement must be definite for
 * `point`. Unless `caseRule` (the check's rule is about case), verdicts that the case of a value
 * decides are left open (caseAgnostic). Returns false, sending nothing, when the target's filter does
 * not support `inner`: a check of several such selections is skipped when none could be sent. A
 * refusal is the check's failure, unless `refusalOwner` names the check whose rule the refused part
 * of the filter is (a filter on a multi-valued attribute): then the check is blocked by that one.
 */
async function expectSelection(
  t: CheckContext,
  f: Fixture,
  inner: ScimFilter,
  point: { selects?: Json[]; excludes?: Json[] },
  caseRule = false,
  refusalOwner?: string,
): Promise<boolean> {
  if (unsupportedIn(inner, f.support) !== undefined) return false;
  const text = print(inner);
  const judgement = judgeFilter(inner, f.users, caseRule ? f.schema : caseAgnostic(f.schema));
  if (judgement.kind !== 'valid') throw new Error(`the suite's evaluator judges ${text} ${judgement.kind}: ${judgement.reason}`);
  // The check's own point must be a definite verdict of the evaluator (else the check proves nothing).
  for (const [users, wanted] of [
    [point.selects ?? [], true],
    [point.excludes ?? [], false],
  ] as const) {
    for (const user of users) {
      const verdict = judgement.verdicts[f.users.indexOf(user)];
      if (verdict !== wanted)
        t.requireData(
          false,
          `the evaluator's verdict on ${nameOf(user)} for ${text} is ${String(verdict)} (the target's representation differs from the fixture's)`,
        );
    }
  }
  const answer = await ask(t, f, inner, judgement.verdicts);
  if (answer.kind === 'rejected' && refusalOwner !== undefined)
    blockedBy(refusalOwner, `filter ${answer.text} answered ${describeResponse(answer.res)}`, answer.res);
  if (answer.kind === 'rejected') fail(`200 with the users matching filter ${answer.text}`, describeResponse(answer.res), answer.res);
  // Which users match is this check's rule; totalResults is scim.filter.total-results-filtered's.
  expectAnswer(f, judgement.verdicts, answer, { totalResults: false });
  return true;
}

/** Skips the check when none of its selections could be sent (`sent`, what each expectSelection answered). */
function requireSent(t: CheckContext, sent: readonly boolean[], what: string): void {
  if (!sent.some(Boolean)) t.skip(`the profile says the target's filter supports none of ${what} (RFC 7644 §3.4.2.2 makes filtering optional)`);
}

// ---------------------------------------------------------------------------------------------
// Generated filters

/** Whether a filter names an attribute of an extension schema (section 3.4.2.2 and Table 9 let a
 * server refuse a filter on an attribute it does not support filtering on: invalidFilter). */
function namesExtension(filter: ScimFilter): boolean {
  switch (filter.kind) {
    case 'compare':
    case 'present':
      return filter.path.uri?.toLowerCase() === ENTERPRISE_USER_URN.toLowerCase();
    case 'and':
    case 'or':
      return namesExtension(filter.left) || namesExtension(filter.right);
    case 'not':
    case 'group':
      return namesExtension(filter.operand);
    case 'valuePath':
      return filter.path.uri?.toLowerCase() === ENTERPRISE_USER_URN.toLowerCase() || namesExtension(filter.filter);
  }
}

requirement(
  {
    id: 'scim.filter.generated',
    level: 'MUST',
    spec: FILTER,
    title: 'Generated filters (every operator, and/or/not, value paths) select what RFC 7644 says',
  },
  async (t) => {
    const f = await fixture(t);
    t.requireData(f.support.operators.length > 0, 'the target supports no filter operator (profile or /ServiceProviderConfig)');
    await t.property(scimFilterOver(f.users, f.schema, f.support, queryRoom(t.profile, 'scim.users.list')), async (generated) => {
      // Verdicts that the case of a value decides are the case checks' (username-*, other-strings,
      // external-id-case-exact, id-case-exact): left open here, so a server that compares case wrongly
      // fails those, not this one too.
      const judgement: FilterJudgement = judgeFilter(generated, f.users, caseAgnostic(f.schema));
      const answer = await ask(t, f, generated, judgement.kind === 'invalid' ? [] : judgement.verdicts);
      const text = answer.text;
      if (judgement.kind === 'invalid') {
        expectScimError(answer.res, 400, 'invalidFilter', `for filter ${text} (${judgement.reason})`);
        t.outcome('invalid-rejected');
        return;
      }
      const mayReject = judgement.kind === 'may-reject' || namesExtension(generated);
      if (answer.kind === 'rejected') {
        if (!mayReject) fail(`200 with the users matching filter ${text}`, describeResponse(answer.res), answer.res);
        expectScimError(answer.res, 400, 'invalidFilter', `for filter ${text}`);
        t.outcome('may-reject-rejected');
        t.degenerate('filter refused (allowed)');
        return;
      }
      const selected = expectAnswer(f, judgement.verdicts, answer);
      const definite = judgement.verdicts.filter((v) => v !== 'ambiguous').length;
      if (selected === 0) t.degenerate('the filter selected none of the fixture');
      else if (selected === f.users.length) t.degenerate('the filter selected every user of the fixture');
      else if (definite === 0) t.degenerate('every verdict ambiguous');
      else t.outcome('selected-proper-subset');
    });
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.malformed-rejected',
    level: 'MUST',
    spec: FILTER,
    title: 'A malformed filter (truncated, unknown operator, unbalanced, junk) answers 400 invalidFilter',
  },
  async (t) => {
    const f = await fixture(t);
    // One scope is enough to confine a filter that must be refused; ordering on a boolean is
    // scim.filter.boolean-ordering-rejected's rule, not a syntax error.
    const [scope] = scopesOf(f);
    await t.property(invalidScimFilter(['truncated', 'unknown-operator', 'unbalanced', 'unquoted-string', 'trailing-junk']), async ({ text, flaw }) => {
      const filter = within(scope, text);
      const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
      expectScimError(res, 400, 'invalidFilter', `for the malformed filter ${filter} (${flaw})`);
      t.outcome(flaw);
    });
  },
  USES,
);

// ---------------------------------------------------------------------------------------------
// Specific rules

/** Every letter's case swapped ("Alice.Smith" → "aLICE.sMITH"). */
const swapCase = (s: string): string => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

requirement(
  {
    id: 'scim.filter.username-eq-case-insensitive',
    level: 'MUST',
    spec: 'rfc7643#section-4.1.1',
    title: 'userName eq compares case-insensitively (userName has caseExact false)',
  },
  async (t) => {
    const f = await fixture(t);
    requireSupported(t, f, eqUserName('x'));
    for (const tail of ['Alice.Smith', 'BOB', 'carol']) {
      const user = userOf(f, tail);
      for (const variant of [user.userName.toUpperCase(), user.userName.toLowerCase(), swapCase(user.userName)]) {
        await expectSelection(t, f, eqUserName(variant), { selects: [user] }, true);
      }
    }
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.username-substring-case-insensitive',
    level: 'MUST',
    spec: 'rfc7643#section-4.1.1',
    title: 'userName sw, co and ew compare case-insensitively (userName has caseExact false)',
  },
  async (t) => {
    const f = await fixture(t);
    const user = userOf(f, 'Dave.JONES');
    const name = user.userName;
    const cases: [CompareOperator, string][] = [
      ['sw', swapCase(name.slice(0, f.prefix.length + 6))],
      ['co', swapCase('Dave.J')],
      ['co', 'DAVE.JONES'],
      ['ew', swapCase(name.slice(-7))],
      ['ew', 'ave.jones'],
    ];
    const sent: boolean[] = [];
    for (const [op, operand] of cases) sent.push(await expectSelection(t, f, compare(userName, op, stringValue(operand)), { selects: [user] }, true));
    requireSent(t, sent, 'userName sw, co, ew');
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.other-strings-case-insensitive',
    level: 'MUST',
    spec: 'rfc7643#section-2.2',
    title: 'title, displayName, name.familyName, emails.value (caseExact false) compare case-insensitively',
  },
  async (t) => {
    const f = await fixture(t);
    const dave = userOf(f, 'Dave.JONES');
    const eve = userOf(f, 'eve');
    const alice = userOf(f, 'Alice.Smith');
    const email = String(((alice.emails as Json[] | undefined) ?? [])[0]?.value ?? '');
    // Each value in a case no fixture user stored it in: only a case-insensitive comparison selects.
    const sent = [
      await expectSelection(t, f, compare(attrPath('title'), 'eq', stringValue('mAnAgEr')), { selects: [dave, eve] }, true),
      await expectSelection(t, f, compare(attrPath('displayName'), 'eq', stringValue('aLICE sMITH')), { selects: [alice] }, true),
      // The substring operators too, on an attribute and on a sub-attribute (the generated filters leave
      // case to the case checks).
      await expectSelection(t, f, compare(attrPath('title'), 'co', stringValue('aNaG')), { selects: [dave, eve] }, true),
      await expectSelection(t, f, compare(attrPath('name', 'familyName'), 'sw', stringValue('sMI')), { selects: [alice] }, true),
      await expectSelection(t, f, compare(attrPath('displayName'), 'ew', stringValue('SMITH')), { selects: [alice] }, true),
      ...(email === ''
        ? []
        : // A refusal of a filter on emails (multi-valued) is multi-valued-any-value's deviation, not one of case.
          [
            await expectSelection(
              t,
              f,
              compare(attrPath('emails', 'value'), 'eq', stringValue(swapCase(email))),
              { selects: [alice] },
              true,
              MULTI_VALUED_CHECK,
            ),
          ]),
    ];
    requireSent(t, sent, 'title eq and co, displayName eq and ew, name.familyName sw, emails.value eq');
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.external-id-case-exact',
    level: 'MUST',
    spec: 'rfc7643#section-3.1',
    title: 'externalId (caseExact true) matches only in its exact case',
  },
  async (t) => {
    const f = await fixture(t);
    const user = userOf(f, 'Alice.Smith');
    const externalId = user.externalId;
    const path = attrPath('externalId');
    requireSupported(t, f, compare(path, 'eq', stringValue('x')));
    t.requireData(typeof externalId === 'string', 'the target did not return the externalId it was given');
    await expectSelection(t, f, compare(path, 'eq', stringValue(String(externalId))), { selects: [user] }, true);
    // The same value in other case selects nothing (what an empty answer looks like is no-match-empty-list's rule).
    for (const other of [swapCase(String(externalId)), String(externalId).toLowerCase()]) {
      await expectSelection(t, f, compare(path, 'eq', stringValue(other)), { excludes: [user] }, true);
    }
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.id-case-exact',
    level: 'MUST',
    spec: 'rfc7643#section-3.1',
    title: 'id (caseExact true) matches only in its exact case',
  },
  async (t) => {
    const f = await fixture(t);
    const path = attrPath('id');
    requireSupported(t, f, compare(path, 'eq', stringValue('x')));
    const user = f.users.find((u) => /[a-zA-Z]/.test(String(u.id)));
    t.requireData(user !== undefined, 'no fixture user has an id with letters (case cannot differ)');
    const id = String((user as Json).id);
    await expectSelection(t, f, compare(path, 'eq', stringValue(id)), { selects: [user as Json] }, true);
    await expectSelection(t, f, compare(path, 'eq', stringValue(swapCase(id))), { excludes: [user as Json] }, true);
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.names-and-operators-case-insensitive',
    level: 'MUST',
    spec: FILTER,
    title: 'Attribute names and operators in a filter are case-insensitive (UserName EQ, title PR)',
  },
  async (t) => {
    const f = await fixture(t);
    const dave = userOf(f, 'Dave.JONES');
    const carol = userOf(f, 'carol');
    const alice = userOf(f, 'Alice.Smith');
    // Values in their exact case: only the names' and operators' case is this check's rule. The
    // sub-attribute is one of a single complex value (name.familyName): a filter on a multi-valued
    // attribute's values is scim.filter.multi-valued-any-value's rule, which a server may break alone.
    const sent = [
      await expectSelection(t, f, compare(attrPath('UserName'), 'eq', stringValue(dave.userName), 'EQ'), { selects: [dave], excludes: [alice] }),
      await expectSelection(t, f, compare(attrPath('USERNAME'), 'ew', stringValue('.JONES'), 'Ew'), { selects: [dave], excludes: [alice] }),
      await expectSelection(t, f, present(attrPath('Title'), 'PR'), { selects: [dave, alice], excludes: [carol] }),
      await expectSelection(t, f, compare(attrPath('NAME', 'FamilyName'), 'co', stringValue('mit'), 'CO'), { selects: [alice], excludes: [dave] }),
    ];
    requireSent(t, sent, 'userName eq, userName ew, title pr, name.familyName co');
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.logical-keywords-case-insensitive',
    level: 'MUST',
    spec: FILTER,
    title: 'AND, OR and NOT in upper or mixed case combine as and, or, not (nothing dropped)',
  },
  async (t) => {
    const f = await fixture(t);
    const dave = userOf(f, 'Dave.JONES');
    const eve = userOf(f, 'eve');
    const alice = userOf(f, 'Alice.Smith');
    const bob = userOf(f, 'BOB');
    const active = attrPath('active');
    // userName values in their exact case and a boolean: whatever the target does with the case of
    // values (other checks' rules), only the keywords' case decides these answers.
    // A server that drops what follows an upper-case AND returns eve too (wso2 #11807).
    const sent = [
      await expectSelection(t, f, and(eqUserName(dave.userName), compare(active, 'eq', booleanValue(true)), 'AND'), { selects: [dave] }),
      await expectSelection(t, f, and(eqUserName(eve.userName), compare(active, 'eq', booleanValue(true)), 'And'), { excludes: [eve] }),
      await expectSelection(t, f, or(eqUserName(alice.userName), eqUserName(bob.userName), 'OR'), { selects: [alice, bob], excludes: [dave] }),
      await expectSelection(t, f, and(compare(active, 'eq', booleanValue(true)), not(eqUserName(dave.userName), 'NOT'), 'and'), {
        selects: [alice],
        excludes: [dave, bob],
      }),
    ];
    requireSent(t, sent, 'and, or, not');
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.and-binds-tighter-than-or',
    level: 'MUST',
    spec: FILTER,
    title: '`a or b and c` is `a or (b and c)`: and takes precedence over or',
  },
  async (t) => {
    const f = await fixture(t);
    const alice = userOf(f, 'Alice.Smith');
    const carol = userOf(f, 'carol');
    const nobody = eqUserName(`${f.prefix}nobody`);
    // RFC: alice. Left to right, (alice or carol) and nobody: none.
    const filter = or(eqUserName(alice.userName), and(eqUserName(carol.userName), nobody));
    requireSupported(t, f, filter);
    await expectSelection(t, f, filter, { selects: [alice], excludes: [carol] });
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.not-negates-group',
    level: 'MUST',
    spec: FILTER,
    title: '`not (…)` selects exactly the users its expression does not select',
  },
  async (t) => {
    const f = await fixture(t);
    const alice = userOf(f, 'Alice.Smith');
    const carol = userOf(f, 'carol');
    const dave = userOf(f, 'Dave.JONES');
    const nobody = eqUserName(`${f.prefix}nobody`);
    const first = not(or(eqUserName(alice.userName), eqUserName(carol.userName)));
    requireSupported(t, f, first);
    await expectSelection(t, f, first, { selects: [dave], excludes: [alice, carol] });
    await expectSelection(t, f, not(or(eqUserName(alice.userName), and(eqUserName(carol.userName), nobody))), { selects: [dave, carol], excludes: [alice] });
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.value-path-one-value',
    level: 'MUST',
    spec: FILTER,
    title: 'emails[type eq "work" and value co "x"] needs one email satisfying the whole value filter',
  },
  async (t) => {
    const f = await fixture(t);
    const hit = userOf(f, 'ValPath-Hit');
    const miss = userOf(f, 'ValPath-Miss');
    const inner = and(compare(attrPath('type'), 'eq', stringValue('work')), compare(attrPath('value'), 'co', stringValue(`vp${f.tok}`)));
    const filter = valuePath(attrPath('emails'), inner);
    requireSupported(t, f, filter);
    await expectSelection(t, f, filter, { selects: [hit], excludes: [miss] });
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.multi-valued-any-value',
    level: 'MUST',
    spec: FILTER,
    title: 'A filter on a multi-valued attribute matches when any value matches (a second email)',
  },
  async (t) => {
    const f = await fixture(t);
    const hit = userOf(f, 'ValPath-Hit');
    const bob = userOf(f, 'BOB');
    requireSupported(t, f, compare(attrPath('emails', 'value'), 'eq', stringValue('x')));
    const second = (u: Json): string => String(((u.emails as Json[] | undefined) ?? [])[1]?.value ?? '');
    t.requireData(second(hit) !== '' && second(bob) !== '', 'the target did not return the two emails it was given');
    await expectSelection(t, f, compare(attrPath('emails', 'value'), 'eq', stringValue(second(hit))), { selects: [hit] });
    await expectSelection(t, f, compare(attrPath('emails', 'type'), 'eq', stringValue('work')), { selects: [hit, bob] });
  },
  USES,
);

/** The instant `ms` written at a UTC offset of `minutes` (`2026-11-23T15:40:00.000+01:00`). */
function atOffset(ms: number, minutes: number): string {
  const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(minutes);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${local}${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

requirement(
  {
    id: 'scim.filter.string-ordering',
    level: 'MUST',
    spec: FILTER,
    title: 'gt, ge, lt and le on title order strings: ge and le hold the equal value, gt and lt do not',
  },
  async (t) => {
    // Table 3: gt "If the attribute value is greater than the operator value, there is a match", ge
    // "greater than or equal to", and lt and le the same below. Against "Director" (grace's title):
    // "Manager" (Nina's) is above it and "Auditor" (mallory's) below, whatever the case rule.
    const f = await fixture(t);
    const [grace, nina, mallory] = [userOf(f, 'grace'), userOf(f, 'Nina.Ruiz'), userOf(f, 'mallory')];
    const title = (op: 'gt' | 'ge' | 'lt' | 'le') => compare(attrPath('title'), op, stringValue('Director'));
    const points: [ScimFilter, { selects: Json[]; excludes: Json[] }][] = [
      [title('gt'), { selects: [nina], excludes: [grace, mallory] }],
      [title('ge'), { selects: [grace, nina], excludes: [mallory] }],
      [title('lt'), { selects: [mallory], excludes: [grace, nina] }],
      [title('le'), { selects: [grace, mallory], excludes: [nina] }],
    ];
    let judged = 0;
    for (const [filter, point] of points) if (await expectSelection(t, f, filter, point)) judged += 1;
    t.requireData(judged > 0, 'the profile says the target filters title with none of gt, ge, lt, le');
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.datetime-as-instants',
    level: 'MUST',
    spec: FILTER,
    title: 'meta.created and meta.lastModified compare as instants (gt, lt, le; other UTC offsets; no fraction)',
  },
  async (t) => {
    const f = await fixture(t);
    const user = userOf(f, 'Alice.Smith');
    const meta = (user.meta ?? {}) as Json;
    const created = typeof meta.created === 'string' ? Date.parse(meta.created) : NaN;
    const modified = typeof meta.lastModified === 'string' ? Date.parse(meta.lastModified) : NaN;
    const later = compare(attrPath('meta', 'created'), 'gt', stringValue(atOffset(created - 1000, 60)));
    const earlier = compare(attrPath('meta', 'lastModified'), 'lt', stringValue(atOffset(modified + 1000, -60)));
    requireSupported(t, f, and(later, earlier));
    t.requireData(Number.isFinite(created) && Number.isFinite(modified), 'the target returned no parseable meta.created and meta.lastModified');
    // One second earlier, written an hour ahead (+01:00): as text it sorts after the value, as an instant before.
    await expectSelection(t, f, later, { selects: [user] });
    // One second later, written an hour behind (-01:00): as text before the value, as an instant after.
    await expectSelection(t, f, earlier, { selects: [user] });
    // le: one second later, written an hour behind, selects it too (as text it sorts before the value).
    await expectSelection(t, f, compare(attrPath('meta', 'created'), 'le', stringValue(atOffset(created + 1000, -60))), { selects: [user] });
    // An instant long before, written without fractional seconds (RFC 7643 §2.3.5's form): lt excludes it.
    await expectSelection(t, f, compare(attrPath('meta', 'created'), 'lt', stringValue('2000-01-01T00:00:00Z')), { excludes: [user] });
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.boolean-ordering-rejected',
    level: 'MUST',
    spec: FILTER,
    title: 'gt, ge, lt or le on a boolean attribute (active) answers 400 invalidFilter',
  },
  async (t) => {
    const f = await fixture(t);
    const ordering = (['gt', 'ge', 'lt', 'le'] as const).filter((op) => supportsOperator(f.support, op));
    // A target without these operators refuses them whatever the attribute: nothing to tell apart.
    t.requireData(ordering.length > 0, 'the profile says the target supports none of gt, ge, lt, le');
    const [scope] = scopesOf(f);
    const cases: [string, CompareOperator, boolean][] = [
      ['active', 'gt', true],
      ['active', 'ge', false],
      ['active', 'lt', true],
      ['active', 'le', false],
      ['emails.primary', 'gt', false],
    ];
    for (const [path, op, value] of cases.filter(([, op]) => (ordering as readonly string[]).includes(op))) {
      const filter = within(scope, `${path} ${op} ${String(value)}`);
      const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
      expectScimError(res, 400, 'invalidFilter', `for filter ${filter} (ordering on a boolean SHALL fail)`);
    }
  },
  USES,
);

/** A filter ending where the grammar wants more: `<scope> and`, `<scope> or`, `<scope> and not (`. */
function cutShortFilters(f: Fixture, scope: ScimFilter | undefined): [text: string, after: string][] {
  const head = print(scope ?? eqUserName(`${f.prefix}nobody`));
  const forms: [string, string, 'and' | 'or' | 'not'][] = [
    [`${head} and`, 'and', 'and'],
    // An attribute with no operator after it: attrExp is attrPath SP "pr" or attrPath SP compareOp SP compValue.
    [`${head} and userName`, 'userName', 'and'],
    // A group left open: the filter ends where its ")" is due.
    [`${head} and (${head}`, `(${head}`, 'and'],
    [`${head} or`, 'or', 'or'],
    [`${head} and not (`, 'not (', 'not'],
  ];
  return forms
    .filter(([, , word]) => supportsLogical(f.support, word) && (word !== 'not' || supportsLogical(f.support, 'and')))
    .map(([text, after]) => [text, after]);
}

requirement(
  {
    id: 'scim.filter.cut-short-rejected',
    level: 'MUST',
    spec: FILTER,
    title: 'A filter cut short (after and, or, not (, or an attribute) answers 400 invalidFilter',
  },
  async (t) => {
    // Figure 1's logExp is FILTER SP ("and" / "or") SP FILTER: a filter that stops after the
    // keyword does not comply with it, and Table 9 names invalidFilter for such a filter.
    const f = await fixture(t);
    const [scope] = scopesOf(f);
    const forms = cutShortFilters(f, scope);
    t.requireData(forms.length > 0, 'the profile says the target supports none of and, or, not');
    for (const [filter, after] of forms) {
      const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
      expectScimError(res, 400, 'invalidFilter', `for the filter ${filter} (nothing after '${after}')`);
    }
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.unknown-attribute',
    level: 'MUST',
    spec: FILTER,
    title: 'A filter naming an attribute the schema lacks answers 400 invalidFilter or matches no user',
  },
  async (t) => {
    // Table 9: invalidFilter when "the specified attribute and filter comparison combination is not
    // supported"; a server may instead read the unknown attribute as absent on every resource (RFC
    // 7644 leaves it open, ../shared/spec/scim-checklist.md F12): then nothing matches. Never a 5xx.
    const f = await fixture(t);
    const [scope] = scopesOf(f);
    const inner = compare(attrPath(`lpcUnknown${f.tok.replace(/[^A-Za-z0-9]/g, '')}`), 'eq', stringValue('x'));
    // The same name as a sub-attribute emails does not have, inside a value path, where the target
    // filters with value paths.
    const inPath = valuePath(attrPath('emails'), inner);
    const inners = unsupportedIn(inPath, f.support) === undefined ? [inner, inPath] : [inner];
    for (const filter of inners.map((i) => within(scope, i))) {
      const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
      const what = `for the filter ${filter} (an attribute no schema defines)`;
      if (res.status !== 200) {
        expectScimError(res, 400, 'invalidFilter', `or 200 with no user, ${what}`);
        continue;
      }
      const page = pageOf(res);
      if (page.resources.length > 0 || (page.totalResults ?? 0) > 0) fail(`400 invalidFilter, or 200 with no user, ${what}`, describeResponse(res), res);
    }
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.string-compared-with-boolean',
    level: 'MUST',
    spec: FILTER,
    title: 'A string compared with a boolean (userName eq true) answers 400 invalidFilter or matches no user',
  },
  async (t) => {
    // Figure 1's compValue allows true, so the filter parses; Table 3's eq matches when "the attribute
    // and operator values" are "identical", which a string and a boolean never are, and Table 9
    // answers a combination a server does not support with invalidFilter. Never a 5xx.
    const f = await fixture(t);
    const [scope] = scopesOf(f);
    const inner = compare(userName, 'eq', booleanValue(true));
    requireSupported(t, f, inner);
    const filter = within(scope, inner);
    const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
    if (res.status === 200) {
      const page = pageOf(res);
      if (page.resources.length > 0 || (page.totalResults ?? 0) > 0) {
        fail(`400 invalidFilter, or 200 with no user, for the filter ${filter} (a string compared with a boolean)`, describeResponse(res), res);
      }
      return;
    }
    expectScimError(res, 400, 'invalidFilter', `or 200 with no user, for the filter ${filter} (a string compared with a boolean)`);
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.boolean-substring-rejected',
    level: 'SHOULD',
    spec: FILTER,
    title: 'co, sw or ew on a boolean attribute (active co true) answers 400 invalidFilter',
  },
  async (t) => {
    // Table 3 defines co, sw and ew by substrings of the attribute's value, which a boolean has
    // none of; Table 9 answers a comparison the attribute does not support with invalidFilter.
    const f = await fixture(t);
    const substring = (['co', 'sw', 'ew'] as const).filter((op) => supportsOperator(f.support, op));
    t.requireData(substring.length > 0, 'the profile says the target supports none of co, sw, ew');
    const [scope] = scopesOf(f);
    for (const op of substring) {
      const filter = within(scope, compare(attrPath('active'), op, booleanValue(true)));
      const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
      expectScimError(res, 400, 'invalidFilter', `for the filter ${filter} (${op} on a boolean)`);
    }
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.complex-whole-rejected',
    level: 'SHOULD',
    spec: FILTER,
    title: 'A comparison of a complex attribute as a whole (name eq "x") answers 400 invalidFilter',
  },
  async (t) => {
    // A complex attribute has no value of its own to compare (RFC 7643 §2.3.8): a filter names one of
    // its sub-attributes (name.familyName); Table 9 answers the unsupported combination with invalidFilter.
    const f = await fixture(t);
    t.requireData(supportsOperator(f.support, 'eq'), 'the profile says the target does not filter with eq');
    const [scope] = scopesOf(f);
    const filter = within(scope, compare(attrPath('name'), 'eq', stringValue('Alice')));
    const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
    expectScimError(res, 400, 'invalidFilter', `for the filter ${filter} (a complex attribute compared as a whole)`);
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.value-path-on-sub-attribute-rejected',
    level: 'SHOULD',
    spec: FILTER,
    title: 'A value filter on a sub-attribute (emails.value[type eq "work"]) answers 400 invalidFilter',
  },
  async (t) => {
    // Figure 1's valuePath filters the values of a multi-valued complex attribute by their
    // sub-attributes; emails.value is a string, whose values have none. Table 9: "invalidFilter: The
    // specified filter syntax was invalid ... or the specified attribute and filter comparison
    // combination is not supported."
    const f = await fixture(t);
    const inner = compare(attrPath('type'), 'eq', stringValue('work'));
    requireSupported(t, f, valuePath(attrPath('emails'), inner));
    const [scope] = scopesOf(f);
    const filter = within(scope, `emails.value[${print(inner)}]`);
    const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
    expectScimError(res, 400, 'invalidFilter', `for the filter ${filter} (a value filter on the string emails.value)`);
  },
  USES,
);

/** Whether a user as the target answered it has a title (RFC 7643 §2.5: null, "" aside, and unassigned are one state). */
const hasTitle = (u: Json): boolean => typeof u.title === 'string' && u.title !== '';

requirement(
  {
    id: 'scim.filter.null-value',
    level: 'PROFILE',
    spec: FILTER,
    title: 'title eq null selects the users without a title, ne null those with one (or 400 as profiled)',
  },
  async (t) => {
    // Figure 1's compValue includes null, and RFC 7644 gives a comparison with it no meaning: the
    // profile declares the target's reading (expectations.scim.filterNull). Read as a value, null is
    // RFC 7643 §2.5's unassigned state: `eq null` matches a user without the attribute, `ne null` one with it.
    const f = await fixture(t);
    const declared = t.profile.expectations.scim.filterNull;
    const title = attrPath('title');
    const asked: [ScimFilter, boolean[]][] = [
      [compare(title, 'eq', NULL_VALUE), f.users.map((u) => !hasTitle(u))],
      [compare(title, 'ne', NULL_VALUE), f.users.map(hasTitle)],
    ];
    for (const [filter] of asked) requireSupported(t, f, filter);
    t.requireData(f.users.some(hasTitle) && !f.users.every(hasTitle), 'the target returned the fixture users all with a title, or none');
    for (const [filter, verdicts] of asked) {
      const answer = await ask(t, f, filter, verdicts);
      if (answer.kind === 'rejected') {
        if (declared === 'absent')
          fail(`200 with the users matching filter ${answer.text} (expectations.scim.filterNull: absent)`, describeResponse(answer.res), answer.res);
        expectScimError(answer.res, 400, 'invalidFilter', `for filter ${answer.text} (expectations.scim.filterNull: ${declared})`);
        continue;
      }
      if (declared === 'refused')
        fail(`400 invalidFilter for filter ${answer.text} (expectations.scim.filterNull: refused)`, describeResponse(answer.res), answer.res);
      // Which users match is this check's rule; totalResults is scim.filter.total-results-filtered's.
      expectAnswer(f, verdicts, answer, { totalResults: false });
    }
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.no-match-empty-list',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2',
    title: 'A filter that matches nothing answers 200 with totalResults 0 (not 404)',
  },
  async (t) => {
    const f = await fixture(t);
    const nothing = [eqUserName(`${f.prefix}nobody`), compare(attrPath('externalId'), 'eq', stringValue(`none-${f.tok}`))].filter(
      (inner) => unsupportedIn(inner, f.support) === undefined,
    );
    t.requireData(nothing.length > 0, 'the profile says the target cannot filter on userName eq or externalId eq');
    for (const inner of nothing) {
      const [scope] = scopesOf(f);
      const text = within(scope, inner);
      const res = await t.http.send({ op: 'scim.users.list', query: { filter: text } });
      if (res.status !== 200) fail(`200 with totalResults 0 for filter ${text}, which matches nothing`, describeResponse(res), res);
      const page = pageOf(res);
      if (page.totalResults !== 0 || page.resources.length !== 0) {
        fail(`totalResults 0 and no Resources for filter ${text}`, `totalResults ${String(page.totalResults)}, ${page.resources.length} resources`, res);
      }
    }
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.total-results-filtered',
    level: 'MUST',
    spec: 'rfc7644#section-3.4.2',
    title: 'totalResults of a filtered list, read in pages, counts the filtered users only',
  },
  async (t) => {
    const f = await fixture(t);
    const inner = compare(attrPath('active'), 'eq', booleanValue(true));
    requireSupported(t, f, inner);
    t.requireData(f.mode !== 'unscoped', "the target's filter cannot confine a list to the fixture (userName sw, or userName eq and and)");
    const judgement = judgeFilter(inner, f.users, f.schema);
    if (judgement.kind !== 'valid') throw new Error(`the suite's evaluator judges ${print(inner)} ${judgement.kind}`);
    const selected = judgement.verdicts.filter((v) => v === true).length;
    t.requireData(selected >= 4, 'fewer than four fixture users are active as the target returned them');
    // Pages of three: the filtered count spans several pages and is far below the collection's size.
    const answer = await ask(t, f, inner, judgement.verdicts, 3);
    if (answer.kind === 'rejected') fail(`200 with the users matching filter ${answer.text}`, describeResponse(answer.res), answer.res);
    expectAnswer(f, judgement.verdicts, answer);
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.urn-qualified-attribute',
    level: 'MUST',
    spec: 'rfc7644#section-3.10',
    title: 'A filter may name attributes by schema URN (core: matched; enterprise: matched or invalidFilter)',
  },
  async (t) => {
    const f = await fixture(t);
    const alice = userOf(f, 'Alice.Smith');
    const dave = userOf(f, 'Dave.JONES');
    const core = eqUserNameAt(alice.userName, USER_URN);
    requireSupported(t, f, core);
    await expectSelection(t, f, core, { selects: [alice], excludes: [dave] });
    // An extension attribute: section 3.4.2.2 (Table 9) lets a server refuse a filter it does not
    // support with invalidFilter; any other answer than 400 invalidFilter must be the right one.
    // A target that did not keep the extension (its /Schemas lists none) has nothing more to judge.
    const number = ((alice[SCIM_SCHEMAS.enterprise] ?? {}) as Json).employeeNumber;
    if (typeof number !== 'string') return;
    const filter = compare(attrPath('employeeNumber', undefined, ENTERPRISE_USER_URN), 'eq', stringValue(number));
    const judgement = judgeFilter(filter, f.users, f.schema);
    if (judgement.kind === 'invalid') throw new Error(`the suite's evaluator judges ${print(filter)} invalid`);
    const answer = await ask(t, f, filter, judgement.verdicts);
    if (answer.kind === 'rejected') expectScimError(answer.res, 400, 'invalidFilter', `or 200 with the matches, for filter ${answer.text}`);
    else expectAnswer(f, judgement.verdicts, answer, { totalResults: false });
  },
  USES,
);

requirement(
  {
    id: 'scim.filter.public-facts-example',
    level: 'MUST',
    spec: 'public-facts#scim-specifics',
    title: 'The documented filter `userType eq … and (emails co … or emails.value co …)` selects as it says',
  },
  async (t) => {
    const f = await fixture(t);
    const alice = userOf(f, 'Alice.Smith');
    const quinn = userOf(f, 'Quinn');
    const bob = userOf(f, 'BOB');
    // public-facts: userType eq "Employee" and (emails co "example.com" or emails.value co "example.org").
    const example = and(
      compare(attrPath('userType'), 'eq', stringValue('Employee')),
      group(or(compare(attrPath('emails'), 'co', stringValue('example.com')), compare(attrPath('emails', 'value'), 'co', stringValue('example.org')))),
    );
    requireSupported(t, f, example);
    await expectSelection(t, f, example, { selects: [alice, quinn], excludes: [bob] });
  },
  USES,
);
