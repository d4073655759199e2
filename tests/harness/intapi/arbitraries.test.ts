// Tests of the suite's arbitraries (suites/_harness/intapi/arbitraries.ts). Every bound is checked by
// code independent of the arbitraries: `[...s].length` for code points, ajv-formats' own
// date-time and uuid formats, plain typeof for JSON types.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ValueBounds,
  aboveMax,
  belowMin,
  codePointLength,
  exactBoundValues,
  filterExpression,
  invalidFormat,
  outsideEnum,
  sortSpec,
  withinBounds,
  wrongType,
} from '../../../suites/_harness/intapi/arbitraries.js';
import {
  BOOL_FUNCTIONS,
  COMPARISON_OPERATORS,
  type DataRecord,
  type FieldTypes,
  type FilterAst,
  filterRecords,
  render,
} from '../../../suites/_harness/intapi/filter.js';
import { evaluate, parse } from '../../support/filter-parser.js';

const RUNS = 400;

function sample<T>(arbitrary: fc.Arbitrary<T>, numRuns = RUNS): T[] {
  return fc.sample(arbitrary, { numRuns, seed: 20_240_301 });
}

const codePoints = (text: string): number => [...text].length;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ASTRAL = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

const ajv = new Ajv2020();
ajvFormats.default(ajv);
// ajv-formats' own reading of RFC 3339 date-time and RFC 4122 uuid: an oracle independent of ours.
const isAjvDateTime = ajv.compile({ type: 'string', format: 'date-time' });
const isAjvUuid = ajv.compile({ type: 'string', format: 'uuid' });

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

describe('codePointLength', () => {
  it('counts Unicode code points like the string iterator', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(codePointLength(text)).toBe(codePoints(text));
      }),
    );
    expect(codePointLength('a\u{1F600}b')).toBe(3);
    expect(codePointLength('')).toBe(0);
  });
});

describe('withinBounds', () => {
  it('strings have minLength..maxLength code points, both bounds exactly and astral ones often', () => {
    const values = sample(withinBounds({ type: 'string', minLength: 1, maxLength: 255 }));
    const lengths = values.map((value) => codePoints(String(value)));
    expect(values.every((value) => typeof value === 'string')).toBe(true);
    expect(Math.min(...lengths)).toBe(1);
    expect(Math.max(...lengths)).toBe(255);
    expect(lengths.filter((length) => length === 1).length).toBeGreaterThan(RUNS / 10);
    expect(lengths.filter((length) => length === 255).length).toBeGreaterThan(RUNS / 10);
    expect(values.some((value) => LONE_SURROGATE.test(String(value)))).toBe(false);
    expect(values.filter((value) => ASTRAL.test(String(value))).length).toBeGreaterThan(RUNS / 4);
  });

  it('reaches a 10 000-code-point maximum and an empty minimum', () => {
    const lengths = sample(withinBounds({ type: 'string', maxLength: 10_000 }), 100).map((value) => codePoints(String(value)));
    expect(lengths).toContain(10_000);
    expect(lengths).toContain(0);
    expect(Math.max(...lengths)).toBe(10_000);
  });

  it('date-times are RFC 3339 (ajv-formats), round-trip as instants, years 1900..2999', () => {
    for (const value of sample(withinBounds({ type: 'string', format: 'date-time' }))) {
      const text = String(value);
      expect(isAjvDateTime(text), text).toBe(true);
      const instant = Date.parse(text);
      expect(Number.isNaN(instant), text).toBe(false);
      expect(Date.parse(new Date(instant).toISOString())).toBe(instant);
      const year = new Date(instant).getUTCFullYear();
      expect(year >= 1900 && year <= 2999, text).toBe(true);
      expect(Number(text.slice(0, 4)) >= 1900 && Number(text.slice(0, 4)) <= 2999, text).toBe(true);
    }
  });

  it('uuids are lower-case version 4', () => {
    for (const value of sample(withinBounds({ type: 'string', format: 'uuid' }))) {
      expect(String(value)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('integers stay in minimum..maximum with both ends present; enums give members', () => {
    const values = sample(withinBounds({ type: 'integer', minimum: 0, maximum: 10 }));
    expect(values.every((value) => Number.isInteger(value) && Number(value) >= 0 && Number(value) <= 10)).toBe(true);
    expect(values).toContain(0);
    expect(values).toContain(10);
    const members = sample(withinBounds({ type: 'integer', enum: [0, 1, 2] }));
    expect(new Set(members)).toEqual(new Set([0, 1, 2]));
  });

  it('numbers stay in minimum..maximum with both ends and fractions present', () => {
    const values = sample(withinBounds({ type: 'number', minimum: 0, maximum: 100 }));
    expect(values.every((value) => typeof value === 'number' && value >= 0 && value <= 100)).toBe(true);
    expect(values).toContain(0);
    expect(values).toContain(100);
    expect(values.some((value) => !Number.isInteger(value))).toBe(true);
    expect(values.some((value) => Object.is(value, -0))).toBe(false);
  });

  it('arrays respect item counts and item bounds; booleans are booleans', () => {
    const item: ValueBounds = { type: 'string', maxLength: 3 };
    const arrays = sample(withinBounds({ type: 'array', minLength: 1, maxLength: 4, items: item }));
    for (const value of arrays) {
      expect(Array.isArray(value)).toBe(true);
      const list = value as unknown[];
      expect(list.length >= 1 && list.length <= 4).toBe(true);
      expect(list.every((entry) => typeof entry === 'string' && codePoints(entry) <= 3)).toBe(true);
    }
    expect(sample(withinBounds({ type: 'array' }), 10)).toEqual(Array.from({ length: 10 }, () => []));
    expect(new Set(sample(withinBounds({ type: 'boolean' })))).toEqual(new Set([true, false]));
  });
});

describe('exactBoundValues', () => {
  it('are the ends of each bound, the same every time (a create check runs them first)', () => {
    const title: ValueBounds = { type: 'string', minLength: 1, maxLength: 255 };
    const [short, long] = exactBoundValues(title) as string[];
    expect([codePointLength(short ?? ''), codePointLength(long ?? '')]).toEqual([1, 255]);
    expect(exactBoundValues(title)).toEqual([short, long]);
    // Of varied code points, as withinBounds draws them (not a run of one character).
    expect(new Set(long).size).toBeGreaterThan(1);
    expect(exactBoundValues({ type: 'number', minimum: 0, maximum: 100 })).toEqual([0, 100]);
    expect(exactBoundValues({ type: 'integer', enum: [0, 1, 2] })).toEqual([0, 1, 2]);
    expect(exactBoundValues({ type: 'boolean' })).toEqual([false, true]);
    expect(exactBoundValues({ type: 'string', format: 'date-time' })).toEqual([]);
    expect(LONE_SURROGATE.test(long ?? '')).toBe(false);
  });
});

describe('outside the bounds', () => {
  it('aboveMax: strings of exactly maxLength+1 code points', () => {
    for (const value of sample(aboveMax({ type: 'string', maxLength: 255 }))) {
      expect(codePoints(String(value))).toBe(256);
      expect(LONE_SURROGATE.test(String(value))).toBe(false);
    }
  });

  it('aboveMax: integers above max, max+1 most often; decimals just above max', () => {
    const integers = sample(aboveMax({ type: 'integer', maximum: 2 }));
    expect(integers.every((value) => Number.isInteger(value) && Number(value) > 2)).toBe(true);
    expect(integers.filter((value) => value === 3).length).toBeGreaterThan(RUNS / 2);
    const decimals = sample(aboveMax({ type: 'number', maximum: 100 }));
    expect(decimals.every((value) => typeof value === 'number' && value > 100 && value <= 1100)).toBe(true);
    expect(decimals.some((value) => Number(value) < 100.001)).toBe(true);
  });

  it('belowMin: strings of exactly minLength-1 code points, integers and decimals below min', () => {
    expect(new Set(sample(belowMin({ type: 'string', minLength: 1, maxLength: 255 })))).toEqual(new Set(['']));
    for (const value of sample(belowMin({ type: 'string', minLength: 5 }))) expect(codePoints(String(value))).toBe(4);
    const integers = sample(belowMin({ type: 'integer', minimum: 0 }));
    expect(integers.every((value) => Number.isInteger(value) && Number(value) < 0)).toBe(true);
    expect(integers).toContain(-1);
    const decimals = sample(belowMin({ type: 'number', minimum: 0 }));
    expect(decimals.every((value) => typeof value === 'number' && value < 0 && value >= -1000)).toBe(true);
  });

  it('aboveMax and belowMin on arrays count items', () => {
    const item: ValueBounds = { type: 'integer', minimum: 0, maximum: 1 };
    for (const value of sample(aboveMax({ type: 'array', maxLength: 2, items: item }), 50)) {
      expect((value as unknown[]).length).toBe(3);
    }
    for (const value of sample(belowMin({ type: 'array', minLength: 2, items: item }), 50)) {
      expect((value as unknown[]).length).toBe(1);
    }
  });

  it('outsideEnum: integers and strings that are not members', () => {
    const integers = sample(outsideEnum({ type: 'integer', enum: [0, 1, 2] }));
    expect(integers.every((value) => Number.isInteger(value) && ![0, 1, 2].includes(Number(value)))).toBe(true);
    expect(integers).toContain(-1);
    expect(integers).toContain(3);
    const members = ['SingleAnswer', 'MultipleAnswer', 'Text'];
    const strings = sample(outsideEnum({ type: 'string', enum: members }));
    expect(strings.every((value) => typeof value === 'string' && !members.includes(value))).toBe(true);
    expect(strings).toContain('TEXT');
  });

  it('wrongType: another JSON type, never null', () => {
    const cases: [ValueBounds, readonly string[]][] = [
      [{ type: 'string', maxLength: 5 }, ['string']],
      [{ type: 'string', format: 'date-time' }, ['string']],
      [{ type: 'integer' }, ['integer']],
      [{ type: 'number' }, ['integer', 'number']],
      [{ type: 'boolean' }, ['boolean']],
      [{ type: 'array' }, ['array']],
      [{ type: 'object' }, ['object']],
    ];
    for (const [bounds, own] of cases) {
      const kinds = new Set(sample(wrongType(bounds)).map(jsonType));
      expect(kinds.has('null')).toBe(false);
      for (const kind of own) expect(kinds.has(kind), `${bounds.type} got ${kind}`).toBe(false);
      expect(kinds.size).toBeGreaterThanOrEqual(2);
    }
  });

  it('invalidFormat: not a date-time, not a uuid (ajv-formats agrees)', () => {
    const dates = sample(invalidFormat({ type: 'string', format: 'date-time' }));
    for (const text of dates) expect(isAjvDateTime(text), text).toBe(false);
    expect(dates).toEqual(expect.arrayContaining(['not-a-date', '2024-13-01T00:00:00Z', '2024-02-30T00:00:00Z']));
    for (const text of sample(invalidFormat({ type: 'string', format: 'uuid' }))) expect(isAjvUuid(text), text).toBe(false);
  });

  it('refuses bounds that have no such outside', () => {
    expect(() => aboveMax({ type: 'string' })).toThrow(/maxLength/);
    expect(() => belowMin({ type: 'string', minLength: 0 })).toThrow(/minLength/);
    expect(() => belowMin({ type: 'integer' })).toThrow(/minimum/);
    expect(() => outsideEnum({ type: 'integer' })).toThrow(/enum/);
    expect(() => invalidFormat({ type: 'string' })).toThrow(/format/);
    expect(() => aboveMax({ type: 'boolean' })).toThrow();
  });
});

describe('filterExpression', () => {
  const fields: FieldTypes = {
    id: 'guid',
    title: 'string',
    vendor: 'string',
    score: 'number',
    status: 'integer',
    isActive: 'boolean',
    completionDate: 'datetime',
  };
  const records: DataRecord[] = [
    {
      id: '00000000-0000-4000-8000-000000000301',
      title: 'Fire Safety Basics',
      vendor: "O'Reilly",
      score: 88.5,
      status: 1,
      isActive: true,
      completionDate: '2024-03-01T10:00:00.000Z',
    },
    {
      id: '00000000-0000-4000-8000-000000000302',
      title: 'fire safety advanced',
      vendor: null,
      score: null,
      status: 0,
      isActive: false,
      completionDate: '2023-11-15T08:30:00.000Z',
    },
    {
      id: '00000000-0000-4000-8000-000000000303',
      title: 'Ärztliche Grundlagen \u{1F9EA}',
      vendor: 'Acme',
      score: 100,
      status: 2,
      isActive: true,
      completionDate: '2022-01-31T23:59:59.999Z',
    },
  ];
  const expressions = sample(filterExpression(fields, records), 2000);

  it('renders text that parse() accepts and gives back, and that evaluates without throwing', () => {
    for (const ast of expressions) {
      const text = render(ast);
      expect(parse(text)).toEqual(ast);
      for (const record of records) expect(typeof evaluate(ast, record, fields)).toBe('boolean');
    }
  });

  it('nests and/or/not at most three levels deep, and reaches three', () => {
    const depths = expressions.map(connectiveDepth);
    expect(Math.max(...depths)).toBe(3);
    expect(depths.filter((depth) => depth === 0).length).toBeGreaterThan(0);
  });

  it('uses every operator, function, connective, parentheses and literal type', () => {
    const seen = new Set(expressions.flatMap(features));
    const wanted = [
      ...COMPARISON_OPERATORS,
      ...BOOL_FUNCTIONS,
      'tolower',
      'toupper',
      'and',
      'or',
      'not',
      'literal:string',
      'literal:number',
      'literal:boolean',
      'literal:null',
      'literal:guid',
      'literal:datetime',
    ];
    expect(wanted.filter((feature) => !seen.has(feature))).toEqual([]);
    expect(expressions.some((ast) => render(ast).includes('('))).toBe(true);
    expect(expressions.some((ast) => /'([^']|'')*''([^']|'')*'/.test(render(ast)))).toBe(true);
  });

  it('compares booleans with eq and ne only', () => {
    const operators = sample(filterExpression({ isActive: 'boolean' }, records), 300)
      .flatMap(leafNodes)
      .flatMap((leaf) => (leaf.kind === 'comparison' ? [leaf.op] : []));
    expect(new Set(operators)).toEqual(new Set(['eq', 'ne']));
  });

  it('selects proper subsets of the sample often', () => {
    const proper = expressions.filter((ast) => {
      const count = filterRecords(records, ast, fields).length;
      return count > 0 && count < records.length;
    });
    expect(proper.length).toBeGreaterThan(expressions.length / 4);
  });

  it('draws most string literals from the sample (fragments, any case)', () => {
    const values = expressions.flatMap(leafNodes).flatMap(stringLiteralOf);
    const fromSample = values.filter((value) => sampleHas(records, value));
    expect(fromSample.length).toBeGreaterThan(values.length / 2);
  });

  it('works without a sample (fresh literals only)', () => {
    for (const ast of sample(filterExpression(fields, []), 200)) {
      expect(parse(render(ast))).toEqual(ast);
      expect(typeof evaluate(ast, records[0] ?? {}, fields)).toBe('boolean');
    }
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('shrinks to a comparison or call, negated at most (seed %i)', (seed) => {
    // "selects the first record but not the second": many single comparisons are counterexamples.
    const [first = {}, second = {}] = records;
    const property = fc.property(filterExpression(fields, records), (ast) => !(evaluate(ast, first, fields) && !evaluate(ast, second, fields)));
    const result = fc.check(property, { seed });
    expect(result.failed).toBe(true);
    const [shrunk] = result.counterexample ?? [];
    expect(shrunk === undefined ? -1 : connectiveDepth(shrunk), shrunk && render(shrunk)).toBeLessThanOrEqual(1);
  });
});

describe('sortSpec', () => {
  it('gives 1..3 distinct sortable fields, each direction present', () => {
    const fields = ['name', 'title', 'score', 'status'];
    const specs = sample(sortSpec(fields));
    for (const spec of specs) {
      expect(spec.length >= 1 && spec.length <= 3).toBe(true);
      expect(new Set(spec.map((key) => key.field)).size).toBe(spec.length);
      expect(spec.every((key) => fields.includes(key.field))).toBe(true);
    }
    expect(new Set(specs.map((spec) => spec.length))).toEqual(new Set([1, 2, 3]));
    expect(new Set(specs.flatMap((spec) => spec.map((key) => key.descending)))).toEqual(new Set([true, false]));
    expect(sample(sortSpec(['only'])).every((spec) => spec.length === 1)).toBe(true);
  });
});

function connectiveDepth(ast: FilterAst): number {
  switch (ast.kind) {
    case 'and':
    case 'or':
      return 1 + Math.max(connectiveDepth(ast.left), connectiveDepth(ast.right));
    case 'not':
      return 1 + connectiveDepth(ast.operand);
    default:
      return 0;
  }
}

function leafNodes(ast: FilterAst): FilterAst[] {
  switch (ast.kind) {
    case 'and':
    case 'or':
      return [...leafNodes(ast.left), ...leafNodes(ast.right)];
    case 'not':
      return leafNodes(ast.operand);
    default:
      return [ast];
  }
}

function features(ast: FilterAst): string[] {
  switch (ast.kind) {
    case 'and':
    case 'or':
      return [ast.kind, ...features(ast.left), ...features(ast.right)];
    case 'not':
      return ['not', ...features(ast.operand)];
    case 'comparison':
      return [ast.op, ast.operand.kind, `literal:${ast.literal.type}`];
    case 'boolcall':
      return [ast.fn, ast.operand.kind];
  }
}

function stringLiteralOf(leaf: FilterAst): string[] {
  if (leaf.kind === 'boolcall') return [leaf.value];
  return leaf.kind === 'comparison' && leaf.literal.type === 'string' ? [leaf.literal.value] : [];
}

function sampleHas(records: readonly DataRecord[], value: string): boolean {
  const wanted = value.toLowerCase();
  return records.some((record) => Object.values(record).some((field) => typeof field === 'string' && field.toLowerCase().includes(wanted)));
}
