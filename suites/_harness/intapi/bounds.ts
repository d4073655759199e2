/**
 * Bounds checks, derived from the request contracts (contracts/*.yaml), one requirement per
 * operation × field × rule: values at and within the bounds are accepted and read back equal;
 * one step outside a bound, a missing required field, a wrong type, a malformed format, a value
 * outside the enum and a field the operation does not accept each answer 422 naming the field
 * and change nothing (spec#errors; field tables of spec#resources-and-their-fields).
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { aboveMax, belowMin, exactBoundValues, invalidFormat, outsideEnum, withinBounds, wrongType } from './arbitraries.js';
import { boundsOf, type ContractName, type FieldBounds } from '../contracts.js';
import { describeResponse, expectRejected, expectStatus, expectSuccess, fail, validationsOf } from '../failure.js';
import type { ApiResponse } from '../http.js';
import type { Level } from '../../../src/runner/base/model.js';
import { requirement, runOwnGuid, type CheckContext } from '../requirement.js';
import type { Uses } from '../scheduler.js';

export type Body = Record<string, unknown>;

export interface BoundsTarget {
  /** Check-id prefix, e.g. `intapi.v2.submissions.create`. */
  idPrefix: string;
  /** Spec anchor of the field table. */
  spec: string;
  /** What the operation is called in titles, e.g. `create submission`. */
  label: string;
  /** The request contract whose bounds are checked. */
  contract: ContractName;
  /** Fields that hold ids of other records (their valid values cannot be generated). */
  references?: readonly string[];
  /** Fields the operation does not accept, with a plausible value. Level MUST when the field table
   * says "not accepted"; PROFILE for the fields named in `refusedByChoice`. */
  notAccepted?: Readonly<Record<string, (t: CheckContext) => Promise<unknown> | unknown>>;
  /** Fields of `notAccepted` the table marks "response only" or "create only", not "not accepted":
   * the specification does not say a request carrying one is refused; refusing it (422 naming it) is
   * the reference server's choice (docs/decisions/intapi/reference-choices.md "Bodies and bounds"), so the check is PROFILE. */
  refusedByChoice?: readonly string[];
  /** Fields whose bounds this target does not check here (checked elsewhere). */
  skip?: readonly string[];
  /** A valid body with only what is required (values the field's own check replaces). */
  validBody(t: CheckContext): Promise<Body>;
  /** Sends the body; the answer of the operation. */
  send(t: CheckContext, body: Body): Promise<ApiResponse>;
  /** The stored record after a successful send. */
  readBack(t: CheckContext, sent: ApiResponse): Promise<ApiResponse>;
  /** What must not change when a request is rejected (a collection count, a stored record). */
  snapshot(t: CheckContext): Promise<unknown>;
  /** What the target's checks do to shared state (scheduler.ts): `accept`, the checks whose sends
   * succeed (they write); `reject`, the checks whose sends must be refused (they write only what
   * their set-up creates, and observe the collection a count snapshot reads). */
  uses: { accept: Uses; reject: Uses };
  /** The value a response shows for a sent value (e.g. question types: string in, integer out). */
  expectedReadBack?(t: CheckContext, field: string, sent: unknown): unknown;
  /** Each accepted send creates a record the API cannot delete (a create): the acceptance checks
   * send what their proof needs, not --runs values (see `acceptance`), and leave each record small
   * and marked once read back (`leave`, leave.ts). */
  creates?: true;
  /** Updates the record a successful send created to a small, marked body (leave.ts). */
  leave?(t: CheckContext, sent: ApiResponse): Promise<void>;
  /** The same for the record the target's checks work on (an update's), once an acceptance check passed. */
  leaveAfter?(t: CheckContext): Promise<void>;
}

/** Values a create's acceptance check sends beside the exact bounds: each leaves a record behind. */
export const CREATED_BETWEEN = 3;

/** Date-times read back equal when they name the same instant (docs/decisions/intapi/reference-choices.md, Bodies). */
function sameValue(b: FieldBounds, got: unknown, expected: unknown): boolean {
  if (b.format === 'date-time' && typeof got === 'string' && typeof expected === 'string') {
    return Date.parse(got) === Date.parse(expected);
  }
  if (b.format === 'uuid' && typeof got === 'string' && typeof expected === 'string') {
    return got.toLowerCase() === expected.toLowerCase();
  }
  return isDeepStrictEqual(got, expected);
}

function fieldOf(res: ApiResponse, field: string): unknown {
  return typeof res.json === 'object' && res.json !== null ? (res.json as Body)[field] : undefined;
}

/** Sends a body that must be rejected: 422 naming `field`, and the snapshot unchanged. Other checks
 * run meanwhile and may, against a faulty target, store what they send: a change is this request's
 * only when sending it again changes the snapshot again (three tries in all). */
async function expectRejectedUnchanged(t: CheckContext, target: BoundsTarget, field: string, body: Body): Promise<void> {
  let change = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await target.snapshot(t);
    const res = await target.send(t, body);
    expectRejected(res, field);
    const after = await target.snapshot(t);
    if (isDeepStrictEqual(after, before)) return;
    change = `${JSON.stringify(before)} became ${JSON.stringify(after)}`;
    if (attempt === 2) fail(`a rejected ${target.label} to change nothing`, `the target stored it: ${change} (each of 3 times it was sent)`, res);
  }
}

/** Where in the body a rejection check puts its value: a top-level field, or a field of the first
 * item of an array field (`questionOptions[0].name`). */
interface Slot {
  /** The id segment: `title`, `questionOptions.name`. */
  key: string;
  /** The JSON path a validation entry must name: `title`, `questionOptions[0].name`. */
  path: string;
  /** The body with the value set, or the field left out when `value` is absent. */
  put(base: Body, value?: { v: unknown }): Body;
}

function without(record: Body, field: string): Body {
  const { [field]: _left, ...rest } = record;
  return rest;
}

const topLevel = (field: string): Slot => ({
  key: field,
  path: field,
  put: (base, value) => (value ? { ...base, [field]: value.v } : without(base, field)),
});

/** A field of the first item of `array`; the item keeps the valid body's other fields. An absent
 * `field` addresses the item itself. */
const inFirstItem = (array: string, field?: string): Slot => ({
  key: field ? `${array}.${field}` : `${array}.item`,
  path: field ? `${array}[0].${field}` : `${array}[0]`,
  put: (base, value) => {
    const items = Array.isArray(base[array]) ? (base[array] as unknown[]) : [];
    const first = (items[0] ?? {}) as Body;
    const item = field === undefined ? value?.v : value ? { ...first, [field]: value.v } : without(first, field);
    return { ...base, [array]: [item, ...items.slice(1)] };
  },
});

/** Registers a rejection check: the body with the slot set by `arb` (left out when there is no
 * `arb`) answers 422 naming the slot's path and leaves the snapshot unchanged. */
function rejection(target: BoundsTarget, slot: Slot, rule: string, title: string, arb?: fc.Arbitrary<unknown>, level: Level = 'MUST'): void {
  requirement(
    { id: `${target.idPrefix}.${slot.key}.${rule}`, level, spec: target.spec, title },
    async (t) => {
      const base = await target.validBody(t);
      if (!arb) return expectRejectedUnchanged(t, target, slot.path, slot.put(base));
      const before = await target.snapshot(t);
      // Each value must answer 422; that nothing changed is read once, after them all. Only when it did
      // change are the values sent again, each followed by a snapshot, to find (and shrink) the one the
      // target stored: half the requests of a snapshot after every value, and the same verdict.
      // Other checks run meanwhile and may, against a faulty target, store what they send: a change is
      // this check's only when one of its own values makes it again.
      await t.property(arb, async (value) => expectRejected(await target.send(t, slot.put(base, { v: value })), slot.path));
      if (isDeepStrictEqual(await target.snapshot(t), before)) return;
      await t.property(arb, (value) => expectRejectedUnchanged(t, target, slot.path, slot.put(base, { v: value })));
    },
    target.uses.reject,
  );
}

/** The fields of the items of an array field, e.g. question options (spec#integration-api-question-bank-question-v2).
 * Their types are the specification's (MUST); which are required is the profile's reading (PROFILE:
 * "Length and bounds of question option fields: not shown"). */
function itemChecks(target: BoundsTarget, array: FieldBounds): void {
  if (!array.itemContract) return;
  const label = `${target.label} with a ${array.field} item`;
  rejection(
    target,
    inFirstItem(array.field),
    'wrong-type',
    `${label} that is not an object answers 422 naming it`,
    fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant([]), fc.constant(null)),
  );
  for (const b of boundsOf(array.itemContract)) {
    const slot = inFirstItem(array.field, b.field);
    if (b.format) rejection(target, slot, 'invalid-format', `${label} whose ${b.field} is not a ${b.format} answers 422 naming it`, invalidFormat(b));
    if (b.required) rejection(target, slot, 'required', `${label} without ${b.field} answers 422 naming it`, undefined, 'PROFILE');
    rejection(
      target,
      slot,
      'wrong-type',
      `${label} whose ${b.field} is not ${b.type === 'integer' ? 'an' : 'a'} ${b.type} answers 422 naming it`,
      wrongType(b),
    );
  }
}

function acceptance(target: BoundsTarget, b: FieldBounds): void {
  const range =
    b.maxLength !== undefined
      ? `${b.minLength ?? 0}..${b.maxLength} characters`
      : b.maximum !== undefined
        ? `from ${b.minimum ?? '-∞'} to ${b.maximum}`
        : (b.format ?? b.type);
  requirement(
    {
      id: `${target.idPrefix}.${b.field}.accepts-bounds`,
      level: 'MUST',
      spec: b.spec ?? target.spec,
      title: b.enum
        ? `${target.label} accepts each enum value of ${b.field} and reads it back equal`
        : `${target.label} accepts ${b.field} ${range} and reads it back equal`,
    },
    async (t) => {
      const base = await target.validBody(t);
      // A create leaves a record per value on a target that cannot delete it: the proof takes the
      // exact bounds and CREATED_BETWEEN values between, each value once (bounded writes).
      const exact = target.creates ? exactBoundValues(b) : [];
      const passed = new Set<string>();
      const accepts = async (value: fc.JsonValue): Promise<void> => {
        if (target.creates && passed.has(fc.stringify(value))) return;
        const res = await target.send(t, { ...base, [b.field]: value });
        // Accepted: a success; which one is the operation's success-status check's rule.
        expectSuccess(res, `for ${b.field} ${JSON.stringify(value)?.slice(0, 60)}`);
        const stored = await target.readBack(t, res);
        expectStatus(stored, 200, 'reading the record back');
        const expected = target.expectedReadBack ? target.expectedReadBack(t, b.field, value) : value;
        const got = fieldOf(stored, b.field);
        if (!sameValue(b, got, expected)) {
          fail(`${b.field} read back as ${JSON.stringify(expected)}`, `${b.field} ${JSON.stringify(got)} (${describeResponse(stored).slice(0, 80)})`, stored);
        }
        passed.add(fc.stringify(value));
        // Passed: the record is left small and marked (a failure's record stays as the curl shows it).
        if (!t.config.keep) await target.leave?.(t, res);
      };
      // A create's own id (a GUID the client chooses) is the run's own: the same seed against the same
      // server (a nightly gate) would otherwise send the ids an earlier run stored, and get 409.
      const values = target.creates && b.format === 'uuid' ? withinBounds(b).map((drawn) => runOwnGuid(String(drawn), t.config.runId)) : withinBounds(b);
      await t.property(values, accepts, target.creates ? { examples: exact, maxRuns: exact.length + CREATED_BETWEEN } : {});
      if (!t.config.keep) await target.leaveAfter?.(t);
    },
    target.uses.accept,
  );
}

/** JSON bodies that are not an object: each fails validation as a whole. */
const NOT_OBJECTS: readonly unknown[] = [null, [], ['lpc'], 'lpc', 42, true];

/** A body that is JSON but not an object fails the request's validation (spec#errors: "When the
 * request or list parameters fail validation, the response is 422 with the reasons in
 * `validations`"). Which path a reason names for the body as a whole is the server's: any reason
 * will do. */
function notObjectCheck(target: BoundsTarget): void {
  requirement(
    {
      id: `${target.idPrefix}.body.not-object`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `${target.label} with a JSON body that is not an object answers 422 with a reason in validations`,
    },
    async (t) => {
      for (const body of NOT_OBJECTS) {
        const res = await target.send(t, body as Body);
        const validations = validationsOf(res);
        if (res.status !== 422 || !validations || validations.length === 0) {
          fail(`422 with a reason in validations for the body ${JSON.stringify(body)}`, describeResponse(res), res);
        }
      }
    },
    target.uses.reject,
  );
}

export function boundsChecks(target: BoundsTarget): void {
  notObjectCheck(target);
  const references = new Set(target.references ?? []);
  for (const b of boundsOf(target.contract)) {
    // No generated value honours a pattern: a request body with one would be probed wrongly.
    if (b.pattern !== undefined) throw new Error(`bounds: ${target.contract} property ${b.field} has a pattern, which the bounds checks cannot express`);
    if (target.skip?.includes(b.field)) continue;
    const f = b.field;
    const slot = topLevel(f);
    if (!references.has(f) && b.type !== 'array' && b.type !== 'object') acceptance(target, b);
    if (b.type === 'array') itemChecks(target, b);
    if (b.maxLength !== undefined)
      rejection(target, slot, 'above-max', `${target.label} with ${f} of ${b.maxLength + 1} characters answers 422 naming ${f}`, aboveMax(b));
    if (b.maximum !== undefined) rejection(target, slot, 'above-max', `${target.label} with ${f} above ${b.maximum} answers 422 naming ${f}`, aboveMax(b));
    if (b.minLength !== undefined && b.minLength > 0)
      rejection(target, slot, 'below-min', `${target.label} with ${f} shorter than ${b.minLength} answers 422 naming ${f}`, belowMin(b));
    if (b.minimum !== undefined) rejection(target, slot, 'below-min', `${target.label} with ${f} below ${b.minimum} answers 422 naming ${f}`, belowMin(b));
    if (b.enum) rejection(target, slot, 'outside-enum', `${target.label} with ${f} outside its enum answers 422 naming ${f}`, outsideEnum(b));
    if (b.format) rejection(target, slot, 'invalid-format', `${target.label} with a ${f} that is not a ${b.format} answers 422 naming ${f}`, invalidFormat(b));
    if (b.required) rejection(target, slot, 'required', `${target.label} without ${f} answers 422 naming ${f}`);
    rejection(
      target,
      slot,
      'wrong-type',
      `${target.label} with a ${f} that is not ${b.type === 'integer' ? 'an' : 'a'} ${b.type} answers 422 naming ${f}`,
      wrongType(b),
    );
  }
  for (const [field, value] of Object.entries(target.notAccepted ?? {})) {
    requirement(
      {
        id: `${target.idPrefix}.${field}.not-accepted`,
        level: target.refusedByChoice?.includes(field) ? 'PROFILE' : 'MUST',
        spec: target.spec,
        title: `${target.label} with ${field} in the body answers 422 naming ${field}`,
      },
      async (t) => {
        await expectRejectedUnchanged(t, target, field, topLevel(field).put(await target.validBody(t), { v: await value(t) }));
      },
      target.uses.reject,
    );
  }
}
