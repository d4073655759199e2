/** The course player page, checked in headless Chromium: what it registers with the core. It has no
 * operations of its own: the page is the profile's `player.url`, its token the learner API's. */
import { ChromiumUnavailableError, resolveChromium } from '../../browser/chromium.js';
import { SetupError, type Family } from '../family.js';
import { playerInit } from './init.js';
import { PLAYER_PROFILE } from './profile.js';

export const PLAYER: Family = {
  name: 'player',
  title: 'course player',
  operations: {},
  profile: PLAYER_PROFILE,
  // The page is opened with a learner token: its checks use (and one rotates) the learner API's session.
  sessionOf: 'learner',
  invariants: [],
  init: playerInit,
  // The player checks need a browser: none is a configuration error (exit 2, one line saying how
  // to get one), not a run of skipped checks.
  // The course the player opens, read through the learner API (whose page the player is).
  recordReads(profile) {
    const id = profile.records.playerCourseId;
    if (id === undefined || profile.player === 'none' || profile.families.learner.none) return [];
    return [{ field: 'records.playerCourseId', id, request: { op: 'learner.courses.get', params: { courseId: id } } }];
  },
  async preflight({ profile }) {
    // No page, or no learner API whose page it is: the player checks are skipped, saying so.
    if (profile.player === 'none' || profile.families.learner.none) return;
    try {
      await resolveChromium();
    } catch (error) {
      if (error instanceof ChromiumUnavailableError) throw new SetupError(`the player checks need a browser: ${error.message}`);
      throw error;
    }
  },
};
