// The suite's evaluation of a SCIM filter over resources as a server returned them
// (RFC 7644 section 3.4.2.2; RFC 7643 sections 2.2-2.4). The choices are listed in the header of
// suites/_harness/scim/filter.ts; the comments here say where each one is made.
//
// Three-valued on purpose. Each sub-expression evaluates to the set of results an RFC-following
// server may give it, drawn from T (matches), F (does not) and N ("unknown", the SQL reading of a
// comparison with a missing value: neither it nor its negation matches). A resource is in the
// answer when the whole filter is T, so the verdict is `true` when T is the only possible result,
// `false` when T is impossible, and 'ambiguous' otherwise. Logical operators are Kleene's, applied
// to every pair of possible results; an ambiguous leaf may be anything.
import type { AttrPath, CompareNode, CompareOperator, CompValue, ScimFilter } from './ast.js';
import { printAttrPath } from './ast.js';
import { holdsOrder } from '../../order.js';
import type { AttributeDescription, ResourceSchema } from './schema.js';

export type Verdict = true | false | 'ambiguous';

/** A resource as received from a server (one item of `Resources`, or a GET body). */
export type ScimResource = Readonly<Record<string, unknown>>;

/**
 * What every RFC-following server does with a filter over these resources:
 * - `invalid`: answers 400 with scimType invalidFilter (section 3.4.2.2: gt/ge/lt/le on a boolean
 *   or binary attribute);
 * - `valid`: answers 200, and resource i is in the answer when verdicts[i] is true, out of it when
 *   false ('ambiguous': either);
 * - `may-reject`: may answer 400 (an attribute the schema does not describe, a value of another
 *   type than the attribute's, a complex attribute compared without a sub-attribute, ...) or 200,
 *   and then as `verdicts` say.
 */
export type FilterJudgement =
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'valid'; readonly verdicts: readonly Verdict[] }
  | { readonly kind: 'may-reject'; readonly reason: string; readonly verdicts: readonly Verdict[] };

export function judgeFilter(filter: ScimFilter, resources: readonly ScimResource[], schema: ResourceSchema): FilterJudgement {
  const context: Context = { schema };
  const problem = problemIn(filter, context);
  if (problem?.severity === 'invalid') return { kind: 'invalid', reason: problem.reason };
  const verdicts = resources.map((resource) => verdictOf(outcome(filter, resource, context)));
  return problem === undefined ? { kind: 'valid', verdicts } : { kind: 'may-reject', reason: problem.reason, verdicts };
}

/**
 * The attribute a path names and every value it holds across the resources (the values of a
 * multi-valued attribute one by one; missing and unreadable ones left out). The generators draw
 * their literals from them. Undefined when the schema does not describe the path.
 */
export function observe(
  path: AttrPath,
  resources: readonly ScimResource[],
  schema: ResourceSchema,
): { attribute: AttributeDescription; values: unknown[] } | undefined {
  const resolution = resolve(path, { schema });
  if (!resolution.ok) return undefined;
  const values = resources
    .flatMap((resource) => valuesAt(resource, resolution.target))
    .filter((value) => value !== undefined && value !== null && value !== UNREADABLE);
  return { attribute: leafOf(resolution.target), values };
}

// ---------------------------------------------------------------------------------------------
// Outcome sets

type Outcome = number;
const T = 1;
const F = 2;
const N = 4;
/** Any result: a leaf the evaluator cannot decide. */
const AMBIGUOUS: Outcome = T | F | N;
/** A comparison with a missing value: false, or unknown (the SQL reading). Only `not` tells them apart. */
const ABSENT: Outcome = F | N;

function verdictOf(result: Outcome): Verdict {
  if (result === T) return true;
  return (result & T) === 0 ? false : 'ambiguous';
}

const fromBoolean = (value: boolean | undefined): Outcome => (value === undefined ? AMBIGUOUS : value ? T : F);

function negate(result: Outcome): Outcome {
  return ((result & T) === 0 ? 0 : F) | ((result & F) === 0 ? 0 : T) | (result & N);
}

function combine(left: Outcome, right: Outcome, kind: 'and' | 'or'): Outcome {
  let result = 0;
  for (const a of [T, F, N]) {
    if ((left & a) === 0) continue;
    for (const b of [T, F, N]) {
      if ((right & b) !== 0) result |= kind === 'and' ? kleeneAnd(a, b) : negate(kleeneAnd(negate(a), negate(b)));
    }
  }
  return result;
}

function kleeneAnd(a: Outcome, b: Outcome): Outcome {
  if (a === F || b === F) return F;
  return a === T && b === T ? T : N;
}

/** A multi-valued attribute matches when any of its values matches (section 3.4.2.2). */
function any(results: readonly Outcome[]): Outcome {
  return results.length === 0 ? ABSENT : results.reduce((left, right) => combine(left, right, 'or'));
}

// ---------------------------------------------------------------------------------------------
// Attribute resolution

interface Context {
  readonly schema: ResourceSchema;
  /** Inside `attr[...]`: the multi-valued attribute whose values the inner filter reads. */
  readonly parent?: AttributeDescription;
}

/** Where a path leads: the attribute (in an extension's object, or at the top) and its sub-attribute. */
interface Target {
  readonly extension?: string;
  readonly attribute: AttributeDescription;
  readonly sub?: AttributeDescription;
}

type Resolution = { readonly ok: true; readonly target: Target } | { readonly ok: false; readonly reason: string };

const byName = (list: readonly AttributeDescription[] | undefined, name: string): AttributeDescription | undefined =>
  list?.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());

/**
 * Attribute names match case-insensitively (section 3.4.2.2), schema URIs too. A bare name is a
 * core (or common) attribute: an extension attribute needs its URI (section 3.10), and a server
 * may refuse it bare or find it.
 */
function resolve(path: AttrPath, context: Context): Resolution {
  const written = JSON.stringify(printAttrPath(path));
  if (context.parent !== undefined) {
    const attribute = path.uri === undefined && path.sub === undefined ? byName(context.parent.subAttributes, path.name) : undefined;
    return attribute === undefined ? { ok: false, reason: `${written} is not a sub-attribute of ${context.parent.name}` } : { ok: true, target: { attribute } };
  }
  const { schema } = context;
  const uri = path.uri?.toLowerCase();
  const extension = Object.keys(schema.extensions).find((urn) => urn.toLowerCase() === uri);
  const list =
    uri === undefined || uri === schema.schema.toLowerCase() ? schema.attributes : extension === undefined ? undefined : schema.extensions[extension];
  const attribute = byName(list, path.name);
  if (attribute === undefined) return { ok: false, reason: `the schema does not describe ${written}` };
  if (path.sub === undefined) return { ok: true, target: { ...(extension === undefined ? {} : { extension }), attribute } };
  const sub = byName(attribute.subAttributes, path.sub);
  if (sub === undefined) return { ok: false, reason: `the schema does not describe ${written}` };
  return { ok: true, target: { ...(extension === undefined ? {} : { extension }), attribute, sub } };
}

/**
 * The attribute a comparison reads: a complex multi-valued attribute without a sub-attribute
 * compares its `value` sub-attribute (the RFC's own example `emails co "example.com"`).
 */
function compared(target: Target): Target | undefined {
  if (target.sub !== undefined || target.attribute.type !== 'complex') return target;
  const value = target.attribute.multiValued ? byName(target.attribute.subAttributes, 'value') : undefined;
  return value === undefined ? undefined : { ...target, sub: value };
}

/** The description of the values a target reads. */
const leafOf = (target: Target): AttributeDescription => target.sub ?? target.attribute;

// ---------------------------------------------------------------------------------------------
// Static problems: what makes a server answer 400 (must, or may)

interface Problem {
  readonly severity: 'invalid' | 'may-reject';
  readonly reason: string;
}

const ORDERING: ReadonlySet<CompareOperator> = new Set(['gt', 'ge', 'lt', 'le']);
const SUBSTRING: ReadonlySet<CompareOperator> = new Set(['co', 'sw', 'ew']);

/** The first `invalid` problem of the tree, else its first `may-reject` problem. */
function problemIn(filter: ScimFilter, context: Context): Problem | undefined {
  const found = problemsIn(filter, context);
  return found.find((problem) => problem.severity === 'invalid') ?? found[0];
}

function problemsIn(filter: ScimFilter, context: Context): Problem[] {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return [...problemsIn(filter.left, context), ...problemsIn(filter.right, context)];
    case 'not':
    case 'group':
      return problemsIn(filter.operand, context);
    case 'present': {
      const resolution = resolve(filter.path, context);
      if (!resolution.ok) return [mayReject(resolution.reason)];
      return unobservable(leafOf(resolution.target)) ? [mayReject(`${leafOf(resolution.target).name} is never returned`)] : [];
    }
    case 'valuePath': {
      const resolution = resolve(filter.path, context);
      if (!resolution.ok) return [mayReject(resolution.reason)];
      const { attribute, sub } = resolution.target;
      if (sub !== undefined || attribute.type !== 'complex' || !attribute.multiValued) {
        return [mayReject(`a value filter on ${attribute.name}, which is not a complex multi-valued attribute`)];
      }
      return problemsIn(filter.filter, { schema: context.schema, parent: attribute });
    }
    case 'compare': {
      const problem = comparisonProblem(filter, context);
      return problem === undefined ? [] : [problem];
    }
  }
}

const mayReject = (reason: string): Problem => ({ severity: 'may-reject', reason });

function unobservable(attribute: AttributeDescription): boolean {
  return attribute.returned === 'never' || attribute.returned === 'request';
}

function comparisonProblem(node: CompareNode, context: Context): Problem | undefined {
  const resolution = resolve(node.path, context);
  if (!resolution.ok) return mayReject(resolution.reason);
  const target = compared(resolution.target);
  if (target === undefined) return mayReject(`${resolution.target.attribute.name} is complex and compared without a sub-attribute`);
  const attribute = leafOf(target);
  const { op, value } = node;
  // Section 3.4.2.2, gt/ge/lt/le: "Boolean and Binary attributes SHALL cause a failed response
  // (HTTP status code 400) with "scimType" of "invalidFilter"".
  if (ORDERING.has(op) && (attribute.type === 'boolean' || attribute.type === 'binary')) {
    return { severity: 'invalid', reason: `${op} on the ${attribute.type} attribute ${attribute.name}` };
  }
  if (unobservable(attribute)) return mayReject(`${attribute.name} is never returned`);
  // Choice: `eq null` has no meaning in the RFC (servers read it as "absent", or refuse it).
  if (value.kind === 'null') return mayReject(`${op} null`);
  const expected = LITERAL_KIND[attribute.type];
  if (value.kind !== expected) return mayReject(`${attribute.name} (${attribute.type}) compared with a ${value.kind}`);
  if (SUBSTRING.has(op) && attribute.type !== 'string' && attribute.type !== 'reference') {
    return mayReject(`${op} on the ${attribute.type} attribute ${attribute.name}`);
  }
  return literalProblem(value, attribute, op);
}

const LITERAL_KIND: Readonly<Record<AttributeDescription['type'], CompValue['kind']>> = {
  string: 'string',
  reference: 'string',
  binary: 'string',
  dateTime: 'string',
  boolean: 'boolean',
  decimal: 'number',
  integer: 'number',
  complex: 'string', // never compared: compared() maps complex attributes to a sub-attribute or refuses them
};

function literalProblem(value: CompValue, attribute: AttributeDescription, op: CompareOperator): Problem | undefined {
  if (value.kind === 'string' && attribute.type === 'dateTime' && parseInstant(value.value) === undefined) {
    return mayReject(`${JSON.stringify(value.value)} is not a dateTime with a time zone`);
  }
  // Choice: an empty operand of co/sw/ew matches everything on some servers and is refused by others.
  if (value.kind === 'string' && SUBSTRING.has(op) && value.value === '') return mayReject(`${op} ""`);
  if (value.kind === 'number' && numberOf(value.text, attribute.type === 'integer') === undefined) {
    return mayReject(`the number ${value.text} for the ${attribute.type} attribute ${attribute.name}`);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

function outcome(filter: ScimFilter, resource: ScimResource, context: Context): Outcome {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return combine(outcome(filter.left, resource, context), outcome(filter.right, resource, context), filter.kind);
    case 'not':
      return negate(outcome(filter.operand, resource, context));
    case 'group':
      return outcome(filter.operand, resource, context);
    case 'present':
      return presence(filter.path, resource, context);
    case 'valuePath':
      return valuePathOutcome(filter.path, filter.filter, resource, context);
    case 'compare':
      return comparison(filter, resource, context);
  }
}

/** A value the evaluator cannot read (a shape other than the schema says, or duplicate keys in another case). */
const UNREADABLE = Symbol('unreadable');
type Read = unknown; // a JSON value, undefined when missing, or UNREADABLE

/**
 * The values a target reads in one resource: one per value of a multi-valued attribute (its
 * sub-attribute's value, undefined where missing), one for a singular attribute (undefined when
 * missing). An empty list: the attribute has no value.
 */
function valuesAt(resource: ScimResource, target: Target): Read[] {
  const container = target.extension === undefined ? resource : member(resource, target.extension);
  if (container === undefined || container === null) return target.attribute.multiValued ? [] : [undefined];
  if (!isObject(container)) return [UNREADABLE];
  const top = member(container, target.attribute.name);
  if (top === UNREADABLE) return [UNREADABLE];
  const sub = target.sub;
  if (!target.attribute.multiValued) {
    if (sub === undefined || top === undefined || top === null) return [top];
    return [isObject(top) ? member(top, sub.name) : UNREADABLE];
  }
  if (top === undefined || top === null) return [];
  if (!Array.isArray(top)) return [UNREADABLE];
  const values = top.filter((value: unknown) => value !== null);
  return sub === undefined ? values : values.map((value: unknown) => (isObject(value) ? member(value, sub.name) : UNREADABLE));
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member by name: the exact key, else the one key equal to it but for case. */
function member(object: Readonly<Record<string, unknown>>, name: string): Read {
  if (Object.hasOwn(object, name)) return object[name];
  const keys = Object.keys(object).filter((key) => key.toLowerCase() === name.toLowerCase());
  if (keys.length > 1) return UNREADABLE;
  return keys[0] === undefined ? undefined : object[keys[0]];
}

function presence(path: AttrPath, resource: ScimResource, context: Context): Outcome {
  const resolution = resolve(path, context);
  if (!resolution.ok || unobservable(leafOf(resolution.target))) return AMBIGUOUS;
  const emptiness = valuesAt(resource, resolution.target).map(emptinessOf);
  if (emptiness.includes('value')) return T;
  return emptiness.includes('unsure') ? AMBIGUOUS : F;
}

/**
 * `pr`: "the attribute has a non-empty value, or ... contains a non-empty node for complex
 * attributes". null, a missing value, [] and {} are empty (RFC 7643 section 2.5); choice: "" is
 * 'unsure' (servers that store it differ on whether it is a value).
 */
function emptinessOf(value: Read): 'value' | 'empty' | 'unsure' {
  if (value === UNREADABLE || value === '') return 'unsure';
  if (value === undefined || value === null) return 'empty';
  const parts = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : undefined;
  if (parts === undefined) return 'value';
  const inner = parts.map(emptinessOf);
  return inner.includes('value') ? 'value' : inner.includes('unsure') ? 'unsure' : 'empty';
}

/** `attr[filter]`: some one value of attr satisfies the filter (section 3.4.2.2, "[ ]"). */
function valuePathOutcome(path: AttrPath, inner: ScimFilter, resource: ScimResource, context: Context): Outcome {
  const resolution = resolve(path, context);
  if (!resolution.ok || resolution.target.sub !== undefined) return AMBIGUOUS;
  const { attribute } = resolution.target;
  if (attribute.type !== 'complex' || !attribute.multiValued) return AMBIGUOUS;
  const elementContext: Context = { schema: context.schema, parent: attribute };
  return any(valuesAt(resource, resolution.target).map((element) => (isObject(element) ? outcome(inner, element, elementContext) : AMBIGUOUS)));
}

function comparison(node: CompareNode, resource: ScimResource, context: Context): Outcome {
  if (comparisonProblem(node, context) !== undefined) return AMBIGUOUS;
  const resolution = resolve(node.path, context);
  const target = resolution.ok ? compared(resolution.target) : undefined;
  if (target === undefined) return AMBIGUOUS;
  const attribute = leafOf(target);
  const values = valuesAt(resource, target);
  const each = (op: CompareOperator) => values.map((value) => slotOutcome(value, node.value, op, attribute));
  if (node.op !== 'ne') return any(each(node.op));
  // `ne` on a multi-valued attribute: "some value differs" or "no value equals"; servers read it
  // either way, so both count. On a missing value, ne is ambiguous (true for not-eq, unknown in SQL).
  const someDiffers = values.length === 0 ? AMBIGUOUS : any(each('ne'));
  return someDiffers | negate(any(each('eq')));
}

function slotOutcome(value: Read, literal: CompValue, op: CompareOperator, attribute: AttributeDescription): Outcome {
  if (value === undefined || value === null) return op === 'ne' ? AMBIGUOUS : ABSENT;
  if (value === UNREADABLE) return AMBIGUOUS;
  return fromBoolean(test(value, literal, op, attribute));
}

/** One value against the literal; undefined when RFC-following servers may differ. */
function test(value: unknown, literal: CompValue, op: CompareOperator, attribute: AttributeDescription): boolean | undefined {
  switch (attribute.type) {
    case 'string':
    case 'reference':
      return typeof value === 'string' && literal.kind === 'string' ? stringTest(value, literal.value, op, attribute.caseExact) : undefined;
    case 'binary':
      // Choice: a binary value is case exact by section 2.3.6, but x509Certificates.value is declared
      // "caseExact": false in section 8.7.1; its schema entry is 'either'.
      return typeof value === 'string' && literal.kind === 'string' ? stringTest(value, literal.value, op, attribute.caseExact) : undefined;
    case 'boolean':
      return typeof value === 'boolean' && literal.kind === 'boolean' ? holds(op, value === literal.value ? 0 : 1) : undefined;
    case 'dateTime': {
      const left = typeof value === 'string' ? parseInstant(value) : undefined;
      const right = literal.kind === 'string' ? parseInstant(literal.value) : undefined;
      const order = left === undefined || right === undefined ? undefined : compareInstants(left, right);
      return order === undefined ? undefined : holds(op, order);
    }
    case 'integer':
    case 'decimal': {
      const integer = attribute.type === 'integer';
      const left = typeof value === 'number' ? numberOf(String(value), integer) : undefined;
      const right = literal.kind === 'number' ? numberOf(literal.text, integer) : undefined;
      return left === undefined || right === undefined ? undefined : holds(op, Math.sign(left - right));
    }
    case 'complex':
      return undefined;
  }
}

function holds(op: CompareOperator, order: number): boolean | undefined {
  // co/sw/ew on a value that is not a string: refused by comparisonProblem.
  return op === 'co' || op === 'sw' || op === 'ew' ? undefined : holdsOrder(op, order);
}

// ---------------------------------------------------------------------------------------------
// Strings

type Transform = (text: string) => string;

const isAscii = (text: string): boolean => /^[\u0000-\u007f]*$/.test(text);
const asciiLower: Transform = (text) => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
const identity: Transform = (text) => text;
// Case foldings RFC-following servers use for caseExact=false outside ASCII: simple lower and
// upper case, upper-then-lower (close to full case folding: "ß" -> "ss"), and the Turkish
// locale's (dotted and dotless i), which a server running in that locale applies.
const UNICODE_FOLDS: readonly Transform[] = [
  (text) => text.toLowerCase(),
  (text) => text.toUpperCase(),
  (text) => text.toUpperCase().toLowerCase(),
  (text) => text.toLocaleLowerCase('tr'),
  (text) => text.toLocaleUpperCase('tr'),
];

/**
 * The ways a server may read two strings before comparing them. caseExact=false (section 2.2,
 * "case sensitivity ... SHALL be determined by the attribute's caseExact"): ASCII letters fold to
 * one case (which case does not matter for eq/co/sw/ew); outside ASCII every folding above, with
 * or without Unicode normalisation (NFC, NFD). caseExact 'either' adds the exact reading. A
 * trailing space may be ignored (SQL's PAD SPACE collations).
 */
function readings(caseExact: boolean | 'either', texts: readonly string[]): Transform[] {
  const ascii = texts.every(isAscii);
  const folds = caseExact === true ? [identity] : ascii ? [asciiLower] : [asciiLower, ...UNICODE_FOLDS];
  const base = caseExact === 'either' ? [identity, ...folds] : folds;
  const normalised = ascii
    ? base
    : [
        ...base,
        ...base.map(
          (f): Transform =>
            (t) =>
              f(t.normalize('NFC')),
        ),
        ...base.map(
          (f): Transform =>
            (t) =>
              f(t.normalize('NFD')),
        ),
      ];
  return texts.some((t) => /\s$/.test(t))
    ? [
        ...normalised,
        ...normalised.map(
          (f): Transform =>
            (t) =>
              f(t).trimEnd(),
        ),
      ]
    : normalised;
}

function stringTest(value: string, literal: string, op: CompareOperator, caseExact: boolean | 'either'): boolean | undefined {
  if (ORDERING.has(op)) {
    const order = stringOrder(value, literal, caseExact);
    return order === undefined ? undefined : holds(op, order);
  }
  const results = new Set(readings(caseExact, [value, literal]).map((f) => substringTest(op, f(value), f(literal))));
  return results.size === 1 ? results.has(true) : undefined;
}

function substringTest(op: CompareOperator, value: string, literal: string): boolean {
  switch (op) {
    case 'co':
      return value.includes(literal);
    case 'sw':
      return value.startsWith(literal);
    case 'ew':
      return value.endsWith(literal);
    case 'ne':
      return value !== literal;
    default:
      return value === literal;
  }
}

/**
 * gt/ge/lt/le on strings: "a lexicographical comparison". Servers order by UTF-16 code units,
 * code points, bytes, or a database collation (ICU/UCA, glibc: punctuation ignored or ordered
 * apart, letters before case). They all agree on ASCII strings whose first difference (after case
 * folding, for caseExact=false) is between two digits, two letters of the same case, or a digit
 * and a letter, and whose remainders from there are letters and digits; a proper prefix orders
 * first. Anything else is undecided.
 */
function stringOrder(value: string, literal: string, caseExact: boolean | 'either'): number | undefined {
  if (!isAscii(value) || !isAscii(literal)) return undefined;
  const variants = caseExact === true ? [identity] : caseExact === false ? [asciiLower] : [identity, asciiLower];
  const orders = new Set(variants.map((f) => decidedOrder(f(value), f(literal))));
  return orders.size === 1 ? [...orders][0] : undefined;
}

function decidedOrder(left: string, right: string): number | undefined {
  if (left === right) return 0;
  let at = 0;
  while (at < left.length && at < right.length && left[at] === right[at]) at += 1;
  const alphanumeric = /^[A-Za-z0-9]*$/;
  if (!alphanumeric.test(left.slice(at)) || !alphanumeric.test(right.slice(at))) return undefined;
  if (at === left.length) return -1;
  if (at === right.length) return 1;
  const [a, b] = [left.charAt(at), right.charAt(at)];
  const kind = (c: string) => (/[0-9]/.test(c) ? 'digit' : /[a-z]/.test(c) ? 'lower' : 'upper');
  if (kind(a) === 'digit' || kind(b) === 'digit' || kind(a) === kind(b)) return a < b ? -1 : 1;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// dateTime (RFC 7643 section 2.3.5: xsd:dateTime, "MUST include both a date and a time")

interface Instant {
  readonly seconds: number; // since the epoch, UTC
  readonly fraction: string; // the fractional-second digits as written
}

// Choice: only values with a time zone (Z or an offset) are instants; without one a server may
// take UTC or its local time. Upper-case T and Z, as xsd:dateTime writes them.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** The instant of a dateTime text, or undefined when it is not one (leap seconds included: servers differ). */
export function parseInstant(text: string): Instant | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const [offsetHours, offsetMinutes] = [Number(match[9] ?? 0), Number(match[10] ?? 0)];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  const roundTrips = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && date.getUTCHours() === hour;
  if (!roundTrips || year < 1 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (match[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60;
  return { seconds: date.getTime() / 1000 - offset, fraction: match[7] ?? '' };
}

/**
 * Order of two instants. Exact (to the nanosecond) when neither has more than three fractional
 * digits; otherwise servers holding milliseconds truncate or round the rest, and the order counts
 * only when the exact, truncated and rounded readings agree. More than nine digits: undecided.
 */
function compareInstants(left: Instant, right: Instant): number | undefined {
  if (left.fraction.length > 9 || right.fraction.length > 9) return undefined;
  const fine = left.fraction.length > 3 || right.fraction.length > 3;
  const precisions: readonly ('exact' | 'truncate' | 'round')[] = fine ? ['exact', 'truncate', 'round'] : ['exact'];
  const orders = new Set(precisions.map((precision) => Math.sign(Number(nanoseconds(left, precision) - nanoseconds(right, precision)))));
  return orders.size === 1 ? [...orders][0] : undefined;
}

function nanoseconds(instant: Instant, precision: 'exact' | 'truncate' | 'round'): bigint {
  const whole = BigInt(instant.seconds) * 1_000_000_000n;
  const digits = instant.fraction.padEnd(9, '0');
  if (precision === 'exact') return whole + BigInt(digits);
  const millis = BigInt(digits.slice(0, 3)) + (precision === 'round' && Number(digits.charAt(3)) >= 5 ? 1n : 0n);
  return whole + millis * 1_000_000n;
}

// ---------------------------------------------------------------------------------------------
// Numbers

// Choice: plain JSON numbers (no exponent) of at most 15 significant digits, which every server's
// number type (double, decimal, long) reads exactly; "-0" and exponents are parsed differently or
// refused, an integer attribute may refuse a fraction.
const PLAIN_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

function numberOf(text: string, integer: boolean): number | undefined {
  if (!PLAIN_NUMBER.test(text) || /^-0(?:\.0+)?$/.test(text)) return undefined;
  if (integer && text.includes('.')) return undefined;
  const significant = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  const value = Number(text);
  return significant.length > 15 || (integer && !Number.isSafeInteger(value)) ? undefined : value;
}
