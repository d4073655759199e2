import type { Behaviour } from './behaviour.js';
import { ApiError, unauthorized, validationFailed } from '../http/errors.js';
import type { Call, Result } from '../http/route.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { BodyValidator } from '../rules/bounds.js';
import { isGuid } from '../rules/guid.js';
import type { IntapiContext } from './context.js';

/**
 * Input helpers shared by the handlers: path ids, bodies, the current user.
 * Every path id must be a GUID: otherwise 422 `<name>: Invalid format provided for <name>`
 * (public-facts#errors), checked before any lookup.
 */
export function guidParams<const N extends string>(call: Call<IntapiContext>, names: readonly N[], errors: Behaviour['errors']): Record<N, string> {
  const invalid = names.filter((name) => !isGuid(call.params[name] ?? ''));
  if (invalid.length > 0) {
    const validations = invalid.map((name) => `${name}: Invalid format provided for ${name}`);
    throw errors.pathIdNotGuidStatus === 422 ? validationFailed(validations) : new ApiError(404, 'Not found.', validations);
  }
  return Object.fromEntries(names.map((name) => [name, call.params[name] ?? ''])) as Record<N, string>;
}

/** The body after its bounds table: 422 with every reason when it fails. */
export function validBody(validate: BodyValidator, body: unknown): JsonObject {
  const failures = validate(body);
  if (failures.length > 0 || !isJsonObject(body)) throw validationFailed(failures);
  return body;
}

/** The user a "current user" operation acts on. */
export function currentUserId(call: Call<IntapiContext>): string {
  if (call.context.userId === undefined) throw unauthorized('A Bearer token is required.');
  return call.context.userId;
}

/** A fresh id from the generator, retried while it collides with a stored one. */
export function freshId(ids: () => string, taken: (id: string) => boolean): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = ids();
    if (!taken(id)) return id;
  }
  throw new ApiError(500, 'The id generator keeps producing existing ids.');
}

/** Drops null members when the (faulty) behaviour leaves unset fields out of answers. */
export function finishObject(object: JsonObject, nulls: Behaviour['responses']['nulls']): JsonObject {
  if (nulls === 'present') return object;
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null));
}

/**
 * The 404 of a well-formed path id that names no record (docs/decisions/intapi/reference-choices.md "Errors"). It carries the
 * answer a server that does not look the id up would give (a blank record of the operation's
 * shape, an empty list or envelope): the family answers it with 200 where the behaviour says so
 * (`intapi.unknown-id-ok:<operation>`). Handlers raise it before they store anything.
 */
export class UnknownIdError extends ApiError {
  constructor(
    message: string,
    readonly blank: () => JsonValue,
    validations: readonly string[] = [],
  ) {
    super(404, message, validations);
  }
}

export const unknownId = (message: string, blank: () => JsonValue, validations: readonly string[] = []): UnknownIdError =>
  new UnknownIdError(message, blank, validations);

/** The nil GUID: the blank value of an id a blank record does not take from the path. */
export const NIL_GUID = '00000000-0000-0000-0000-000000000000';

/** The operation, answering an unknown path id with 200 and its blank answer instead of 404. */
export function answeringUnknownIds<O extends { readonly handle: (call: Call<IntapiContext>) => Result }>(operation: O): O {
  return {
    ...operation,
    handle: (call: Call<IntapiContext>): Result => {
      try {
        return operation.handle(call);
      } catch (error) {
        if (error instanceof UnknownIdError) return { status: 200, body: error.blank() };
        throw error;
      }
    },
  };
}
