import { notFound, unauthorized } from '../http/errors.js';
import type { Family, Operation, QueryValue } from '../http/route.js';
import { learnerOfToken } from '../learner/auth.js';
import { LEARNER_PREFIX, type LearnerDeps, PLAYER_PREFIX } from '../learner/context.js';
import { learnerErrorRenderer } from '../learner/errors.js';
import { pathGuid } from '../learner/query.js';
import { playerPage, PLAYER_CSP } from './page.js';

/**
 * The course player (spec#learner-facing-api) under /learn: `GET /learn/course-player/{courseId}
 * ?token=<learner token>[&hideTags=…]`, an HTML page whose script talks to the learner API, and
 * the images the API's URLs name (`/learn/assets/…`). Errors are the learner error body.
 * docs/decisions/learner/reference-server-and-player.md "Learner reference server and player: choices".
 */
/** The player's calls need nothing from a guard: the page checks its token itself, images are public. */
export type PlayerContext = Readonly<Record<string, never>>;

/** How often a playing lesson saves its progress, and by how much it advances each time. */
export const SAVE_INTERVAL_MS = 300;
export const PROGRESS_STEP = 2;

const HTML_TYPE = 'text/html; charset=utf-8';
const SVG_TYPE = 'image/svg+xml';

const first = (value: QueryValue): string | undefined => (Array.isArray(value) ? value[0] : value);

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function svg(width: number, height: number, fill: string, ink: string, label: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" rx="6" fill="${fill}"/>` +
    `<text x="${width / 2}" y="${height / 2 + 6}" font-family="sans-serif" font-size="16" text-anchor="middle" fill="${ink}">${escapeXml(label)}</text></svg>`
  );
}

/** The images the learner API's URLs name: a department's logo, a course's image. */
function assetOperation({ store }: LearnerDeps): Operation<PlayerContext> {
  return {
    id: 'player.asset',
    method: 'GET',
    path: '/assets/:file',
    handle: ({ params }) => {
      const file = params.file ?? '';
      const logo = /^logo-(.+)\.svg$/.exec(file);
      const department = logo?.[1] === undefined ? undefined : store.department(logo[1]);
      if (department?.branding) {
        return { status: 200, text: svg(160, 40, '#ffffff', department.branding.primaryColor, department.name), contentType: SVG_TYPE };
      }
      const image = /^course-(.+)\.svg$/.exec(file);
      const course = image?.[1] === undefined ? undefined : store.course(image[1]);
      if (course?.hasImage) return { status: 200, text: svg(320, 180, '#e7ecf2', '#24292f', course.name), contentType: SVG_TYPE };
      throw notFound(`No asset ${file}.`);
    },
  };
}

export function createPlayerFamily(deps: LearnerDeps): Family<PlayerContext, Operation<PlayerContext>> {
  const { store, behaviour: b, credentials } = deps;
  const rules = b.player;

  /** Hidden with `hideTags=false` (any case), visible without it or with any other value (the spec's direction). */
  const tagsVisible = (hideTags: string | undefined): boolean => {
    if (hideTags === undefined) return rules.tagsByDefault === 'shown';
    if (hideTags.toLowerCase() === 'false') return rules.tagsWithHideTagsFalse === 'shown';
    return true;
  };

  const page: Operation<PlayerContext> = {
    id: 'player.page',
    method: 'GET',
    path: '/course-player/:courseId',
    handle: ({ params, query }) => {
      const token = first(query.token);
      if (learnerOfToken(deps, token) === undefined && rules.pageToken === 'checked') {
        throw unauthorized(token === undefined ? 'A learner token is required in the query parameter token.' : 'The token is not valid or has expired.');
      }
      const id = pathGuid('courseId', params.courseId, b.errors);
      const course = store.course(id);
      if (course === undefined) throw notFound(`No course ${id}.`);
      const html = playerPage(course, {
        courseId: course.id,
        apiBase: LEARNER_PREFIX,
        // The learner API needs the portal's x-api-key next to the token: the page hands it to its script.
        apiKey: credentials.apiKey,
        token: token ?? '',
        tagsVisible: tagsVisible(first(query.hideTags)),
        saveIntervalMs: SAVE_INTERVAL_MS,
        progressStep: PROGRESS_STEP,
        branding: rules.branding,
        saveError: rules.saveError,
        errorTitle: rules.errorTitle,
        afterError: rules.afterError,
      });
      // The URL and the page carry the token: not cached, not sent on as a referrer.
      const headers = { 'content-security-policy': PLAYER_CSP, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
      return { status: 200, text: html, contentType: HTML_TYPE, headers };
    },
  };

  return {
    prefix: PLAYER_PREFIX,
    operations: [page, assetOperation(deps)],
    guard: () => ({}),
    renderError: learnerErrorRenderer(b.errors),
  };
}
