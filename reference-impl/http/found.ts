/**
 * The reference-server families a build found in family folders (build/bundle.mjs,
 * `LPC_FAMILY_DIRS`), mounted after the ones reference-impl/index.ts lists. Empty as written: the
 * build puts each folder's `server.ts` here.
 */
import type { ServerFamily } from './server-family.js';

export const FOUND_SERVER_FAMILIES: readonly ServerFamily[] = [];
