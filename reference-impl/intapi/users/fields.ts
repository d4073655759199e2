import type { Behaviour } from '../behaviour.js';
import type { JsonObject } from '../../rules/json.js';
import { FieldSchema } from '../../rules/fields.js';
import type { Store } from '../store/store.js';
import type { UserRecord } from '../store/records.js';

/**
 * The user record of the Integration API (spec#other-records-named-by-release-notes: fields "not
 * shown" but a boolean `IsManager`; the rest modelled on public-facts: id, username, firstName,
 * lastName, email, managerId; and jobTitle, the user property of spec#what-the-service-does 5 that
 * the seeded automatic enrollment rule reads). A direct report carries the same fields with
 * `isManager` in place of `IsManager` (public-facts: the v2 docs page says its items carry `isManager`).
 */
export interface UserView {
  /** Whether the user is a manager, as the behaviour reads it. */
  readonly isManager: (user: UserRecord) => boolean;
  readonly schema: FieldSchema<UserRecord>;
  readonly user: (user: UserRecord) => JsonObject;
  readonly directReport: (user: UserRecord) => JsonObject;
}

export function userView(store: Store, behaviour: Behaviour['users']): UserView {
  // Fault intapi.is-manager-stale: the managers as seeded, fixed when the server starts.
  const seeded = new Set(
    store.users
      .values()
      .filter((user) => store.hasReports(user.id))
      .map((user) => user.id.toLowerCase()),
  );
  const isManager = (user: UserRecord): boolean => {
    if (behaviour.isManager === 'always-false') return false;
    if (behaviour.isManager === 'as-seeded') return seeded.has(user.id.toLowerCase());
    return store.hasReports(user.id);
  };
  const common = (user: UserRecord): JsonObject => ({
    id: user.id,
    username: user.userName,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    managerId: user.managerId,
    jobTitle: user.jobTitle,
  });
  const schema = new FieldSchema<UserRecord>([
    { name: 'id', type: 'guid', get: (u) => u.id },
    { name: 'username', type: 'string', get: (u) => u.userName },
    { name: 'firstName', type: 'string', get: (u) => u.firstName },
    { name: 'lastName', type: 'string', get: (u) => u.lastName },
    { name: 'email', type: 'string', get: (u) => u.email },
    { name: 'managerId', type: 'guid', get: (u) => u.managerId },
    { name: 'jobTitle', type: 'string', get: (u) => u.jobTitle },
    { name: 'IsManager', type: 'boolean', get: isManager },
  ]);
  return {
    isManager,
    schema,
    user: (user) => ({ ...common(user), IsManager: isManager(user) }),
    directReport: (user) => ({ ...common(user), isManager: isManager(user) }),
  };
}
