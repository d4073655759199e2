// Tests of the suite's SCIM filter language (suites/_harness/scim/filter.ts) against RFC 7644
// section 3.4.2.2 (its examples, its grammar) and the module's documented choices.
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesUnder, READINGS } from '../../support/scim-readings.js';
import {
  and,
  attrPath,
  compare,
  ENTERPRISE_USER_URN,
  group,
  invalidScimFilter,
  judgeFilter,
  or,
  parseFilter,
  parsePath,
  print,
  printPath,
  SCIM_GROUP,
  SCIM_USER,
  scimFilterOver,
  scoped,
  scopedText,
  stringValue,
  USER_SCHEMA_URN,
  type FilterJudgement,
  type ResourceSchema,
  type ScimFilter,
  type ScimResource,
  type Verdict,
} from '../../../suites/_harness/scim/filter.js';

function parsed(text: string): ScimFilter {
  const result = parseFilter(text);
  if (!result.ok) throw new Error(`${text}: ${result.error.message} at ${result.error.position}`);
  return result.value;
}

function judge(text: string, resources: readonly ScimResource[], schema: ResourceSchema = SCIM_USER): FilterJudgement {
  return judgeFilter(parsed(text), resources, schema);
}

function verdicts(text: string, resources: readonly ScimResource[], schema: ResourceSchema = SCIM_USER): readonly Verdict[] {
  const judgement = judge(text, resources, schema);
  if (judgement.kind !== 'valid') throw new Error(`${text}: ${judgement.kind} (${judgement.reason})`);
  return judgement.verdicts;
}

/** The verdict on one resource, whatever the judgement's kind ('invalid' and 'may-reject' spelled out). */
function on(resource: ScimResource, text: string, schema: ResourceSchema = SCIM_USER): Verdict | 'invalid' | 'may-reject' {
  const judgement = judge(text, [resource], schema);
  if (judgement.kind === 'invalid') return 'invalid';
  if (judgement.kind === 'may-reject') {
    expect(judgement.verdicts, text).toEqual(['ambiguous']);
    return 'may-reject';
  }
  return judgement.verdicts[0] ?? 'ambiguous';
}

// ---------------------------------------------------------------------------------------------
// RFC 7644 section 3.4.2.2 examples

const bjensen: ScimResource = {
  schemas: [USER_SCHEMA_URN],
  id: '2819c223-7f76-453a-919d-413861904646',
  userName: 'bjensen',
  name: { familyName: 'Jensen', givenName: 'Barbara' },
  title: 'Tour Guide',
  userType: 'Employee',
  emails: [
    { value: 'bjensen@example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  meta: { resourceType: 'User', lastModified: '2011-05-13T04:42:34Z' },
};
const jomalley: ScimResource = {
  schemas: [USER_SCHEMA_URN],
  id: 'c75ad752-64ae-4823-840d-ffa80929976c',
  userName: 'jomalley',
  name: { familyName: "O'Malley" },
  userType: 'Intern',
  emails: [{ value: 'jo@example.org', type: 'home' }],
  ims: [{ value: 'jo@foo.com', type: 'xmpp' }],
  // The same instant as bjensen's, written at another offset.
  meta: { resourceType: 'User', lastModified: '2011-05-13T06:42:34+02:00' },
};
const ellen: ScimResource = {
  schemas: [USER_SCHEMA_URN, ENTERPRISE_USER_URN],
  id: 'a3b1ec6e-0d9f-4e4b-a1b5-5e1c8c1d2e3f',
  userName: 'ellen',
  title: 'Manager',
  userType: 'Employee',
  emails: [{ value: 'ellen@example.org', type: 'other' }],
  [ENTERPRISE_USER_URN]: { employeeNumber: '701984', manager: { value: '2819c223-7f76-453a-919d-413861904646' } },
  meta: { resourceType: 'User', lastModified: '2012-01-01T00:00:00.500Z' },
};
const carl: ScimResource = {
  schemas: [USER_SCHEMA_URN],
  id: 'f0a1b2c3-d4e5-4f60-8a7b-9c0d1e2f3a4b',
  userName: 'carl',
  userType: 'Contractor',
  meta: { resourceType: 'User', lastModified: '2010-01-01T00:00:00Z' },
};
const users = [bjensen, jomalley, ellen, carl];

describe('the examples of RFC 7644 section 3.4.2.2', () => {
  const a = 'ambiguous';
  it.each<[string, Verdict[]]>([
    ['userName eq "bjensen"', [true, false, false, false]],
    ['name.familyName co "O\'Malley"', [false, true, false, false]],
    // userName is caseExact=false: "J" starts "jomalley".
    ['userName sw "J"', [false, true, false, false]],
    [`${USER_SCHEMA_URN}:userName sw "J"`, [false, true, false, false]],
    ['title pr', [true, false, true, false]],
    ['meta.lastModified gt "2011-05-13T04:42:34Z"', [false, false, true, false]],
    ['meta.lastModified ge "2011-05-13T04:42:34Z"', [true, true, true, false]],
    ['meta.lastModified lt "2011-05-13T04:42:34Z"', [false, false, false, true]],
    ['meta.lastModified le "2011-05-13T04:42:34Z"', [true, true, false, true]],
    ['title pr and userType eq "Employee"', [true, false, true, false]],
    ['title pr or userType eq "Intern"', [true, true, true, false]],
    [`schemas eq "${ENTERPRISE_USER_URN}"`, [false, false, true, false]],
    ['userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")', [true, false, true, false]],
    // carl has no emails: "not" over comparisons with a missing value is ambiguous.
    ['userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")', [false, false, false, a]],
    ['userType eq "Employee" and (emails.type eq "work")', [true, false, false, false]],
    ['userType eq "Employee" and emails[type eq "work" and value co "@example.com"]', [true, false, false, false]],
    ['emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]', [true, true, false, false]],
    // "Attribute names and attribute operators used in filters are case insensitive."
    ['userName Eq "BJENSEN"', [true, false, false, false]],
    ['Username eq "bjensen"', [true, false, false, false]],
    [`${ENTERPRISE_USER_URN}:employeeNumber eq "701984"`, [false, false, true, false]],
    [`${ENTERPRISE_USER_URN}:manager.value eq "2819c223-7f76-453a-919d-413861904646"`, [false, false, true, false]],
  ])('%s', (text, expected) => {
    expect(verdicts(text, users)).toEqual(expected);
  });

  it('parses the PATCH paths of section 3.5.2', () => {
    for (const text of [
      'members',
      'name.familyName',
      'addresses[type eq "work"]',
      'members[value eq "2819c223-7f76-453a-919d-413861904646"]',
      'members[value eq "2819c223-7f76-453a-919d-413861904646"].displayName',
      'emails[type eq "work" and value ew "example.com"]',
      'addresses[type eq "work"].streetAddress',
      `${ENTERPRISE_USER_URN}:employeeNumber`,
      `${ENTERPRISE_USER_URN}:manager.value`,
    ]) {
      const result = parsePath(text);
      expect(result.ok, text).toBe(true);
      if (result.ok) expect(printPath(result.value)).toBe(text);
    }
  });

  it('reads a path into its URI, attribute and sub-attribute', () => {
    expect(parsePath(`${ENTERPRISE_USER_URN}:manager.value`)).toEqual({
      ok: true,
      value: { kind: 'attribute', path: { uri: ENTERPRISE_USER_URN, name: 'manager', sub: 'value' } },
    });
    expect(parsePath('emails[type eq "work"].value')).toEqual({
      ok: true,
      value: {
        kind: 'valuePath',
        path: { name: 'emails' },
        filter: { kind: 'compare', path: { name: 'type' }, op: 'eq', value: { kind: 'string', value: 'work' } },
        sub: 'value',
      },
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Grammar

describe('the parser', () => {
  it('binds not tighter than and, and tighter than or; and/or associate to the left', () => {
    const tree = parsed('a pr or b pr and not (c pr) or d pr');
    expect(tree).toMatchObject({
      kind: 'or',
      left: { kind: 'or', left: { kind: 'present' }, right: { kind: 'and', right: { kind: 'not' } } },
      right: { kind: 'present', path: { name: 'd' } },
    });
    expect(verdicts('userName eq "carl" or userName eq "bjensen" and title pr', users)).toEqual([true, false, false, true]);
    expect(verdicts('(userName eq "carl" or userName eq "bjensen") and title pr', users)).toEqual([true, false, false, false]);
  });

  it('keeps keywords as written and reads them case-insensitively', () => {
    const tree = parsed('USERNAME EQ "x" AND Title Pr Or NOT (active eq true)');
    expect(tree).toMatchObject({ kind: 'or', keyword: 'Or', left: { kind: 'and', keyword: 'AND', left: { op: 'eq', keyword: 'EQ' } } });
    expect(print(tree)).toBe('USERNAME EQ "x" AND Title Pr Or NOT (active eq true)');
  });

  it('reads JSON strings, numbers and literals', () => {
    expect(parsed('a eq "q\\"uo\\\\te \\u00e9\\n"')).toMatchObject({ value: { kind: 'string', value: 'q"uo\\te é\n' } });
    expect(parsed('a eq -12.5e+3')).toMatchObject({ value: { kind: 'number', text: '-12.5e+3' } });
    expect(parsed('a eq true')).toMatchObject({ value: { kind: 'boolean', value: true } });
    expect(parsed('a eq null')).toMatchObject({ value: { kind: 'null' } });
    expect(parsed('a eq "x" and  b pr')).toMatchObject({ kind: 'and' });
    expect(parsed('not(a pr)')).toMatchObject({ kind: 'not' });
    expect(parsed('( a pr )')).toMatchObject({ kind: 'group' });
    expect(parsed('members.$ref pr')).toMatchObject({ path: { name: 'members', sub: '$ref' } });
  });

  it.each([
    ['', 0],
    ['userName', 8],
    ['userName eq', 11],
    ['userName xx "a"', 9],
    ['userName regex "a"', 9],
    ['userName eq "unterminated', 12],
    ['(userName eq "a"', 16],
    ['userName eq "a")', 15],
    ['not userName eq "a"', 4],
    ['emails[type eq "work"', 21],
    ['emails[type eq "work"]]', 22],
    ['userName eq "a" junk', 16],
    ['userName eq "a" and', 19],
    ["userName eq 'single'", 12],
    ['userName eq bareword', 12],
    ['userName eq True', 12],
    ['userName eq 01', 13],
    ['userName eq 1.', 13],
    ['userName eq"a"', 11],
    ['userName\teq "a"', 8],
    ['emails [type eq "a"]', 7],
    ['a.b.c eq "x"', 0],
    ['userName eq "\\x"', 12],
    ['emails[type eq "a" and x[y eq "b"]]', 24],
    ['emails[type eq "work"].value eq "x"', 22],
    ['userName eq "a" userName eq "b"', 16],
    ['active gt', 9],
    ['x:userName eq "a"', 0],
  ])('refuses %j (error at %i)', (text, position) => {
    const result = parseFilter(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.position).toBe(position);
  });

  it('refuses deep nesting with a result, not a stack overflow', () => {
    const result = parseFilter(`${'('.repeat(5000)}a pr${')'.repeat(5000)}`);
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/nesting/) } });
  });

  it.each(['emails[type eq "work"].value.x', 'emails.value[type eq "x"]', 'emails[type eq "work"]junk', 'emails[type eq "work"] .value', 'a b'])(
    'refuses the PATCH path %j',
    (text) => {
      expect(parsePath(text).ok).toBe(false);
    },
  );
});

describe('print', () => {
  it('adds the parentheses a hand-built tree needs, and the constructors add them as groups', () => {
    const a = compare(attrPath('a'), 'eq', stringValue('1'));
    const b = compare(attrPath('b'), 'eq', stringValue('2'));
    const c = compare(attrPath('c'), 'eq', stringValue('3'));
    const raw: ScimFilter = { kind: 'and', left: { kind: 'or', left: a, right: b }, right: c };
    expect(print(raw)).toBe('(a eq "1" or b eq "2") and c eq "3"');
    const built = and(or(a, b), c);
    expect(built.left.kind).toBe('group');
    expect(print(built)).toBe(print(raw));
    expect(parseFilter(print(built))).toEqual({ ok: true, value: built });
    expect(print(and(a, and(b, c)))).toBe('a eq "1" and (b eq "2" and c eq "3")');
  });

  it('writes strings as JSON, escapes included', () => {
    expect(print(compare(attrPath('a'), 'eq', stringValue('say "hi"\\\n\u0001')))).toBe('a eq "say \\"hi\\"\\\\\\n\\u0001"');
  });

  it('parse(print(tree)) is the tree (generated filters)', () => {
    fc.assert(
      fc.property(scimFilterOver(population, SCIM_USER), (filter) => {
        const text = print(filter);
        expect(parseFilter(text)).toEqual({ ok: true, value: filter });
      }),
      { numRuns: 300 },
    );
  });

  it('scoped confines a filter to a prefix clause', () => {
    const prefix = compare(attrPath('userName'), 'sw', stringValue('lpc-RUN-'));
    const filter = parsed('title pr or userType eq "Intern"');
    expect(print(scoped(prefix, filter))).toBe('userName sw "lpc-RUN-" and (title pr or userType eq "Intern")');
    // No parentheses the filter's meaning does not need: the prefix joins a chain of `and` at its left.
    expect(print(scoped(prefix, parsed('title pr AND userType eq "Intern" and active eq true')))).toBe(
      'userName sw "lpc-RUN-" and title pr AND userType eq "Intern" and active eq true',
    );
    expect(print(scoped(prefix, parsed('not (title pr or active eq true)')))).toBe('userName sw "lpc-RUN-" and not (title pr or active eq true)');
    expect(print(scoped(prefix, parsed('title pr and (userType eq "Intern" or active eq true)')))).toBe(
      'userName sw "lpc-RUN-" and title pr and (userType eq "Intern" or active eq true)',
    );
    // Parentheses the filter writes stay: they are the filter's.
    expect(print(scoped(prefix, parsed('(title pr)')))).toBe('userName sw "lpc-RUN-" and (title pr)');
    expect(scopedText(prefix, 'userName eq')).toBe('userName sw "lpc-RUN-" and (userName eq)');
    expect(judgeFilter(scoped(compare(attrPath('userName'), 'sw', stringValue('b')), filter), users, SCIM_USER)).toEqual({
      kind: 'valid',
      verdicts: [true, false, false, false],
    });
  });

  it('scoped means `prefix and (filter)`, and its text means its tree (generated filters)', () => {
    const prefix = compare(attrPath('userName'), 'sw', stringValue('b'));
    fc.assert(
      fc.property(scimFilterOver(population, SCIM_USER), (filter) => {
        const tree = scoped(prefix, filter);
        expect(parseFilter(print(tree))).toEqual({ ok: true, value: tree });
        expect(judgeFilter(tree, population, SCIM_USER)).toEqual(judgeFilter(and(prefix, group(filter)), population, SCIM_USER));
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Evaluator: operator x type x caseExact

describe('strings', () => {
  const user: ScimResource = { userName: 'Alice', externalId: 'Ext-Abc', displayName: 'lpc-run-b2', nickName: 'Al ' };
  it.each<[string, Verdict]>([
    // caseExact=false (userName): case folds
    ['userName eq "alice"', true],
    ['userName eq "ALICE"', true],
    ['userName ne "aLiCe"', false],
    ['userName ne "bob"', true],
    ['userName co "LIC"', true],
    ['userName sw "al"', true],
    ['userName ew "CE"', true],
    ['userName sw "ce"', false],
    ['userName co "x"', false],
    ['userName gt "ALIBI"', true],
    ['userName ge "alice"', true],
    ['userName gt "alice"', false],
    ['userName lt "alicf"', true],
    ['userName le "ALI"', false],
    ['userName lt "alice0"', true],
    // caseExact=true (externalId): exact
    ['externalId eq "Ext-Abc"', true],
    ['externalId eq "ext-abc"', false],
    ['externalId ne "ext-abc"', true],
    ['externalId co "Abc"', true],
    ['externalId co "abc"', false],
    ['externalId sw "Ext"', true],
    ['externalId ew "ABC"', false],
    ['externalId gt "Ext-Abb"', true],
    ['externalId lt "Ext-Abd"', true],
    // ordering that code units and collations decide differently
    ['externalId gt "Ext-AbC"', 'ambiguous'], // c against C: a case difference
    ['externalId gt "Ext-aaa"', 'ambiguous'], // A against a
    ['displayName gt "lpc-run-b1"', true],
    ['displayName gt "lpc-run-b"', true],
    ['displayName gt "lpc-run-"', true], // a proper prefix orders first
    ['displayName lt "lpc_run"', 'ambiguous'], // "-" against "_"
    ['displayName gt "lpc-run-a9"', true],
    ['displayName gt "lpc-run-bz"', false], // 2 against z: digits first everywhere
    // a trailing space may be ignored
    ['nickName eq "Al"', 'ambiguous'],
    ['nickName eq "al "', true],
    ['nickName sw "al"', true],
  ])('%s on Alice is %s', (text, expected) => {
    expect(on(user, text)).toBe(expected);
  });

  it('outside ASCII, case folding and normalisation make readings differ', () => {
    const strasse: ScimResource = { displayName: 'Straße', externalId: 'Café', title: 'İstanbul', userName: 'Émile' };
    expect(on(strasse, 'displayName eq "straße"')).toBe(true);
    expect(on(strasse, 'displayName eq "STRASSE"')).toBe('ambiguous');
    expect(on(strasse, 'displayName eq "Strasse"')).toBe('ambiguous');
    expect(on(strasse, 'displayName co "STRA"')).toBe(true);
    expect(on(strasse, 'title eq "istanbul"')).toBe('ambiguous');
    expect(on(strasse, 'title eq "London"')).toBe(false);
    expect(on(strasse, 'externalId eq "Café"')).toBe(true);
    expect(on(strasse, 'externalId eq "Cafe\u0301"')).toBe('ambiguous'); // NFD form
    expect(on(strasse, 'externalId eq "CAFÉ"')).toBe(false);
    expect(on(strasse, 'userName eq "Émile"')).toBe(true);
    expect(on(strasse, 'userName eq "émile"')).toBe('ambiguous'); // a server may fold ASCII letters only
    expect(on(strasse, 'userName gt "A"')).toBe('ambiguous');
    // ASCII I and i fold as ASCII: the Turkish locale does not count there.
    expect(on({ userName: 'Ian' }, 'userName eq "ian"')).toBe(true);
  });

  it("caseExact 'either' (a member's id) is ambiguous only where case decides", () => {
    const team: ScimResource = { displayName: 'Team', members: [{ value: 'abc-1', type: 'User' }] };
    expect(on(team, 'members[value eq "abc-1"]', SCIM_GROUP)).toBe(true);
    expect(on(team, 'members[value eq "ABC-1"]', SCIM_GROUP)).toBe('ambiguous');
    expect(on(team, 'members[value eq "xyz"]', SCIM_GROUP)).toBe(false);
    expect(on(team, 'members.value eq "abc-1"', SCIM_GROUP)).toBe(true);
    expect(on(team, 'members eq "abc-1"', SCIM_GROUP)).toBe(true);
    expect(on(team, 'members.type eq "user"', SCIM_GROUP)).toBe(true);
  });
});

describe('booleans', () => {
  const active: ScimResource = { active: true, emails: [{ value: 'a@x', primary: false }] };
  it.each<[string, Verdict | 'invalid' | 'may-reject']>([
    ['active eq true', true],
    ['active eq false', false],
    ['active ne false', true],
    ['active ne true', false],
    ['active pr', true],
    ['active gt true', 'invalid'],
    ['active ge false', 'invalid'],
    ['active lt true', 'invalid'],
    ['ACTIVE LE false', 'invalid'],
    ['emails[primary gt true]', 'invalid'],
    ['emails.primary lt true', 'invalid'],
    ['emails.primary eq false', true],
    ['active eq "true"', 'may-reject'],
    ['active co "t"', 'may-reject'],
    ['active eq null', 'may-reject'],
  ])('%s is %s', (text, expected) => {
    expect(on(active, text)).toBe(expected);
  });

  it('an invalid part makes the whole filter invalid, even beside a may-reject part', () => {
    expect(judge('foo eq "x" or (active gt true)', [active])).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/boolean/) });
    expect(judge('userName eq "x" and not (x509Certificates.value lt "AA==")', [active])).toMatchObject({ kind: 'invalid' });
  });
});

describe('dateTime', () => {
  const user: ScimResource = { meta: { created: '2024-03-01T10:00:00.250Z', lastModified: '2024-03-01T10:00:00.1234Z' } };
  it.each<[string, Verdict | 'may-reject']>([
    ['meta.created eq "2024-03-01T10:00:00.250Z"', true],
    ['meta.created eq "2024-03-01T10:00:00.25Z"', true],
    ['meta.created eq "2024-03-01T11:00:00.25+01:00"', true],
    ['meta.created ne "2024-03-01T10:00:00.251Z"', true],
    ['meta.created gt "2024-03-01T10:00:00.249Z"', true],
    ['meta.created gt "2024-03-01T10:00:00.250Z"', false],
    ['meta.created ge "2024-03-01T05:30:00.250-04:30"', true],
    ['meta.created lt "2024-03-01T10:00:01Z"', true],
    ['meta.created le "2024-03-01T10:00:00Z"', false],
    // beyond milliseconds: truncating and rounding servers differ
    ['meta.lastModified eq "2024-03-01T10:00:00.123Z"', 'ambiguous'],
    ['meta.lastModified gt "2024-03-01T10:00:00.123Z"', 'ambiguous'],
    ['meta.lastModified lt "2024-03-01T10:00:00.124Z"', true],
    ['meta.lastModified gt "2024-03-01T10:00:00.122Z"', true],
    // not instants, or not comparisons of instants
    ['meta.created eq "2024-03-01T10:00:00.250"', 'may-reject'],
    ['meta.created eq "2024-03-01"', 'may-reject'],
    ['meta.created eq "2024-02-30T10:00:00Z"', 'may-reject'],
    ['meta.created eq "2024-03-01T10:00:60Z"', 'may-reject'],
    ['meta.created co "2024"', 'may-reject'],
    ['meta.created sw "2024"', 'may-reject'],
    ['meta.created gt 5', 'may-reject'],
  ])('%s is %s', (text, expected) => {
    expect(on(user, text)).toBe(expected);
  });

  it('a value that is not a dateTime is ambiguous', () => {
    expect(on({ meta: { created: 'yesterday' } }, 'meta.created gt "2024-03-01T10:00:00Z"')).toBe('ambiguous');
  });
});

describe('numbers', () => {
  const scores: ResourceSchema = {
    schema: 'urn:example:Score',
    attributes: [
      { name: 'age', type: 'integer', multiValued: false, caseExact: false },
      { name: 'ratio', type: 'decimal', multiValued: false, caseExact: false },
    ],
    extensions: {},
  };
  const item: ScimResource = { age: 42, ratio: 0.25 };
  it.each<[string, Verdict | 'may-reject']>([
    ['age eq 42', true],
    ['age ne 42', false],
    ['age gt 41', true],
    ['age ge 42', true],
    ['age lt 42', false],
    ['age le 100', true],
    ['ratio eq 0.25', true],
    ['ratio gt 0.2', true],
    ['ratio lt 0.250', false],
    ['age eq 4.2e1', 'may-reject'],
    ['age eq 42.0', 'may-reject'],
    ['age eq -0', 'may-reject'],
    ['ratio eq 0.1234567890123456', 'may-reject'],
    ['age eq "42"', 'may-reject'],
    ['age co 4', 'may-reject'],
  ])('%s is %s', (text, expected) => {
    expect(on(item, text, scores)).toBe(expected);
  });
});

describe('missing values, pr and not', () => {
  const sparse: ScimResource = { userName: 'sparse', title: '', nickName: 'nick', emails: [], phoneNumbers: [{ type: 'work' }], name: {}, active: false };
  it.each<[string, Verdict]>([
    ['displayName eq "x"', false],
    ['displayName co "x"', false],
    ['displayName gt "a"', false],
    ['displayName ne "x"', 'ambiguous'],
    ['not (displayName eq "x")', 'ambiguous'],
    ['not (not (displayName eq "x"))', false],
    ['displayName pr', false],
    ['not (displayName pr)', true],
    ['title pr', 'ambiguous'], // ""
    ['nickName pr', true],
    ['emails pr', false], // []
    ['name pr', false], // {}
    ['active pr', true], // false is a value
    ['phoneNumbers pr', true],
    ['phoneNumbers.value pr', false],
    ['phoneNumbers.value eq "1"', false],
    ['not (phoneNumbers.value eq "1")', 'ambiguous'],
    ['phoneNumbers[type eq "work"]', true],
    ['emails[type eq "work"]', false],
    ['not (emails[type eq "work"])', 'ambiguous'],
    ['not (phoneNumbers[type eq "home"])', true],
    ['displayName eq "x" or userName eq "sparse"', true],
    ['displayName eq "x" and userName eq "sparse"', false],
    ['not (displayName eq "x" and userName eq "other")', true],
    ['not (displayName eq "x" or userName eq "other")', 'ambiguous'],
    [`${ENTERPRISE_USER_URN}:employeeNumber eq "1"`, false],
    [`not (${ENTERPRISE_USER_URN}:employeeNumber pr)`, true],
  ])('%s is %s', (text, expected) => {
    expect(on(sparse, text)).toBe(expected);
  });

  it('ne on a multi-valued attribute is ambiguous where "some value differs" and "no value equals" part', () => {
    const two: ScimResource = { emails: [{ value: 'a@x' }, { value: 'b@x' }] };
    const one: ScimResource = { emails: [{ value: 'b@x' }] };
    const same: ScimResource = { emails: [{ value: 'a@x' }] };
    expect(verdicts('emails.value ne "a@x"', [two, one, same])).toEqual(['ambiguous', true, false]);
  });
});

describe('may-reject: what a server may refuse', () => {
  const user: ScimResource = {
    userName: 'u',
    name: { givenName: 'G' },
    password: 'secret',
    employeeNumber: '7',
    emails: [{ value: 'x', type: 'work' }],
    addresses: [{ type: 'x' }],
  };
  it.each([
    'foo eq "x"',
    'name.foo eq "x"',
    'name eq "x"',
    'name[givenName eq "G"]',
    'addresses eq "x"',
    'emails[foo eq "x"]',
    'emails[type.x eq "x"]',
    'employeeNumber eq "7"',
    'urn:example:other:employeeNumber eq "7"',
    'userName eq null',
    'userName eq 5',
    'userName co ""',
    'userName sw ""',
    'password eq "secret"',
    'password pr',
    'x509Certificates.value co "A"',
  ])('%s', (text) => {
    expect(on(user, text)).toBe('may-reject');
  });

  it('keeps the verdicts of the parts it can decide', () => {
    expect(judge('foo eq "x" or userName eq "u"', [user])).toEqual({ kind: 'may-reject', reason: expect.any(String), verdicts: [true] });
    expect(judge('foo eq "x" and userName eq "v"', [user])).toEqual({ kind: 'may-reject', reason: expect.any(String), verdicts: [false] });
  });
});

describe('reading resources', () => {
  it('finds members whose key differs in case, and gives up on two such keys', () => {
    expect(on({ USERNAME: 'u' }, 'userName eq "u"')).toBe(true);
    expect(on({ username: 'u', UserName: 'v' }, 'userName eq "u"')).toBe('ambiguous');
  });

  it('finds extension attributes under their URN, in any case of the URN in the filter', () => {
    const user: ScimResource = { [ENTERPRISE_USER_URN]: { department: 'Sales' } };
    expect(on(user, `${ENTERPRISE_USER_URN.toUpperCase()}:department eq "sales"`)).toBe(true);
  });

  it('a value of another shape than the schema says is ambiguous', () => {
    expect(on({ active: 'true' }, 'active eq true')).toBe('ambiguous');
    expect(on({ emails: { value: 'a' } }, 'emails.value eq "a"')).toBe('ambiguous');
    expect(on({ userName: ['u'] }, 'userName eq "u"')).toBe('ambiguous');
    expect(on({ name: 'Bob' }, 'name.givenName eq "Bob"')).toBe('ambiguous');
    expect(on({ emails: ['a@x'] }, 'emails[value eq "a@x"]')).toBe('ambiguous');
  });
});

// ---------------------------------------------------------------------------------------------
// Generators

const RUN = 'lpc-r1-';
const population: ScimResource[] = [
  {
    schemas: [USER_SCHEMA_URN],
    id: 'a1',
    userName: `${RUN}Alice`,
    displayName: 'Alice Smith',
    title: 'Engineer',
    active: true,
    name: { givenName: 'Alice', familyName: 'Smith' },
    emails: [
      { value: 'alice@example.com', type: 'work', primary: true },
      { value: 'alice@home.org', type: 'home' },
    ],
    meta: { resourceType: 'User', created: '2024-01-01T00:00:00Z', lastModified: '2024-01-02T00:00:00.100Z' },
  },
  {
    schemas: [USER_SCHEMA_URN, ENTERPRISE_USER_URN],
    id: 'b2',
    userName: `${RUN}bob`,
    externalId: 'EXT-b',
    active: false,
    name: { givenName: 'Bob' },
    emails: [{ value: 'bob@example.com', type: 'work' }],
    [ENTERPRISE_USER_URN]: { employeeNumber: '1002', department: 'Sales' },
    meta: { resourceType: 'User', created: '2024-01-01T00:00:01Z', lastModified: '2024-01-03T00:00:00Z' },
  },
  {
    schemas: [USER_SCHEMA_URN],
    id: 'c3',
    userName: `${RUN}Carol`,
    displayName: 'carol',
    nickName: '',
    title: 'Manager',
    active: true,
    phoneNumbers: [{ value: '+1-555-0100', type: 'mobile' }],
    meta: { resourceType: 'User', created: '2024-01-02T00:00:00Z', lastModified: '2024-01-02T00:00:00.100Z' },
  },
  {
    schemas: [USER_SCHEMA_URN, ENTERPRISE_USER_URN],
    id: 'd4',
    userName: `${RUN}dave2`,
    externalId: 'ext-d',
    emails: [
      { value: 'dave@corp.example', type: 'other' },
      { value: 'DAVE@example.com', type: 'work' },
    ],
    [ENTERPRISE_USER_URN]: { employeeNumber: '1004', department: 'R and D' },
    meta: { resourceType: 'User', created: '2024-02-01T12:00:00+01:00', lastModified: '2024-02-01T12:00:00Z' },
  },
];

describe('scimFilterOver', () => {
  it('generates filters the evaluator judges valid, which mostly select some resources but not all', () => {
    let discriminating = 0;
    const runs = 400;
    fc.assert(
      fc.property(scimFilterOver(population, SCIM_USER), (filter) => {
        const judgement = judgeFilter(filter, population, SCIM_USER);
        expect(judgement, print(filter)).toMatchObject({ kind: 'valid' });
        if (judgement.kind === 'valid' && judgement.verdicts.includes(true) && judgement.verdicts.includes(false)) discriminating += 1;
      }),
      { numRuns: runs, seed: 1 },
    );
    expect(discriminating / runs).toBeGreaterThan(0.5);
  });

  it('is sound: every definite verdict is what each legitimate reading of the RFC answers', () => {
    fc.assert(
      fc.property(scimFilterOver(population, SCIM_USER), (filter) => {
        const judgement = judgeFilter(filter, population, SCIM_USER);
        if (judgement.kind !== 'valid') return;
        population.forEach((resource, index) => {
          const verdict = judgement.verdicts[index];
          if (verdict === 'ambiguous') return;
          for (const reading of READINGS)
            expect(matchesUnder(reading, filter, resource, SCIM_USER), `${print(filter)} on ${String(resource['id'])}`).toBe(verdict);
        });
      }),
      { numRuns: 400, seed: 5 },
    );
  });

  it('reaches every operator, combinator and spelling', () => {
    const texts = fc.sample(scimFilterOver(population, SCIM_USER).map(print), { numRuns: 1500, seed: 2 });
    for (const op of ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'pr', 'and', 'or', 'not']) {
      expect(texts.some((t) => new RegExp(` ${op}\\b`).test(t)) || texts.some((t) => t.startsWith(`${op} (`)), op).toBe(true);
    }
    const seen = (pattern: RegExp) => texts.some((t) => pattern.test(t));
    expect(seen(/\b(?:AND|And|aNd|OR|Or|NOT|Not|nOt)\b/)).toBe(true); // odd-case keywords
    expect(seen(/ (?:EQ|Eq|eQ) /)).toBe(true);
    expect(seen(/\bUSERNAME\b/)).toBe(true);
    expect(seen(/^\(|\(\(/)).toBe(true); // redundant parentheses
    expect(seen(/emails\[[^\]]* (?:and|or) /i)).toBe(true); // value filters with a connective
    expect(seen(new RegExp(`${USER_SCHEMA_URN}:`))).toBe(true);
    expect(seen(new RegExp(`${ENTERPRISE_USER_URN}:`))).toBe(true);
    expect(seen(/meta\.lastModified (?:gt|ge|lt|le) /i)).toBe(true);
  });

  it('shrinks a failing filter to one leaf', () => {
    const result = fc.check(
      fc.property(scimFilterOver(population, SCIM_USER), (filter) => !print(filter).toLowerCase().includes('username')),
      { seed: 3, numRuns: 500 },
    );
    expect(result.failed).toBe(true);
    const shrunk = result.counterexample?.[0];
    expect(shrunk === undefined ? undefined : ['compare', 'present'].includes(shrunk.kind)).toBe(true);
  });

  it('needs resources holding values', () => {
    expect(() => scimFilterOver([], SCIM_USER)).toThrow(/at least one value/);
  });
});

describe('invalidScimFilter', () => {
  it('generates texts that do not parse or that the evaluator judges invalid, alone and scoped', () => {
    const prefix = compare(attrPath('userName'), 'sw', stringValue(RUN));
    const flaws = new Set<string>();
    fc.assert(
      fc.property(invalidScimFilter(), ({ text, flaw }) => {
        flaws.add(flaw);
        for (const candidate of [text, scopedText(prefix, text)]) {
          const result = parseFilter(candidate);
          if (result.ok) expect(judgeFilter(result.value, population, SCIM_USER), candidate).toMatchObject({ kind: 'invalid' });
        }
      }),
      { numRuns: 400, seed: 4 },
    );
    expect([...flaws].sort()).toEqual(['boolean-ordering', 'trailing-junk', 'truncated', 'unbalanced', 'unknown-operator', 'unquoted-string']);
  });
});
