/**
 * The course player's part of a target profile: `player` (its page and selectors, or `none`) and
 * `records.playerCourseId`.
 */
import { closed } from '../../profile/base/schema-parts.js';
import type { FamilyProfile, ProfileDocument } from '../family.js';

/** CSS selectors of the course player page (defaults: the reference player's). */
export interface PlayerSelectors {
  /** The player's root; its computed background-color is the theme's background. */
  readonly root: string;
  /** The header; its computed background-color is the theme's primary colour. */
  readonly header: string;
  /** One element per course tag. */
  readonly tag: string;
  /** One element per lesson. */
  readonly lesson: string;
  /** Inside a lesson: the control that plays it. */
  readonly play: string;
  /** The error dialog, and its title inside it. */
  readonly errorDialog: string;
  readonly errorTitle: string;
}

/** The course player page of the target (`player` in the profile). */
export interface PlayerTarget {
  /** URL template: `{target}` (the target URL), `{courseId}`, `{token}` (a learner token). */
  readonly url: string;
  readonly selectors: PlayerSelectors;
  /** The theme without department branding: computed colours as `#rrggbb`. */
  readonly defaultTheme: { readonly primaryColor: string; readonly backgroundColor: string };
}

declare module '../../profile/base/types.js' {
  interface Records {
    /** The course the player checks open (default: the first catalog course with lessons and tags). */
    readonly playerCourseId?: string;
  }
  interface ProfileParts {
    /** The course player page, or `none`: the target has none (the player checks are skipped). */
    readonly player: PlayerTarget | 'none';
  }
}

/** The reference server's course player (reference-impl/player/, docs/decisions/learner/reference-server-and-player.md). */
export const DEFAULT_PLAYER: PlayerTarget = {
  url: '{target}/learn/course-player/{courseId}?token={token}',
  selectors: {
    root: '[data-player]',
    header: '[data-player-header]',
    tag: '[data-tag]',
    lesson: '[data-lesson-id]',
    play: '[data-play]',
    errorDialog: '[role="alertdialog"]',
    errorTitle: '[role="alertdialog"] h2',
  },
  defaultTheme: { primaryColor: '#24292f', backgroundColor: '#ffffff' },
};

/** The player page's URL for a course and a learner token (`{target}`: the Integration API's base URL). */
export function playerPageUrl(target: PlayerTarget, targetUrl: string, courseId: string, token: string): string {
  return target.url
    .replaceAll('{target}', targetUrl.replace(/\/+$/, ''))
    .replaceAll('{courseId}', encodeURIComponent(courseId))
    .replaceAll('{token}', encodeURIComponent(token));
}

type Partial2<T> = { [K in keyof T]?: T[K] extends object ? Partial<T[K]> : T[K] };

export const PLAYER_PROFILE: FamilyProfile = {
  schema: {
    records: {
      playerCourseId: { $ref: '#/$defs/guid', description: 'The course the player checks open; default: the first catalog course with lessons and tags.' },
    },
    top: {
      player: {
        description: 'The course player page, or `none` when the target has none (the player checks are skipped).',
        oneOf: [
          { const: 'none' },
          closed({
            url: {
              type: 'string',
              pattern: '^(\\{target\\}|https?://)',
              description: 'URL template: {target} (the Integration API base URL), {courseId}, {token} (a learner token).',
            },
            selectors: closed(
              Object.fromEntries(['root', 'header', 'tag', 'lesson', 'play', 'errorDialog', 'errorTitle'].map((k) => [k, { type: 'string', minLength: 1 }])),
              { description: 'CSS selectors of the page: root, header, tag, lesson, play (inside a lesson), errorDialog, errorTitle.' },
            ),
            defaultTheme: closed(
              { primaryColor: { $ref: '#/$defs/colour' }, backgroundColor: { $ref: '#/$defs/colour' } },
              { description: "The theme without department branding: the header's and the root's computed background colours." },
            ),
          }),
        ],
      },
    },
  },
  load(doc: ProfileDocument) {
    const given = doc.player as 'none' | Partial2<PlayerTarget> | undefined;
    const { playerCourseId } = (doc.records ?? {}) as { playerCourseId?: string };
    const player: PlayerTarget | 'none' =
      given === 'none'
        ? 'none'
        : {
            url: given?.url ?? DEFAULT_PLAYER.url,
            selectors: { ...DEFAULT_PLAYER.selectors, ...given?.selectors },
            defaultTheme: { ...DEFAULT_PLAYER.defaultTheme, ...given?.defaultTheme },
          };
    return { player, records: playerCourseId === undefined ? {} : { playerCourseId } };
  },
};
