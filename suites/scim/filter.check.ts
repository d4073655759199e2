// SCIM filtering (rfc7644#section-3.4.2.2; RFC 7643 for the attributes' characteristics;
// spec#scim-20-api, the "filter" row): the answers of a target's `filter` parameter over a set of
// users the checks create, judged by the suite's own evaluator (suites/_harness/scim/filter.ts),
// never by what one server happens to do. Every request is confined to the fixture's users with
// `userName sw "<fixture prefix>" and (…)`, so the target's own data and concurrent checks never
// matter; a resource that is not one of the fixture's users in an answer is a failure.
import { describeResponse, excerpt, fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
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
  or,
  present,
  print,
  SCIM_USER,
  scimFilterOver,
  scoped,
  scopedText,
  stringValue,
  valuePath,
  type CompareOperator,
  type FilterJudgement,
  type ScimFilter,
  type Verdict,
  USER_SCHEMA_URN as USER_URN,
} from '../_harness/scim/filter.js';
import { createUser, expectScimError, pageOf, pageSaid, runMarker, SCIM_SCHEMAS } from '../_harness/scim/records.js';

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

/** The fixture, made once per target server by the first check that needs it. */
const fixture = perServer(async (t): Promise<Fixture> => {
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
  for (let attempt = 1; attempt <= 5; attempt++) {
    const res = await t.http.send({ op: 'scim.users.list', query: { filter: scope, startIndex: 1, count: 1000 } });
    const listed = new Set(pageOf(res).resources.map((r) => String(r.id)));
    if (res.status !== 200 || users.every((u) => listed.has(String(u.id)))) break;
    await new Promise((resolve) => setTimeout(resolve, 400 * attempt));
  }
  return { prefix, tok, users, byTail };
});

function userOf(f: Fixture, tail: string): Json & { id: string; userName: string } {
  const user = f.byTail.get(tail);
  if (!user) throw new Error(`no fixture user ${tail}`);
  return user as Json & { id: string; userName: string };
}

const userName = attrPath('userName');
const eqUserName = (name: string): ScimFilter => compare(userName, 'eq', stringValue(name));
const eqUserNameAt = (name: string, uri: string): ScimFilter => compare(attrPath('userName', undefined, uri), 'eq', stringValue(name));
const scopeOf = (f: Fixture): ScimFilter => compare(userName, 'sw', stringValue(f.prefix));

// ---------------------------------------------------------------------------------------------
// Reading an answer and judging it

type Answer = { kind: 'rejected'; res: ApiResponse } | { kind: 'listed'; res: ApiResponse; resources: Json[]; totalResults: number | undefined };

/** Every match of `filter`: pages of up to 1000 from startIndex 1, bounded by totalResults. */
async function readMatches(t: CheckContext, filter: string, pageSize = 1000): Promise<Answer> {
  const first = await t.http.send({ op: 'scim.users.list', query: { filter, startIndex: 1, count: pageSize } });
  if (first.status === 400) return { kind: 'rejected', res: first };
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

const nameOf = (r: Json): string => (typeof r.userName === 'string' ? r.userName : String(r.id));

/**
 * The answer to `filter` must be what `verdicts` say of the fixture's users: each user judged true
 * in it, each judged false out of it ('ambiguous' either), nothing else in it, and (unless told
 * otherwise) totalResults the number of matches. Returns the number of fixture users in the answer.
 */
function expectAnswer(
  f: Fixture,
  filter: string,
  verdicts: readonly Verdict[],
  answer: Extract<Answer, { kind: 'listed' }>,
  options: { totalResults: boolean } = { totalResults: true },
): number {
  const { res, resources, totalResults } = answer;
  const answered = new Set(resources.map((r) => String(r.id)));
  const known = new Set(f.users.map((u) => String(u.id)));
  // What the answer said, beside what the check missed in it: the first page's envelope, and how
  // many resources the pages held in all.
  const said = `${pageSaid(pageOf(res))}${resources.length !== pageOf(res).resources.length ? `; ${resources.length} Resources over all its pages` : ''}`;
  const stranger = resources.find((r) => !known.has(String(r.id)));
  if (stranger)
    fail(
      `only users whose userName starts with "${f.prefix}" in the answer of filter ${filter}`,
      `${nameOf(stranger)} (id ${String(stranger.id)}); ${said}`,
      res,
    );
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
  if (options.totalResults && totalResults !== answered.size)
    fail(`totalResults ${answered.size} (the number of matches of filter ${filter})`, `totalResults ${String(totalResults)} (${said})`, res);
  return answered.size;
}

/** Sends `prefix and (filter)` and judges the answer; the judgement must be definite for `point`. */
async function expectSelection(t: CheckContext, f: Fixture, inner: ScimFilter, point: { selects?: Json[]; excludes?: Json[] }): Promise<void> {
  const filter = scoped(scopeOf(f), inner);
  const text = print(filter);
  const judgement = judgeFilter(filter, f.users, SCIM_USER);
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
  const answer = await readMatches(t, text);
  if (answer.kind === 'rejected') fail(`200 with the users matching filter ${text}`, describeResponse(answer.res), answer.res);
  // Which users match is this check's rule; totalResults is scim.filter.total-results-filtered's.
  expectAnswer(f, text, judgement.verdicts, answer, { totalResults: false });
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
    const scope = scopeOf(f);
    await t.property(scimFilterOver(f.users, SCIM_USER, queryRoom(t.profile, 'scim.users.list')), async (generated) => {
      const filter = scoped(scope, generated);
      const text = print(filter);
      const judgement: FilterJudgement = judgeFilter(filter, f.users, SCIM_USER);
      const answer = await readMatches(t, text);
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
      const selected = expectAnswer(f, text, judgement.verdicts, answer);
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
    await t.property(invalidScimFilter(), async ({ text, flaw }) => {
      const filter = scopedText(scopeOf(f), text);
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
    for (const tail of ['Alice.Smith', 'BOB', 'carol']) {
      const user = userOf(f, tail);
      for (const variant of [user.userName.toUpperCase(), user.userName.toLowerCase(), swapCase(user.userName)]) {
        await expectSelection(t, f, eqUserName(variant), { selects: [user] });
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
    for (const [op, operand] of cases) await expectSelection(t, f, compare(userName, op, stringValue(operand)), { selects: [user] });
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
    t.requireData(typeof externalId === 'string', 'the target did not return the externalId it was given');
    const path = attrPath('externalId');
    await expectSelection(t, f, compare(path, 'eq', stringValue(String(externalId))), { selects: [user] });
    // `or userName eq carol`: the answer is never empty (what an empty answer looks like is another rule).
    const carol = userOf(f, 'carol');
    for (const other of [swapCase(String(externalId)), String(externalId).toLowerCase()]) {
      await expectSelection(t, f, or(compare(path, 'eq', stringValue(other)), eqUserName(carol.userName)), { selects: [carol], excludes: [user] });
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
    const carol = userOf(f, 'carol');
    const user = f.users.find((u) => u !== carol && /[a-zA-Z]/.test(String(u.id)));
    t.requireData(user !== undefined, 'no fixture user has an id with letters (case cannot differ)');
    const id = String((user as Json).id);
    const path = attrPath('id');
    await expectSelection(t, f, compare(path, 'eq', stringValue(id)), { selects: [user as Json] });
    await expectSelection(t, f, or(compare(path, 'eq', stringValue(swapCase(id))), eqUserName(carol.userName)), { selects: [carol], excludes: [user as Json] });
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
    await expectSelection(t, f, compare(attrPath('UserName'), 'eq', stringValue(dave.userName), 'EQ'), { selects: [dave], excludes: [alice] });
    await expectSelection(t, f, compare(attrPath('USERNAME'), 'ew', stringValue('.JONES'), 'Ew'), { selects: [dave], excludes: [alice] });
    await expectSelection(t, f, present(attrPath('Title'), 'PR'), { selects: [dave, alice], excludes: [carol] });
    await expectSelection(t, f, compare(attrPath('emails', 'VALUE'), 'co', stringValue(`alice.${f.tok}@`), 'CO'), { selects: [alice], excludes: [dave] });
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
    const title = attrPath('title');
    const active = attrPath('active');
    // A server that drops what follows an upper-case AND returns eve too (wso2 #11807).
    await expectSelection(t, f, and(compare(title, 'eq', stringValue('manager')), compare(active, 'eq', booleanValue(true)), 'AND'), {
      selects: [dave],
      excludes: [eve],
    });
    await expectSelection(t, f, or(eqUserName(alice.userName), eqUserName(bob.userName), 'OR'), { selects: [alice, bob], excludes: [dave] });
    await expectSelection(t, f, and(present(title), not(compare(title, 'eq', stringValue('engineer')), 'NOT'), 'And'), {
      selects: [dave],
      excludes: [alice, bob],
    });
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
    await expectSelection(t, f, or(eqUserName(alice.userName), and(eqUserName(carol.userName), nobody)), { selects: [alice], excludes: [carol] });
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
    await expectSelection(t, f, not(or(eqUserName(alice.userName), eqUserName(carol.userName))), { selects: [dave], excludes: [alice, carol] });
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
    await expectSelection(t, f, valuePath(attrPath('emails'), inner), { selects: [hit], excludes: [miss] });
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
    id: 'scim.filter.datetime-as-instants',
    level: 'MUST',
    spec: FILTER,
    title: 'meta.created and meta.lastModified compare as instants (gt/lt with another UTC offset)',
  },
  async (t) => {
    const f = await fixture(t);
    const user = userOf(f, 'Alice.Smith');
    const meta = (user.meta ?? {}) as Json;
    const created = typeof meta.created === 'string' ? Date.parse(meta.created) : NaN;
    const modified = typeof meta.lastModified === 'string' ? Date.parse(meta.lastModified) : NaN;
    t.requireData(Number.isFinite(created) && Number.isFinite(modified), 'the target returned no parseable meta.created and meta.lastModified');
    // One second earlier, written an hour ahead (+01:00): as text it sorts after the value, as an instant before.
    await expectSelection(t, f, compare(attrPath('meta', 'created'), 'gt', stringValue(atOffset(created - 1000, 60))), { selects: [user] });
    // One second later, written an hour behind (-01:00): as text before the value, as an instant after.
    await expectSelection(t, f, compare(attrPath('meta', 'lastModified'), 'lt', stringValue(atOffset(modified + 1000, -60))), { selects: [user] });
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
    const cases: [string, CompareOperator, boolean][] = [
      ['active', 'gt', true],
      ['active', 'ge', false],
      ['active', 'lt', true],
      ['active', 'le', false],
      ['emails.primary', 'gt', false],
    ];
    for (const [path, op, value] of cases) {
      const filter = scopedText(scopeOf(f), `${path} ${op} ${String(value)}`);
      const res = await t.http.send({ op: 'scim.users.list', query: { filter, count: 1000 } });
      expectScimError(res, 400, 'invalidFilter', `for filter ${filter} (ordering on a boolean SHALL fail)`);
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
    for (const inner of [eqUserName(`${f.prefix}nobody`), compare(attrPath('externalId'), 'eq', stringValue(`none-${f.tok}`))]) {
      const text = print(scoped(scopeOf(f), inner));
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
    const filter = scoped(scopeOf(f), inner);
    const text = print(filter);
    const judgement = judgeFilter(filter, f.users, SCIM_USER);
    if (judgement.kind !== 'valid') throw new Error(`the suite's evaluator judges ${text} ${judgement.kind}`);
    const selected = judgement.verdicts.filter((v) => v === true).length;
    t.requireData(selected >= 4, 'fewer than four fixture users are active as the target returned them');
    // Pages of three: the filtered count spans several pages and is far below the collection's size.
    const answer = await readMatches(t, text, 3);
    if (answer.kind === 'rejected') fail(`200 with the users matching filter ${text}`, describeResponse(answer.res), answer.res);
    expectAnswer(f, text, judgement.verdicts, answer);
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
    await expectSelection(t, f, eqUserNameAt(alice.userName, USER_URN), { selects: [alice], excludes: [dave] });
    // An extension attribute: section 3.4.2.2 (Table 9) lets a server refuse a filter it does not
    // support with invalidFilter; any other answer than 400 invalidFilter must be the right one.
    const number = ((alice[SCIM_SCHEMAS.enterprise] ?? {}) as Json).employeeNumber;
    t.requireData(typeof number === 'string', 'the target did not return the enterprise extension it was given');
    const filter = scoped(scopeOf(f), compare(attrPath('employeeNumber', undefined, ENTERPRISE_USER_URN), 'eq', stringValue(String(number))));
    const text = print(filter);
    const judgement = judgeFilter(filter, f.users, SCIM_USER);
    if (judgement.kind === 'invalid') throw new Error(`the suite's evaluator judges ${text} invalid`);
    const answer = await readMatches(t, text);
    if (answer.kind === 'rejected') expectScimError(answer.res, 400, 'invalidFilter', `or 200 with the matches, for filter ${text}`);
    else expectAnswer(f, text, judgement.verdicts, answer, { totalResults: false });
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
    await expectSelection(t, f, example, { selects: [alice, quinn], excludes: [bob] });
  },
  USES,
);
