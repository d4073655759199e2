// PATCH against a small model: random sequences of add/replace/remove on title and emails (value
// filters included) read back as the model says; a refused operation changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ScimHarness, startScim } from './_scim.js';

let h: ScimHarness;
beforeAll(async () => {
  h = await startScim();
});
afterAll(() => h.close());

interface Email {
  value: string;
  type: string;
}
interface Model {
  title: string | undefined;
  emails: Email[];
}

const VALUES = ['a@x', 'A@X', 'b@y', 'c@z'];
const TYPES = ['work', 'Work', 'home'];
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

type Op =
  | { kind: 'title'; value: string }
  | { kind: 'removeTitle' }
  | { kind: 'addEmail'; email: Email }
  | { kind: 'removeEmail'; value: string }
  | { kind: 'setValueByType'; type: string; value: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('title' as const), value: fc.string({ minLength: 1, maxLength: 5 }) }),
  fc.constant({ kind: 'removeTitle' as const }),
  fc.record({ kind: fc.constant('addEmail' as const), email: fc.record({ value: fc.constantFrom(...VALUES), type: fc.constantFrom(...TYPES) }) }),
  fc.record({ kind: fc.constant('removeEmail' as const), value: fc.constantFrom(...VALUES) }),
  fc.record({ kind: fc.constant('setValueByType' as const), type: fc.constantFrom(...TYPES), value: fc.constantFrom(...VALUES) }),
);

/** The request of an operation, and the model after it (undefined: the server must refuse it with noTarget). */
function step(model: Model, o: Op): { operation: Record<string, unknown>; next: Model | undefined } {
  switch (o.kind) {
    case 'title':
      return { operation: { op: 'replace', path: 'title', value: o.value }, next: { ...model, title: o.value } };
    case 'removeTitle':
      return { operation: { op: 'remove', path: 'title' }, next: { ...model, title: undefined } };
    case 'addEmail': {
      const present = model.emails.some((e) => e.value === o.email.value && e.type === o.email.type);
      return { operation: { op: 'add', path: 'emails', value: [o.email] }, next: { ...model, emails: present ? model.emails : [...model.emails, o.email] } };
    }
    case 'removeEmail': {
      const rest = model.emails.filter((e) => !same(e.value, o.value));
      return {
        operation: { op: 'remove', path: `emails[value eq "${o.value}"]` },
        next: rest.length === model.emails.length ? undefined : { ...model, emails: rest },
      };
    }
    case 'setValueByType': {
      const hit = model.emails.some((e) => same(e.type, o.type));
      const emails = model.emails.map((e) => (same(e.type, o.type) ? { ...e, value: o.value } : e));
      return { operation: { op: 'replace', path: `emails[type eq "${o.type}"].value`, value: o.value }, next: hit ? { ...model, emails } : undefined };
    }
  }
}

test('random PATCH sequences agree with the model', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
      const id = String((await h.createUser()).id);
      let model: Model = { title: undefined, emails: [] };
      for (const o of ops) {
        const { operation, next } = step(model, o);
        const res = await h.patch(`/Users/${id}`, [operation]);
        if (next === undefined) {
          expect(res.status).toBe(400);
          expect(res.obj.scimType).toBe('noTarget');
        } else {
          expect(res.status).toBe(200);
          model = next;
        }
        const read = (await h.get(`/Users/${id}`)).obj;
        expect(read.title).toBe(model.title);
        expect(read.emails).toEqual(model.emails.length === 0 ? undefined : model.emails);
      }
    }),
    { numRuns: 60, seed: 11 },
  );
});
