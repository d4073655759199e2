// Tests of the suite's `_filter` / `_sort` model (suites/_harness/intapi/filter.ts) against hand-written
// expectations from docs/decisions/intapi/reference-choices.md ("`_filter` grammar", "Lists").
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterExpression } from '../../../suites/_harness/intapi/arbitraries.js';
import {
  type DataRecord,
  type FieldTypes,
  type FilterAst,
  FilterTypeError,
  RecordValueError,
  SortSpecError,
  filterRecords,
  parseDateTime,
  render,
  renderSort,
  sortViolationIndex,
} from '../../../suites/_harness/intapi/filter.js';
import { evaluate, FilterSyntaxError, parse, parseSort, renderNumber, sortRecords } from '../../support/filter-parser.js';

const isSorted = (list: readonly DataRecord[], spec: ReturnType<typeof parseSort>, f: FieldTypes): boolean => sortViolationIndex(list, spec, f) === -1;

const fields: FieldTypes = {
  id: 'guid',
  name: 'string',
  description: 'string',
  score: 'number',
  status: 'integer',
  isActive: 'boolean',
  completionDate: 'datetime',
};

const alpha: DataRecord = {
  id: '0000000a-0000-4000-8000-000000000001',
  name: 'Alpha',
  description: "O'Brien notes",
  score: 42.5,
  status: 1,
  isActive: true,
  completionDate: '2024-03-01T10:00:00.000Z',
};
const beta: DataRecord = {
  id: '0000000B-0000-4000-8000-000000000002', // upper case on purpose: guids compare case-insensitively
  name: 'beta',
  description: null,
  score: null,
  status: 0,
  isActive: false,
  completionDate: '2023-12-31T23:59:59.999Z',
};
const gamma: DataRecord = {
  id: 'ffffffff-0000-4000-8000-000000000003',
  name: 'Ärger',
  // U+1F600 is a surrogate pair (D83D DE00): below U+FF21 in UTF-16 order, above it by code point.
  description: '\u{1F600} smile',
  score: 100,
  status: 2,
  isActive: true,
  completionDate: '1999-01-01T00:00:00Z',
};
const records = [alpha, beta, gamma];

function selected(text: string): unknown[] {
  return filterRecords(records, parse(text), fields).map((record) => record.name);
}

describe('filter evaluation (docs/decisions/intapi/reference-choices.md `_filter` semantics)', () => {
  const cases: [string, string[]][] = [
    // strings: ordinal by UTF-16 code units, case-sensitive
    ["name eq 'Alpha'", ['Alpha']],
    ["name eq 'alpha'", []],
    ["name ne 'Alpha'", ['beta', 'Ärger']],
    ["name gt 'Z'", ['beta', 'Ärger']],
    ["name ge 'beta'", ['beta', 'Ärger']],
    ["name lt 'b'", ['Alpha']],
    ["name le 'beta'", ['Alpha', 'beta']],
    ["description lt '\uFF21'", ['Alpha', 'Ärger']],
    // tolower / toupper apply to the field, not to the literal
    ["tolower(name) eq 'alpha'", ['Alpha']],
    ["tolower(name) eq 'Alpha'", []],
    ["toupper(name) eq 'BETA'", ['beta']],
    ["toupper(name) ge 'B'", ['beta', 'Ärger']],
    // functions
    ["substringof('lph', name)", ['Alpha']],
    ["substringof('', description)", ['Alpha', 'Ärger']],
    ["startswith(name, 'Al')", ['Alpha']],
    ["startswith(name, 'al')", []],
    ["endswith(name, 'ta')", ['beta']],
    ["startswith(tolower(name), 'be')", ['beta']],
    ["endswith(toupper(name), 'HA')", ['Alpha']],
    ["substringof('\u{1F600}', description)", ['Ärger']],
    // quote escaping: '' stands for one quote
    ["description eq 'O''Brien notes'", ['Alpha']],
    ["substringof('''', description)", ['Alpha']],
    // numbers
    ['score gt 42', ['Alpha', 'Ärger']],
    ['score ge 42.5', ['Alpha', 'Ärger']],
    ['score lt 50', ['Alpha']],
    ['score le 100', ['Alpha', 'Ärger']],
    ['score eq 100', ['Ärger']],
    ['score gt -1', ['Alpha', 'Ärger']],
    ['status eq 1', ['Alpha']],
    ['status eq 1e0', ['Alpha']],
    ['status gt 0.5', ['Alpha', 'Ärger']],
    // null: eq is equality (null equals only null), ne its negation; ordering comparisons and
    // functions with null are false
    ['score eq null', ['beta']],
    ['score ne null', ['Alpha', 'Ärger']],
    ['score ne 42.5', ['beta', 'Ärger']],
    ['score eq 42.5', ['Alpha']],
    ['score gt null', []],
    ['score le null', []],
    ["description ne 'zzz'", ['Alpha', 'beta', 'Ärger']],
    ["tolower(description) ne 'zzz'", ['Alpha', 'Ärger']],
    ["startswith(description, '')", ['Alpha', 'Ärger']],
    ['tolower(description) eq null', []],
    ['tolower(description) ne null', ['Alpha', 'Ärger']],
    // two-valued: not negates a comparison that was false because of null
    ['not (score gt 50)', ['Alpha', 'beta']],
    ['not score eq null', ['Alpha', 'Ärger']],
    ['not not score eq null', ['beta']],
    // booleans
    ['isActive eq true', ['Alpha', 'Ärger']],
    ['isActive ne true', ['beta']],
    ['isActive eq false', ['beta']],
    ['isActive ne null', ['Alpha', 'beta', 'Ärger']],
    // guids: case-insensitive, guid'...' or string literal
    ["id eq guid'0000000A-0000-4000-8000-000000000001'", ['Alpha']],
    ["id eq '0000000b-0000-4000-8000-000000000002'", ['beta']],
    ["id ne guid'0000000a-0000-4000-8000-000000000001'", ['beta', 'Ärger']],
    ["id gt guid'0000000A-0000-4000-8000-000000000001'", ['beta', 'Ärger']],
    // date-times compare as instants, whatever the offset the text is written with
    ["completionDate gt datetime'2024-01-01T00:00:00Z'", ['Alpha']],
    ["completionDate eq datetime'2024-03-01T12:00:00+02:00'", ['Alpha']],
    ["completionDate eq datetime'2024-03-01T10:00:00Z'", ['Alpha']],
    ["completionDate le datetime'2023-12-31T23:59:59.999Z'", ['beta', 'Ärger']],
    ["completionDate lt datetime'2023-12-31T23:59:59.999Z'", ['Ärger']],
    ["completionDate ge datetime'1999-01-01T00:00:00.000Z'", ['Alpha', 'beta', 'Ärger']],
    ['completionDate eq null', []],
    // precedence: not > and > or, and/or left-associative
    ["not name eq 'Alpha' and score eq null or status eq 2", ['beta', 'Ärger']],
    ["not (name eq 'Alpha' and score eq null or status eq 2)", ['Alpha', 'beta']],
    ["name eq 'Alpha' or name eq 'beta' and status eq 2", ['Alpha']],
    ["(name eq 'Alpha' or name eq 'beta') and status eq 0", ['beta']],
    ["name eq 'Alpha' or (name eq 'beta' and status eq 0)", ['Alpha', 'beta']],
    // field names match case-insensitively; whitespace between tokens is free
    ["NAME eq 'Alpha'", ['Alpha']],
    ["  name \t eq\n'Alpha'  ", ['Alpha']],
    ["substringof ( 'lph' , name )", ['Alpha']],
  ];

  it.each(cases)('%s selects %j', (text, expected) => {
    expect(selected(text)).toEqual(expected);
  });

  it('evaluate answers per record like filterRecords', () => {
    const ast = parse("name eq 'beta' or score gt 50");
    expect(records.map((record) => evaluate(ast, record, fields))).toEqual([false, true, true]);
  });

  it('a record value of the wrong type is a RecordValueError, not a silent false', () => {
    expect(() => evaluate(parse("name eq 'x'"), { name: 5 }, fields)).toThrow(RecordValueError);
    expect(() => evaluate(parse('completionDate eq null'), { completionDate: 'yesterday' }, fields)).toThrow(RecordValueError);
  });

  it('an absent field counts as null', () => {
    expect(evaluate(parse('score eq null'), { name: 'x' }, fields)).toBe(true);
  });
});

describe('filter type errors (422 naming _filter on a server)', () => {
  const cases = [
    'nope eq 1',
    'name eq 1',
    "score eq '1'",
    'isActive gt true',
    'isActive lt null',
    "isActive eq 'true'",
    "completionDate eq '2024-01-01T00:00:00Z'",
    'id eq 5',
    "name eq guid'0000000a-0000-4000-8000-000000000001'",
    "score eq datetime'2024-01-01T00:00:00Z'",
    "startswith(score, '1')",
    "substringof('a', id)",
    "tolower(id) eq 'a'",
    "toupper(completionDate) eq 'A'",
  ];
  it.each(cases)('%s', (text) => {
    const ast = parse(text);
    expect(() => evaluate(ast, alpha, fields)).toThrow(FilterTypeError);
  });
});

describe('filter syntax errors', () => {
  const cases = [
    '',
    'name',
    'name eq',
    "name eq 'x",
    "name EQ 'x'",
    "name eq 'x' AND status eq 1",
    'name eq x',
    "(name eq 'x'",
    "name eq 'x')",
    "substringof(name, 'x')",
    "startswith('x', name)",
    'startswith(name, 1)',
    "id eq guid'1234'",
    "id eq guid 'x'",
    "completionDate eq datetime'2024-13-01T00:00:00Z'",
    "completionDate eq datetime'2024-02-30T00:00:00Z'",
    "completionDate eq datetime'2024-01-01'",
    "completionDate eq datetime'2024-01-01T00:00:00'",
    "name eq 'a' and",
    'not',
    'score eq 1.',
    'score eq .5',
    'score eq 1e999',
    "name eq 'a' 'b'",
    "name ~ 'a'",
    "tolower(tolower(name)) eq 'a'",
    "name eq tolower('a')",
    "'a' eq name",
    "and eq 'a'",
    "name eq 'a' or or name eq 'b'",
  ];
  it.each(cases)('%j', (text) => {
    expect(() => parse(text)).toThrow(FilterSyntaxError);
  });

  it('reports the position of the offending token', () => {
    try {
      parse("name eq 'a' xor");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FilterSyntaxError);
      expect((error as FilterSyntaxError).position).toBe(12);
    }
  });
});

describe('render', () => {
  const leaf = (name: string): FilterAst => ({
    kind: 'comparison',
    op: 'eq',
    operand: { kind: 'field', field: 'name' },
    literal: { type: 'string', value: name },
  });

  it('writes parentheses only where the tree needs them', () => {
    const [a, b, c] = [leaf('a'), leaf('b'), leaf('c')];
    expect(render({ kind: 'and', left: { kind: 'or', left: a, right: b }, right: c })).toBe("(name eq 'a' or name eq 'b') and name eq 'c'");
    expect(render({ kind: 'or', left: { kind: 'and', left: a, right: b }, right: c })).toBe("name eq 'a' and name eq 'b' or name eq 'c'");
    expect(render({ kind: 'and', left: a, right: { kind: 'and', left: b, right: c } })).toBe("name eq 'a' and (name eq 'b' and name eq 'c')");
    expect(render({ kind: 'not', operand: { kind: 'or', left: a, right: b } })).toBe("not (name eq 'a' or name eq 'b')");
    expect(render({ kind: 'not', operand: a })).toBe("not name eq 'a'");
  });

  it('doubles quotes inside strings and writes every literal form', () => {
    expect(render(leaf("it's ''"))).toBe("name eq 'it''s '''''");
    expect(
      render({
        kind: 'boolcall',
        fn: 'substringof',
        operand: { kind: 'tolower', field: 'name' },
        value: "'",
      }),
    ).toBe("substringof('''',tolower(name))");
    expect(render(parse("id eq guid'0000000A-0000-4000-8000-000000000001'"))).toBe("id eq guid'0000000A-0000-4000-8000-000000000001'");
    expect(render(parse("completionDate lt datetime'2024-03-01T12:00:00+02:00'"))).toBe("completionDate lt datetime'2024-03-01T12:00:00+02:00'");
    expect(render(parse('isActive ne false or score eq null'))).toBe('isActive ne false or score eq null');
  });

  it('writes numbers in plain decimal notation', () => {
    expect(renderNumber(1e21)).toBe('1000000000000000000000');
    expect(renderNumber(1.5e-7)).toBe('0.00000015');
    expect(renderNumber(-2.5e-8)).toBe('-0.000000025');
    expect(renderNumber(1.2345e25)).toBe('12345000000000000000000000');
    expect(renderNumber(-0)).toBe('0');
    expect(renderNumber(42.5)).toBe('42.5');
    expect(() => renderNumber(Number.NaN)).toThrow(RangeError);
    expect(() => renderNumber(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('numbers parse back to the same double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = renderNumber(value);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        const ast = parse(`score eq ${text}`);
        expect(ast.kind === 'comparison' && ast.literal.type === 'number' && ast.literal.value).toBe(value === 0 ? 0 : value);
      }),
    );
  });
});

describe('parse and render round trip', () => {
  const sample = records;

  it('parse(render(ast)) gives back the tree', () => {
    fc.assert(
      fc.property(filterExpression(fields, sample), (ast) => {
        expect(parse(render(ast))).toEqual(ast);
      }),
      { numRuns: 500 },
    );
  });

  it('render(parse(text)) is a fixed point after one round', () => {
    fc.assert(
      fc.property(filterExpression(fields, sample), (ast) => {
        const text = render(ast);
        expect(render(parse(text))).toBe(text);
      }),
    );
  });

  it('not is plain negation and de Morgan holds (two-valued logic)', () => {
    const pair = fc.tuple(filterExpression(fields, sample), filterExpression(fields, sample));
    fc.assert(
      fc.property(pair, fc.constantFrom(...records), ([left, right], record) => {
        const notAnd = evaluate({ kind: 'not', operand: { kind: 'and', left, right } }, record, fields);
        const orNots = evaluate({ kind: 'or', left: { kind: 'not', operand: left }, right: { kind: 'not', operand: right } }, record, fields);
        expect(notAnd).toBe(orNots);
        expect(evaluate({ kind: 'not', operand: left }, record, fields)).toBe(!evaluate(left, record, fields));
      }),
    );
  });
});

describe('parseDateTime (RFC 3339 instants)', () => {
  it.each([
    ['2024-03-01T10:00:00Z', Date.UTC(2024, 2, 1, 10)],
    ['2024-03-01t10:00:00z', Date.UTC(2024, 2, 1, 10)],
    ['2024-03-01T12:30:00+02:30', Date.UTC(2024, 2, 1, 10)],
    ['2024-03-01T05:00:00-05:00', Date.UTC(2024, 2, 1, 10)],
    ['2024-02-29T00:00:00.5Z', Date.UTC(2024, 1, 29, 0, 0, 0, 500)],
    ['2024-02-29T00:00:00.123999Z', Date.UTC(2024, 1, 29, 0, 0, 0, 123)],
    ['0050-01-01T00:00:00Z', -60589296000000],
  ])('%s', (text, instant) => {
    expect(parseDateTime(text)).toBe(instant);
  });

  it.each([
    '2024-13-01T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T23:59:60Z',
    '2024-01-01T00:00:00',
    '2024-01-01 00:00:00Z',
    '2024-01-01',
    '2024-01-01T00:00:00+24:00',
  ])('rejects %s', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });
});

describe('sort helpers (docs/decisions/intapi/reference-choices.md Lists, `_sort`)', () => {
  const names = (list: readonly DataRecord[]): unknown[] => list.map((record) => record.name);

  it('parseSort reads a comma list with - for descending', () => {
    expect(parseSort('name,-completionDate')).toEqual([
      { field: 'name', descending: false },
      { field: 'completionDate', descending: true },
    ]);
    expect(renderSort(parseSort('name,-completionDate'))).toBe('name,-completionDate');
  });

  it.each(['', 'name,', ',name', '--name', 'name desc', '+name', 'na-me', ' name'])('parseSort rejects %j', (text) => {
    expect(() => parseSort(text)).toThrow(SortSpecError);
  });

  it('sorts strings ordinally, nulls first ascending and last descending', () => {
    expect(names(sortRecords(records, parseSort('name'), fields))).toEqual(['Alpha', 'beta', 'Ärger']);
    expect(names(sortRecords(records, parseSort('-name'), fields))).toEqual(['Ärger', 'beta', 'Alpha']);
    expect(names(sortRecords(records, parseSort('score'), fields))).toEqual(['beta', 'Alpha', 'Ärger']);
    expect(names(sortRecords(records, parseSort('-score'), fields))).toEqual(['Ärger', 'Alpha', 'beta']);
    expect(names(sortRecords(records, parseSort('description'), fields))).toEqual(['beta', 'Alpha', 'Ärger']);
  });

  it('uses later keys for ties and keeps input order for full ties', () => {
    expect(names(sortRecords(records, parseSort('isActive,-score'), fields))).toEqual(['beta', 'Ärger', 'Alpha']);
    expect(names(sortRecords(records, parseSort('-isActive'), fields))).toEqual(['Alpha', 'Ärger', 'beta']);
  });

  it('sorts date-times as instants and guids case-insensitively', () => {
    const times: DataRecord[] = [
      { name: 'a', completionDate: '2024-03-01T12:00:00+02:00', id: '0000000B-0000-4000-8000-000000000000' },
      { name: 'b', completionDate: '2024-03-01T10:30:00Z', id: '0000000a-0000-4000-8000-000000000000' },
    ];
    expect(names(sortRecords(times, parseSort('completionDate'), fields))).toEqual(['a', 'b']);
    expect(names(sortRecords(times, parseSort('id'), fields))).toEqual(['b', 'a']);
  });

  it('matches sort field names case-insensitively and rejects unknown ones', () => {
    expect(names(sortRecords(records, parseSort('NAME'), fields))).toEqual(['Alpha', 'beta', 'Ärger']);
    expect(() => sortRecords(records, parseSort('nope'), fields)).toThrow(SortSpecError);
  });

  it('isSorted accepts ties in any order and names the first violation', () => {
    const tied: DataRecord[] = [
      { name: 'x', score: 1 },
      { name: 'y', score: 1 },
    ];
    expect(isSorted(tied, parseSort('score'), fields)).toBe(true);
    expect(isSorted([...tied].reverse(), parseSort('score'), fields)).toBe(true);
    expect(isSorted([alpha, beta, gamma], parseSort('score'), fields)).toBe(false);
    expect(sortViolationIndex([alpha, beta, gamma], parseSort('score'), fields)).toBe(1);
    expect(sortViolationIndex([beta, alpha, gamma], parseSort('score'), fields)).toBe(-1);
    expect(isSorted([], parseSort('score'), fields)).toBe(true);
  });

  it('sortRecords output is a sorted permutation (property)', () => {
    const record = fc.record({
      name: fc.option(fc.string({ unit: 'binary', maxLength: 4 }), { nil: null }),
      score: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
      isActive: fc.boolean(),
    });
    const spec = fc.uniqueArray(fc.record({ field: fc.constantFrom('name', 'score', 'isActive'), descending: fc.boolean() }), {
      minLength: 1,
      maxLength: 3,
      selector: (key) => key.field,
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), spec, (list, keys) => {
        const sorted = sortRecords(list, keys, fields);
        expect(isSorted(sorted, keys, fields)).toBe(true);
        expect([...sorted].sort(byJson)).toEqual([...list].sort(byJson));
      }),
    );
  });
});

function byJson(left: DataRecord, right: DataRecord): number {
  const [a, b] = [JSON.stringify(left), JSON.stringify(right)];
  return a < b ? -1 : a > b ? 1 : 0;
}
