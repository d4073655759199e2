/**
 * The learner API's part of `lp-conformance init`: whether the target has it at its base URL, and
 * what the profile says of the learner's data (expectations.learner), read as the learner: the
 * department branding (GET /my-branding) and whether a session list shows more with
 * includeCompletedSessions=true. Reads only, after the learner's token exchange.
 */
import type { InitContext, InitPart, ToolAnswer } from '../family.js';
import { isItem, itemsOf, ok, PartBuilder, said } from '../init-part.js';
import { LEARNER_PROFILE } from './profile.js';

/** Pages of a session list read at most (30 sessions a page). */
const PAGES = 20;

const nowhere = (a: ToolAnswer): boolean => a.status === 0 || a.status === 404;

/** The sessions of the learner's catalog calendar, following `_links.next`. */
async function sessions(ctx: InitContext, includeCompletedSessions: boolean): Promise<number | undefined> {
  let query: Record<string, string | number | boolean> = { _limit: 30, ...(includeCompletedSessions ? { includeCompletedSessions } : {}) };
  let count = 0;
  for (let page = 0; page < PAGES; page++) {
    const res = await ctx.send({ op: 'learner.calendar.sessions', query });
    if (!ok(res)) return undefined;
    const items = itemsOf(res, 'sessions');
    count += items.length;
    const next = isItem(res.json) && isItem(res.json._links) && isItem(res.json._links.next) ? res.json._links.next.href : undefined;
    if (typeof next !== 'string' || items.length === 0) return count;
    query = Object.fromEntries(new URL(next, 'http://next.invalid').searchParams);
  }
  return count;
}

export async function learnerInit(ctx: InitContext): Promise<InitPart> {
  const part = new PartBuilder(LEARNER_PROFILE.expectations);
  const base = ctx.profile.families.learner.baseUrl;
  const own = ctx.profile.familyCredentials.learner;
  const credentials = own.token ? { token: { env: own.token.env } } : { username: { env: own.username.env }, password: { env: own.password.env } };
  const problem = await ctx.sessionProblem();
  const catalog = await ctx.send({ op: 'learner.catalog.list', query: { _limit: 1 }, ...(problem === undefined ? {} : { token: false as const }) });
  if (nowhere(catalog)) return part.part({ absent: `${said(catalog)}: no learner API at ${base} (give families.learner.baseUrl if it is elsewhere)` });
  if (problem !== undefined) {
    part.set(['credentials', 'learner'], credentials, `not usable: ${problem}`);
    for (const key of ['branding', 'completedSessions']) part.keep(['expectations', 'learner', key], `not probed: no learner session (${problem})`);
    return part.part({ where: `${said(catalog)} without a token: a learner API is there` });
  }
  part.set(['credentials', 'learner'], credentials, 'the learner whose session init used: the learner checks read as them');

  const branding = await ctx.send({ op: 'learner.branding.get' });
  if (ok(branding) && isItem(branding.json) && 'branding' in branding.json) {
    const present = branding.json.branding !== null && branding.json.branding !== undefined;
    part.set(['expectations', 'learner', 'branding'], present ? 'present' : 'absent', `${said(branding)} ${present ? 'with' : 'without'} department branding`);
  } else part.keep(['expectations', 'learner', 'branding'], `not found: ${said(branding)} without a branding field`);

  const [without, withCompleted] = [await sessions(ctx, false), await sessions(ctx, true)];
  if (without === undefined || withCompleted === undefined) {
    part.keep(['expectations', 'learner', 'completedSessions'], 'not found: the catalog calendar sessions could not be listed');
  } else if (withCompleted > without) {
    part.set(
      ['expectations', 'learner', 'completedSessions'],
      'present',
      `the catalog calendar lists ${without} sessions, ${withCompleted} with includeCompletedSessions=true`,
    );
  } else {
    part.set(
      ['expectations', 'learner', 'completedSessions'],
      'absent',
      `the catalog calendar lists ${without} sessions with includeCompletedSessions=true too: the learner has no completed session, or the server ignores the flag (absent skips the check that needs one; if the learner has completed sessions, say present)`,
    );
  }
  return part.part({ where: `${said(catalog)} as the learner` });
}
