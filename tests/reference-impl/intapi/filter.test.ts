// The _filter parser and evaluator (docs/decisions/intapi/reference-choices.md "_filter grammar"), unit-tested on small data.
import { describe, expect, test } from 'vitest';
import { FieldSchema } from '../../../reference-impl/rules/fields.js';
import { compileFilter, FilterError, parseFilter, SPEC_FILTER_SEMANTICS } from '../../../reference-impl/intapi/filter/index.js';
import { parseSort, SPEC_SORT_SEMANTICS, sortRecords } from '../../../reference-impl/intapi/lists/sort.js';

interface Row {
  id: string;
  name: string;
  note: string | null;
  ref: string | null;
  when: string | null;
  n: number | null;
  flag: boolean | null;
}

const ROWS: Row[] = [
  { id: 'a', name: 'Alpha', note: 'first', ref: 'AAAAAAAA-0000-4000-8000-000000000001', when: '2024-01-01T00:00:00.000Z', n: 1, flag: true },
  { id: 'b', name: 'alpha beta', note: null, ref: null, when: '2023-06-30T12:00:00.000Z', n: 2.5, flag: false },
  { id: 'c', name: "O'Brien", note: "it's", ref: 'bbbbbbbb-0000-4000-8000-000000000002', when: null, n: -3, flag: null },
  { id: 'd', name: 'Zeta', note: 'LAST', ref: 'cccccccc-0000-4000-8000-000000000003', when: '2025-12-31T23:59:59.000Z', n: null, flag: true },
  { id: 'e', name: 'Éclair', note: '', ref: null, when: '2024-01-01T01:00:00.000Z', n: 1000, flag: false },
];

const SCHEMA = new FieldSchema<Row>([
  { name: 'name', type: 'string', get: (r) => r.name },
  { name: 'note', type: 'string', get: (r) => r.note },
  { name: 'ref', type: 'guid', get: (r) => r.ref },
  { name: 'when', type: 'datetime', get: (r) => r.when },
  { name: 'n', type: 'number', get: (r) => r.n },
  { name: 'flag', type: 'boolean', get: (r) => r.flag },
]);

function select(expression: string): string {
  const predicate = compileFilter(parseFilter(expression), SCHEMA, SPEC_FILTER_SEMANTICS);
  return ROWS.filter(predicate)
    .map((r) => r.id)
    .join('');
}

describe('evaluation', () => {
  test.each([
    ["name eq 'Alpha'", 'a'],
    ["name eq 'alpha'", ''],
    ["name ne 'Alpha'", 'bcde'],
    ["NAME eq 'Zeta'", 'd'],
    ["name gt 'Z'", 'bde'],
    ["name lt 'B'", 'a'],
    ["name ge 'alpha beta'", 'be'],
    ["name le 'O''Brien'", 'ac'],
    ["name eq 'O''Brien'", 'c'],
    ['note eq null', 'b'],
    ['note ne null', 'acde'],
    ["note ne 'first'", 'bcde'],
    ["note gt 'a'", 'ac'],
    ["note eq ''", 'e'],
    ["startswith(name,'Al')", 'a'],
    ["startswith(name,'al')", 'b'],
    ["endswith(name,'a')", 'abd'],
    ["substringof('ph', name)", 'ab'],
    ["substringof('', note)", 'acde'],
    ["startswith(tolower(name),'al')", 'ab'],
    ["toupper(name) eq 'ZETA'", 'd'],
    ["tolower(note) eq 'last'", 'd'],
    ['tolower(note) eq null', ''],
    ["tolower(note) ne 'x'", 'acde'],
    ["endswith(note,'')", 'acde'],
    ["ref eq guid'aaaaaaaa-0000-4000-8000-000000000001'", 'a'],
    ["ref eq 'BBBBBBBB-0000-4000-8000-000000000002'", 'c'],
    ['ref ne null', 'acd'],
    ["ref gt guid'bbbbbbbb-0000-4000-8000-000000000002'", 'd'],
    ["startswith(ref,'CCC')", 'd'],
    ["when ge datetime'2024-01-01T00:00:00Z'", 'ade'],
    ["when eq datetime'2024-01-01T02:00:00+01:00'", 'e'],
    ["when lt datetime'2024-01-01T00:00:00.001Z'", 'ab'],
    ['when eq null', 'c'],
    ['n gt 1', 'be'],
    ['n ge 1', 'abe'],
    ['n lt 0', 'c'],
    ['n le -3', 'c'],
    ['n eq 2.5', 'b'],
    ['n eq 1e3', 'e'],
    ['n ne null', 'abce'],
    ['n gt null', ''],
    // A null field is in no ordering, whatever the literal.
    ['n le 1000', 'abce'],
    ['n ne 1', 'bcde'],
    ['flag eq true', 'ad'],
    ['flag ne true', 'bce'],
    ['flag eq false', 'be'],
    ['flag eq null', 'c'],
    ["not name eq 'Alpha'", 'bcde'],
    ["not not name eq 'Alpha'", 'a'],
    ['not (n gt 1)', 'acd'],
    ["name eq 'Alpha' or name eq 'Zeta'", 'ad'],
    ['flag eq true and n eq 1', 'a'],
    ["flag eq true or n eq 2.5 and name eq 'nobody'", 'ad'],
    ["(flag eq true or n eq 2.5) and startswith(name,'al')", 'b'],
    ["not startswith(name,'A') and not (n eq null)", 'bce'],
    ["  name   eq   'Zeta'  ", 'd'],
    ["(((name eq 'Zeta')))", 'd'],
  ])('%s selects %j', (expression, expected) => {
    expect(select(expression)).toBe(expected);
  });

  test('strings compare by UTF-16 code units (É after z)', () => {
    expect(select("name gt 'zzz'")).toBe('e');
  });
});

describe('refusals', () => {
  test.each([
    [''],
    ['   '],
    ['name'],
    ['name eq'],
    ["name eq 'x"],
    ["name EQ 'x'"],
    ["name eq 'x' AND n eq 1"],
    ["name == 'x'"],
    ["'x' eq name"],
    ["name eq 'x')"],
    ["(name eq 'x'"],
    ["name eq 'x' n eq 1"],
    ["startswith(name 'x')"],
    ["startswith('x', name)"],
    ["substringof(name, 'x')"],
    ["StartsWith(name,'x')"],
    ["startswith(name,'x') eq true"],
    ['tolower(name eq 1'],
    ["name eq guid 'x'"],
    ['n eq 1.'],
    ['n eq #'],
    ['and'],
    ['not'],
    ['name eq name'],
  ])('syntax error: %j', (expression) => {
    expect(() => compileFilter(parseFilter(expression), SCHEMA, SPEC_FILTER_SEMANTICS)).toThrow(FilterError);
    try {
      parseFilter(expression);
    } catch (error) {
      expect((error as FilterError).kind).toBe('syntax');
    }
  });

  test.each([
    ["colour eq 'red'", 'field'],
    ['name eq 1', 'type'],
    ['name eq true', 'type'],
    ["n eq '1'", 'type'],
    ["when eq '2024-01-01T00:00:00Z'", 'type'],
    ["when eq datetime'2024-13-01T00:00:00Z'", 'type'],
    ["ref eq guid'not-a-guid'", 'type'],
    ["name eq guid'aaaaaaaa-0000-4000-8000-000000000001'", 'type'],
    ['flag gt true', 'type'],
    ['flag eq 1', 'type'],
    ["startswith(n,'1')", 'type'],
    ["tolower(n) eq '1'", 'type'],
    ["tolower(flag) eq 'true'", 'type'],
  ])('%j is refused (%s)', (expression, kind) => {
    let caught: unknown;
    try {
      compileFilter(parseFilter(expression), SCHEMA, SPEC_FILTER_SEMANTICS);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FilterError);
    expect((caught as FilterError).kind).toBe(kind);
  });

  test('deep nesting is a syntax error, not a stack overflow', () => {
    const deep = `${'('.repeat(5000)}n eq 1${')'.repeat(5000)}`;
    expect(() => parseFilter(deep)).toThrow(FilterError);
    expect(() => parseFilter(`${'not '.repeat(5000)}n eq 1`)).toThrow(FilterError);
  });
});

describe('sort', () => {
  const order = (text: string): string =>
    sortRecords(ROWS, parseSort(text, SCHEMA, SPEC_SORT_SEMANTICS), SPEC_SORT_SEMANTICS)
      .map((r) => r.id)
      .join('');
  test.each([
    ['n', 'dcabe'],
    ['-n', 'ebacd'],
    ['note', 'bedac'],
    ['-note', 'cadeb'],
    ['flag,name', 'cbead'],
    ['flag,-name', 'cebda'],
    ['when', 'cbaed'],
    ['ref', 'beacd'],
    ['-REF', 'dcabe'],
    [' name , n ', 'acdbe'],
  ])('_sort=%j orders %s (nulls first ascending, stable)', (text, expected) => {
    expect(order(text)).toBe(expected);
  });

  test.each(['', 'name,', '-', 'colour', 'name/x', '+name'])('_sort=%j is refused', (text) => {
    expect(() => parseSort(text, SCHEMA, SPEC_SORT_SEMANTICS)).toThrow();
  });

  test('a sort by a field of equal values keeps creation order', () => {
    const rows: Row[] = ROWS.map((r) => ({ ...r, n: 7 }));
    expect(
      sortRecords(rows, parseSort('-n', SCHEMA, SPEC_SORT_SEMANTICS), SPEC_SORT_SEMANTICS)
        .map((r) => r.id)
        .join(''),
    ).toBe('abcde');
  });
});

test('a value of another type than the field matches nothing and sorts last', () => {
  const odd = [...ROWS, { ...ROWS[0], id: 'x', name: 42 as unknown as string } as Row];
  const predicate = compileFilter(parseFilter("name ne 'q'"), SCHEMA, SPEC_FILTER_SEMANTICS);
  expect(odd.filter(predicate).map((r) => r.id)).not.toContain('x');
  expect(sortRecords(odd, parseSort('name', SCHEMA, SPEC_SORT_SEMANTICS), SPEC_SORT_SEMANTICS).at(-1)?.id).toBe('x');
});
