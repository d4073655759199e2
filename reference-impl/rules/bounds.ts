import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { isDateTime } from './datetime.js';
import { isGuid } from './guid.js';
import { codePointLength } from './text.js';

/**
 * The bounds rule engine: a request body is checked against a table of fields, each field yielding
 * rules of a kind. A rule has the id `<operation>.<field>.<kind>` (e.g.
 * `submissions.create.title.maxLength`), which is also how a fault switches exactly one rule off
 * (`<family>.skip-rule:<id>`) or makes a field's bounds exclusive (`<family>.exclusive-bound:<operation>.<field>`).
 * Messages start with the field's JSON path (docs/decisions/ "Errors").
 */
export type RuleKind = 'required' | 'type' | 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'enum' | 'format' | 'notAccepted';
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array';
export type Format = 'date-time' | 'guid';

export interface FieldSpec {
  readonly name: string;
  /** Not given for a field the operation does not accept. */
  readonly type?: FieldType;
  readonly required?: boolean;
  /** The operation refuses the field (e.g. `userId` in a submission update). */
  readonly notAccepted?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly (string | number)[];
  readonly format?: Format;
  /** For an array of objects: the fields of each element (element path `name[i].field`). */
  readonly items?: readonly FieldSpec[];
}

export interface BodySpec {
  /** e.g. `submissions.create` */
  readonly operation: string;
  readonly fields: readonly FieldSpec[];
}

export interface BoundsOptions {
  /** Rule ids switched off. */
  readonly skip: ReadonlySet<string>;
  /** `<operation>.<field>` whose bounds are exclusive. */
  readonly exclusive: ReadonlySet<string>;
  /** Fields not in the table: `reject` (422 naming the field) or `ignore`. */
  readonly unknownFields: 'reject' | 'ignore';
  /** An optional field sent as null: `absent` (docs/decisions/ "Bodies and bounds") or `reject`. */
  readonly nullOptional: 'absent' | 'reject';
  /** A body that is JSON but not an object: refused with its reason (`given`), or with none. */
  readonly notObjectReason: 'given' | 'none';
}

/** Returns the validation messages of a body; empty when the body is valid. */
export type BodyValidator = (body: unknown) => string[];

export interface RuleRef {
  readonly id: string;
  readonly operation: string;
  readonly field: string;
  readonly kind: RuleKind;
}

/** Path of a field in rule ids: `questionOptions[].name` for an element field. */
function fieldPaths(spec: BodySpec): { path: string; field: FieldSpec; element?: true }[] {
  const out: { path: string; field: FieldSpec; element?: true }[] = [];
  const walk = (fields: readonly FieldSpec[], prefix: string): void => {
    for (const field of fields) {
      const path = prefix + field.name;
      out.push({ path, field });
      if (field.items !== undefined) {
        out.push({ path: `${path}[]`, field, element: true });
        walk(field.items, `${path}[].`);
      }
    }
  };
  walk(spec.fields, '');
  return out;
}

function kindsOf(field: FieldSpec): RuleKind[] {
  if (field.notAccepted === true) return ['notAccepted'];
  const kinds: RuleKind[] = [];
  if (field.required === true) kinds.push('required');
  if (field.type !== undefined) kinds.push('type');
  // minLength 0 and minimum -Infinity can never fail: they are no rule (but count for exclusivity).
  if (field.minLength !== undefined && field.minLength > 0) kinds.push('minLength');
  if (field.maxLength !== undefined) kinds.push('maxLength');
  if (field.minimum !== undefined) kinds.push('minimum');
  if (field.maximum !== undefined) kinds.push('maximum');
  if (field.enum !== undefined) kinds.push('enum');
  if (field.format !== undefined) kinds.push('format');
  return kinds;
}

/** Every rule of a body table, in table order. */
export function listRules(spec: BodySpec): RuleRef[] {
  return fieldPaths(spec).flatMap(({ path, field, element }) => {
    const kinds: RuleKind[] = element === true ? ['type'] : kindsOf(field);
    return kinds.map((kind) => ({ id: `${spec.operation}.${path}.${kind}`, operation: spec.operation, field: path, kind }));
  });
}

function hasBounds(field: FieldSpec): boolean {
  return field.minLength !== undefined || field.maxLength !== undefined || field.minimum !== undefined || field.maximum !== undefined;
}

/** `<operation>.<field>` of every field with a length or numeric bound. */
export function listBoundedFields(spec: BodySpec): string[] {
  return fieldPaths(spec)
    .filter(({ field, element }) => element !== true && hasBounds(field))
    .map(({ path }) => `${spec.operation}.${path}`);
}

const TYPE_TESTS: Readonly<Record<FieldType, (value: JsonValue) => boolean>> = {
  string: (v) => typeof v === 'string',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  array: (v) => Array.isArray(v),
};
const TYPE_NAMES: Readonly<Record<FieldType, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
};
const FORMAT_TESTS: Readonly<Record<Format, { test: (s: string) => boolean; message: string }>> = {
  'date-time': { test: isDateTime, message: 'must be an RFC 3339 date-time' },
  guid: { test: isGuid, message: 'must be a GUID' },
};

/** A check of one present value: the message tail when it fails. Checks apply only to their type. */
type Check = (value: JsonValue) => string | undefined;

interface CompiledField {
  readonly name: string;
  readonly notAccepted: boolean;
  readonly required: boolean;
  readonly type: ((value: JsonValue) => boolean) | undefined;
  readonly typeMessage: string;
  readonly checks: readonly Check[];
  /** Element checks of an array of objects. */
  readonly items?: CompiledObject;
  readonly elementMustBeObject: boolean;
}

interface CompiledObject {
  readonly fields: readonly CompiledField[];
  readonly known: ReadonlySet<string>;
  readonly unknownFields: 'reject' | 'ignore';
  readonly nullOptional: 'absent' | 'reject';
}

function lengthChecks(field: FieldSpec, exclusive: boolean, active: (kind: RuleKind) => boolean): Check[] {
  const checks: Check[] = [];
  const { minLength, maxLength } = field;
  if (minLength !== undefined && (active('minLength') || (minLength === 0 && exclusive))) {
    checks.push(
      exclusive
        ? (v) => (typeof v === 'string' && codePointLength(v) <= minLength ? `must be more than ${minLength} characters` : undefined)
        : (v) => (typeof v === 'string' && codePointLength(v) < minLength ? `must be at least ${minLength} characters` : undefined),
    );
  }
  if (maxLength !== undefined && active('maxLength')) {
    checks.push(
      exclusive
        ? (v) => (typeof v === 'string' && codePointLength(v) >= maxLength ? `must be fewer than ${maxLength} characters` : undefined)
        : (v) => (typeof v === 'string' && v.length > maxLength && codePointLength(v) > maxLength ? `must be at most ${maxLength} characters` : undefined),
    );
  }
  return checks;
}

function numberChecks(field: FieldSpec, exclusive: boolean, active: (kind: RuleKind) => boolean): Check[] {
  const checks: Check[] = [];
  const { minimum, maximum } = field;
  if (minimum !== undefined && active('minimum')) {
    checks.push(
      exclusive
        ? (v) => (typeof v === 'number' && v <= minimum ? `must be greater than ${minimum}` : undefined)
        : (v) => (typeof v === 'number' && v < minimum ? `must be at least ${minimum}` : undefined),
    );
  }
  if (maximum !== undefined && active('maximum')) {
    checks.push(
      exclusive
        ? (v) => (typeof v === 'number' && v >= maximum ? `must be less than ${maximum}` : undefined)
        : (v) => (typeof v === 'number' && v > maximum ? `must be at most ${maximum}` : undefined),
    );
  }
  return checks;
}

function compileFields(spec: BodySpec, fields: readonly FieldSpec[], prefix: string, options: BoundsOptions): CompiledObject {
  const compiled = fields.map((field): CompiledField => {
    const path = prefix + field.name;
    const active = (kind: RuleKind): boolean => kindsOf(field).includes(kind) && !options.skip.has(`${spec.operation}.${path}.${kind}`);
    const exclusive = options.exclusive.has(`${spec.operation}.${path}`);
    const checks: Check[] = [...lengthChecks(field, exclusive, active), ...numberChecks(field, exclusive, active)];
    const allowed = field.enum;
    if (allowed !== undefined && active('enum')) {
      // Like every check but `type`, the enum applies to values of the field's type only, so that
      // skipping the type rule lets a value of another type through.
      const ofType = field.type === undefined ? () => true : TYPE_TESTS[field.type];
      const message = `must be one of ${allowed.join(', ')}`;
      checks.push((v) => (!ofType(v) || ((typeof v === 'string' || typeof v === 'number') && allowed.includes(v)) ? undefined : message));
    }
    if (field.format !== undefined && active('format')) {
      const { test, message } = FORMAT_TESTS[field.format];
      checks.push((v) => (typeof v === 'string' && !test(v) ? message : undefined));
    }
    const type = field.type;
    return {
      name: field.name,
      notAccepted: active('notAccepted'),
      required: active('required'),
      type: type !== undefined && active('type') ? TYPE_TESTS[type] : undefined,
      typeMessage: type === undefined ? '' : `must be ${TYPE_NAMES[type]}`,
      checks,
      ...(field.items !== undefined ? { items: compileFields(spec, field.items, `${path}[].`, options) } : {}),
      elementMustBeObject: field.items !== undefined && !options.skip.has(`${spec.operation}.${path}[].type`),
    };
  });
  return { fields: compiled, known: new Set(fields.map((f) => f.name)), unknownFields: options.unknownFields, nullOptional: options.nullOptional };
}

function validateObject(object: JsonObject, compiled: CompiledObject, path: string, out: string[]): void {
  for (const field of compiled.fields) {
    const at = path + field.name;
    const value = object[field.name];
    // Optional fields may be sent as null (= absent).
    const absent = value === undefined || value === null;
    if (field.notAccepted) {
      if (!absent) out.push(`${at}: is not accepted by this operation`);
      continue;
    }
    if (absent) {
      if (field.required) out.push(`${at}: is required`);
      else if (value === null && compiled.nullOptional === 'reject') out.push(`${at}: must not be null`);
      continue;
    }
    if (field.type !== undefined && !field.type(value)) {
      out.push(`${at}: ${field.typeMessage}`);
      continue;
    }
    for (const check of field.checks) {
      const failure = check(value);
      if (failure !== undefined) out.push(`${at}: ${failure}`);
    }
    const items = field.items;
    if (items !== undefined && Array.isArray(value)) {
      value.forEach((element, index) => {
        if (isJsonObject(element)) validateObject(element, items, `${at}[${index}].`, out);
        else if (field.elementMustBeObject) out.push(`${at}[${index}]: must be an object`);
      });
    }
  }
  if (compiled.unknownFields === 'reject') {
    for (const key of Object.keys(object)) {
      if (!compiled.known.has(key)) out.push(`${path}${key}: is not a known field`);
    }
  }
}

/** Compiles a body table once; the validator runs per request. */
export function compileBody(spec: BodySpec, options: BoundsOptions): BodyValidator {
  const compiled = compileFields(spec, spec.fields, '', options);
  return (body) => {
    if (!isJsonObject(body)) return options.notObjectReason === 'given' ? ['body: must be a JSON object'] : [];
    const out: string[] = [];
    validateObject(body, compiled, '', out);
    return out;
  };
}
