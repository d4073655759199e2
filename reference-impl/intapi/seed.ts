import type { JsonValue } from '../rules/json.js';
import type { SubmissionRecord } from './store/records.js';
import { idSeedSalt, seededIds, seedIdOf, type SeedIdOf, withSeedIds } from '../rules/ids.js';
import { seededRandom } from '../rules/random.js';
import { addScaledRecords } from './scale.js';
import { Store } from './store/store.js';

/**
 * Deterministic seed data (docs/decisions/core/seed-data.md "Seed data", "Fixed seed ids"): the records the reference
 * profile names have fixed ids; every other id comes from the id generator, by default a seeded
 * pseudo-random one, so two seeded stores are identical. With an id seed (`serve --id-seed N`) every
 * id, fixed or generated, is derived from it instead (rules/ids.ts seedIdOf). Values are varied so that filters select
 * proper subsets: mixed case, shared prefixes and suffixes, nulls in optional fields.
 */
export const SEED_IDS = {
  adminUser: '00000000-0000-4000-8000-000000000001',
  users: [
    '00000000-0000-4000-8000-000000000001',
    '00000000-0000-4000-8000-000000000002',
    '00000000-0000-4000-8000-000000000003',
    '00000000-0000-4000-8000-000000000004',
    '00000000-0000-4000-8000-000000000005',
  ],
  courses: [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `00000000-0000-4000-8000-00000000010${n}`),
  activeTemplate: '00000000-0000-4000-8000-000000000201',
  /** A manager with more direct reports than a default page (docs/decisions/intapi/users-and-managers.md "Users and managers"). */
  manager: '00000000-0000-4000-8000-000000000301',
  // Groups, sessions and enrollments (seedEnrollments below).
  manualGroup: '00000000-0000-4000-8000-000000000401',
  automaticGroup: '00000000-0000-4000-8000-000000000402',
  /** Sessions 1..3 of course 4 (multi-session), 4..5 of course 5 (one session at a time). */
  sessions: [1, 2, 3, 4, 5].map((n) => `00000000-0000-4000-8000-00000000050${n}`),
  /** A deleted course with enrollments of users 1 and 3. */
  deletedCourse: '00000000-0000-4000-8000-000000000109',
  /** The automatic enrollment rule (spec#what-the-service-does 5): job title "New Hire" enrolls in
   * course 6, "Onboarding". No seeded user has that job title. */
  enrollmentRule: { id: '00000000-0000-4000-8000-000000000601', property: 'jobTitle', value: 'New Hire', courseId: '00000000-0000-4000-8000-000000000106' },
} as const;

export interface SeedOptions {
  /** Id generator for the records without a fixed id; default `seededIds()` (varied by `idSeed`). */
  readonly ids?: () => string;
  /** Derives every seeded id from this number (`serve --id-seed N`); absent: the fixed ids, which the
   * bundled reference profile names. */
  readonly idSeed?: number;
  /**
   * Records per large collection (users, resources, submissions): after the default seed, each is
   * filled up to this many with generated records (scale.ts). Default 0: the default seed only.
   */
  readonly scale?: number;
}

/** Jeffrey manages Maude and Walter, Walter manages Donny: a chain of managers; the admin has neither. */
const USERS = [
  { userName: 'lpc.admin', firstName: 'Ada', lastName: 'Admin', email: 'lpc.admin@example.com', managerId: null, jobTitle: 'LMS Administrator' },
  { userName: 'jeffrey.lebowski', firstName: 'Jeffrey', lastName: 'Lebowski', email: 'jeffrey@example.com', managerId: null, jobTitle: 'Director' },
  {
    userName: 'maude.lebowski',
    firstName: 'Maude',
    lastName: 'Lebowski',
    email: 'maude@example.com',
    managerId: '00000000-0000-4000-8000-000000000002',
    jobTitle: 'Art Director',
  },
  {
    userName: 'walter.sobchak',
    firstName: 'Walter',
    lastName: 'Sobchak',
    email: 'walter@example.com',
    managerId: '00000000-0000-4000-8000-000000000002',
    jobTitle: 'Security Lead',
  },
  {
    userName: 'donny.kerabatsos',
    firstName: 'Donny',
    lastName: 'Kerabatsos',
    email: 'donny@example.com',
    managerId: '00000000-0000-4000-8000-000000000004',
    jobTitle: null,
  },
];

/**
 * The staff (fixed ids ...0301 to ...0328, after every other seeded record so the seeded id
 * sequence is unchanged): 0301 (a report of Jeffrey) manages 0302, 0303 and 22 others (more than a default page);
 * 0302 manages 0304 and 0305; 0304 manages 0328 (a chain of three managers); 0303 has none.
 */
const STAFF_FIRST = ['Lena', 'lena', 'Marco', 'Nadia', 'Oscar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Émile', 'Zoë'];
const STAFF_LAST = ['Nguyen', 'nguyen', 'Novak', 'Okafor', 'Olsen', 'Park', 'Petrov', "O'Neil", 'Schmidt', 'Smith', 'Smythe'];
/** Job titles of the staff, by number (no draw from the staff's random source, so its names stay as
 * they were): mixed case and shared words for filters, nulls, and none the seeded rule's value. */
const STAFF_JOB_TITLES = ['Sales Associate', 'sales associate', 'Sales Manager', 'Engineer', 'Senior Engineer', 'Safety Officer', 'HR Partner', null];
const staffId = (n: number): string => `00000000-0000-4000-8000-000000000${String(300 + n)}`;
/** The fixed id of the manager of staff n. */
function staffManager(n: number): string {
  if (n === 1) return SEED_IDS.users[1] ?? '';
  if (n === 4 || n === 5) return staffId(2);
  if (n === 28) return staffId(4);
  return staffId(1);
}

/** SEED_IDS with each id as the store holds it (derived from an id seed, or fixed). */
type SeedIds = Ids<typeof SEED_IDS>;
type Ids<T> = T extends string ? string : { readonly [K in keyof T]: Ids<T[K]> };

const COURSES = [
  'Workplace Safety',
  'Data Privacy Essentials',
  'Leadership Foundations',
  'Excel for Analysts',
  'First Aid',
  'Onboarding',
  'Compliance 2024',
  'Customer Service',
];

/** user index -> course indexes: admin in courses 1, 2, 3; user 2 in course 2. */
const ENROLLMENTS: readonly (readonly number[])[] = [[0, 1, 2], [1], [3, 4], [0, 7], []];

/** Resources per course: course 1 has 12, the others 9 each (75 in all). */
const RESOURCES_PER_COURSE = [12, 9, 9, 9, 9, 9, 9, 9];
const RESOURCE_PREFIXES = ['Intro to', 'intro to', 'INTRO TO', 'Advanced', 'Basics of', 'Module 1:', 'Module 2:', 'module 3:'];
const RESOURCE_TOPICS = ['Safety', 'Privacy', 'Leadership', 'Excel', 'First Aid', 'Onboarding', 'Compliance', 'Service'];
const RESOURCE_SUFFIXES = ['', ' - Part 1', ' - Part 2', ' (Refresher)', ' Quiz', ' quiz', ' Handbook', ' Video'];
/** Names that exercise quoting, non-ASCII ordering and astral characters. */
const SPECIAL_RESOURCE_NAMES = ["Manager's Guide", 'Café Übersicht', 'Ångström Units', 'Launch 🚀 Checklist', 'zeta notes', '_Underscore First', '123 Numbers'];
const RESOURCE_DESCRIPTIONS = ['', 'Covers the basics.', 'Covers the BASICS.', 'Advanced material for experts', 'A short quiz', 'Reading list and notes'];
const RESOURCE_FILES = ['handbook.pdf', 'Handbook.PDF', 'slides.pptx', 'video.mp4', 'https://cdn.example.com/files/intro.pdf', 'quiz.html', 'notes.txt'];

const TEMPLATE_KINDS = ['External Course', 'Conference', 'Webinar', 'Workshop', 'Certification', 'Seminar', 'Book Study'];
const TEMPLATE_QUALIFIERS = ['', ' (Internal)', ' - EMEA', ' - APAC', ' 2023', ' 2024', ' archived', ' ARCHIVED', ' v2', ' - Americas'];

const SUBMISSION_TITLES = [
  'AWS Certified Cloud Practitioner',
  'aws summit',
  'Agile Conference 2023',
  'Agile coaching workshop',
  'Public Speaking',
  'public speaking basics',
  'First Aid at Work',
  'Data Science Bootcamp',
  "Director's Forum",
  'Zürich Finance Days',
];
const COSTS: readonly (string | null)[] = ['$100', '€250.00', 'free', 'FREE', null, '1,200 USD'];
const GRADES: readonly (string | null)[] = ['A', 'a', 'B+', 'Pass', 'pass', null];
const VENDORS: readonly (string | null)[] = ['Coursera', 'coursera', 'LinkedIn Learning', 'Udemy', 'Udemy Business', null];
const VENDOR_ADDRESSES: readonly (string | null)[] = ['1 Main St, Springfield', '221B Baker Street, London', null];

const BANK_NAMES = [
  'Safety Quiz Bank',
  'safety basics',
  'Privacy Questions',
  'Leadership Check',
  'Excel Skills',
  'First Aid Quiz',
  'Onboarding FAQ',
  'Compliance 2024',
  'compliance archive',
  '',
];
const QUESTION_TYPES = ['SingleAnswer', 'MultipleAnswer', 'Text'] as const;

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function maybe<T>(random: () => number, value: T, probabilityOfNull = 0.3): T | null {
  return random() < probabilityOfNull ? null : value;
}

/** An instant in the years 2019 to 2024, whole seconds, in canonical form. */
function seedInstant(random: () => number): string {
  const from = Date.UTC(2019, 0, 1);
  const to = Date.UTC(2024, 11, 31);
  return new Date(from + Math.floor((random() * (to - from)) / 1000) * 1000).toISOString();
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function createSeededStore(options: SeedOptions = {}): Store {
  const store = createDefaultStore(options);
  if (options.scale !== undefined && options.scale > 0) addScaledRecords(store, options.scale, idSeedSalt(options.idSeed));
  return store;
}

function createDefaultStore(options: SeedOptions): Store {
  const idOf = seedIdOf(options.idSeed);
  const S: SeedIds = withSeedIds(SEED_IDS, idOf);
  const ids = options.ids ?? seededIds(options.idSeed === undefined ? undefined : idSeedSalt(options.idSeed));
  const random = seededRandom(20240601);
  const store = new Store(S.adminUser, idOf);

  USERS.forEach((user, i) => store.users.insert({ id: S.users[i] ?? ids(), ...user, managerId: user.managerId && idOf(user.managerId) }));
  const staff = seededRandom(5119);
  COURSES.forEach((name, i) => store.courses.insert({ id: S.courses[i] ?? ids(), name }));
  ENROLLMENTS.forEach((courses, u) => {
    for (const c of courses) store.enroll(S.users[u] ?? '', S.courses[c] ?? '');
  });

  let special = 0;
  RESOURCES_PER_COURSE.forEach((count, c) => {
    for (let r = 0; r < count; r++) {
      const useSpecial = (c * 13 + r) % 11 === 5 && special < SPECIAL_RESOURCE_NAMES.length;
      const name = useSpecial
        ? (SPECIAL_RESOURCE_NAMES[special++] ?? '')
        : `${pick(random, RESOURCE_PREFIXES)} ${RESOURCE_TOPICS[c] ?? ''}${pick(random, RESOURCE_SUFFIXES)}`;
      store.resources.insert({
        id: ids(),
        courseId: S.courses[c] ?? '',
        name,
        description: pick(random, RESOURCE_DESCRIPTIONS),
        file: maybe(random, pick(random, RESOURCE_FILES), 0.35),
      });
    }
  });

  store.templates.insert({ id: S.activeTemplate, name: 'External Course', isActive: true });
  for (let t = 1; t < 70; t++) {
    const name = `${TEMPLATE_KINDS[t % TEMPLATE_KINDS.length] ?? ''}${TEMPLATE_QUALIFIERS[Math.floor(t / TEMPLATE_KINDS.length)] ?? ''}`;
    store.templates.insert({ id: ids(), name, isActive: random() < 0.6 });
  }

  const templates = store.templates.values();
  for (let s = 0; s < 30; s++) {
    const completion = seedInstant(random);
    const completionMs = Date.parse(completion);
    const submission: SubmissionRecord = {
      id: ids(),
      userId: S.users[s % 3 === 2 ? 1 : s % 5 === 4 ? 2 : 0] ?? S.adminUser,
      templateId: s === 0 ? S.activeTemplate : pick(random, templates).id,
      title: pick(random, SUBMISSION_TITLES),
      completionDate: completion,
      status: maybe(random, Math.floor(random() * 3), 0.2),
      cost: pick(random, COSTS),
      credits: maybe(random, round(random() * 40, 1)),
      description: maybe(random, s % 4 === 0 ? 'Long description. '.repeat(20).trim() : 'Completed externally', 0.4),
      expiryDate: maybe(random, new Date(completionMs + 365 * 86_400_000).toISOString(), 0.5),
      startDate: maybe(random, new Date(completionMs - Math.floor(random() * 30) * 86_400_000).toISOString()),
      score: maybe(random, round(random() * 100, 2)),
      grade: pick(random, GRADES),
      totalTimeSpent: maybe(random, round(random() * 80, 2)),
      vendor: pick(random, VENDORS),
      vendorAddress: pick(random, VENDOR_ADDRESSES),
    };
    store.submissions.insert(submission);
  }

  for (let b = 0; b < 25; b++) {
    const bank = { id: ids(), name: `${BANK_NAMES[b % BANK_NAMES.length] ?? ''}${b >= BANK_NAMES.length ? ` ${Math.floor(b / BANK_NAMES.length) + 1}` : ''}` };
    store.insertQuestionBank(bank);
    const questions = store.questionsOf(bank.id);
    const count = b % 5; // 0..4 questions
    for (let q = 0; q < count && questions !== undefined; q++) {
      const questionType = pick(random, QUESTION_TYPES);
      const optionCount = questionType === 'Text' ? 0 : 2 + Math.floor(random() * 3);
      const questionOptions: JsonValue = Array.from({ length: optionCount }, (_, o) => ({
        id: ids(),
        name: `Option ${String.fromCharCode(65 + o)}`,
        isCorrect: o === 0 || (questionType === 'MultipleAnswer' && o === 2),
        order: o,
      }));
      questions.insert({
        id: ids(),
        questionType,
        name: `Question ${q + 1} of ${bank.name || 'an unnamed bank'}`,
        correctReply: maybe(random, 'Correct!'),
        incorrectReply: maybe(random, 'Not quite, try again.'),
        attachment: maybe(random, 'https://cdn.example.com/q/diagram.png', 0.6),
        questionOptions,
      });
    }
  }

  for (let n = 1; n <= 28; n++) {
    const firstName = pick(staff, STAFF_FIRST);
    const lastName = pick(staff, STAFF_LAST);
    const userName = `${firstName}.${lastName}${n}`.toLowerCase().replace(/'/g, '');
    store.users.insert({
      id: idOf(staffId(n)),
      userName,
      firstName,
      lastName,
      email: `${userName}@${n % 3 === 0 ? 'Example.com' : 'example.org'}`,
      managerId: idOf(staffManager(n)),
      jobTitle: STAFF_JOB_TITLES[n % STAFF_JOB_TITLES.length] ?? null,
    });
  }
  seedEnrollments(store, S, idOf);
  return store;
}

const GROUP_NAMES = [
  'Sales Team',
  'All Managers',
  'Engineering',
  'engineering leads',
  'New Hires 2024',
  'EMEA Region',
  'APAC Region',
  'Support',
  'support tier 2',
  'Finance',
  'HR',
  'Contractors',
];

/**
 * Groups, sessions and enrollment records, with fixed ids (no draw from the id generator,
 * so the ids of the records seeded before stay as they were). Course 4 is multi-session (3 sessions),
 * course 5 one session at a time (2); course 9 is deleted and keeps enrollments of users 1 and 3.
 * User 3's enrollment in course 4 holds its sessions 1 and 2: what shows, through a read, that a
 * course is multi-session. One automatic enrollment rule, which no seeded user matches.
 */
function seedEnrollments(store: Store, S: SeedIds, idOf: SeedIdOf): void {
  const fixed = (prefix: string, n: number) => idOf(`00000000-0000-4000-8000-${prefix}${n.toString(16).padStart(12 - prefix.length, '0')}`);
  const book = store.enrollments;
  const [course4 = '', course5 = ''] = [S.courses[3], S.courses[4]];
  S.sessions.forEach((id, i) => {
    const courseId = i < 3 ? course4 : course5;
    book.sessions.insert({ id, courseId, name: `Session ${i < 3 ? i + 1 : i - 2}` });
  });
  book.multiSessionCourses.add(course4.toLowerCase());
  book.rules.insert({ ...S.enrollmentRule, property: SEED_IDS.enrollmentRule.property });
  store.courses.insert({ id: S.deletedCourse, name: 'Retired Course' });
  book.deletedCourses.add(S.deletedCourse.toLowerCase());
  const enrollmentDate = '2024-01-15T09:00:00.000Z';
  let n = 0;
  const pairs: [number, string][] = ENROLLMENTS.flatMap((courses, u) => courses.map((c): [number, string] => [u, S.courses[c] ?? '']));
  for (const [u, courseId] of [...pairs, [0, S.deletedCourse] as [number, string], [2, S.deletedCourse] as [number, string]]) {
    const userId = S.users[u] ?? '';
    const sessionIds = u === 2 && courseId === course4 ? S.sessions.slice(0, 2) : [];
    store.enroll(userId, courseId);
    book.save({ id: fixed('0005', ++n), userId, courseId, sessionIds, status: (n * 5) % 13, credits: n % 3 === 0 ? null : n * 1.5, enrollmentDate });
  }
  GROUP_NAMES.forEach((name, g) => {
    const id = g === 0 ? S.manualGroup : g === 1 ? S.automaticGroup : fixed('0004', g + 1);
    const userIds = g === 0 ? [S.users[1] ?? '', S.users[2] ?? ''] : g === 1 ? [S.users[3] ?? ''] : [];
    store.groups.insert({ id, name, description: g % 3 === 0 ? null : `${name} members`, groupType: g % 4 === 1 ? 'Automatic' : 'Manual', userIds });
  });
}
