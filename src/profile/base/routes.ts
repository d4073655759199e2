/**
 * Operations as routes: an operation is an id, a method and a path under its family's base URL.
 * Each family declares its own table (src/families/<family>/operations.ts); src/profile/operations.ts
 * joins them. A target profile overrides the method and path of any operation under `operations`.
 */

export interface OperationRoute {
  readonly method: string;
  /** Path under the family's base URL; `{name}` marks a path parameter. */
  readonly path: string;
}

/** The methods a profile may give an operation. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const route = (method: (typeof HTTP_METHODS)[number], path: string): OperationRoute => Object.freeze({ method, path });

/** The `{name}` parameters of a path, sorted. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] ?? '').sort();
}

/** The path with each `{name}` replaced by its parameter, URL-encoded; a parameter not given throws. */
export function fillPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`harness: path parameter {${name}} of ${template} not given`);
    return encodeURIComponent(value);
  });
}

/** A query string (`?a=1&b=x`, or '' when empty); undefined values are left out. */
export function queryOf(query: Readonly<Record<string, string | number | boolean | undefined>> = {}): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) search.append(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

/**
 * The operation tables of the families, by family name: each family adds its own with
 * `declare module '…/src/profile/base/routes.js' { interface OperationTables { <name>: typeof TABLE } }`,
 * so that an operation id is checked when the code compiles, and the core names no family.
 */

export interface OperationTables {}

/** Every operation id of every family. */
export type OperationId = { [F in keyof OperationTables]: keyof OperationTables[F] & string }[keyof OperationTables];

/** The collection an operation belongs to, for the scheduler's locks: its id without the last part
 * (`<collection>.create` → `<collection>`). */
export function collectionOf(id: string): string {
  return id.slice(0, id.lastIndexOf('.'));
}
