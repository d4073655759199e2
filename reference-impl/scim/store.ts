import type { JsonObject } from '../rules/json.js';

/**
 * The SCIM resources in memory: users and groups in creation order (the default list order).
 * DELETE is soft (public-facts "SCIM specifics"): the record stays, marked deleted, and answers
 * as unknown from then on.
 */
export interface ScimRecord {
  readonly id: string;
  /** The client's attributes in wire form with canonical names (password included; no id, meta, schemas, groups). */
  data: JsonObject;
  readonly created: string;
  lastModified: string;
  deleted: boolean;
}

export class ScimStore {
  readonly users = new Map<string, ScimRecord>();
  readonly groups = new Map<string, ScimRecord>();

  /** The live (not deleted) users, in creation order. */
  liveUsers(): ScimRecord[] {
    return live(this.users);
  }

  liveGroups(): ScimRecord[] {
    return live(this.groups);
  }
}

/** One pass, no intermediate copy: every list request calls it over the whole collection. */
function live(table: ReadonlyMap<string, ScimRecord>): ScimRecord[] {
  const out: ScimRecord[] = [];
  for (const r of table.values()) if (!r.deleted) out.push(r);
  return out;
}
