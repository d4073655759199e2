/**
 * SCIM answers whose rule one check owns (see ../blockers.ts): every body the suite sends is
 * application/scim+json, so a 415 to one is `scim.media.scim-json-request`'s deviation (RFC 7644
 * §3.8), not the rule of the check that happened to send it.
 */
import { SCIM_MEDIA_TYPE } from '../../../src/families/scim/index.js';
import type { FamilyBlockers } from '../blockers.js';
import type { Exchange } from '../exchange.js';

export const SCIM_JSON_REQUEST_CHECK = 'scim.media.scim-json-request';

export function scimOwnerOf(exchange: Exchange): string | undefined {
  const type = exchange.curl.headers['content-type'];
  const sentScimJson = typeof type === 'string' && type.toLowerCase().startsWith(SCIM_MEDIA_TYPE);
  if (exchange.status === 415 && sentScimJson) return SCIM_JSON_REQUEST_CHECK;
  return undefined;
}

export const familyBlockers: FamilyBlockers = { family: 'scim', ownerOf: scimOwnerOf };
