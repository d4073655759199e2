/**
 * The families a build found in family folders (build/bundle.mjs, `LPC_FAMILY_DIRS`;
 * DEVELOPERS.md "A family from a folder of its own"), after the ones src/families/index.ts lists.
 * Empty as written: the build puts each folder's `family.ts` here.
 */
import type { Family } from './family.js';

export const FOUND_FAMILIES: readonly Family[] = [];
