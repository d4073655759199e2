/**
 * What a SCIM target declares it can do beyond users and groups: discovery, versions
 * (ETag), Bulk and /Me. A target that serves /ServiceProviderConfig (RFC 7643 §5) is held to what
 * it says there; one that does not is held to its profile (`expectations.scim.unsupported`, `etag`),
 * and the specification's rule 4 (none of them served) is the default. A check of a capability the
 * target does not declare is skipped, saying where the declaration came from.
 */
import type { SCIM_UNSUPPORTED_ENDPOINTS } from '../../../src/families/scim/profile.js';
import type { Json } from '../records.js';
import type { CheckContext } from '../requirement.js';
import { scimTargetOf } from './target.js';

type Endpoint = (typeof SCIM_UNSUPPORTED_ENDPOINTS)[number];

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Skips the check when the profile says the target does not serve `endpoint` (specification rule 4). */
export function requireServed(t: CheckContext, endpoint: Endpoint): void {
  if (t.profile.expectations.scim.unsupported.includes(endpoint)) {
    t.skip(`the profile says the target does not serve ${endpoint} (expectations.scim.unsupported; the specification's rule 4)`);
  }
}

/** The target's /ServiceProviderConfig; skips the check when the profile says it is not served or it answered none. */
export async function serviceProviderConfig(t: CheckContext): Promise<Json> {
  requireServed(t, '/ServiceProviderConfig');
  const { spc } = await scimTargetOf(t);
  if (spc === undefined)
    t.skip('the target answered GET /ServiceProviderConfig with no ServiceProviderConfig (scim.discovery.service-provider-config judges it)');
  return spc;
}

/** A block of /ServiceProviderConfig (`etag`, `bulk`, …), `{}` when absent. */
export const blockOf = (spc: Json, name: string): Json => (isObject(spc[name]) ? spc[name] : {});

/** Skips the check unless the target versions its resources: /ServiceProviderConfig's etag.supported, else the profile's `etag`. */
export async function requireVersions(t: CheckContext): Promise<void> {
  const { spc } = await scimTargetOf(t);
  if (spc !== undefined) {
    if (blockOf(spc, 'etag').supported !== true) t.skip('/ServiceProviderConfig does not say etag.supported true (RFC 7644 §3.14 makes versions optional)');
    return;
  }
  if (!t.profile.expectations.scim.etag) {
    t.skip('the target serves no /ServiceProviderConfig and the profile does not say it versions resources (expectations.scim.etag)');
  }
}

export interface BulkLimits {
  readonly maxOperations: number | undefined;
  readonly maxPayloadSize: number | undefined;
}

/** Skips the check unless the target serves POST /Bulk: /ServiceProviderConfig's bulk.supported, else the profile
 * (`/Bulk` not in `unsupported`); the limits /ServiceProviderConfig gives, when it does. */
export async function requireBulk(t: CheckContext): Promise<BulkLimits> {
  const { spc } = await scimTargetOf(t);
  if (spc === undefined) {
    requireServed(t, '/Bulk');
    return { maxOperations: undefined, maxPayloadSize: undefined };
  }
  const bulk = blockOf(spc, 'bulk');
  if (bulk.supported !== true) t.skip('/ServiceProviderConfig does not say bulk.supported true (RFC 7644 §3.7 makes Bulk optional)');
  const limit = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
  return { maxOperations: limit(bulk.maxOperations), maxPayloadSize: limit(bulk.maxPayloadSize) };
}
