/**
 * The pieces of an OpenAPI 3.1 document every family's part is made of (a family registers
 * `openapi`: src/families/family.ts).
 */

/** A contract as read from its YAML file, keyed by its name (`<family>/<name>`). */
export type ContractSchemas = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

export interface BuildOptions {
  /** `info.version` of the document (the generating tool's version). */
  readonly documentVersion: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** `<family>/<name>` → `<family>.<name>` (component names allow only `[A-Za-z0-9._-]`). */
export const componentName = (contract: string): string => contract.replace(/\//g, '.');
