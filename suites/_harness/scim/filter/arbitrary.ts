// fast-check arbitraries of SCIM filters: discriminating filters over the resources a check read
// (scimFilterOver), and malformed filters every RFC-following server refuses (invalidScimFilter).
import * as fc from 'fast-check';
import type { AttrPath, CompareOperator, CompValue, ScimFilter } from './ast.js';
import { and, attrPath, booleanValue, compare, COMPARE_OPERATORS, group, not, numberValue, or, present, stringValue, valuePath } from './ast.js';
import { preferring, withSubtreeShrinks } from '../../generators.js';
import { judgeFilter, observe, parseInstant, type FilterJudgement, type ScimResource } from './evaluate.js';
import type { AttributeDescription, ResourceSchema } from './schema.js';
import { USER_SCHEMA_URN } from './schema.js';
import { encodedLength } from '../../url-budget.js';

/** and/or/not/grouping nest at most three levels: every precedence case, short to read. */
const MAX_DEPTH = 3;
/** Draws of a leaf until one selects some resources but not all. */
const LEAF_TRIES = 3;
/** The most literals a filter holds: 2^MAX_DEPTH leaves, each a value filter of up to two comparisons. */
const LITERALS = 2 ** MAX_DEPTH * 2;
/** Bytes of a leaf around its literal, at most (`urn:…:enterprise:2.0:User:manager.value ne `, and
 * the parentheses and keywords above it), encoded. */
const LEAF_BYTES = 200;

function selectsSome(judgement: FilterJudgement): boolean {
  return judgement.kind === 'valid' && judgement.verdicts.includes(true) && judgement.verdicts.includes(false);
}

/** What a target's filter supports (a profile's `expectations.scim.filter`): generated filters keep within it. */
export interface FilterSupport {
  readonly operators: readonly string[];
  readonly logical: readonly string[];
  readonly valuePaths: boolean;
}

const EVERYTHING: FilterSupport = { operators: [...COMPARE_OPERATORS, 'pr'], logical: ['and', 'or', 'not'], valuePaths: true };

/**
 * Filters over the attributes of `schema` whose literals come from the resources' own values,
 * so that they select some resources and not others: eq/ne with a value (in another case, for
 * caseExact=false attributes a match, for caseExact=true a miss), co/sw/ew with a substring, a
 * prefix or a suffix of one, gt/ge/lt/le with a value itself or a prefix of it (the boundary),
 * dateTimes one millisecond or second away or written with another offset, numbers one away,
 * pr on attributes some resources lack, value filters (`emails[type eq "work" and value co "x"]`),
 * and, or, not, redundant parentheses; keywords and attribute names sometimes in odd case
 * (`AND`, `Eq`, `USERNAME`), core attributes sometimes under their schema URI, extension
 * attributes always. Every filter is one the evaluator judges valid. Shrinks towards one leaf.
 * `support` keeps the filters within what a target's filter supports (its operators, and/or/not,
 * value paths; the attributes are `schema`'s), and `budget` within a URL's bytes: no literal that
 * cannot fit is drawn from (url-budget.ts).
 */
export function scimFilterOver(
  resources: readonly ScimResource[],
  schema: ResourceSchema,
  support: FilterSupport = EVERYTHING,
  budget = Number.POSITIVE_INFINITY,
): fc.Arbitrary<ScimFilter> {
  // A filter holds at most LITERALS literals: each gets its share of the budget, less the bytes of
  // its attribute path and operator (url-budget.ts); a value that does not fit is not drawn from.
  const room = Math.floor(budget / LITERALS) - LEAF_BYTES;
  const fits = (value: unknown) => typeof value !== 'string' || encodedLength(JSON.stringify(value), room) <= room;
  const leaves = sourcesOf(resources, schema).flatMap((source) => leavesOf(source, support, fits));
  if (leaves.length === 0) throw new Error('scimFilterOver needs resources holding at least one value the schema describes');
  // A leaf that selects some resources and not others, in most draws (a few tries, then whatever
  // came: a comparison that selects nothing is what catches a server that selects too much).
  const leaf = preferring(fc.oneof(...leaves), (filter) => selectsSome(judgeFilter(filter, resources, schema)), LEAF_TRIES);
  const depthIdentifier = fc.createDepthIdentifier();
  const logical = (['and', 'or', 'not'] as const).filter((k) => support.logical.includes(k));
  const tree = fc.letrec<{ expr: ScimFilter; and: ScimFilter; or: ScimFilter; not: ScimFilter; group: ScimFilter }>((tie) => ({
    // The leaf comes first: it is the deep default, and withCrossShrink tries a leaf in a tree's place.
    expr: fc.oneof({ depthSize: 'small', maxDepth: MAX_DEPTH, depthIdentifier, withCrossShrink: true }, leaf, ...logical.map((k) => tie(k)), tie('group')),
    and: fc.tuple(tie('expr'), tie('expr'), style).map(([left, right, s]) => and(left, right, spell('and', s))),
    or: fc.tuple(tie('expr'), tie('expr'), style).map(([left, right, s]) => or(left, right, spell('or', s))),
    not: fc.tuple(tie('expr'), style).map(([operand, s]) => not(operand, spell('not', s))),
    group: tie('expr').map(group),
  }));
  return withSubtreeShrinks(tree.expr, subExpressions);
}

// ---------------------------------------------------------------------------------------------
// Spelling: keywords and names in odd case

type Style = 'as-is' | 'upper' | 'lower' | 'title' | 'alternate';
/** Mostly as written; one draw in four in another case. 'as-is' first: the shrink target. */
const style: fc.Arbitrary<Style> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Style>('as-is') },
  fc.constantFrom<Style>('upper', 'lower', 'title', 'alternate'),
);

function spell(word: string, how: Style): string {
  switch (how) {
    case 'as-is':
      return word;
    case 'upper':
      return word.toUpperCase();
    case 'lower':
      return word.toLowerCase();
    case 'title':
      return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
    case 'alternate':
      return [...word].map((c, i) => (i % 2 === 0 ? c.toLowerCase() : c.toUpperCase())).join('');
  }
}

// ---------------------------------------------------------------------------------------------
// Sources: the attribute paths the resources hold values at

interface Source {
  /** The path with the schema's own names; `uri` set for extension attributes. */
  readonly path: AttrPath;
  /** The attribute the values belong to (the sub-attribute, for `name.sub`). */
  readonly attribute: AttributeDescription;
  readonly values: readonly unknown[];
  /** Core attributes may be written under the core schema's URI. */
  readonly coreUri?: string;
  /** `emails.value` may be written `emails` (a multi-valued attribute compares its value). */
  readonly valueOfMultiValued: boolean;
}

const SIMPLE: ReadonlySet<AttributeDescription['type']> = new Set(['string', 'reference', 'binary', 'boolean', 'dateTime', 'decimal', 'integer']);

function sourcesOf(resources: readonly ScimResource[], schema: ResourceSchema): Source[] {
  const lists: [string | undefined, readonly AttributeDescription[]][] = [[undefined, schema.attributes], ...Object.entries(schema.extensions)];
  return lists.flatMap(([uri, attributes]) =>
    attributes.flatMap((attribute) => {
      const paths =
        attribute.type === 'complex'
          ? [attrPath(attribute.name, undefined, uri), ...(attribute.subAttributes ?? []).map((sub) => attrPath(attribute.name, sub.name, uri))]
          : [attrPath(attribute.name, undefined, uri)];
      return paths.flatMap((path): Source[] => {
        const seen = observe(path, resources, schema);
        if (seen === undefined || seen.attribute.returned === 'never' || !varies(path, resources, schema)) return [];
        const valueOfMultiValued = attribute.multiValued && attribute.type === 'complex' && path.sub === 'value';
        return [{ path, attribute: seen.attribute, values: seen.values, ...(uri === undefined ? { coreUri: schema.schema } : {}), valueOfMultiValued }];
      });
    }),
  );
}

/**
 * Whether the resources differ at a path: some lack a value there that others have, or their
 * values differ. Where every resource holds the same values (meta.resourceType, schemas of a
 * population without extensions), a filter on the path selects all or nothing.
 */
function varies(path: AttrPath, resources: readonly ScimResource[], schema: ResourceSchema): boolean {
  const each = new Set(resources.map((resource) => JSON.stringify(observe(path, [resource], schema)?.values ?? [])));
  return each.size > 1;
}

/** The path as a filter may write it: names in odd case, a core attribute sometimes under its schema URI. */
function writtenPath(source: Source): fc.Arbitrary<AttrPath> {
  const { path, coreUri } = source;
  const uri = coreUri === undefined ? fc.constant(path.uri) : fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, fc.constant(coreUri));
  const dropValue = source.valueOfMultiValued ? fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, fc.constant(true)) : fc.constant(false);
  return fc
    .tuple(uri, style, style, dropValue)
    .map(([u, nameStyle, subStyle, drop]) => attrPath(spell(path.name, nameStyle), drop || path.sub === undefined ? undefined : spell(path.sub, subStyle), u));
}

// ---------------------------------------------------------------------------------------------
// Leaves

const ORDERING: readonly CompareOperator[] = ['gt', 'ge', 'lt', 'le'];
const ALL_COMPARISONS: readonly CompareOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

/** `fits`: whether a value fits a literal within the URL budget (values that do not are not drawn from). */
type Fits = (value: unknown) => boolean;

function leavesOf(source: Source, support: FilterSupport, fits: Fits): fc.Arbitrary<ScimFilter>[] {
  const path = writtenPath(source);
  const pr = support.operators.includes('pr') ? [fc.tuple(path, style).map(([p, s]) => present(p, spell('pr', s)))] : [];
  if (source.attribute.type === 'complex') {
    const elements = source.values.filter(isObject);
    return source.attribute.multiValued && elements.length > 0 && support.valuePaths ? [...pr, valueFilters(source, elements, support, fits)] : pr;
  }
  return [...pr, ...comparisonsOf(path, source.attribute, source.values.filter(fits), support)];
}

function comparisonsOf(
  path: fc.Arbitrary<AttrPath>,
  attribute: AttributeDescription,
  values: readonly unknown[],
  support: FilterSupport,
): fc.Arbitrary<ScimFilter>[] {
  // A leaf of the operators the target supports: none when it supports none of them.
  const leaf = (all: readonly CompareOperator[], literal: fc.Arbitrary<CompValue>): fc.Arbitrary<ScimFilter>[] => {
    const ops = all.filter((op) => support.operators.includes(op));
    return ops.length === 0 ? [] : [fc.tuple(path, fc.constantFrom(...ops), literal, style).map(([p, op, value, s]) => compare(p, op, value, spell(op, s)))];
  };
  switch (attribute.type) {
    case 'string':
    case 'reference':
    case 'binary': {
      const texts = unique(values.filter((v): v is string => typeof v === 'string' && v !== ''));
      if (texts.length === 0) return [];
      const text = fc.constantFrom(...texts);
      const recased = fc.tuple(text, caseChange).map(([t, change]) => stringValue(changeCase(t, change)));
      if (attribute.type === 'binary') return leaf(['eq', 'ne'], text.map(stringValue));
      const pieces = (op: 'co' | 'sw' | 'ew') =>
        leaf(
          [op],
          fc.tuple(text, fc.nat(), fc.nat(), caseChange).map(([t, a, b, c]) => stringValue(changeCase(fragment(op, t, a, b), c))),
        );
      const bound = fc
        .oneof(
          text,
          fc.tuple(text, fc.nat()).map(([t, a]) => fragment('sw', t, a, 0)),
        )
        .map(stringValue);
      return [...leaf(['eq', 'ne'], recased), ...pieces('co'), ...pieces('sw'), ...pieces('ew'), ...leaf(ORDERING, bound)];
    }
    case 'boolean':
      return leaf(['eq', 'ne'], fc.boolean().map(booleanValue));
    case 'dateTime': {
      const texts = unique(values.filter((v): v is string => typeof v === 'string' && parseInstant(v) !== undefined));
      return texts.length === 0
        ? []
        : leaf(
            ALL_COMPARISONS,
            fc.tuple(fc.constantFrom(...texts), nearInstant).map(([t, near]) => stringValue(near(t))),
          );
    }
    case 'decimal':
    case 'integer': {
      const numbers = unique(values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)));
      const literal = fc.tuple(fc.constantFrom(...numbers), fc.constantFrom(0, -1, 1)).map(([n, delta]) => numberValue(plain(n + delta, n)));
      return numbers.length === 0 ? [] : leaf(ALL_COMPARISONS, literal);
    }
    case 'complex':
      return [];
  }
}

/** `attr[...]` over the sub-attributes the values of a multi-valued attribute hold: one comparison, two joined, or one negated. */
function valueFilters(source: Source, elements: readonly Readonly<Record<string, unknown>>[], support: FilterSupport, fits: Fits): fc.Arbitrary<ScimFilter> {
  const inner = (source.attribute.subAttributes ?? [])
    .filter((sub) => SIMPLE.has(sub.type) && sub.returned !== 'never')
    .flatMap((sub) => {
      const values = elements
        .map((element) => element[sub.name])
        .filter((value) => value !== undefined && value !== null && (typeof value !== 'string' || fits(value)));
      const path = style.map((s) => attrPath(spell(sub.name, s)));
      return values.length === 0 ? [] : comparisonsOf(path, sub, values, support);
    });
  if (inner.length === 0) return fc.tuple(writtenPath(source), style).map(([p, s]) => present(p, spell('pr', s)));
  const one = fc.oneof(...inner);
  const filter = fc.oneof(
    one,
    ...(support.logical.includes('and') ? [fc.tuple(one, one, style).map(([left, right, s]) => and(left, right, spell('and', s)))] : []),
    ...(support.logical.includes('or') ? [fc.tuple(one, one, style).map(([left, right, s]) => or(left, right, spell('or', s)))] : []),
    ...(support.logical.includes('not') ? [fc.tuple(one, style).map(([operand, s]) => not(operand, spell('not', s)))] : []),
  );
  return fc.tuple(writtenPath({ ...source, valueOfMultiValued: false }), filter).map(([p, f]) => valuePath(p, f));
}

type CaseChange = 'same' | 'upper' | 'lower' | 'swap';
const caseChange: fc.Arbitrary<CaseChange> = fc.constantFrom<CaseChange>('same', 'upper', 'lower', 'swap');

function changeCase(text: string, change: CaseChange): string {
  switch (change) {
    case 'same':
      return text;
    case 'upper':
      return text.toUpperCase();
    case 'lower':
      return text.toLowerCase();
    case 'swap':
      return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  }
}

/**
 * A non-empty piece of the text: a prefix (sw), a suffix (ew) or a substring (co), by code points.
 * Long pieces first (a = 0 is the whole text): values of one run share a prefix, so short pieces
 * tend to match every resource.
 */
function fragment(op: 'co' | 'sw' | 'ew', text: string, a: number, b: number): string {
  const points = [...text];
  const length = points.length - (a % points.length);
  if (op === 'sw') return points.slice(0, length).join('');
  if (op === 'ew') return points.slice(points.length - length).join('');
  const from = b % (points.length - length + 1);
  return points.slice(from, from + length).join('');
}

/** The same dateTime text, or its instant moved by a millisecond or a second, or written at another offset. */
const nearInstant: fc.Arbitrary<(text: string) => string> = fc
  .tuple(fc.constantFrom(0, -1, 1, -1000, 1000), fc.constantFrom(0, 0, 120, -330))
  .map(([delta, offset]) => (text: string) => {
    const instant = parseInstant(text);
    if (instant === undefined || instant.fraction.length > 3 || (delta === 0 && offset === 0)) return text;
    const millis = instant.seconds * 1000 + Number(instant.fraction.padEnd(3, '0')) + delta;
    const local = new Date(millis + offset * 60_000).toISOString().slice(0, -1);
    const sign = offset < 0 ? '-' : '+';
    const magnitude = Math.abs(offset);
    return offset === 0 ? `${local}Z` : `${local}${sign}${String(Math.floor(magnitude / 60)).padStart(2, '0')}:${String(magnitude % 60).padStart(2, '0')}`;
  });

/** A number as plain JSON text; the unmoved value when the moved one has no plain form. */
function plain(moved: number, value: number): string {
  const text = String(moved);
  return /^-?\d+(?:\.\d+)?$/.test(text) ? text : String(value);
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Shrinking to sub-expressions

/** The operands of the top connective, then every deeper sub-expression (value filters stay whole). */
function* subExpressions(filter: ScimFilter): Generator<ScimFilter> {
  const operands =
    filter.kind === 'and' || filter.kind === 'or' ? [filter.left, filter.right] : filter.kind === 'not' || filter.kind === 'group' ? [filter.operand] : [];
  yield* operands;
  for (const operand of operands) yield* subExpressions(operand);
}

// ---------------------------------------------------------------------------------------------
// Malformed filters

export type InvalidFilterFlaw = 'truncated' | 'unknown-operator' | 'unbalanced' | 'boolean-ordering' | 'unquoted-string' | 'trailing-junk';

/** A filter text every RFC-following server answers with 400 invalidFilter, and what is wrong with it. */
export interface InvalidScimFilter {
  readonly text: string;
  readonly flaw: InvalidFilterFlaw;
}

/**
 * Filters the RFC 7644 section 3.4.2.2 grammar refuses, or that it marks for refusal (gt/ge/lt/le
 * on a boolean), over User attributes: `userName eq` (truncated), an operator that is no
 * compareOp, unbalanced parentheses or brackets, `active gt true`, an unquoted or single-quoted
 * string, text after a complete expression (`only`: those flaws alone). Only what every RFC-following server refuses: no
 * missing spaces, no `not` without parentheses, no unknown attributes (section 3.4.2.2 lets
 * servers differ there). Stays invalid inside `scopedText(prefix, text)`.
 */
export function invalidScimFilter(only?: readonly InvalidFilterFlaw[]): fc.Arbitrary<InvalidScimFilter> {
  const flawed = (flaw: InvalidFilterFlaw, text: fc.Arbitrary<string>) => text.map((t): InvalidScimFilter => ({ text: t, flaw }));
  const all: Record<InvalidFilterFlaw, fc.Arbitrary<InvalidScimFilter>> = {
    truncated: flawed(
      'truncated',
      fc.oneof(
        fc.tuple(stringPath, eqLike).map(([p, op]) => `${p} ${op}`),
        fc.tuple(validLeaf, fc.constantFrom('and', 'or', 'and not')).map(([l, k]) => `${l} ${k}`),
      ),
    ),
    'unknown-operator': flawed(
      'unknown-operator',
      fc.tuple(stringPath, fc.constantFrom('zz', 'qq', 'eqq', 'xeq', 'qe', '==', '=~'), word).map(([p, op, w]) => `${p} ${op} ${JSON.stringify(w)}`),
    ),
    unbalanced: flawed(
      'unbalanced',
      fc
        .tuple(validLeaf, validLeaf, word)
        .chain(([a, b, w]) =>
          fc.constantFrom(
            `(${a}`,
            `${a})`,
            `((${a})`,
            `(${a}))`,
            `not (${a}`,
            `${a} and (${b}`,
            `emails[type eq ${JSON.stringify(w)}`,
            `emails[type eq ${JSON.stringify(w)}]]`,
          ),
        ),
    ),
    'boolean-ordering': flawed(
      'boolean-ordering',
      fc
        .tuple(fc.constantFrom('active', 'emails.primary', `${USER_SCHEMA_URN}:active`), fc.constantFrom(...ORDERING), fc.boolean())
        .map(([p, op, b]) => `${p} ${op} ${String(b)}`),
    ),
    'unquoted-string': flawed(
      'unquoted-string',
      fc.tuple(stringPath, eqLike, word, fc.boolean()).map(([p, op, w, single]) => `${p} ${op} ${single ? `'${w}'` : `${w}x`}`),
    ),
    'trailing-junk': flawed(
      'trailing-junk',
      fc.tuple(validLeaf, fc.oneof(fc.constantFrom('junk', 'zz', '"x"', '42', 'true'), validLeaf)).map(([l, junk]) => `${l} ${junk}`),
    ),
  };
  return fc.oneof(...(only ?? (Object.keys(all) as InvalidFilterFlaw[])).map((flaw) => all[flaw]));
}

const stringPath = fc.constantFrom('userName', 'displayName', 'name.familyName', 'emails.value', 'title', 'externalId');
const eqLike = fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew');
/** Lower-case letters: never a JSON literal once an `x` is appended, never a number. */
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const validLeaf: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(stringPath, eqLike, word).map(([p, op, w]) => `${p} ${op} ${JSON.stringify(w)}`),
  fc.constantFrom('title pr', 'active eq true', 'emails[type eq "work"]', 'meta.lastModified gt "2011-05-13T04:42:34Z"'),
);
