/**
 * The records of a profile that the Integration API's checks read, each with the read that finds it
 * (`run --check-profile`): a user through get user, a course through the list of its resources
 * (spec#integration-api-learning-resources-v1-and-v2: 404 for an unknown course), a template through
 * get template. Sessions have no read of their own, and a deleted course answers 404 by design
 * (spec#states-and-transitions): neither is tried.
 */
import type { Profile } from '../../profile/base/types.js';
import type { RecordRead } from '../family.js';

const user = (field: string, id: string): RecordRead => ({ field, id, request: { op: 'users.get', params: { userId: id } } });
const course = (field: string, id: string): RecordRead => ({ field, id, request: { op: 'resources.listForCourse', params: { courseId: id } } });

export function intapiRecordReads(profile: Profile): RecordRead[] {
  const r = profile.records;
  return [
    ...(r.userId ? [user('records.userId', r.userId)] : []),
    ...(r.otherUserId ? [user('records.otherUserId', r.otherUserId)] : []),
    ...(r.courseId ? [course('records.courseId', r.courseId)] : []),
    ...(r.enrollment ? [user('records.enrollment.userId', r.enrollment.userId), course('records.enrollment.courseId', r.enrollment.courseId)] : []),
    ...(r.templateId ? [{ field: 'records.templateId', id: r.templateId, request: { op: 'templates.get', params: { id: r.templateId } } } as const] : []),
    ...(r.managerId ? [user('records.managerId', r.managerId)] : []),
    ...(r.learner ? [user('records.learner.userId', r.learner.userId)] : []),
    ...(r.multiSessionCourse ? [course('records.multiSessionCourse.courseId', r.multiSessionCourse.courseId)] : []),
    ...(r.deletedCourseEnrollment ? [user('records.deletedCourseEnrollment.userId', r.deletedCourseEnrollment.userId)] : []),
    ...(r.ruleEnrollment ? [course('records.ruleEnrollment.courseId', r.ruleEnrollment.courseId)] : []),
  ];
}
