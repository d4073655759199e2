import { seededRandom } from '../rules/random.js';
import type { ResourceRecord, SubmissionRecord, UserRecord } from './store/records.js';
import type { Store } from './store/store.js';

/**
 * Generated records for a store at scale (`createSeededStore({ scale })`, `--scale N`): after the
 * default seed, users, resources and submissions are each filled up to `scale` records.
 * Deterministic (its own PRNG and id scheme, so the default seed is untouched) and varied like the
 * default seed: mixed case, shared prefixes and suffixes, nulls in optional fields, non-ASCII and
 * astral characters, dates over 2015..2026, numbers with and without fractions.
 */
export const MAX_SCALE = 2_000_000;

const FIRST_NAMES = ['Ada', 'ada', 'Grace', 'Zoë', 'Ólafur', 'José', 'Émile', 'Søren', 'Łukasz', 'Ingrid', 'Mei', '李', 'Owen', "O'Neil", 'ANNA', 'anna'];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Müller',
  'Ångström',
  'García',
  'Nguyễn',
  'Smith',
  'smith',
  'SMITH',
  'van der Berg',
  'Østergaard',
  '王',
  'Kowalski',
  "D'Arcy",
];
const DOMAINS = ['example.com', 'Example.COM', 'corp.example.org', 'learn.example.net'];
/** Job titles by the user's number, not drawn (so every other generated value stays as it was); null among them. */
const JOB_TITLES = ['Analyst', 'analyst', 'Senior Analyst', 'Nurse', 'Team Lead', 'Técnico', null];

const RESOURCE_PREFIXES = ['Intro to', 'intro to', 'INTRO TO', 'Advanced', 'Basics of', 'Module 1:', 'Module 2:', 'module 3:', 'Über', 'Élan:', ''];
const RESOURCE_TOPICS = [
  'Safety',
  'Privacy',
  'Leadership',
  'Excel',
  'First Aid',
  'Onboarding',
  'Compliance',
  'Service',
  'Café Culture',
  'Ångström Units',
  'Launch 🚀',
  'zeta',
  '_Underscore',
  '123 Numbers',
];
const RESOURCE_SUFFIXES = ['', '', ' - Part 1', ' - Part 2', ' (Refresher)', ' Quiz', ' quiz', ' Handbook', ' Video', ' – Übung'];
const RESOURCE_DESCRIPTIONS = [
  '',
  'Covers the basics.',
  'Covers the BASICS.',
  'Advanced material for experts',
  'A short quiz',
  'Reading list and notes',
  'Résumé des notions clés',
];
const RESOURCE_FILES = [
  'handbook.pdf',
  'Handbook.PDF',
  'slides.pptx',
  'video.mp4',
  'https://cdn.example.com/files/intro.pdf',
  'quiz.html',
  'notes.txt',
  'übersicht.docx',
];

const TITLES = [
  'AWS Certified Cloud Practitioner',
  'aws summit',
  'Agile Conference',
  'Agile coaching workshop',
  'Public Speaking',
  'public speaking basics',
  'First Aid at Work',
  'Data Science Bootcamp',
  "Director's Forum",
  'Zürich Finance Days',
  'Ärztekongress',
  'Été Summit',
  '日本語 Training',
  'Ωmega Workshop',
  'Rocket 🚀 Launch',
];
const TITLE_SUFFIXES = ['', '', '', ' 2023', ' 2024', ' (online)', ' - Day 2', ' II'];
const COSTS: readonly (string | null)[] = ['$100', '€250.00', 'free', 'FREE', null, '1,200 USD', '£75', null];
const GRADES: readonly (string | null)[] = ['A', 'a', 'B+', 'Pass', 'pass', null, 'Très bien', null];
const VENDORS: readonly (string | null)[] = ['Coursera', 'coursera', 'LinkedIn Learning', 'Udemy', 'Udemy Business', null, 'Zürcher Hochschule', null];
const VENDOR_ADDRESSES: readonly (string | null)[] = ['1 Main St, Springfield', '221B Baker Street, London', null, 'Rämistrasse 101, Zürich', null];
const DESCRIPTIONS: readonly (string | null)[] = [
  'Completed externally',
  'completed externally',
  null,
  'Long description. Long description.',
  null,
  'Notes – see attachment',
];

const FROM = Date.UTC(2015, 0, 1);
const SPAN = Date.UTC(2026, 11, 31) - FROM;
const DAY = 86_400_000;

/** A bijective 32-bit mix (lowbias32): distinct inputs give distinct outputs. */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

const HEX = '0123456789abcdef';

/** The low `digits` hex digits of x. */
function hex(x: number, digits: number): string {
  let out = '';
  for (let shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += HEX.charAt((x >>> shift) & 15);
  return out;
}

/** The i-th generated id of a collection: unique per collection (the first group is a bijection of i,
 * for a given salt). */
function scaledId(collection: number, i: number, salt: number): string {
  const a = mix((i ^ (collection << 28) ^ salt) >>> 0);
  const b = mix(a + 0x9e3779b9);
  const c = mix(b + collection);
  const d = mix(c + 0x85ebca6b);
  return `${hex(a, 8)}-${hex(b, 4)}-4${hex(b >>> 16, 3)}-${HEX.charAt(8 + (c & 3))}${hex(c >>> 8, 3)}-${hex(d, 8)}${hex(c >>> 20, 4)}`;
}

function insertAll<R extends { readonly id: string }>(table: { size: number; insert(record: R): boolean }, scale: number, make: (i: number) => R): void {
  for (let i = 0; table.size < scale; i++) {
    if (!table.insert(make(i))) throw new Error(`scale: generated id collides: ${make(i).id}`);
  }
}

/** Fills the users, resources and submissions up to `scale` each; `salt` varies the generated ids (an id seed's). */
export function addScaledRecords(store: Store, scale: number, salt = 0): void {
  if (!Number.isSafeInteger(scale) || scale < 0 || scale > MAX_SCALE) throw new RangeError(`scale must be an integer from 0 to ${MAX_SCALE}`);
  const random = seededRandom(0x5ca1e);
  const int = (n: number): number => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const orNull = <T>(value: T, probability: number): T | null => (random() < probability ? null : value);

  insertAll<UserRecord>(store.users, scale, (i) => {
    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    const userName = `${firstName}.${lastName}${i % 3 === 0 ? '' : String(i)}`.replace(/ /g, '');
    const jobTitle = JOB_TITLES[i % JOB_TITLES.length] ?? null;
    return { id: scaledId(1, i, salt), userName, firstName, lastName, email: `${userName.toLowerCase()}.${i}@${pick(DOMAINS)}`, managerId: null, jobTitle };
  });

  // A deleted course (seed.ts) gets no new resources.
  const courses = store.courses
    .values()
    .filter((course) => !store.enrollments.isDeleted(course.id))
    .map((course) => course.id);
  insertAll<ResourceRecord>(store.resources, scale, (i) => ({
    id: scaledId(2, i, salt),
    courseId: pick(courses),
    name: `${pick(RESOURCE_PREFIXES)} ${pick(RESOURCE_TOPICS)}${pick(RESOURCE_SUFFIXES)}${random() < 0.5 ? ` ${int(1000)}` : ''}`.trimStart(),
    description: pick(RESOURCE_DESCRIPTIONS),
    file: orNull(pick(RESOURCE_FILES), 0.35),
  }));

  const users = store.users.values();
  const templates = store.templates.values();
  insertAll<SubmissionRecord>(store.submissions, scale, (i) => {
    const completionMs = FROM + int(SPAN / 1000) * 1000 + (random() < 0.2 ? int(1000) : 0);
    const number = (max: number, digits: number): number => {
      const value = random() * max;
      return random() < 0.3 ? Math.floor(value) : Math.round(value * 10 ** digits) / 10 ** digits;
    };
    return {
      id: scaledId(3, i, salt),
      userId: (users[int(users.length)] as UserRecord).id,
      templateId: (templates[int(templates.length)] as { id: string }).id,
      title: `${pick(TITLES)}${pick(TITLE_SUFFIXES)}`,
      completionDate: new Date(completionMs).toISOString(),
      status: orNull(int(3), 0.2),
      cost: pick(COSTS),
      credits: orNull(number(40, 1), 0.3),
      description: pick(DESCRIPTIONS),
      expiryDate: orNull(new Date(completionMs + (180 + int(900)) * DAY).toISOString(), 0.5),
      startDate: orNull(new Date(completionMs - int(60) * DAY).toISOString(), 0.3),
      score: orNull(number(100, 2), 0.3),
      grade: pick(GRADES),
      totalTimeSpent: orNull(number(80, 2), 0.3),
      vendor: pick(VENDORS),
      vendorAddress: pick(VENDOR_ADDRESSES),
    };
  });
}
