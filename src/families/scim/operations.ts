/** The SCIM 2.0 operations under the SCIM base URL, and their default routes. */
import { route } from '../../profile/base/routes.js';

export const SCIM_OPERATIONS = {
  // SCIM 2.0 (public-facts "Base addresses": /Users, /Groups, /Schemas under /scim/v2; RFC 7644 §3.2).
  'scim.auth.token': route('POST', '/token'),
  'scim.users.create': route('POST', '/Users'),
  'scim.users.list': route('GET', '/Users'),
  'scim.users.get': route('GET', '/Users/{id}'),
  'scim.users.replace': route('PUT', '/Users/{id}'),
  'scim.users.patch': route('PATCH', '/Users/{id}'),
  'scim.users.delete': route('DELETE', '/Users/{id}'),
  'scim.groups.create': route('POST', '/Groups'),
  'scim.groups.list': route('GET', '/Groups'),
  'scim.groups.get': route('GET', '/Groups/{id}'),
  'scim.groups.replace': route('PUT', '/Groups/{id}'),
  'scim.groups.patch': route('PATCH', '/Groups/{id}'),
  'scim.groups.delete': route('DELETE', '/Groups/{id}'),
  'scim.schemas.list': route('GET', '/Schemas'),
  'scim.schemas.get': route('GET', '/Schemas/{id}'),
} as const;

declare module '../../profile/base/routes.js' {
  interface OperationTables {
    scim: typeof SCIM_OPERATIONS;
  }
}
