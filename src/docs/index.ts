/** The pages of docs/ made from the code, in the order `npm run docs` writes them. A new generated
 * page is one module of this folder and one entry here. */
import { CLI_PAGE } from './cli.js';
import type { GeneratedPage } from './page.js';
import { PROFILE_PAGE } from './profile.js';

export type { GeneratedPage } from './page.js';

export const GENERATED_PAGES: readonly GeneratedPage[] = [CLI_PAGE, PROFILE_PAGE];
