/**
 * The course player's part of `lp-conformance init`: a catalog course with tags and lessons for the
 * player checks to open (records.playerCourseId), read through the learner API whose page the
 * player is, and the page itself: a GET of the profile's player URL for that course with the
 * learner's token must answer an HTML page, or the profile says `player: none` and the player checks
 * are skipped, saying so. The selectors and the default theme are the profile's (the bundled
 * player's by default): only a browser shows whether they fit, so the comment says to check them.
 */
import type { InitContext, InitPart } from '../family.js';
import { isItem, itemsOf, ok, PartBuilder, said } from '../init-part.js';
import { DEFAULT_PLAYER, playerPageUrl } from './profile.js';

/** Catalog courses read at most, as the player checks do without a course named. */
const COURSES = 20;

export async function playerInit(ctx: InitContext): Promise<InitPart> {
  const part = new PartBuilder();
  const learner = ctx.part('learner');
  if (learner?.absent !== undefined) {
    part.set(['player'], 'none', 'the target has no learner API (families.learner), whose page the course player is');
    return part.part();
  }
  if (ctx.profile.player === 'none') {
    part.set(['player'], 'none', 'the target has no course player (the profile init started from says so)');
    return part.part();
  }
  const target = ctx.profile.player;
  const problem = await ctx.sessionProblem('learner');
  if (problem !== undefined) {
    part.lack(['records', 'playerCourseId'], `not probed: no learner session (${problem})`, '<guid>');
    return part.part();
  }
  const catalog = await ctx.send({ op: 'learner.catalog.list', query: { _limit: COURSES } });
  let course: { id: string; tags: number; lessons: number } | undefined;
  for (const item of itemsOf(catalog, 'courses').slice(0, COURSES)) {
    const id = String(item.id);
    const res = await ctx.send({ op: 'learner.courses.get', params: { courseId: id } });
    const body = isItem(res.json) ? res.json : {};
    const [tags, lessons] = [body.tags, body.lessons].map((list) => (Array.isArray(list) ? list.length : 0)) as [number, number];
    if (ok(res) && tags > 0 && lessons > 0) {
      course = { id, tags, lessons };
      break;
    }
  }
  if (!course) {
    part.lack(
      ['records', 'playerCourseId'],
      `not found: no course among the first ${COURSES} of the catalog (${said(catalog)}) has tags and lessons`,
      '<guid>',
    );
    return part.part();
  }
  part.set(['records', 'playerCourseId'], course.id, `a catalog course with ${course.tags} tags and ${course.lessons} lessons, which the player checks open`);
  const token = (await ctx.token('learner')).value;
  const page = await ctx.get(playerPageUrl(target, ctx.profile.families.intapi.baseUrl, course.id, token));
  const type = String(page.headers['content-type'] ?? '');
  if (ok(page) && type.startsWith('text/html')) {
    part.set(
      ['player'],
      { url: target.url, selectors: { ...target.selectors }, defaultTheme: { ...target.defaultTheme } },
      `${said(page)} with an HTML page for that course and the learner's token; the selectors and the default theme are ${JSON.stringify(target) === JSON.stringify(DEFAULT_PLAYER) ? "the bundled player's" : "the profile's"}, which only a browser can check: check them against your page`,
    );
  } else {
    part.set(
      ['player'],
      'none',
      `${said(page)}${ok(page) ? ` as ${type || 'no content type'}` : ''}: no course player page at ${target.url} (give player.url and its selectors to check yours)`,
    );
  }
  return part.part();
}
