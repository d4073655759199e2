import { Table } from '../../store/table.js';
import { noteWrite } from '../../store/writes.js';

/**
 * Groups, course sessions and enrollment records (spec#integration-api-operations-named-by-release-notes,
 * spec#states-and-transitions). The store knows records, not JSON shapes or statuses.
 */

/** A group: manual groups take assigned users; automatic ones are filled by their rule only. */
export interface GroupRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly groupType: 'Manual' | 'Automatic';
  /** Member user ids, in assignment order. */
  readonly userIds: readonly string[];
}

/** A session of an instructor-led course. */
export interface CourseSessionRecord {
  readonly id: string;
  readonly courseId: string;
  readonly name: string;
}

/** An enrollment of a user in a course (one per user and course), with the sessions it holds. */
export interface EnrollmentRecord {
  readonly id: string;
  readonly userId: string;
  readonly courseId: string;
  readonly sessionIds: readonly string[];
  /** public-facts#enumerations-known: 0 NotStarted … 12 ReadyForReview. */
  readonly status: number;
  /** Credits applied to the enrollment; null when none (negative credits are not applied). */
  readonly credits: number | null;
  readonly enrollmentDate: string;
}

/**
 * An automatic enrollment rule (spec#what-the-service-does 5: "an automatic enrollment rule on a user
 * property such as job title"): the users whose property equals the value are enrolled in the course.
 */
export interface EnrollmentRuleRecord {
  readonly id: string;
  readonly property: 'jobTitle';
  readonly value: string;
  readonly courseId: string;
}

export class EnrollmentBook {
  readonly sessions = new Table<CourseSessionRecord>();
  readonly records = new Table<EnrollmentRecord>();
  readonly rules = new Table<EnrollmentRuleRecord>();
  /** Ids (keys) of the enrollments a rule made and nothing else wrote since: the only ones a rule withdraws. */
  readonly #byRule = new Set<string>();
  /** Ids (keys) of the enrollments a rule withdrew: kept in the table, never found or listed again. */
  readonly #withdrawn = new Set<string>();
  /** Courses whose sessions a user may hold several of at once (release 5.127.0). */
  readonly multiSessionCourses = new Set<string>();
  /** Courses deleted: their enrollments are kept but never returned (spec#states-and-transitions). */
  readonly deletedCourses = new Set<string>();

  isDeleted(courseId: string): boolean {
    return this.deletedCourses.has(courseId.toLowerCase());
  }

  isMultiSession(courseId: string): boolean {
    return this.multiSessionCourses.has(courseId.toLowerCase());
  }

  /** The user's enrollment in the course, deleted course or not. */
  find(userId: string, courseId: string): EnrollmentRecord | undefined {
    const [u, c] = [userId.toLowerCase(), courseId.toLowerCase()];
    return this.records.values().find((e) => e.userId.toLowerCase() === u && e.courseId.toLowerCase() === c && !this.#withdrawn.has(e.id.toLowerCase()));
  }

  /** Every enrollment of the user, in creation order. */
  ofUser(userId: string): EnrollmentRecord[] {
    const u = userId.toLowerCase();
    return this.records.values().filter((e) => e.userId.toLowerCase() === u && !this.#withdrawn.has(e.id.toLowerCase()));
  }

  sessionOf(courseId: string, sessionId: string): CourseSessionRecord | undefined {
    const session = this.sessions.get(sessionId);
    return session !== undefined && session.courseId.toLowerCase() === courseId.toLowerCase() ? session : undefined;
  }

  /** Stores an enrollment written through the API: one a rule made becomes the API's (no rule withdraws it). */
  save(record: EnrollmentRecord): void {
    if (!this.records.insert(record)) this.records.update(record);
    this.#byRule.delete(record.id.toLowerCase());
  }

  /** Stores a new enrollment a rule made. */
  saveByRule(record: EnrollmentRecord): void {
    this.save(record);
    this.#byRule.add(record.id.toLowerCase());
  }

  isByRule(enrollmentId: string): boolean {
    return this.#byRule.has(enrollmentId.toLowerCase());
  }

  /** Withdraws an enrollment a rule made (its user stopped matching the rule). */
  withdraw(enrollmentId: string): void {
    noteWrite();
    const key = enrollmentId.toLowerCase();
    this.#byRule.delete(key);
    this.#withdrawn.add(key);
  }
}
