/**
 * The suite files and harness parts of the families a build found in family folders
 * (build/bundle.mjs, `LPC_FAMILY_DIRS`), beside what the harness finds under suites/. Empty as
 * written: the build puts here each folder's `checks/*.check.ts`, loaded lazily and keyed by their
 * path in the repository, and its `harness/*.ts` modules, loaded at once (the harness takes from
 * them what it finds by folder under suites/_harness/: `familyInvariants`, `familyBlockers`).
 */
export const FOUND_CHECK_FILES: Readonly<Record<string, () => Promise<unknown>>> = {};
export const FOUND_HARNESS_MODULES: readonly Readonly<Record<string, unknown>>[] = [];
