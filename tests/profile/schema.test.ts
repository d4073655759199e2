import { describe, expect, it } from 'vitest';
import { OPERATION_IDS, PROFILE_SCHEMA } from '../../src/profile/index.js';

describe('the profile schema', () => {
  // profile.schema.json is the schema as a file, for editors and readers; the module is what ships.
  // `npx vitest run tests/profile -u` rewrites the file after a change to src/profile/schema.ts.
  it('src/profile/profile.schema.json is PROFILE_SCHEMA', async () => {
    await expect(`${JSON.stringify(PROFILE_SCHEMA, null, 2)}\n`).toMatchFileSnapshot('../../src/profile/profile.schema.json');
  });

  it('operations are keyed by the operation ids', () => {
    const operations = PROFILE_SCHEMA.properties.operations as { properties: Record<string, unknown>; additionalProperties: unknown };
    expect(Object.keys(operations.properties)).toEqual(OPERATION_IDS);
    expect(operations.additionalProperties).toBe(false);
  });

  it('every object is closed', () => {
    const open: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const n = node as Record<string, unknown>;
      if (n.type === 'object' && n.additionalProperties !== false && path.split('/').at(-2) !== 'dependentSchemas') open.push(path);
      for (const [k, v] of Object.entries(n)) walk(v, `${path}/${k}`);
    };
    walk(PROFILE_SCHEMA, '#');
    expect(open).toEqual([]);
  });
});
