import type { CourseRecord, QuestionBankRecord, QuestionRecord, ResourceRecord, SubmissionRecord, TemplateRecord, UserRecord } from './records.js';
import { EnrollmentBook, type GroupRecord } from './enrollments.js';
import { SessionTable } from '../../store/sessions.js';
import { Table } from '../../store/table.js';
import { FIXED_IDS, type SeedIdOf } from '../../rules/ids.js';
import { noteWrite } from '../../store/writes.js';

/**
 * The in-memory store: records and the queries across them. It knows nothing of HTTP, JSON
 * shapes or status codes.
 */
export class Store {
  readonly users = new Table<UserRecord>();
  readonly courses = new Table<CourseRecord>();
  readonly resources = new Table<ResourceRecord>();
  readonly templates = new Table<TemplateRecord>();
  readonly submissions = new Table<SubmissionRecord>();
  readonly questionBanks = new Table<QuestionBankRecord>();
  readonly sessions = new SessionTable();
  /** Groups, course sessions and enrollment records (store/enrollments.ts). */
  readonly groups = new Table<GroupRecord>();
  readonly enrollments = new EnrollmentBook();
  /** course ids by user key, in enrollment order */
  readonly #enrollments = new Map<string, Set<string>>();
  /** question tables by bank key; one exists for every bank */
  readonly #questions = new Map<string, Table<QuestionRecord>>();

  /** direct-report counts by manager key, following the users table (IsManager) */
  readonly #reportCounts = new Map<string, number>();

  /**
   * @param principalUserId the user the configured credentials authenticate as
   * @param seedIdOf the id a record seeded later (the course evaluations) gets for its fixed id
   */
  constructor(
    readonly principalUserId: string,
    readonly seedIdOf: SeedIdOf = FIXED_IDS,
  ) {
    const count = (managerId: string | null | undefined, delta: number): void => {
      if (managerId === null || managerId === undefined) return;
      const key = managerId.toLowerCase();
      const next = (this.#reportCounts.get(key) ?? 0) + delta;
      if (next > 0) this.#reportCounts.set(key, next);
      else this.#reportCounts.delete(key);
    };
    this.users.onWrite((_, previous, current) => {
      count(previous?.managerId, -1);
      count(current.managerId, 1);
    });
  }

  /** Whether someone reports to the user (a manager: spec#other-records-named-by-release-notes). */
  hasReports(userId: string): boolean {
    return this.#reportCounts.has(userId.toLowerCase());
  }

  /** The users who report to the user directly, in creation order. */
  reportsOf(managerId: string): UserRecord[] {
    const key = managerId.toLowerCase();
    return this.users.values().filter((user) => user.managerId?.toLowerCase() === key);
  }

  enroll(userId: string, courseId: string): void {
    noteWrite();
    const key = userId.toLowerCase();
    const courses = this.#enrollments.get(key) ?? new Set<string>();
    courses.add(courseId.toLowerCase());
    this.#enrollments.set(key, courses);
  }

  unenroll(userId: string, courseId: string): void {
    noteWrite();
    this.#enrollments.get(userId.toLowerCase())?.delete(courseId.toLowerCase());
  }

  isEnrolled(userId: string, courseId: string): boolean {
    return this.#enrollments.get(userId.toLowerCase())?.has(courseId.toLowerCase()) === true;
  }

  resourcesOfCourse(courseId: string): ResourceRecord[] {
    const key = courseId.toLowerCase();
    return this.resources.values().filter((resource) => resource.courseId.toLowerCase() === key);
  }

  /** Resources of every course the user is enrolled in, in resource creation order. */
  resourcesOfUser(userId: string): ResourceRecord[] {
    const courses = this.#enrollments.get(userId.toLowerCase());
    if (courses === undefined) return [];
    return this.resources.values().filter((resource) => courses.has(resource.courseId.toLowerCase()));
  }

  /** Adds a bank (with an empty question table); false when the id exists. */
  insertQuestionBank(bank: QuestionBankRecord): boolean {
    if (!this.questionBanks.insert(bank)) return false;
    this.#questions.set(bank.id.toLowerCase(), new Table<QuestionRecord>());
    return true;
  }

  /** The questions of a bank; undefined when the bank does not exist. */
  questionsOf(bankId: string): Table<QuestionRecord> | undefined {
    return this.#questions.get(bankId.toLowerCase());
  }
}
