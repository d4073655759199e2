import type { OperationId, OperationRoute } from './routes.js';
import type { Profile } from './types.js';

/** The method and path of an operation in this profile. */
export function operation(p: Profile, id: OperationId): OperationRoute {
  const route = Object.hasOwn(p.operations, id) ? p.operations[id] : undefined;
  if (!route) throw new Error(`profile ${p.source}: unknown operation ${String(id)}`);
  return route;
}
