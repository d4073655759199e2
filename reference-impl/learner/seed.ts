import type { LearnerAccounts } from './credentials.js';
import { FIXED_IDS, type SeedIdOf, withSeedIds } from '../rules/ids.js';
import { seededRandom } from '../rules/random.js';

/**
 * The learner family's deterministic seed (docs/decisions/learner/reference-server-and-player.md "Learner reference server and player:
 * choices"): two departments (one branded), two learners, a category tree five levels deep with
 * empty categories and courses at every level, 62 catalog courses (online, instructor-led,
 * curricula) with lessons and tags, and sessions of the instructor-led courses placed around the
 * clock's time at server creation, so that "now" always has completed, running and future ones.
 */
export type CourseType = 'OnlineCourse' | 'InstructorLedCourse' | 'Curriculum';

export interface Category {
  readonly id: string;
  readonly name: string;
  readonly parentId: string | null;
}

export interface Lesson {
  readonly id: string;
  readonly name: string;
  readonly order: number;
}

export interface Course {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly courseType: CourseType;
  readonly categoryId: string | null;
  readonly hasImage: boolean;
  readonly tags: readonly string[];
  readonly lessons: readonly Lesson[];
  /** Place in the catalog (its order). */
  readonly index: number;
}

export interface Session {
  readonly id: string;
  readonly courseId: string;
  readonly name: string;
  /** Epoch milliseconds. */
  readonly start: number;
  readonly end: number;
  readonly location: string | null;
  readonly instructor: string | null;
}

export interface Branding {
  readonly primaryColor: string;
  readonly backgroundColor: string;
}

export interface Department {
  readonly id: string;
  readonly name: string;
  readonly branding: Branding | null;
}

export interface Learner {
  readonly id: string;
  readonly username: string;
  readonly password: string;
  readonly departmentId: string;
  /** 0 for learner a, 1 for b: varies the enrollment statuses. */
  readonly index: number;
}

export interface LearnerSeed {
  readonly departments: readonly Department[];
  readonly learners: readonly Learner[];
  readonly categories: readonly Category[];
  /** In catalog order. */
  readonly courses: readonly Course[];
  /** Ordered by start, then id. */
  readonly sessions: readonly Session[];
}

const guid = (prefix: string, n: number): string => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const learnerCategoryId = (n: number): string => guid('1ca70000', n);
export const learnerCourseId = (n: number): string => guid('c0a50000', n);
const lessonId = (course: number, n: number): string => guid('1e550000', course * 16 + n);
const sessionId = (n: number): string => guid('5e550000', n);

/** The fixed ids a target profile of the bundled server names. */
export const LEARNER_SEED_IDS = {
  learnerA: guid('1ea40000', 0xa),
  learnerB: guid('1ea40000', 0xb),
  /** Learner a's department: branded. */
  departmentA: guid('de9a0000', 0xa),
  /** Learner b's department: no branding. */
  departmentB: guid('de9a0000', 0xb),
  /** A course with three tags and three lessons, for the course player. */
  playerCourse: learnerCourseId(1),
  /** A category whose own courses and descendants' courses differ (five levels below it). */
  categoryWithDescendants: learnerCategoryId(1),
} as const;

/** Branding of learner a's department; learner b's has none. */
export const BRANDING_A: Branding = Object.freeze({ primaryColor: '#0b6e4f', backgroundColor: '#f4efe6' });

interface CategorySpec {
  readonly name: string;
  /** Courses directly in this category. */
  readonly courses: number;
  readonly children?: readonly CategorySpec[];
}

/** Five levels; empty categories at every level (Archive, Technology, Coaching, Data, First Aid, Dashboards, Operators). */
const TREE: readonly CategorySpec[] = [
  {
    name: 'Compliance',
    courses: 4,
    children: [
      {
        name: 'Workplace Safety',
        courses: 5,
        children: [
          {
            name: 'Fire Safety',
            courses: 3,
            children: [{ name: 'Evacuation Drills', courses: 2, children: [{ name: 'Warden Training', courses: 4 }] }],
          },
          { name: 'First Aid', courses: 0 },
        ],
      },
      { name: 'Data Privacy', courses: 6 },
    ],
  },
  {
    name: 'Leadership',
    courses: 5,
    children: [
      { name: 'Coaching', courses: 0 },
      { name: 'Strategy', courses: 3, children: [{ name: 'Planning', courses: 5 }] },
    ],
  },
  {
    name: 'Technology',
    courses: 0,
    children: [
      {
        name: 'Cloud',
        courses: 5,
        children: [{ name: 'Containers', courses: 3, children: [{ name: 'Kubernetes', courses: 4, children: [{ name: 'Operators', courses: 0 }] }] }],
      },
      {
        name: 'Data',
        courses: 0,
        children: [
          {
            name: 'Analytics',
            courses: 3,
            children: [
              { name: 'Dashboards', courses: 0 },
              { name: 'Statistics', courses: 5 },
            ],
          },
        ],
      },
    ],
  },
  { name: 'Archive', courses: 0 },
];
/** Courses at the root of the catalog (no category: `parentCategoryId` null). */
const ROOT_COURSES = 5;

const TAGS = ['mandatory', 'beginner', 'advanced', 'video', 'quiz', 'certificate', 'new'] as const;
const LESSON_TOPICS = ['Introduction', 'Core ideas', 'Practice', 'Case study', 'Assessment'] as const;
const WORD: Readonly<Record<CourseType, string>> = { OnlineCourse: 'Course', InstructorLedCourse: 'Workshop', Curriculum: 'Path' };
const LOCATIONS = ['Room 4.12, Oslo', null, 'Online (video call)', 'Training centre, Lyon', null] as const;
const INSTRUCTORS = ['Ana Sousa', 'Bjørn Øvrebø', null, 'Chen Wei', 'Dana O\u2019Neill'] as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function categoriesOf(): { categories: Category[]; slots: (string | null)[]; names: Map<string | null, string> } {
  const categories: Category[] = [];
  const slots: (string | null)[] = Array.from({ length: ROOT_COURSES }, () => null);
  const names = new Map<string | null, string>([[null, 'Welcome']]);
  const walk = (specs: readonly CategorySpec[], parentId: string | null): void => {
    for (const spec of specs) {
      const id = learnerCategoryId(categories.length + 1);
      categories.push({ id, name: spec.name, parentId });
      names.set(id, spec.name);
      for (let k = 0; k < spec.courses; k++) slots.push(id);
      walk(spec.children ?? [], id);
    }
  };
  walk(TREE, null);
  return { categories, slots, names };
}

/** A fixed shuffle (Fisher-Yates on a seeded PRNG): the catalog order mixes categories. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function courseTypeOf(index: number): CourseType {
  if (index % 3 === 1) return 'InstructorLedCourse';
  return index % 7 === 3 ? 'Curriculum' : 'OnlineCourse';
}

function coursesOf(slots: readonly (string | null)[], names: ReadonlyMap<string | null, string>): Course[] {
  const perName = new Map<string, number>();
  return shuffled(slots, 0x1ea).map((categoryId, i) => {
    const index = i + 1;
    // The player's course (index 1) is an online course with three tags and three lessons.
    const courseType = index === 1 ? 'OnlineCourse' : courseTypeOf(index);
    const base = `${names.get(categoryId) ?? 'Welcome'} ${WORD[courseType]}`;
    const n = (perName.get(base) ?? 0) + 1;
    perName.set(base, n);
    const tagCount = index === 1 ? 3 : index % 4;
    const lessonCount = index === 1 ? 3 : 1 + (index % 4);
    return {
      id: learnerCourseId(index),
      name: `${base} ${n}`,
      description: `${courseType === 'Curriculum' ? 'A learning path' : 'A course'} in ${names.get(categoryId) ?? 'the catalog'} (${n}).`,
      courseType,
      categoryId,
      hasImage: index % 5 !== 0,
      tags: Array.from({ length: tagCount }, (_, k) => TAGS[(index + 2 * k) % TAGS.length] ?? 'new'),
      lessons: Array.from({ length: lessonCount }, (_, k) => ({
        id: lessonId(index, k + 1),
        name: `Lesson ${k + 1}: ${LESSON_TOPICS[(index + k) % LESSON_TOPICS.length] ?? 'Topic'}`,
        order: k + 1,
      })),
      index,
    };
  });
}

/** The order of the sessions: by start, then id. */
const byStart = (a: Session, b: Session): number => a.start - b.start || (a.id < b.id ? -1 : 1);

/**
 * Sessions of the instructor-led courses, by the course's place j among them (j mod 6): none; one
 * completed; completed + running + future; two future; one running; two completed + two future.
 */
function sessionsOf(courses: readonly Course[], now: number): Session[] {
  const sessions: Session[] = [];
  const ilc = courses.filter((c) => c.courseType === 'InstructorLedCourse');
  ilc.forEach((course, j) => {
    const add = (start: number, length: number): void => {
      const n = sessions.length + 1;
      sessions.push({
        id: sessionId(n),
        courseId: course.id,
        name: `${course.name}, session ${sessions.filter((s) => s.courseId === course.id).length + 1}`,
        start,
        end: start + length,
        location: LOCATIONS[n % LOCATIONS.length] ?? null,
        instructor: INSTRUCTORS[n % INSTRUCTORS.length] ?? null,
      });
    };
    const past = (days: number): void => add(now - days * DAY, 3 * HOUR);
    const running = (): void => add(now - 2 * HOUR, 2 * DAY);
    const future = (days: number): void => add(now + days * DAY, 3 * HOUR);
    switch (j % 6) {
      case 1:
        past(10 + j);
        break;
      case 2:
        past(20 + j);
        running();
        future(5 + j);
        break;
      case 3:
        future(3 + j);
        future(30 + j);
        break;
      case 4:
        running();
        break;
      case 5:
        past(40 + j);
        past(2 + j);
        future(7 + j);
        future(60 + j);
        break;
      default:
        break;
    }
  });
  return sessions.sort(byStart);
}

/** The seed, each id as `idOf` gives it (rules/ids.ts seedIdOf: the fixed ids, or ids derived from an id seed). */
export function createLearnerSeed(now: Date, accounts: LearnerAccounts, idOf: SeedIdOf = FIXED_IDS): LearnerSeed {
  const { categories, slots, names } = categoriesOf();
  const courses = coursesOf(slots, names);
  // Whole minutes: the seeded times read well and do not depend on the milliseconds of the start.
  const minute = Math.floor(now.getTime() / MINUTE) * MINUTE;
  const seed: LearnerSeed = {
    departments: [
      { id: LEARNER_SEED_IDS.departmentA, name: 'Northwind Sales', branding: BRANDING_A },
      { id: LEARNER_SEED_IDS.departmentB, name: 'Contoso Field Service', branding: null },
    ],
    learners: [
      { id: LEARNER_SEED_IDS.learnerA, ...accounts.a, departmentId: LEARNER_SEED_IDS.departmentA, index: 0 },
      { id: LEARNER_SEED_IDS.learnerB, ...accounts.b, departmentId: LEARNER_SEED_IDS.departmentB, index: 1 },
    ],
    categories,
    courses,
    sessions: sessionsOf(courses, minute),
  };
  const derived = withSeedIds(seed, idOf);
  return { ...derived, sessions: [...derived.sessions].sort(byStart) };
}
