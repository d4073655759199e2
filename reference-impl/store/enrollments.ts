import { Table } from './table.js';

/**
 * Groups, course sessions and enrollment records (issue 8: spec#integration-api-operations-named-by-release-notes,
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

export class EnrollmentBook {
  readonly sessions = new Table<CourseSessionRecord>();
  readonly records = new Table<EnrollmentRecord>();
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
    return this.records.values().find((e) => e.userId.toLowerCase() === u && e.courseId.toLowerCase() === c);
  }

  /** Every enrollment of the user, in creation order. */
  ofUser(userId: string): EnrollmentRecord[] {
    const u = userId.toLowerCase();
    return this.records.values().filter((e) => e.userId.toLowerCase() === u);
  }

  sessionOf(courseId: string, sessionId: string): CourseSessionRecord | undefined {
    const session = this.sessions.get(sessionId);
    return session !== undefined && session.courseId.toLowerCase() === courseId.toLowerCase() ? session : undefined;
  }

  save(record: EnrollmentRecord): void {
    if (!this.records.insert(record)) this.records.update(record);
  }
}
