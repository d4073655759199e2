// Every learner and player fault flips the rule it names (one probe each, as ../scim/faults.test.ts),
// and they stay out of listIntapiFaults() (no learner checks or negative-control expectations exist yet).
// The player faults are probed on the page's configuration here; player-browser.test.ts proves that
// the script in Chromium does what the configuration says.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createReferenceServer,
  LEARNER_FAULTS,
  LEARNER_SEED_IDS,
  type LearnerFaultName,
  learnerCategoryId,
  learnerCourseId,
  listIntapiFaults,
  SANDBOX_LEARNERS,
} from '../../../reference-impl/index.js';
import { type JsonRecord, send } from '../intapi/_support.js';
import { API, configOf, embedded, KEY, type LearnerHarness, nextHref, playerPath, startLearner, testClock, UNKNOWN, walk } from './_learner.js';

interface Probed extends LearnerHarness {
  readonly clock: ReturnType<typeof testClock>;
}
type Probe = (h: Probed) => Promise<unknown>;
interface Spot {
  readonly probe: Probe;
  /** [without the fault, with it] */
  readonly expected: readonly [unknown, unknown];
}

const COURSE = LEARNER_SEED_IDS.playerCourse;
const COMPLIANCE = learnerCategoryId(1);
const WARDEN_TRAINING = learnerCategoryId(5);

const status =
  (path: string, options = {}): Probe =>
  async (h) =>
    (await h.get(path, options)).status;
const count =
  (path: string, key = 'courses'): Probe =>
  async (h) =>
    (await walk(h, path, key)).length;
const config =
  (name: string, query = ''): Probe =>
  async (h) =>
    configOf(await h.raw(playerPath(h.token, query)))[name];
const tokenStatus =
  (body: unknown): Probe =>
  async (h) =>
    (await send(h.base, 'POST', `${API}/token`, body, { 'x-api-key': KEY })).status;
const ended = (h: Probed, s: { end?: unknown }): boolean => Date.parse(String(s.end)) < h.clock.now().getTime();
const sessions = (h: Probed, flag: string) => walk(h, `/my-catalog-calendar/sessions${flag}`, 'sessions');
const save = async (h: Probed, progress: unknown) => {
  const lesson = ((await h.get(`/courses/${COURSE}`)).obj.lessons as JsonRecord[])[0];
  return h.call('PUT', `/my-progress/${COURSE}/lessons/${String(lesson?.id)}`, { body: { progress } });
};

const SPOTS: Record<LearnerFaultName, Spot> = {
  'learner.content-type-text': {
    probe: async (h) => (await h.get('/my-branding')).contentType,
    expected: ['application/json; charset=utf-8', 'text/plain; charset=utf-8'],
  },
  'learner.error-validations-missing': { probe: async (h) => 'validations' in (await h.get('/nope')).obj, expected: [true, false] },
  'learner.not-guid-404': { probe: status('/courses/nope'), expected: [422, 404] },
  'learner.unknown-course-500': { probe: status(`/courses/${UNKNOWN}`), expected: [404, 500] },
  'learner.api-key-not-checked': { probe: status('/my-branding', { noKey: true }), expected: [401, 200] },
  'learner.token-not-checked': { probe: status('/my-branding', { noToken: true }), expected: [401, 200] },
  'learner.malformed-paging-500': { probe: status('/my-catalog?_limit=ten'), expected: [422, 500] },

  'learner.token-not-revoked': {
    probe: async (h) => {
      const old = h.token;
      h.token = await h.login('a');
      return (await h.get('/my-branding', { token: old })).status;
    },
    expected: [401, 200],
  },
  'learner.token-password-unchecked': { probe: tokenStatus({ ...SANDBOX_LEARNERS.a, password: 'wrong' }), expected: [401, 200] },
  'learner.token-missing-field-401': { probe: tokenStatus({ username: SANDBOX_LEARNERS.a.username }), expected: [400, 401] },
  'learner.limit-31-accepted': { probe: status('/my-catalog?_limit=31'), expected: [422, 200] },
  'learner.limit-malformed-default': { probe: status('/my-catalog?_limit=ten'), expected: [422, 200] },
  'learner.default-limit-20': { probe: async (h) => embedded(await h.get('/my-catalog'), 'courses').length, expected: [10, 20] },
  'learner.offset-items': {
    probe: async (h) => embedded(await h.get('/my-catalog?_offset=1'), 'courses')[0]?.id,
    expected: [learnerCourseId(11), learnerCourseId(2)],
  },
  'learner.paging-repeats': {
    probe: async (h) => {
      const seen = (await walk(h, '/my-catalog', 'courses', 10)).map((c) => c.id);
      return seen.length === new Set(seen).size;
    },
    expected: [true, false],
  },
  'learner.next-link-on-last-page': { probe: async (h) => nextHref(await h.get('/my-catalog?_offset=6')) !== undefined, expected: [false, true] },
  'learner.hal-envelope-wrong-key': {
    probe: async (h) => Object.keys((await h.get('/my-catalog')).obj._embedded as object),
    expected: [['courses'], ['items']],
  },
  'learner.category-filter-ignored': { probe: count(`/my-catalog?categoryId=${WARDEN_TRAINING}`), expected: [4, 62] },
  // Compliance: 4 of its own; its children Workplace Safety 5 and Data Privacy 6; below them 3 + 2 + 4.
  'learner.include-subcategories-ignored': { probe: count(`/my-catalog?categoryId=${COMPLIANCE}&includeSubcategories=true`), expected: [24, 4] },
  'learner.include-subcategories-children-only': { probe: count(`/my-catalog?categoryId=${COMPLIANCE}&includeSubcategories=true`), expected: [24, 15] },
  'learner.parent-category-id-missing': {
    probe: async (h) => 'parentCategoryId' in (embedded(await h.get('/my-catalog'), 'courses')[0] ?? {}),
    expected: [true, false],
  },
  'learner.completed-sessions-always': { probe: async (h) => (await sessions(h, '')).some((s) => ended(h, s)), expected: [false, true] },
  'learner.completed-sessions-never': {
    probe: async (h) => (await sessions(h, '?includeCompletedSessions=true')).some((s) => ended(h, s)),
    expected: [true, false],
  },
  'learner.catalog-sessions-ignore-completed-flag': {
    probe: async (h) => (await sessions(h, '?includeCompletedSessions=true')).some((s) => ended(h, s)),
    expected: [true, false],
  },
  'learner.completed-flag-malformed-accepted': { probe: status('/my-catalog-calendar?includeCompletedSessions=yes'), expected: [422, 200] },
  'learner.calendar-count-includes-completed': {
    probe: async (h) => {
      const counts = (await walk(h, '/my-catalog-calendar', 'calendar')).reduce((sum, c) => sum + Number(c.sessionCount), 0);
      return counts === (await sessions(h, '')).length;
    },
    expected: [true, false],
  },
  'learner.session-get-ignores-flag': {
    probe: async (h) => {
      const done = (await sessions(h, '?includeCompletedSessions=true')).find((s) => ended(h, s));
      return (await h.get(`/instructor-led-courses/${String(done?.courseId)}/sessions/${String(done?.id)}`)).status;
    },
    expected: [404, 200],
  },
  'learner.session-of-other-course': {
    probe: async (h) => {
      const [any] = await sessions(h, '?includeCompletedSessions=true');
      const other = (await walk(h, '/my-catalog-calendar', 'calendar')).find((c) => c.courseId !== any?.courseId);
      return (await h.get(`/instructor-led-courses/${String(other?.courseId)}/sessions/${String(any?.id)}?includeCompletedSessions=true`)).status;
    },
    expected: [404, 200],
  },
  'learner.running-sessions-completed': {
    probe: async (h) => (await sessions(h, '')).some((s) => Date.parse(String(s.start)) < h.clock.now().getTime()),
    expected: [true, false],
  },
  'learner.calendar-only-courses-with-sessions': {
    probe: async (h) => (await walk(h, '/my-catalog-calendar?includeCompletedSessions=true', 'calendar')).some((c) => c.sessionCount === 0),
    expected: [true, false],
  },
  'learner.calendar-bounds-of-all-sessions': {
    probe: async (h) => {
      const days3 = h.clock.now().getTime() - 3 * 24 * 3600 * 1000;
      const courses = await walk(h, '/my-catalog-calendar', 'calendar');
      const firsts = await Promise.all(courses.map(async (c) => (await h.get(`/instructor-led-courses/${String(c.courseId)}/calendar`)).obj.firstSessionStart));
      return firsts.some((f) => typeof f === 'string' && Date.parse(f) < days3);
    },
    expected: [false, true],
  },
  'learner.unknown-session-200': {
    probe: async (h) => {
      const [any] = await sessions(h, '');
      return (await h.get(`/instructor-led-courses/${String(any?.courseId)}/sessions/${UNKNOWN}`)).status;
    },
    expected: [404, 200],
  },
  'learner.branding-null': { probe: async (h) => (await h.get('/my-branding')).obj.branding !== null, expected: [true, false] },
  'learner.progress-not-stored': {
    probe: async (h) => {
      await save(h, 55);
      return ((await h.get(`/my-progress/${COURSE}`)).obj.lessons as { progress: number }[])[0]?.progress;
    },
    expected: [55, 0],
  },
  'learner.progress-bounds-unchecked': { probe: async (h) => (await save(h, 101)).status, expected: [422, 200] },
  'player.page-token-unchecked': { probe: async (h) => (await h.raw(`/learn/course-player/${COURSE}`)).status, expected: [401, 200] },
  'player.tags-shown-with-hidetags-false': { probe: config('tagsVisible', '&hideTags=false'), expected: [false, true] },
  'player.tags-hidden-by-default': { probe: config('tagsVisible'), expected: [true, false] },
  'player.branding-ignored': { probe: config('branding'), expected: ['applied', 'ignored'] },
  'player.save-error-swallowed': { probe: config('saveError'), expected: ['dialog', 'swallowed'] },
  'player.error-title-wrong': { probe: config('errorTitle'), expected: ['Player Error', 'Playback error'] },
  'player.saves-after-error': { probe: config('afterError'), expected: ['stop', 'continue'] },
};

async function probed(faults: string[] = []): Promise<Probed> {
  const clock = testClock();
  return Object.assign(await startLearner({ clock: clock.now, faults }), { clock });
}

let reference: Probed;
beforeAll(async () => {
  reference = await probed();
});
afterAll(() => reference.close());

describe('learner faults', () => {
  test('every learner fault has a spot check, is named learner.… or player.…, and none is in listIntapiFaults() yet', () => {
    expect(Object.keys(SPOTS).sort()).toEqual(Object.keys(LEARNER_FAULTS).sort());
    expect(Object.keys(LEARNER_FAULTS).every((f) => f.startsWith('learner.') || f.startsWith('player.'))).toBe(true);
    expect(listIntapiFaults().filter((f) => f.startsWith('learner.') || f.startsWith('player.'))).toEqual([]);
  });

  test('an unknown learner. or player. fault throws', () => {
    expect(() => createReferenceServer({ faults: ['learner.nope'] })).toThrow(/Unknown learner fault/);
    expect(() => createReferenceServer({ faults: ['player.nope'] })).toThrow(/Unknown learner fault/);
  });

  test.each(Object.entries(SPOTS))('%s flips its rule', async (name, spot) => {
    // Probes that move the clock or reissue a token use a fresh reference server.
    const sound = name.includes('token') ? await probed() : reference;
    const faulty = await probed([name]);
    try {
      expect(await spot.probe(sound)).toEqual(spot.expected[0]);
      expect(await spot.probe(faulty)).toEqual(spot.expected[1]);
    } finally {
      await faulty.close();
      if (sound !== reference) await sound.close();
    }
  });
});
