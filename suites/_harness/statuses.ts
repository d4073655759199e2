/**
 * Status checks: one request (after whatever set-up it needs) and the documented status.
 * Table-driven: each row is its own requirement with its own id.
 */
import type { Level } from '../../src/runner/base/model.js';
import { expectStatus } from './failure.js';
import type { ApiRequest } from './http.js';
import { requirement, type CheckContext } from './requirement.js';
import type { Uses } from './scheduler.js';

export interface StatusRow {
  id: string;
  level: Level;
  spec: string;
  title: string;
  request: (t: CheckContext) => Promise<ApiRequest> | ApiRequest;
  /** The status the rule demands; a function when the profile declares it. */
  status: number | ((t: CheckContext) => number);
}

/** `uses`: what the table's checks do to shared state (scheduler.ts), the same for every row. */
export function statusChecks(rows: readonly StatusRow[], uses?: Uses): void {
  for (const row of rows) {
    requirement(
      { id: row.id, level: row.level, spec: row.spec, title: row.title },
      async (t) => {
        const res = await t.http.send(await row.request(t));
        expectStatus(res, typeof row.status === 'number' ? row.status : row.status(t));
      },
      uses,
    );
  }
}
