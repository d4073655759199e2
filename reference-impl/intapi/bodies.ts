import type { Behaviour } from './behaviour.js';
import { type BodyValidator, compileBody } from '../rules/bounds.js';
import { INTAPI_BODIES, type IntapiBodyOperation } from './bounds.js';
import { type BodyStorage, compileStorage } from '../rules/lossy.js';

/**
 * The request bodies of the Integration API, compiled once per server from the bounds table:
 * the validator, and how a valid body is stored (as sent; an `intapi.lossy-store:` fault alters a field).
 */
export interface IntapiBody {
  readonly validate: BodyValidator;
  readonly stored: BodyStorage;
}

export type IntapiValidators = Readonly<Record<IntapiBodyOperation, IntapiBody>>;

export function compileIntapiBodies(behaviour: Behaviour): IntapiValidators {
  const entries = (Object.keys(INTAPI_BODIES) as IntapiBodyOperation[]).map((operation): [IntapiBodyOperation, IntapiBody] => [
    operation,
    { validate: compileBody(INTAPI_BODIES[operation], behaviour.bodies), stored: compileStorage(INTAPI_BODIES[operation], behaviour.writes.lossy) },
  ]);
  return Object.fromEntries(entries) as Record<IntapiBodyOperation, IntapiBody>;
}
