import { randomBytes } from 'node:crypto';
import type { SeedIdOf } from '../rules/ids.js';
import type { LearnerAccounts } from './credentials.js';
import { type Category, type Course, createLearnerSeed, type Department, type Learner, type LearnerSeed, type Session } from './seed.js';

/**
 * The learner family's records and state (no HTTP): the seed with its indexes (ids looked up
 * case-insensitively), the learners' tokens and their saved lesson progress. Shared by the
 * learner API and the course player.
 */
export interface SavedProgress {
  readonly progress: number;
  /** Epoch milliseconds. */
  readonly updatedAt: number;
}

interface TokenRecord {
  readonly learnerId: string;
  readonly expiresAt: number;
}

export class LearnerStore {
  readonly seed: LearnerSeed;
  readonly #courses = new Map<string, Course>();
  readonly #categories = new Map<string, Category>();
  readonly #children = new Map<string | null, Category[]>();
  readonly #sessionsOf = new Map<string, Session[]>();
  readonly #sessions = new Map<string, Session>();
  readonly #tokens = new Map<string, TokenRecord>();
  readonly #progress = new Map<string, Map<string, SavedProgress>>();

  constructor(now: Date, accounts: LearnerAccounts, seedIdOf?: SeedIdOf) {
    this.seed = createLearnerSeed(now, accounts, seedIdOf);
    for (const course of this.seed.courses) this.#courses.set(course.id, course);
    for (const category of this.seed.categories) {
      this.#categories.set(category.id, category);
      const siblings = this.#children.get(category.parentId) ?? [];
      siblings.push(category);
      this.#children.set(category.parentId, siblings);
    }
    for (const session of this.seed.sessions) {
      this.#sessions.set(session.id, session);
      const list = this.#sessionsOf.get(session.courseId) ?? [];
      list.push(session);
      this.#sessionsOf.set(session.courseId, list);
    }
  }

  course(id: string): Course | undefined {
    return this.#courses.get(id.toLowerCase());
  }

  category(id: string): Category | undefined {
    return this.#categories.get(id.toLowerCase());
  }

  childrenOf(id: string): readonly Category[] {
    return this.#children.get(id.toLowerCase()) ?? [];
  }

  session(id: string): Session | undefined {
    return this.#sessions.get(id.toLowerCase());
  }

  /** The sessions of a course, by start. */
  sessionsOf(courseId: string): readonly Session[] {
    return this.#sessionsOf.get(courseId.toLowerCase()) ?? [];
  }

  department(id: string): Department | undefined {
    return this.seed.departments.find((d) => d.id === id);
  }

  learnerByUsername(username: string): Learner | undefined {
    return this.seed.learners.find((l) => l.username === username);
  }

  /** A new token for the learner, valid `lifetimeMs` from `now`; by default the learner's earlier tokens are revoked. */
  issueToken(learner: Learner, now: number, lifetimeMs: number, revokePrevious: boolean): string {
    if (revokePrevious) {
      for (const [token, record] of this.#tokens) if (record.learnerId === learner.id) this.#tokens.delete(token);
    }
    const token = randomBytes(32).toString('base64url');
    this.#tokens.set(token, { learnerId: learner.id, expiresAt: now + lifetimeMs });
    return token;
  }

  /** The learner of an issued, unrevoked token that has not expired at `now` (or whenever, with `ignoreExpiry`). */
  learnerOfToken(token: string, now: number, ignoreExpiry = false): Learner | undefined {
    const record = this.#tokens.get(token);
    if (record === undefined || (!ignoreExpiry && now >= record.expiresAt)) return undefined;
    return this.seed.learners.find((l) => l.id === record.learnerId);
  }

  progressOf(learner: Learner, lessonId: string): SavedProgress | undefined {
    return this.#progress.get(learner.id)?.get(lessonId);
  }

  saveProgress(learner: Learner, lessonId: string, saved: SavedProgress): void {
    const mine = this.#progress.get(learner.id) ?? new Map<string, SavedProgress>();
    mine.set(lessonId, saved);
    this.#progress.set(learner.id, mine);
  }
}
