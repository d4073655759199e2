import { FIXED_IDS, type SeedIdOf } from '../rules/ids.js';
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import { seededRandom } from '../rules/random.js';
import { ENTERPRISE_URN } from './schema.js';
import { ScimStore } from './store.js';

/**
 * Deterministic SCIM seed data: 2,500 users and 50 groups, enough for the count cap (1000) and deep
 * pages to be real. Names and emails mix case and non-ASCII letters; optional attributes are
 * missing on some users (docs/decisions/scim/reference-server.md "SCIM reference server: choices").
 */
export const SCIM_SEED_USERS = 2500;
export const SCIM_SEED_GROUPS = 50;

const hex12 = (n: number): string => n.toString(16).padStart(12, '0');
/** Fixed ids of the seeded records: users `5c100000-0000-4000-8000-<n>`, groups `5c200000-…`. */
export const scimSeedUserId = (i: number): string => `5c100000-0000-4000-8000-${hex12(i + 1)}`;
export const scimSeedGroupId = (i: number): string => `5c200000-0000-4000-8000-${hex12(i + 1)}`;

const GIVEN = ['Alice', 'bob', 'Émile', 'Zoë', 'José', 'Łukasz', 'Søren', 'chloé', 'Ölçer', 'Nguyễn', 'ANNA', 'Ümit', 'Ines', 'Björn', 'Yuki', 'Renée'];
const FAMILY = ['Smith', 'müller', 'García', 'ÅNGSTRÖM', 'Dubois', 'Kowalski', "o'Brien", 'Nakamura', 'Öztürk', 'Nørgaard', 'Lefèvre', 'van Dijk'];
const DOMAINS = ['Example.com', 'example.org', 'ÉCOLE.example.net', 'corp.EXAMPLE.com'];
const TITLES = ['Engineer', 'manager', 'Directrice', 'Analyst', 'Técnico'];
const TYPES = ['Employee', 'Contractor', 'intern'];
const DEPARTMENTS = ['Sales', 'R&D', 'Ventes', 'Support'];
const BASE = Date.UTC(2020, 0, 1);
const HOUR = 3_600_000;

const ascii = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[' ]/g, '');

let template: ScimStore | undefined;

/** A fresh store holding a copy of the seed (generated once per process), each id as `idOf` gives it
 * (rules/ids.ts seedIdOf: the fixed ids, or ids derived from an id seed). */
export function createScimSeed(idOf: SeedIdOf = FIXED_IDS): ScimStore {
  template ??= generate();
  const store = new ScimStore();
  for (const [id, r] of template.users) store.users.set(idOf(id), { ...r, id: idOf(id), data: cloneJson(r.data) });
  for (const [id, r] of template.groups) {
    const data = cloneJson(r.data);
    if (Array.isArray(data.members))
      data.members = data.members.map((m) => (isJsonObject(m) && typeof m.value === 'string' ? { ...m, value: idOf(m.value) } : m));
    store.groups.set(idOf(id), { ...r, id: idOf(id), data });
  }
  return store;
}

function generate(): ScimStore {
  const store = new ScimStore();
  const random = seededRandom(0x5c1e);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  for (let i = 0; i < SCIM_SEED_USERS; i += 1) {
    const given = pick(GIVEN);
    const family = pick(FAMILY);
    const domain = pick(DOMAINS);
    const local = `${ascii(given)}.${ascii(family)}${i.toString().padStart(4, '0')}`;
    // Mixed case in userName: some upper-cased, some lower-cased, the rest as the names are.
    const userName = i % 7 === 0 ? `${local}@${domain}`.toUpperCase() : i % 5 === 0 ? `${local}@${domain}`.toLowerCase() : `${local}@${domain}`;
    const data: JsonObject = { userName, name: { givenName: given, familyName: family, formatted: `${given} ${family}` } };
    if (i % 4 !== 1) data.displayName = `${given} ${family}`;
    if (i % 3 !== 2) data.active = i % 10 !== 3;
    if (i % 6 !== 5) data.userType = pick(TYPES);
    if (i % 5 !== 4) data.title = pick(TITLES);
    if (i % 9 === 0) data.externalId = `EXT-${i}`;
    if (i % 8 === 0) data.preferredLanguage = i % 16 === 0 ? 'fr-FR' : 'en';
    if (i % 11 !== 10) {
      const emails: JsonValue[] = [{ value: `${local}@${domain}`, type: 'work', ...(i % 3 === 0 ? { primary: true } : {}) }];
      if (i % 4 === 0) emails.push({ value: `${ascii(given).toLowerCase()}${i}@Home.example`, type: 'home', ...(i % 12 === 4 ? { primary: true } : {}) });
      if (i % 12 === 4 && isFirstPrimary(emails)) (emails[0] as JsonObject).primary = false;
      data.emails = emails;
    }
    if (i % 13 === 0) data.phoneNumbers = [{ value: `+1-555-${String(1000 + i).slice(-4)}`, type: 'work' }];
    if (i % 10 === 0) data[ENTERPRISE_URN] = { employeeNumber: String(10000 + i), department: pick(DEPARTMENTS) };
    const created = new Date(BASE + i * HOUR).toISOString();
    const lastModified = new Date(BASE + i * HOUR + (i % 3) * 24 * HOUR).toISOString();
    store.users.set(scimSeedUserId(i), { id: scimSeedUserId(i), data, created, lastModified, deleted: false });
  }
  for (let g = 0; g < SCIM_SEED_GROUPS; g += 1) {
    const size = Math.floor(random() * 40);
    const members = new Set<number>();
    for (let k = 0; k < size; k += 1) members.add(Math.floor(random() * SCIM_SEED_USERS));
    const data: JsonObject = { displayName: `${g % 3 === 0 ? 'team' : 'Team'} ${pick(DEPARTMENTS)} ${g}` };
    if (members.size > 0) data.members = [...members].map((i) => ({ value: scimSeedUserId(i), type: 'User' }));
    if (g % 4 === 0) data.externalId = `grp-${g}`;
    const created = new Date(BASE + g * 24 * HOUR).toISOString();
    store.groups.set(scimSeedGroupId(g), { id: scimSeedGroupId(g), data, created, lastModified: created, deleted: false });
  }
  return store;
}

function isFirstPrimary(emails: JsonValue[]): boolean {
  const first = emails[0];
  return typeof first === 'object' && first !== null && !Array.isArray(first) && first.primary === true;
}
